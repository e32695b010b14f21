"""Events have one owner: the service that commits a change publishes it, after the commit and
still holding the write lock, so every screen sees claims, verdicts and scores in commit order."""

from __future__ import annotations

import sqlite3

import pytest

from bingo_hall.station import games
from bingo_hall.station.events import GameEnded
from bingo_hall.web.instance import hall


def spy_on_publish(app, seen: list):
    """Record (event, write lock held, claims committed) for every event the hub publishes."""
    state = hall(app)
    original = state.hub.publish

    def spy(channel, event, data, text=None):
        with sqlite3.connect(app.config["DATABASE"]) as conn:
            stored = conn.execute("SELECT COUNT(*) FROM claims").fetchone()[0]
        seen.append((event, state.write_lock._is_owned(), stored))
        return original(channel, event, data, text)

    state.hub.publish = spy
    return original


def test_a_claim_is_told_under_the_write_lock_after_its_commit(app, client, caller):
    gid = caller.new_game(draw="manual")
    caller.call(gid, 1, 2, 3)
    seen: list = []
    original = spy_on_publish(app, seen)
    try:
        r = client.post(f"/api/games/{gid}/claims", json={"serial": 1}, headers=caller.auth)
    finally:
        hall(app).hub.publish = original
    assert r.status_code == 201
    assert seen == [("claim", True, 1), ("verdict", True, 1), ("scores", True, 1)]


def test_a_check_shown_to_the_room_is_told_under_the_write_lock(app, client, caller):
    gid = caller.new_game()
    seen: list = []
    original = spy_on_publish(app, seen)
    try:
        r = client.post(f"/api/games/{gid}/check/2", headers=caller.auth)
    finally:
        hall(app).hub.publish = original
    assert r.status_code == 200
    assert seen == [("verdict", True, 0)]


def test_an_event_published_without_the_write_lock_is_refused(app):
    with app.app_context(), pytest.raises(RuntimeError, match="outside the write lock"):
        games.publish(GameEnded(1, "00", 1, ()))
    assert hall(app).hub.published == 0
