"""The claims services that tell the room: each takes the station's write lock, lets the store
commit (or judge, for a check), then publishes its events (`bingo_hall.station.events`) before
letting the lock go, so the screens see claims, verdicts and scores in the order of the commits,
between the calls they were judged on. The routes call these and never publish themselves.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...tickets import Ticket
from ...web.instance import hall
from .. import games
from ..events import ClaimRecorded, PrizeChanged, ScoresChanged, VerdictShown
from . import awards, store, tickets90


def publish_scores(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """The scoreboard as it now stands, told to the screens (call it holding the write lock)."""
    board = awards.scores(conn, game_id)
    games.publish(ScoresChanged(game_id, board))
    return board


def check_card(
    conn: sqlite3.Connection, game_id: int, serial: Any, *, show: bool
) -> store.CardCheck:
    """The verdict on a 75-ball card now; `show` puts it on the hall's screens."""
    if not show:
        return store.check(conn, game_id, serial)
    with hall().write_lock:
        checked = store.check(conn, game_id, serial)
        games.publish(VerdictShown.of_card(checked.game_id, checked.to_json()))
    return checked


def check_ticket(
    conn: sqlite3.Connection, game_id: int, serial: Any, *, show: bool
) -> tuple[Ticket, dict[str, Any]]:
    """The verdict on a 90-ball ticket for the prize being played; `show` puts it on the screens."""
    if not show:
        return tickets90.check(conn, game_id, serial)
    with hall().write_lock:
        ticket, v = tickets90.check(conn, game_id, serial)
        games.publish(VerdictShown.of_ticket(v["game_id"], v))
    return ticket, v


def claim_card(conn: sqlite3.Connection, game_id: int, data: dict[str, Any]) -> dict[str, Any]:
    """A 75-ball claim stored, then told: the claim, its verdict on the screens, the scores."""
    with hall().write_lock:
        made = store.make_claim(conn, game_id, data)
        gid = made["game_id"]
        games.publish(ClaimRecorded(gid, made))
        shown = {**made["verdict"], "round": made["round"]}
        games.publish(VerdictShown.of_card(gid, shown, made))
        publish_scores(conn, gid)
    return made


def claim_ticket(conn: sqlite3.Connection, game_id: int, data: dict[str, Any]) -> dict[str, Any]:
    """A 90-ball claim stored, then told: the claim, its verdict on the screens, the prizes."""
    with hall().write_lock:
        made = tickets90.make_claim(conn, game_id, data)
        gid = made["game_id"]
        games.publish(ClaimRecorded(gid, made))
        games.publish(VerdictShown.of_ticket(gid, made["verdict"], made))
        games.publish(PrizeChanged(gid, tickets90.prize_state(conn, gid)))
    return made


def add_player(conn: sqlite3.Connection, game_id: int, data: dict[str, Any]) -> dict[str, Any]:
    """A player seated; the answer and the screens get the new scoreboard."""
    with hall().write_lock:
        added = store.add_player(conn, game_id, data)
        return {**added, "scores": publish_scores(conn, added["game_id"])}


def update_settings(conn: sqlite3.Connection, game_id: int, data: dict[str, Any]) -> dict[str, Any]:
    """The claims settings changed; the answer and the screens get the new scoreboard."""
    with hall().write_lock:
        changed = store.update_settings(conn, game_id, data)
        return {**changed, "scores": publish_scores(conn, changed["game_id"])}
