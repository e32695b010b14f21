"""A station write (`db.write_transaction`): the app's write lock held around one transaction,
and still held after its commit for what the write sends, so that events go out in the order
of the commits."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from bingo_hall.web import db
from bingo_hall.web.instance import hall


def _another_thread_can_take(lock: threading.RLock) -> bool:
    took: list[bool] = []

    def attempt() -> None:
        got = lock.acquire(blocking=False)
        if got:
            lock.release()
        took.append(got)

    t = threading.Thread(target=attempt)
    t.start()
    t.join()
    return took[0]


def _rows(path: str) -> int:
    other = sqlite3.connect(path)
    try:
        return int(other.execute("SELECT count(*) FROM idempotency").fetchone()[0])
    finally:
        other.close()


def _insert(conn: sqlite3.Connection, key: str) -> None:
    conn.execute(
        "INSERT INTO idempotency (game_id, key, response) VALUES (0, ?, '{}')",
        (key,),
    )


def test_a_write_is_committed_at_commit_while_the_lock_is_still_held(app):
    with app.app_context():
        conn = db.get_db()
        lock = hall(app).write_lock
        path = str(hall(app).config.database)
        before = _rows(path)
        with db.write_transaction(conn) as tx:
            _insert(conn, "k1")
            assert not _another_thread_can_take(lock)
            tx.commit()
            assert _rows(path) == before + 1  # another connection sees it: committed
            assert not _another_thread_can_take(lock)  # what it sends still goes out in order
        assert _another_thread_can_take(lock)


def test_a_write_without_an_explicit_commit_commits_at_the_end_of_its_block(app):
    with app.app_context():
        conn = db.get_db()
        path = str(hall(app).config.database)
        before = _rows(path)
        with db.write_transaction(conn):
            _insert(conn, "k2")
        assert _rows(path) == before + 1
        assert not conn.in_transaction


def test_a_write_that_fails_is_rolled_back_and_lets_the_lock_go(app):
    with app.app_context():
        conn = db.get_db()
        lock = hall(app).write_lock
        path = str(hall(app).config.database)
        before = _rows(path)
        with pytest.raises(ValueError), db.write_transaction(conn):
            _insert(conn, "k3")
            raise ValueError("refused")
        assert _rows(path) == before
        assert not conn.in_transaction
        assert _another_thread_can_take(lock)
