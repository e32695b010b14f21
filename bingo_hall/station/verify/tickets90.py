"""Claims in a 90-ball game (issue 17): a ticket checked against the calls, claims of the prize
being played, and awarding it so the game moves to the next prize (docs/claims.md, "90 balls").

The rules are the pure `bingo_hall.ticket_claims`: a row (L1 top, L2, L3 bottom) is complete when
its five numbers are called; the prizes come in the game's sequence, línea then bingo (Spanish
halls) or one line, two lines, full house (UK clubs). This module keeps them in SQLite:

* a claim is stored in `claims` (its `line` column holds the prize claimed) with its verdict;
* an award goes to `prize_awards`: every valid claim of the prize made on the earliest call on
  which one was made shares it (claims on the same call were simultaneous). Then the next prize
  of the sequence is played. A round ends with its last prize; the Maestro then starts the next
  round (whose prizes start again) or ends the game.

A false claim has no penalty here: the 1933 rules' penalty (the markers of the line come off) is a
75-ball rule; in the 90-ball game the call simply goes on.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ...manifest import Deck
from ...ticket_claims import (
    PRIZES,
    ROWS_NEEDED,
    Prize,
    PrizeMode,
    check_ticket_claim,
    next_prize,
)
from ...tickets import ROW_NAMES, Ticket
from ...web.db import transaction
from ...web.errors import Conflict, RequestError
from ...web.instance import hall
from .. import games
from ..decks import get_deck
from ..model import Game
from ..round_load import LoadedRound, load_round
from ..spoken import call_label
from . import store
from .awards import still_standing


def is_ninety(conn: sqlite3.Connection, game_id: int) -> bool:
    """Whether the game plays strips (90 balls): its claims go through this module."""
    return games.get_game(conn, game_id).balls == 90


def _mode(game: Game) -> PrizeMode:
    return game.prizes or PrizeMode.SPANISH


def awarded(conn: sqlite3.Connection, round_id: int) -> list[dict[str, Any]]:
    """The round's awarded prizes in order, each with its winners."""
    out: list[dict[str, Any]] = []
    for row in conn.execute(
        "SELECT prize, claim_id, serial, player, at_call, made FROM prize_awards "
        "WHERE round_id = ? ORDER BY id",
        (round_id,),
    ):
        if not out or out[-1]["prize"] != row["prize"]:
            out.append(
                {"prize": row["prize"], "at_call": row["at_call"], "at": row["made"], "winners": []}
            )
        out[-1]["winners"].append(
            {"claim_id": row["claim_id"], "serial": row["serial"], "player": row["player"]}
        )
    return out


def current_prize(conn: sqlite3.Connection, game: Game, round_id: int) -> Prize | None:
    """The prize being played now; None once the round's last prize is awarded."""
    done = [Prize(a["prize"]) for a in awarded(conn, round_id)]
    return next_prize(_mode(game), done)


