"""While the station serves, no request copies the WAL into the database file (SQLite's
automatic checkpoint would make the commit that takes the WAL past 1000 pages, often a draw,
pay for it): the station's own thread does it, soon after each change (web/db.py: Checkpointer)."""

from __future__ import annotations

import shutil
import sqlite3
import threading

import pytest
import requests
from testkit import TEST_PIN, Caller, eventually

from bingo_hall.manifest import new_deck
from bingo_hall.web.db import get_db
from bingo_hall.web.instance import hall

pytestmark = [pytest.mark.process]


def _in_the_file(database: str, tmp_path) -> list[int]:
    """The balls called, as the database FILE alone has them (its WAL left out): what has been
    checkpointed."""
    copy = tmp_path / "file-only.sqlite"
    shutil.copyfile(database, copy)
    conn = sqlite3.connect(copy)
    try:
        return [row[0] for row in conn.execute("SELECT ball FROM calls ORDER BY seq")]
    except sqlite3.DatabaseError:  # copied while a checkpoint wrote it: look again
        return []
    finally:
        conn.close()


def test_a_draw_reaches_the_database_file_by_the_stations_checkpoint_not_a_requests(
    app, live_server, tmp_path
):
    gid = Caller(app.test_client(), new_deck(4, seed="ckpt", name="Ckpt")).new_game()
    url = live_server.url
    token = requests.post(f"{url}/api/login", json={"pin": TEST_PIN}, timeout=10).json()["token"]
    drawn = requests.post(
        f"{url}/api/games/{gid}/draw", json={}, headers={"Authorization": f"Bearer {token}"}
    )
    assert drawn.status_code == 200, drawn.text
    database = hall(app).config.database
    # a few pages in the WAL, far below SQLite's 1000: only the station's checkpoint puts the
    # call in the file
    eventually(lambda: _in_the_file(database, tmp_path) == [drawn.json()["ball"]], timeout=30)
    with app.app_context():  # a request's connection leaves checkpoints to the station
        assert get_db().execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0


def test_the_checkpoint_thread_ends_with_the_station_and_requests_checkpoint_again(app):
    from testkit import LiveServer

    server = LiveServer(app)
    eventually(lambda: any(t.name == "checkpoint" for t in threading.enumerate()), timeout=30)
    server.close()
    assert not any(t.name == "checkpoint" and t.is_alive() for t in threading.enumerate())
    with app.app_context():  # no station: SQLite's own checkpoints again
        assert get_db().execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
