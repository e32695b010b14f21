"""Calls: the auto draw, manual entry from a cage, and undo (issue 4), over sqlite3.

Each call is committed (BEGIN IMMEDIATE ... COMMIT, synchronous=FULL) before it is published.
A request can carry `expect_seq` (the state its sender saw) and an idempotency key, so a double
click, a retry or two tabs never draw two balls (docs/api.md). The draw order itself comes from
the pure module `bingo_hall.draw`.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .. import draw as rules
from ..cards import call_name
from . import events
from .db import transaction
from .errors import Conflict, StationError
from .games import MAX_REASON, _active_round, _last_seq, _live_calls, write_lock
from .spoken import spoken_both


def _replayed(conn: sqlite3.Connection, game_id: int, key: str | None) -> dict | None:
    if key is None:
        return None
    row = conn.execute(
        "SELECT response FROM idempotency WHERE game_id = ? AND key = ?", (game_id, key)
    ).fetchone()
    return json.loads(row["response"]) if row else None


def _remember(conn: sqlite3.Connection, game_id: int, key: str | None, response: dict) -> None:
    if key is not None:
        conn.execute(
            "INSERT INTO idempotency (game_id, key, response) VALUES (?, ?, ?)",
            (game_id, key, json.dumps(response)),
        )


def _check_key(key: Any) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= 200:
        raise StationError("an idempotency key is text of 1 to 200 characters")
    return key


def _check_expect(expect_seq: Any, actual: int) -> None:
    if expect_seq is None:
        return
    if isinstance(expect_seq, bool) or not isinstance(expect_seq, int):
        raise StationError("expect_seq must be a whole number")
    if expect_seq != actual:
        raise Conflict(
            "the game has moved on (it is at %(actual)s, the request expected %(expected)s); "
            "refresh and try again",
            actual=actual,
            expected=expect_seq,
        )


def _add_call(
    conn: sqlite3.Connection,
    game_id: Any,
    source: str,
    ball: Any = None,
    expect_seq: Any = None,
    key: Any = None,
) -> dict[str, Any]:
    key = _check_key(key)
    with write_lock:
        with transaction(conn):
            game, rnd = _active_round(conn, game_id)
            gid = game["id"]
            done = _replayed(conn, gid, key)
            if done is not None:
                return done
            if game["draw"] != source:
                if source == "auto":
                    raise Conflict("this game is drawn by hand: enter the ball from the cage")
                raise Conflict("this game draws automatically: use Draw")
            last = _last_seq(conn, rnd["id"])
            _check_expect(expect_seq, last)
            called = [r["ball"] for r in _live_calls(conn, rnd["id"])]
            if source == "auto":
                if len(called) >= rules.BALLS:
                    raise Conflict("all 75 balls have been called")
                order = rules.draw_order(bytes.fromhex(rnd["seed"]), rnd["public_input"])
                chosen = rules.next_auto_ball(order, called)
            else:
                try:
                    chosen = rules.check_ball(ball)
                except rules.DrawError:
                    raise StationError(
                        "a ball is a whole number from 1 to 75, not %(ball)s", ball=repr(ball)
                    ) from None
                if chosen in called:
                    raise Conflict("%(call)s has already been called", call=call_name(chosen))
            seq = last + 1
            conn.execute(
                "INSERT INTO calls (round_id, seq, ball, source) VALUES (?, ?, ?, ?)",
                (rnd["id"], seq, chosen, source),
            )
            response = {
                "game_id": gid,
                "round": rnd["number"],
                "seq": seq,
                "ball": chosen,
                "call": call_name(chosen),
                "spoken": spoken_both(chosen),
                "count": len(called) + 1,
                "left": rules.BALLS - len(called) - 1,
            }
            _remember(conn, gid, key, response)
        events.publish(gid, "call", response)
    return response


def draw_ball(conn, game_id, expect_seq=None, key=None) -> dict[str, Any]:
    """Auto draw: the next ball of the committed order (bingo_hall.draw)."""
    return _add_call(conn, game_id, "auto", expect_seq=expect_seq, key=key)


def enter_ball(conn, game_id, ball, expect_seq=None, key=None) -> dict[str, Any]:
    """Manual entry: the ball that came out of a physical cage or blower."""
    return _add_call(conn, game_id, "manual", ball=ball, expect_seq=expect_seq, key=key)


def undo_last(
    conn: sqlite3.Connection, game_id: Any, reason: Any, seq: Any = None, key: Any = None
) -> dict[str, Any]:
    """Take back the last live call, logging why. `seq`, if given, must be that call's seq, so a
    doubled undo request cannot take back a second call."""
    if not isinstance(reason, str) or not reason.strip():
        raise StationError("say why the call is undone (a reason is required)")
    reason = reason.strip()[:MAX_REASON]
    key = _check_key(key)
    with write_lock:
        with transaction(conn):
            game, rnd = _active_round(conn, game_id)
            gid = game["id"]
            done = _replayed(conn, gid, key)
            if done is not None:
                return done
            calls = _live_calls(conn, rnd["id"])
            if not calls:
                raise Conflict("there is no call to undo in this round")
            last = calls[-1]
            _check_expect(seq, last["seq"])
            conn.execute(
                "UPDATE calls SET undone_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), "
                "undo_reason = ? WHERE round_id = ? AND seq = ?",
                (reason, rnd["id"], last["seq"]),
            )
            response = {
                "game_id": gid,
                "round": rnd["number"],
                "seq": last["seq"],
                "ball": last["ball"],
                "call": call_name(last["ball"]),
                "reason": reason,
                "count": len(calls) - 1,
                "left": rules.BALLS - len(calls) + 1,
            }
            _remember(conn, gid, key, response)
        events.publish(gid, "undo", response)
    return response
