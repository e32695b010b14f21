"""Claims, players and awards over sqlite3: the adapter between the station and `bingo_hall.claims`.

The rules are all in the pure module; this file reads the game's calls and options, asks it, and
commits what it decided before anyone is told (events are published after COMMIT). Writes take
the station's write lock, so a claim and a draw can never interleave: a claim is judged against
exactly the calls committed before it.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from ... import claims as rules
from ...cards import LINE_CELLS, LINE_NAMES, Card
from ...errors import DeckError
from ...manifest import Deck
from ...web.db import transaction
from ...web.errors import Conflict, NotFound, RequestError
from ...web.inputs import is_ascii_number
from ...web.instance import hall
from .. import games
from ..decks import get_deck
from ..model import Game
from ..settings import JUDGING_KEYS, SETTING_KEYS, check_keys, rules_from

MAX_NAME = 40


def settings_of(conn: sqlite3.Connection, gid: int) -> tuple[dict[str, Any], str | None]:
    row = conn.execute(
        "SELECT settings, maestro FROM claim_settings WHERE game_id = ?", (gid,)
    ).fetchone()
    return (json.loads(row["settings"]), row["maestro"]) if row else ({}, None)


def _merged(game: Game, stored: dict[str, Any]) -> dict[str, Any]:
    """Creation options first, then what the Maestro set since (those win)."""
    return {k: v for k, v in game.options.items() if k in SETTING_KEYS} | stored


def game_rules(conn: sqlite3.Connection, game: Game) -> rules.Rules:
    """The Rules the game is played with: its mode and free centre plus the claims settings."""
    stored = settings_of(conn, game.game_id)[0]
    return rules_from(game.mode, game.free_centre, _merged(game, stored))


def game_card(conn: sqlite3.Connection, game: Game, serial: Any) -> tuple[Deck, Card]:
    """The card with this serial in the game's deck; 404 for a serial the deck does not have."""
    deck = get_deck(conn, game.deck_id)
    if not (isinstance(serial, str) and is_ascii_number(serial.strip())) and (
        isinstance(serial, bool) or not isinstance(serial, int)
    ):
        raise RequestError("the serial is the whole number printed on the card")
    serial = int(serial)
    try:
        return deck, deck.card(serial)  # type: ignore[return-value]  # a 75-ball game's deck holds Cards (Deck is not generic yet)
    except DeckError:
        raise NotFound(
            "this deck has no card %(serial)s (it has 1-%(n)s)", serial=serial, n=len(deck.cards)
        ) from None


def penalties(conn: sqlite3.Connection, round_id: int, serial: int, before: int | None = None):
    sql = "SELECT penalty FROM claims WHERE round_id = ? AND serial = ? AND penalty IS NOT NULL"
    args: list[Any] = [round_id, serial]
    if before is not None:
        sql += " AND id < ?"
        args.append(before)
    out = []
    for row in conn.execute(sql, args):
        p = json.loads(row["penalty"])
        cells = frozenset((r, c) for r, c in p["cells"])
        out.append(rules.Penalty(p["line"], cells, p["after_call"]))
    return out


def verdict_json(card: Card, verdict: rules.Verdict, r: rules.Rules) -> dict[str, Any]:
    """The verdict as the API and pages show it, with the card as printed (None = FREE), its
    margin totals, the squares of the winning figures, and, without a bingo, the figure the
    card is nearest to and the numbers it still lacks ("No es bingo: falta el 44")."""
    cells = sorted({cell for f in verdict.winning for cell in _figure_cells(f.name, r)})
    missing = None
    if not verdict.bingo:
        name, numbers = rules.nearest_figure(card, verdict.covered, r)
        missing = {"line": name, "numbers": list(numbers)}
    return {
        **verdict.to_dict(),
        "rows": [list(row) for row in card.rows],
        "totals": {name: line.total for name, line in card.lines_by_name.items()},
        "winning_cells": [list(cell) for cell in cells],
        "missing": missing,
    }


def _figure_cells(name: str, r: rules.Rules):
    return r.pattern.cells if r.pattern is not None else LINE_CELLS[name]


