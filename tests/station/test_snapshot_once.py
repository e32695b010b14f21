"""A storm of screens (re)connecting shares one snapshot (issue 24): the snapshot event is read
once per change, not once per screen, and a change makes the next screen read it again."""

from __future__ import annotations

import json

from bingo_hall.station import snapshots
from bingo_hall.web.db import get_db


def _data(text: str) -> dict:
    return json.loads(text.split("data: ", 1)[1])


def test_the_snapshot_is_read_once_per_change_not_once_per_screen(app, caller):
    gid = caller.new_game(draw="manual")
    caller.call(gid, 5)
    reads: list[int] = []

    def connect():
        reads.append(1)
        return get_db()

    with app.test_request_context():
        first = [snapshots.snapshot_event(connect, gid) for _ in range(50)]
        assert len(reads) == 1 and len(set(first)) == 1
        assert [c["ball"] for c in _data(first[0])["calls"]] == [5]
    caller.call(gid, 6)  # a change, published: the next screen reads it again
    with app.test_request_context():
        after = [snapshots.snapshot_event(connect, gid) for _ in range(50)]
    assert len(reads) == 2
    assert [c["ball"] for c in _data(after[0])["calls"]] == [5, 6]


def test_a_stream_of_a_game_that_does_not_exist_is_a_404(client):
    assert client.get("/api/games/999/events").status_code == 404
