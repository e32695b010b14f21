"""Calls: the auto draw, manual entry from a cage, and undo, over sqlite3.

Each call is committed (BEGIN IMMEDIATE ... COMMIT, synchronous=FULL) before it is published.
A request can carry `expect_seq` (the state its sender saw) and an idempotency key, so a double
click, a retry or two tabs never draw two balls (docs/api.md). The draw order itself comes from
the pure module `bingo_hall.draw`.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import fields
from typing import TypeVar

from .. import draw as rules
from ..web import book_store as book
from ..web.db import write_transaction
from ..web.errors import Conflict, RequestError
from . import phrases
from .events import CallMade, CallUndone
from .games import (
    active_round,
    check_call_allowed,
    check_undo_allowed,
    last_seq,
    live_calls,
    publish,
)
from .model import Call, DrawMethod, UndoneCall
from .requests import Undo
from .spoken import call_label, spoken_both

_Done = TypeVar("_Done", Call, UndoneCall)


def _replayed(
    conn: sqlite3.Connection, game_id: int, key: str | None, kind: type[_Done]
) -> _Done | None:
    """The answer already given to this idempotency key, as the same kind of value."""
    if key is None:
        return None
    row = conn.execute(
        "SELECT response FROM idempotency WHERE game_id = ? AND key = ?", (game_id, key)
    ).fetchone()
    if row is None:
        return None
    stored = json.loads(row["response"])
    names = {f.name for f in fields(kind)}
    return kind(**{k: v for k, v in stored.items() if k in names})


def _remember(conn: sqlite3.Connection, key: str | None, done: Call | UndoneCall) -> None:
    if key is not None:
        conn.execute(
            "INSERT INTO idempotency (game_id, key, response) VALUES (?, ?, ?)",
            (done.game_id, key, json.dumps(done.to_json())),
        )


def _check_expect(expect_seq: int | None, actual: int) -> None:
    if expect_seq is None:
        return
    if expect_seq != actual:
        raise Conflict(
            "the game has moved on (it is at %(actual)s, the request expected %(expected)s); "
            "refresh and try again",
            actual=actual,
            expected=expect_seq,
        )


def _add_call(
    conn: sqlite3.Connection,
    game_id: int,
    source: DrawMethod,
    ball: object = None,
    expect_seq: int | None = None,
    key: str | None = None,
) -> Call:
    with write_transaction(conn) as tx:
        game, rnd = active_round(conn, game_id)
        gid = game.game_id
        done = _replayed(conn, gid, key, Call)
        if done is not None:
            return done
        if game.draw != source:
            if source == DrawMethod.AUTO:
                raise Conflict("this game is drawn by hand: enter the ball from the cage")
            raise Conflict("this game draws automatically: use Draw")
        last = last_seq(conn, rnd.round_id)
        _check_expect(expect_seq, last)
        check_call_allowed(conn, gid)
        called = [r["ball"] for r in live_calls(conn, rnd.round_id)]
        n = game.balls
        if source == DrawMethod.AUTO:
            if len(called) >= n:
                raise Conflict("all %(n)s balls have been called", n=n)
            order = rules.draw_order(bytes.fromhex(rnd.seed), rnd.public_input, n)
            chosen = rules.next_auto_ball(order, called)
        else:
            try:
                chosen = rules.check_ball(ball, n)
            except rules.DrawError:
                raise RequestError(
                    "a ball is a whole number from 1 to %(n)s, not %(ball)s",
                    n=n,
                    ball=repr(ball),
                ) from None
            if chosen in called:
                raise Conflict("%(call)s has already been called", call=call_label(chosen, n))
        seq = last + 1
        conn.execute(
            "INSERT INTO calls (round_id, seq, ball, source) VALUES (?, ?, ?, ?)",
            (rnd.round_id, seq, chosen, str(source)),
        )
        made = {"game_id": gid, "round": rnd.number, "seq": seq, "ball": chosen}
        book.append(conn, "call", {**made, "source": str(source)})
        done = Call(
            game_id=gid,
            round=rnd.number,
            seq=seq,
            ball=chosen,
            count=len(called) + 1,
            left=n - len(called) - 1,
            spoken=spoken_both(chosen, n, phrases.current(conn)),
            call=call_label(chosen, n),
        )
        _remember(conn, key, done)
        tx.commit()
        publish(CallMade(gid, done))
    return done


def draw_ball(
    conn: sqlite3.Connection, game_id: int, expect_seq: int | None = None, key: str | None = None
) -> Call:
    """Auto draw: the next ball of the committed order (bingo_hall.draw)."""
    return _add_call(conn, game_id, DrawMethod.AUTO, expect_seq=expect_seq, key=key)


def enter_ball(
    conn: sqlite3.Connection,
    game_id: int,
    ball: object,
    expect_seq: int | None = None,
    key: str | None = None,
) -> Call:
    """Manual entry: the ball that came out of a physical cage or blower, checked against the
    game's balls here (the message names the game's range)."""
    return _add_call(conn, game_id, DrawMethod.MANUAL, ball=ball, expect_seq=expect_seq, key=key)


def undo_last(conn: sqlite3.Connection, game_id: int, undo: Undo) -> UndoneCall:
    """Take back the last live call, logging why. `undo.seq`, if given, must be that call's seq,
    so a doubled undo request cannot take back a second call."""
    reason, seq, key = undo.reason, undo.seq, undo.key
    with write_transaction(conn) as tx:
        game, rnd = active_round(conn, game_id)
        gid = game.game_id
        done = _replayed(conn, gid, key, UndoneCall)
        if done is not None:
            return done
        calls = live_calls(conn, rnd.round_id)
        if not calls:
            raise Conflict("there is no call to undo in this round")
        last = calls[-1]
        _check_expect(seq, last["seq"])
        check_undo_allowed(conn, gid, len(calls))
        conn.execute(
            "UPDATE calls SET undone_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), "
            "undo_reason = ? WHERE round_id = ? AND seq = ?",
            (reason, rnd.round_id, last["seq"]),
        )
        took = {"game_id": gid, "round": rnd.number, "seq": last["seq"], "ball": last["ball"]}
        book.append(conn, "undo", {**took, "reason": reason})
        done = UndoneCall(
            game_id=gid,
            round=rnd.number,
            seq=last["seq"],
            ball=last["ball"],
            count=len(calls) - 1,
            left=game.balls - len(calls) + 1,
            reason=reason,
            call=call_label(last["ball"], game.balls),
        )
        _remember(conn, key, done)
        tx.commit()
        publish(CallUndone(gid, done))
    return done