def penalty_json(card: Card, p: rules.Penalty) -> dict[str, Any]:
    numbers = sorted(n for r, c in p.cells if (n := card.number_at(r, c)) is not None)
    cells = [[r, c] for r, c in sorted(p.cells)]
    return {"line": p.figure, "cells": cells, "numbers": numbers, "after_call": p.after_call}


@dataclass(frozen=True)
class CardCheck:
    """A card judged against the calls of its game's current round (nothing written)."""

    game_id: int
    round: int
    card: Card
    verdict: rules.Verdict
    judged_by: rules.Rules

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "round": self.round,
            **verdict_json(self.card, self.verdict, self.judged_by),
        }


def check(conn: sqlite3.Connection, game_id: int, serial: Any) -> CardCheck:
    """The verdict on a card now, as the Maestro would give it (nothing is written)."""
    game = games.get_game(conn, game_id)
    card = game_card(conn, game, serial)[1]
    rnd = games.current_round(conn, game.game_id)
    calls = games.called_balls(conn, game.game_id)
    r = game_rules(conn, game)
    verdict = rules.judge(card, calls, r, penalties(conn, rnd.round_id, card.serial))
    return CardCheck(game.game_id, rnd.number, card, verdict, r)


def players(conn: sqlite3.Connection, gid: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT name, team, seat FROM players WHERE game_id = ? ORDER BY seat", (gid,)
    ).fetchall()
    return [{"name": r["name"], "team": r["team"], "seat": r["seat"]} for r in rows]


def _name(value: Any, required: bool = True) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise RequestError("a name is needed")
        return None
    if not isinstance(value, str) or len(value.strip()) > MAX_NAME:
        raise RequestError("a name is text of at most %(n)s characters", n=MAX_NAME)
    return " ".join(value.split())