def prize_state(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """The `prizes` of a 90-ball game's snapshot: the sequence, what is awarded, what is next."""
    game = games.get_game(conn, game_id)
    rnd = games.current_round(conn, game.game_id)
    done = awarded(conn, rnd.round_id)
    mode = _mode(game)
    return {
        "mode": str(mode),
        "sequence": [str(p) for p in PRIZES[mode]],
        "awarded": done,
        "current": next_prize(mode, [Prize(a["prize"]) for a in done]),
        "claims": claims_this_round(conn, game.game_id),
    }


def snapshot_prizes(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """Snapshot extender: `prizes` for a 90-ball game, None for a 75-ball one."""
    game = games.get_game(conn, game_id)
    return {"prizes": prize_state(conn, game_id) if game.balls == 90 else None}


def verdict_json(ticket: Ticket, calls: list[int], prize: Prize, balls: int = 90) -> dict:
    """The verdict as the API and the pages show it: the ticket as printed (None = blank), and
    each row named (L1 top) with its numbers, total, whether it is complete and whether the last
    call completed it."""
    v = check_ticket_claim(ticket, calls, prize)
    called = set(calls)
    last = calls[-1] if calls else None
    return {
        "game": 90,
        "serial": ticket.serial,
        "strip": ticket.strip,
        "prize": str(prize),
        "kind": str(prize),  # the record and scoreboard read `kind` from every stored verdict
        "points": None,
        "valid": v.valid,
        "rows_needed": ROWS_NEEDED[prize],
        "complete_rows": [ROW_NAMES[r] for r in v.complete_rows],
        "winning": [ROW_NAMES[r] for r in v.complete_rows] if v.valid else [],
        "last_call_rows": [ROW_NAMES[r] for r in v.last_call_rows],
        "lines": [
            {
                "name": ROW_NAMES[r],
                "numbers": list(row),
                "total": sum(row),
                "complete": r in v.complete_rows,
                "completed_by_last_call": r in v.last_call_rows,
                "missing": list(v.missing[r]),
            }
            for r, row in enumerate(ticket.rows)
        ],
        "calls": len(calls),
        "last_call": last,
        "last_call_label": None if last is None else call_label(last, balls),
        "marked": sorted(n for n in ticket.numbers if n in called),
        "rows": [list(row) for row in ticket.grid],
    }


def _judged_prize(conn: sqlite3.Connection, game: Game, round_id: int) -> Prize:
    """The prize a check or claim is judged for: the one being played, else the round's last."""
    prize = current_prize(conn, game, round_id)
    return prize if prize is not None else PRIZES[_mode(game)][-1]


def check(conn: sqlite3.Connection, game_id: int, serial: Any) -> tuple[Ticket, dict[str, Any]]:
    """The verdict on a ticket for the prize being played (nothing is written)."""
    loaded = load_round(conn, game_id)
    ticket = store.game_card(conn, loaded.game, serial)[1]
    # a 90-ball deck holds Tickets; Deck is not generic over its ticket type yet (issue 25)
    return ticket, judged(conn, loaded, ticket)  # type: ignore[arg-type,return-value]


def judged(conn: sqlite3.Connection, loaded: LoadedRound, ticket: Ticket) -> dict[str, Any]:
    """`ticket` judged for the prize being played in the round `loaded` (one more query: the
    round's awarded prizes)."""
    prize = _judged_prize(conn, loaded.game, loaded.round.round_id)
    v = verdict_json(ticket, loaded.calls, prize)
    return {"game_id": loaded.game.game_id, "round": loaded.state.round, **v}


def _playing(conn: sqlite3.Connection, game_id: Any, data: dict[str, Any]):
    """(game, round, prize being played) for a claim or an award: 409 once the round's last
    prize is awarded, or when the request names another prize (a doubled click must not act on
    the next one)."""
    loaded = load_round(conn, game_id)
    game = store.active(loaded.game)
    rnd = loaded.round
    prize = current_prize(conn, game, rnd.round_id)
    if prize is None:
        raise Conflict("every prize of this round has been awarded; start the next round")
    asked = check_prize_name(data.get("prize"))
    if asked is not None and asked != prize:
        raise Conflict(
            "%(asked)s is not the prize being played (it is %(prize)s)",
            asked=str(asked),
            prize=str(prize),
        )
    return game, rnd, prize, loaded.calls


def make_claim(conn: sqlite3.Connection, game_id: Any, data: dict[str, Any]) -> dict[str, Any]:
    """A shout for the prize being played, judged against the calls committed so far and
    stored with its verdict."""
    player = store._name(data.get("player"), required=False)
    with hall().write_lock:
        with transaction(conn):
            game, rnd, prize, calls = _playing(conn, game_id, data)
            gid = game.game_id
            ticket = store.game_card(conn, game, data.get("serial"))[1]
            verdict = verdict_json(ticket, calls, prize)  # type: ignore[arg-type]
            cur = conn.execute(
                "INSERT INTO claims (game_id, round_id, serial, player, line, at_call, calls, "
                "valid, verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    gid,
                    rnd.round_id,
                    ticket.serial,
                    player,
                    str(prize),
                    len(calls),
                    json.dumps(calls),
                    int(verdict["valid"]),
                    json.dumps(verdict),
                ),
            )
            same_call = conn.execute(
                "SELECT COUNT(*) FROM claims WHERE round_id = ? AND at_call = ? AND line = ?",
                (rnd.round_id, len(calls), str(prize)),
            ).fetchone()[0]
    return {
        "claim_id": cur.lastrowid,
        "game_id": gid,
        "round": rnd.number,
        "serial": ticket.serial,
        "player": player,
        "prize": str(prize),
        "valid": verdict["valid"],
        "verdict": verdict,
        "penalty": None,
        "simultaneous": same_call,
    }


def _standing_claims(conn, deck: Deck, round_id: int, prize: Prize, live: list[int]) -> list:
    """The round's valid claims of `prize` whose calls are still the start of the live calls,
    re-judged on the calls each one saw."""
    out = []
    for row in conn.execute(
        "SELECT id, serial, player, at_call, calls FROM claims "
        "WHERE round_id = ? AND line = ? AND valid = 1 ORDER BY id",
        (round_id, str(prize)),
    ):
        calls = json.loads(row["calls"])
        ticket = deck.card(row["serial"])
        judged = check_ticket_claim(ticket, calls, prize)  # type: ignore[arg-type]
        if still_standing(calls, live) and judged.valid:
            out.append(row)
    return out


def award(conn: sqlite3.Connection, game_id: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Award the prize being played to its first valid claims and move to the next prize.
    `prize`, if sent, must be the one being played, so a doubled click cannot award the next."""
    with hall().write_lock:
        with transaction(conn):
            game, rnd, prize, live = _playing(conn, game_id, data)
            gid = game.game_id
            deck = get_deck(conn, game.deck_id)
            valid = _standing_claims(conn, deck, rnd.round_id, prize, live)
            if not valid:
                raise Conflict("no valid claim of the %(prize)s to award", prize=str(prize))
            first = min(row["at_call"] for row in valid)
            winners = [row for row in valid if row["at_call"] == first]
            for row in winners:
                conn.execute(
                    "INSERT INTO prize_awards (game_id, round_id, prize, claim_id, serial, "
                    "player, at_call) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (gid, rnd.round_id, str(prize), row["id"], row["serial"], row["player"], first),
                )
        state = prize_state(conn, gid)
        games.publish(gid, "prize", state)
    return {
        "game_id": gid,
        "round": rnd.number,
        "prize": str(prize),
        "at_call": first,
        "winners": [
            {"claim_id": w["id"], "serial": w["serial"], "player": w["player"]} for w in winners
        ],
        "next": state["current"],
        "prizes": state,
    }


def claims_this_round(conn: sqlite3.Connection, game_id: int) -> list[dict[str, Any]]:
    """The round's claims, newest last, for the Maestro's list."""
    gid = games.get_game(conn, game_id).game_id
    rnd = games.current_round(conn, gid)
    live = games.called_balls(conn, gid)
    rows = conn.execute(
        "SELECT id, serial, player, line, at_call, calls, valid, verdict FROM claims "
        "WHERE round_id = ? ORDER BY id",
        (rnd.round_id,),
    ).fetchall()
    return [
        {
            "claim_id": r["id"],
            "serial": r["serial"],
            "player": r["player"],
            "prize": r["line"],
            "at_call": r["at_call"],
            "valid": bool(r["valid"]),
            "undone": not still_standing(json.loads(r["calls"]), live),
            "complete_rows": json.loads(r["verdict"]).get("complete_rows", []),
        }
        for r in rows
    ]


def check_prize_name(value: Any) -> str | None:
    """The `prize` a request names (so a doubled request cannot act on the next prize)."""
    if value is None:
        return None
    if value not in tuple(Prize):
        raise RequestError("prize is one of %(names)s", names=", ".join(Prize))
    return value
