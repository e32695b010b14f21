"""A request's database connection is kept for the next request (opening one costs about a
millisecond: the file, its pragmas, the schema parsed at its first statement), but only one that
ended cleanly: never one left inside a transaction, nor one that met a storage failure."""

from __future__ import annotations

import sqlite3

import pytest

from bingo_hall.web import db
from bingo_hall.web.instance import hall


def _views(app):
    seen: list[sqlite3.Connection] = []

    def plain():
        conn = db.get_db()
        seen.append(conn)
        conn.execute("SELECT count(*) FROM games").fetchone()
        return "ok"

    def left_open():
        conn = db.get_db()
        seen.append(conn)
        conn.execute("BEGIN")
        conn.execute("SELECT count(*) FROM games").fetchone()
        return "ok"

    def storage_failure():
        conn = db.get_db()
        seen.append(conn)
        failure = sqlite3.OperationalError("disk I/O error")
        failure.sqlite_errorcode = sqlite3.SQLITE_IOERR  # as SQLite sets it on a failing disk
        raise failure

    app.add_url_rule("/t/plain", view_func=plain)
    app.add_url_rule("/t/left-open", view_func=left_open)
    app.add_url_rule("/t/storage", view_func=storage_failure)
    return seen


def test_the_next_request_reuses_the_connection_the_last_one_gave_back(app):
    seen = _views(app)
    client = app.test_client()
    assert client.get("/t/plain").status_code == 200
    assert client.get("/t/plain").status_code == 200
    assert seen[0] is seen[1]
    assert hall(app).db_idle == [seen[1]]


def test_a_connection_left_in_a_transaction_is_closed_not_kept(app):
    seen = _views(app)
    client = app.test_client()
    assert client.get("/t/left-open").status_code == 200
    assert hall(app).db_idle == []
    with pytest.raises(sqlite3.ProgrammingError):  # closed
        seen[0].execute("SELECT 1")
    assert client.get("/t/plain").status_code == 200
    assert seen[1] is not seen[0]


def test_a_connection_that_met_a_storage_failure_is_closed_not_kept(app):
    seen = _views(app)
    client = app.test_client()
    assert client.get("/t/storage").status_code == 503
    assert seen[0] not in hall(app).db_idle
    with pytest.raises(sqlite3.ProgrammingError):  # closed
        seen[0].execute("SELECT 1")


def test_no_more_connections_are_kept_than_the_bound(app):
    state = hall(app)
    opened = []
    for _ in range(db.IDLE_KEPT + 3):  # as many requests at once, then all give theirs back
        ctx = app.app_context()
        ctx.push()
        opened.append((ctx, db.get_db()))
    for ctx, _conn in reversed(opened):
        ctx.pop()
    assert len(state.db_idle) == db.IDLE_KEPT
    kept = {id(c) for c in state.db_idle}
    for _ctx, conn in opened:
        if id(conn) not in kept:
            with pytest.raises(sqlite3.ProgrammingError):
                conn.execute("SELECT 1")