def add_player(conn: sqlite3.Connection, game_id: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Seat a player (clockwise, after the last one), optionally in a team and as the Maestro."""
    name = _name(data.get("name"))
    team = _name(data.get("team"), required=False)
    maestro = data.get("maestro", False)
    if not isinstance(maestro, bool):
        raise RequestError("maestro must be true or false")
    with hall().write_lock:
        with transaction(conn):
            game = active_game(conn, game_id)
            gid = game.game_id
            if conn.execute(
                "SELECT 1 FROM players WHERE game_id = ? AND name = ?", (gid, name)
            ).fetchone():
                raise Conflict("%(name)s is already playing in this game", name=name)
            seat = conn.execute(
                "SELECT COALESCE(MAX(seat), 0) + 1 FROM players WHERE game_id = ?", (gid,)
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO players (game_id, name, team, seat) VALUES (?, ?, ?, ?)",
                (gid, name, team, seat),
            )
            current = settings_of(conn, gid)[1]
            if maestro or (current is None and game.mode == rules.PUNTOS and seat == 1):
                save_settings(conn, gid, maestro=name)
    return {"game_id": gid, "name": name, "team": team, "seat": seat}


def save_settings(conn, gid: int, settings: dict | None = None, maestro: Any = ...) -> None:
    old, old_maestro = settings_of(conn, gid)
    conn.execute(
        "INSERT INTO claim_settings (game_id, settings, maestro) VALUES (?, ?, ?) "
        "ON CONFLICT(game_id) DO UPDATE SET "
        "settings = excluded.settings, maestro = excluded.maestro",
        (
            gid,
            json.dumps(old if settings is None else settings),
            old_maestro if maestro is ... else maestro,
        ),
    )


def active_game(conn: sqlite3.Connection, game_id: int) -> Game:
    game = games.get_game(conn, game_id)
    if not game.active:
        raise Conflict("game %(n)s has ended", n=game.game_id)
    return game


def update_settings(conn: sqlite3.Connection, game_id: Any, data: dict[str, Any]) -> dict:
    """Change the target, the pattern or the hall rules. The pattern and the hall rules change
    only before the round's first call, so no claim is judged under two sets of rules."""
    check_keys(data, also=("maestro",))
    with hall().write_lock:
        with transaction(conn):
            game = active_game(conn, game_id)
            gid = game.game_id
            stored, maestro = settings_of(conn, gid)
            new = stored | {k: v for k, v in data.items() if k != "maestro"}
            if data.get("pattern") not in (None, "custom") and "mask" not in data:
                new.pop("mask", None)
            if "maestro" in data:
                maestro = _name(data["maestro"], required=False)
            before, after = _merged(game, stored), _merged(game, new)
            trial = rules_from(game.mode, game.free_centre, after)
            changes_play = any(before.get(k) != after.get(k) for k in JUDGING_KEYS)
            if changes_play and games.called_balls(conn, gid):
                raise Conflict(
                    "the pattern and the hall rules change between rounds, before the first call"
                )
            save_settings(conn, gid, new, maestro)
    return {"game_id": gid, "settings": rules_json(trial)}


def rules_json(r: rules.Rules) -> dict[str, Any]:
    return {
        "mode": r.mode,
        "free_centre": r.free_centre,
        "target": r.target,
        "completing_call_only": r.completing_call_only,
        "winner_becomes_maestro": r.winner_becomes_maestro,
        "pattern": None if r.pattern is None else r.pattern.name,
        "mask": None if r.pattern is None else r.pattern.mask,
    }


def seated(conn: sqlite3.Connection, gid: int) -> tuple[list[str], dict[str, str | None]]:
    seated = players(conn, gid)
    return [p["name"] for p in seated], {p["name"]: p["team"] for p in seated}


def make_claim(conn: sqlite3.Connection, game_id: Any, data: dict[str, Any]) -> dict[str, Any]:
    """A BINGO: judged against the calls committed so far, stored with its verdict and, if it is
    false, the penalty (the markers of the claimed line come off)."""
    player = _name(data.get("player"), required=False)
    line = data.get("line")
    if line is not None and (not isinstance(line, str) or line.upper() not in LINE_NAMES):
        raise RequestError("line is one of R1-R5, B, I, N, G, O, D1, D2")
    with hall().write_lock:
        with transaction(conn):
            game = active_game(conn, game_id)
            gid = game.game_id
            card = game_card(conn, game, data.get("serial"))[1]
            r = game_rules(conn, game)
            names = seated(conn, gid)[0]
            maestro = settings_of(conn, gid)[1]
            if r.mode == rules.PUNTOS and player is None:
                raise RequestError("in Bingo de Puntos a claim names the player who shouts")
            if r.mode == rules.PUNTOS and player not in names:
                raise RequestError(
                    "%(name)s is not playing in this game; add the player first", name=player
                )
            if player is not None and player == maestro:
                raise Conflict("%(name)s is the Maestro this round and does not play", name=player)
            rnd = games.current_round(conn, gid)
            if conn.execute("SELECT 1 FROM awards WHERE round_id = ?", (rnd.round_id,)).fetchone():
                raise Conflict(
                    "round %(n)s is already awarded; press Next round to play on", n=rnd.number
                )
            calls = games.called_balls(conn, gid)
            pens = penalties(conn, rnd.round_id, card.serial)
            verdict = rules.judge(card, calls, r, pens)
            penalty = None
            if not verdict.bingo:
                penalty = penalty_json(card, rules.penalty_for(card, calls, r, pens, line))
            cur = conn.execute(
                "INSERT INTO claims (game_id, round_id, serial, player, line, at_call, calls, "
                "valid, verdict, penalty) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    gid,
                    rnd.round_id,
                    card.serial,
                    player,
                    line.upper() if line else None,
                    len(calls),
                    json.dumps(calls),
                    int(verdict.bingo),
                    json.dumps(verdict_json(card, verdict, r)),
                    None if penalty is None else json.dumps(penalty),
                ),
            )
            same_call = conn.execute(
                "SELECT COUNT(*) FROM claims WHERE round_id = ? AND at_call = ?",
                (rnd.round_id, len(calls)),
            ).fetchone()[0]
        response = {
            "claim_id": cur.lastrowid,
            "game_id": gid,
            "round": rnd.number,
            "serial": card.serial,
            "player": player,
            "valid": verdict.bingo,
            "verdict": verdict_json(card, verdict, r),
            "penalty": penalty,
            "simultaneous": same_call,
        }
    return response
