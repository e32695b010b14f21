"""A game's prizes over SQLite (issue 17): which are awarded, which is being played, and the award
that closes one (docs/claims.md, "90 balls"). The prizes are the game's `PrizePlan`, data from its
variant (`bingo_hall.variants`): línea then bingo (Spanish halls), or one line, two lines, full
house (UK clubs), played one after another.

* a claim is stored in `claims` (its `line` column holds the prize claimed) with its verdict;
* an award goes to `prize_awards`: every valid claim of the prize made on the earliest call on
  which one was made shares it (claims on the same call were simultaneous). Then the next prize
  of the plan is played. A round ends with its last prize; the Maestro then starts the next
  round (whose prizes start again) or ends the game.

A false claim has no penalty here: the 1933 rules' penalty (the markers of the line come off) is a
75-ball rule; in the 90-ball game the call simply goes on.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ...manifest import Deck
from ...ticket_claims import Prize, check_ticket_claim
from ...web.db import transaction
from ...web.errors import Conflict, RequestError
from ...web.instance import hall
from .. import games, hooks
from ..decks import get_deck
from ..events import PrizeChanged
from ..hooks import Awarded, Winner
from ..model import Game, Round
from ..requests import Award
from ..variants import prize_plan
from . import store
from .awards import still_standing


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


def won_by(conn: sqlite3.Connection, game_id: int, serial: int) -> list[dict[str, Any]]:
    """The prizes a ticket has won in the game, in order, each with its round's number."""
    rows = conn.execute(
        "SELECT pa.prize, r.number FROM prize_awards pa JOIN rounds r ON r.id = pa.round_id "
        "WHERE pa.game_id = ? AND pa.serial = ? ORDER BY pa.id",
        (game_id, serial),
    )
    return [{"prize": row["prize"], "round": row["number"]} for row in rows]


def refuse_balls_once_all_won(conn: sqlite3.Connection, game: Game, rnd: Round) -> None:
    """No ball after the round's last prize is awarded, until the Maestro starts the next round."""
    if current_prize(conn, game, rnd.round_id) is None:
        raise Conflict(
            "no more balls: every prize of round %(n)s has been awarded; press Next round to "
            "play on, or end the game",
            n=rnd.number,
        )


def current_prize(conn: sqlite3.Connection, game: Game, round_id: int) -> Prize | None:
    """The prize being played now; None once the round's last prize is awarded."""
    done = [a["prize"] for a in awarded(conn, round_id)]
    prize = prize_plan(game).next_prize(done)
    return None if prize is None else Prize(prize)


def judged_prize(conn: sqlite3.Connection, game: Game, round_id: int) -> Prize:
    """The prize a check is judged for: the one being played, else the round's last."""
    prize = current_prize(conn, game, round_id)
    return prize if prize is not None else Prize(prize_plan(game).prizes[-1])


def prize_state(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """The `prizes` of the game's snapshot: the plan, what is awarded, what is next."""
    game = games.get_game(conn, game_id)
    rnd = games.current_round(conn, game.game_id)
    done = awarded(conn, rnd.round_id)
    plan = prize_plan(game)
    return {
        "mode": plan.mode,
        "sequence": list(plan.prizes),
        "awarded": done,
        "current": plan.next_prize([a["prize"] for a in done]),
        "claims": claims_this_round(conn, game, rnd),
    }


def playing(conn: sqlite3.Connection, game: Game, rnd: Round, asked: str | None) -> Prize:
    """The prize being played, for a claim or an award: 409 once the round's last prize is
    awarded, or when the request names another prize (a doubled click must not act on the
    next one)."""
    prize = current_prize(conn, game, rnd.round_id)
    if prize is None:
        raise Conflict("every prize of this round has been awarded; start the next round")
    asked = check_prize_name(asked)
    if asked is not None and asked != prize:
        raise Conflict(
            "%(asked)s is not the prize being played (it is %(prize)s)",
            asked=str(asked),
            prize=str(prize),
        )
    return prize


def _standing_claims(
    conn: sqlite3.Connection, deck: Deck[Any], round_id: int, prize: Prize, live: list[int]
) -> list[sqlite3.Row]:
    """The round's valid claims of `prize` whose calls are still the start of the live calls,
    re-judged on the calls each one saw."""
    out = []
    for row in conn.execute(
        "SELECT id, serial, player, at_call, calls FROM claims "
        "WHERE round_id = ? AND line = ? AND valid = 1 ORDER BY id",
        (round_id, str(prize)),
    ):
        calls = json.loads(row["calls"])
        judged = check_ticket_claim(deck.card(row["serial"]), calls, prize)
        if still_standing(calls, live) and judged.valid:
            out.append(row)
    return out


def award(conn: sqlite3.Connection, game_id: int, request: Award) -> dict[str, Any]:
    """Award the prize being played to its first valid claims and move to the next prize."""
    with hall().write_lock:
        with transaction(conn):
            game = store.active_game(conn, game_id)
            gid = game.game_id
            rnd = games.current_round(conn, gid)
            prize = playing(conn, game, rnd, request.prize)
            deck = get_deck(conn, game.deck_id)
            live = games.called_balls(conn, gid)
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
            won = tuple(Winner(w["id"], w["serial"], w["player"]) for w in winners)
            hooks.awarded(conn, Awarded(gid, rnd.round_id, rnd.number, str(prize), first, won))
        state = prize_state(conn, gid)
        games.publish(PrizeChanged(gid, state))
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


def claims_this_round(conn: sqlite3.Connection, game: Game, rnd: Round) -> list[dict[str, Any]]:
    """The round's claims, newest last, for the Maestro's list."""
    live = games.called_balls(conn, game.game_id)
    rows = conn.execute(
        "SELECT id, serial, player, line, at_call, calls, valid, "
        "json_extract(verdict, '$.complete_rows') AS complete_rows FROM claims "
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
            "complete_rows": json.loads(r["complete_rows"] or "[]"),
        }
        for r in rows
    ]


def check_prize_name(value: str | None) -> Prize | None:
    """The `prize` a request names (so a doubled request cannot act on the next prize)."""
    if value is None:
        return None
    if value not in tuple(Prize):
        raise RequestError("prize is one of %(names)s", names=", ".join(Prize))
    return Prize(value)
