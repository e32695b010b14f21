"""Players, settings and the stored claims of a game over sqlite3: what every variant's claims
share (`service.py` judges and stores a claim through the game's variant, `variants.py`).

The rules are all in the pure modules; this file reads the game's calls and options and commits
what was decided before anyone is told (events are published after COMMIT). Writes take the
station's write lock, so a claim and a draw can never interleave: a claim is judged against
exactly the calls committed before it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import DeckError
from ...manifest import Deck
from ...seventyfive import claims as rules
from ...seventyfive.cards import Card
from ...seventyfive.patterns import PatternShape
from ...values import JsonValue
from ...web import book_store as book
from ...web.db import write_transaction
from ...web.errors import Conflict, NotFound
from .. import games, hooks
from ..decks import get_deck
from ..model import Game
from ..requests import NewPlayer, SettingsChange
from ..settings import JUDGING_KEYS, SETTING_KEYS, pattern_names_of, rules_from
from ..spoken import spoken_pattern_both


def settings_of(conn: sqlite3.Connection, gid: int) -> tuple[dict[str, Any], str | None]:
    row = conn.execute(
        "SELECT settings, maestro FROM claim_settings WHERE game_id = ?", (gid,)
    ).fetchone()
    return (json.loads(row["settings"]), row["maestro"]) if row else ({}, None)


def game_rules(conn: sqlite3.Connection, game: Game) -> rules.Rules:
    """The Rules the game is played with: its mode and free centre plus the claims settings,
    the creation options first, then what the Maestro set since (those win)."""
    stored = settings_of(conn, game.game_id)[0]
    created = {k: v for k, v in game.options.items() if k in SETTING_KEYS}
    return rules_from(game.mode, game.free_centre, created | stored)


def game_card(conn: sqlite3.Connection, game: Game, serial: int) -> tuple[Deck[Any], Any]:
    """The card (or ticket) with this serial in the game's deck; 404 for a serial the deck does
    not have."""
    deck = get_deck(conn, game.deck_id)
    try:
        return deck, deck.card(serial)
    except DeckError:
        raise NotFound(
            "this deck has no card %(serial)s (it has 1-%(n)s)", serial=serial, n=len(deck.cards)
        ) from None


def judge_book(
    conn: sqlite3.Connection,
    game: Game,
    rnd: Any,
    serial: int,
    calls: list[int],
    r: rules.Rules,
    before: int | None = None,
    book: tuple[int, int] | None = None,
) -> rules.Verdict:
    """A claim on card `serial` in a game that needs its pattern on N cards of one book: the
    book the card was sold in (the ledger's sale at a book price; `book` when the claim already
    named it), every card of it judged on `calls` with its own penalties (before claim
    `before`). A card sold alone is refused in words: it has no book to judge."""
    if book is None:
        book = hooks.book_of(conn, game.game_id, rnd.number, serial)
    if book is None:
        raise Conflict(
            "this game needs its pattern on %(n)s cards of one book: card %(serial)s was not "
            "sold in a book",
            n=r.cards_needed,
            serial=serial,
        )
    deck = get_deck(conn, game.deck_id)
    cards = [deck.card(s) for s in range(book[0], book[1] + 1)]
    pens = {c.serial: penalties(conn, rnd.round_id, c.serial, before) for c in cards}
    return rules.judge_book(cards, serial, calls, r, pens)


def penalties(
    conn: sqlite3.Connection, round_id: int, serial: int, before: int | None = None
) -> list[rules.Penalty]:
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


@dataclass(frozen=True)
class PenaltyShown(JsonValue):
    """A false 75-ball claim's penalty as the claims table keeps it and the screens show it: the
    line named, its squares (row, column), their numbers and the call after which they count."""

    line: str
    cells: tuple[tuple[int, int], ...]
    numbers: tuple[int, ...]
    after_call: int

    @classmethod
    def of(cls, card: Card, p: rules.Penalty) -> PenaltyShown:
        numbers = sorted(n for r, c in p.cells if (n := card.number_at(r, c)) is not None)
        return cls(p.figure, tuple(sorted(p.cells)), tuple(numbers), p.after_call)


@dataclass(frozen=True)
class Seated(JsonValue):
    """A player seated at a game's table."""

    game_id: int
    name: str
    team: str | None
    seat: int


@dataclass(frozen=True)
class RulesShown(JsonValue):
    """A 75-ball game's rules as the API and the scoreboard show them."""

    mode: str
    free_centre: bool
    target: int
    completing_call_only: bool
    winner_becomes_maestro: bool
    pattern: str | None
    mask: str | None
    #: the pattern as the screens draw it and the phones judge it (its forms, or its rule)
    shape: PatternShape | None = None
    #: the room's announcement of the pattern, in both languages (spoken.spoken_pattern)
    spoken: dict[str, str] | None = None
    #: a program's own pattern's names ({"en", "es"}), which the kit's names do not know
    names: dict[str, str] | None = None

    @classmethod
    def of(cls, r: rules.Rules, own: Mapping[str, Mapping[str, str]] | None = None) -> RulesShown:
        """`own`: the names of a program's own patterns the game carries (`pattern_names_of`)."""
        shape = None if r.pattern is None else PatternShape.of(r.pattern)
        # a pattern the book makes by a rule travels as its shape: a triple bingo's 220 masks
        # would go to every phone in every snapshot and scoreboard
        by_rule = shape is not None and bool(shape.lines or shape.pick)
        return cls(
            r.mode,
            r.free_centre,
            r.target,
            r.completing_call_only,
            r.winner_becomes_maestro,
            None if r.pattern is None else r.pattern.name,
            None if r.pattern is None or by_rule else r.pattern.mask,
            shape,
            None if r.pattern is None else spoken_pattern_both(r.pattern.name, own),
            None if r.pattern is None else _own_names(r.pattern.name, own),
        )


def _own_names(key: str, own: Mapping[str, Mapping[str, str]] | None) -> dict[str, str] | None:
    found = (own or {}).get(key)
    return None if found is None else dict(found)


@dataclass(frozen=True)
class SettingsChanged(JsonValue):
    """The claims settings a game plays by now."""

    game_id: int
    settings: RulesShown


@dataclass(frozen=True)
class PlayerSeat(JsonValue):
    """A player at the table: their name, their team (None when playing alone) and their seat."""

    name: str
    team: str | None
    seat: int


def players(conn: sqlite3.Connection, gid: int) -> list[PlayerSeat]:
    """The players at the table now, in seat order (those who left are not)."""
    rows = conn.execute(
        "SELECT name, team, seat FROM players WHERE game_id = ? AND left_at IS NULL ORDER BY seat",
        (gid,),
    ).fetchall()
    return [PlayerSeat(r["name"], r["team"], r["seat"]) for r in rows]


def add_player(conn: sqlite3.Connection, game_id: int, new: NewPlayer) -> Seated:
    """Seat a player (clockwise, after the last one), optionally in a team and as the Maestro."""
    with write_transaction(conn):
        return seat_player(conn, active_game(conn, game_id), new)


def seat_player(conn: sqlite3.Connection, game: Game, new: NewPlayer) -> Seated:
    """`add_player` within the caller's transaction (a claim that names a new player seats
    them with it, or not at all)."""
    name, team, maestro = new.name, new.team, new.maestro
    gid = game.game_id
    there = conn.execute(
        "SELECT left_at FROM players WHERE game_id = ? AND name = ?", (gid, name)
    ).fetchone()
    if there is not None and there["left_at"] is None:
        raise Conflict("%(name)s is already playing in this game", name=name)
    seat = conn.execute(
        "SELECT COALESCE(MAX(seat), 0) + 1 FROM players WHERE game_id = ?", (gid,)
    ).fetchone()[0]
    if there is not None:  # back at the table, with the points won before
        conn.execute(
            "UPDATE players SET left_at = NULL, seat = ?, team = ? WHERE game_id = ? AND name = ?",
            (seat, team, gid, name),
        )
    else:
        conn.execute(
            "INSERT INTO players (game_id, name, team, seat) VALUES (?, ?, ?, ?)",
            (gid, name, team, seat),
        )
    current = settings_of(conn, gid)[1]
    unsaid = maestro is None and current is None and game.mode == rules.PUNTOS
    if maestro or (unsaid and seat == 1):
        save_settings(conn, gid, maestro=name)
    book.append(conn, "player", {"game_id": gid, "seat": seat}, {"player": name, "team": team})
    return Seated(gid, name, team, seat)


def save_settings(
    conn: sqlite3.Connection, gid: int, settings: dict[str, Any] | None = None, maestro: Any = ...
) -> None:
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
    now = old if settings is None else settings
    chosen = old_maestro if maestro is ... else maestro
    book.append(conn, "settings", {"game_id": gid, "settings": now}, {"maestro": chosen})


def active_game(conn: sqlite3.Connection, game_id: int) -> Game:
    game = games.get_game(conn, game_id)
    if not game.active:
        raise Conflict("game %(n)s has ended", n=game.game_id)
    return game


def update_settings(
    conn: sqlite3.Connection, game_id: int, change: SettingsChange
) -> SettingsChanged:
    """Change the target, the pattern or the hall rules. The pattern and the hall rules change
    only before the round's first call, so no claim is judged under two sets of rules."""
    data = change.settings
    with write_transaction(conn):
        game = active_game(conn, game_id)
        gid = game.game_id
        stored, maestro = settings_of(conn, gid)
        new = stored | dict(data)
        if data.get("pattern") not in (None, "custom") and "mask" not in data:
            new.pop("mask", None)
        if change.maestro_given:
            maestro = change.maestro
        created = {k: v for k, v in game.options.items() if k in SETTING_KEYS}
        before, after = created | stored, created | new  # what the Maestro set wins
        trial = rules_from(game.mode, game.free_centre, after)
        changes_play = any(before.get(k) != after.get(k) for k in JUDGING_KEYS)
        if changes_play and games.called_balls(conn, gid):
            raise Conflict(
                "the pattern and the hall rules change between rounds, before the first call"
            )
        save_settings(conn, gid, new, maestro)
    return SettingsChanged(gid, RulesShown.of(trial, pattern_names_of(after.get("pattern_names"))))


def seated(conn: sqlite3.Connection, gid: int) -> tuple[list[str], dict[str, str | None]]:
    """The names at the table in seating order, and the team of everyone who played (a player
    taken off the table keeps the side their points were won for)."""
    rows = conn.execute("SELECT name, team FROM players WHERE game_id = ?", (gid,)).fetchall()
    return [p.name for p in players(conn, gid)], {r["name"]: r["team"] for r in rows}
