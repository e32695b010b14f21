"""A guest's own writes: the companions' tables (a table's set-up, its entries, undos and
corrections, "play again") and a private notebook's PIN. They are no part of the night's record,
so the process that serves the phones answers them itself (web/phones_process.py): the
Maestro's process never spends its CPU on a guest's PIN hash or a table's replay.

- `guest_write` marks such a view, as `admission.on_loop` marks the Maestro's quick calls; the
  dispatcher answers a marked change where it arrives instead of passing it on (`writes_here`).
- `guest_db()` is the connection those views write with. In a process that may write (the
  Maestro's, or a station of one process) it is the request's own (`db.get_db`). In the phones'
  process, whose connections are `query_only`, it is a connection of its own whose SQLite
  authorizer refuses every statement that would write anything but the tables an area declared
  (`init_app`): the games, the ledger and the night's book stay written by the Maestro's process
  alone, checked by SQLite on every statement, not by a convention of the views.

One database file for both processes: WAL lets the phones' process read while the Maestro's
writes, and a guest's transaction is a few statements (its replay and its PIN's hash run before
it: companions/web/changes.py), so a draw waiting for SQLite's write lock waits a millisecond.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from flask import Flask, current_app, g

from .db import check_identity, connect
from .instance import area_state, hall

V = TypeVar("V", bound=Callable[..., Any])

#: the attribute `guest_write` sets on a view
GUEST_WRITE = "guest_write"
#: the request's guest connection in Flask's `g`
_KEY = "guest_db"
#: guest connections kept between requests (opening one costs about a millisecond)
IDLE_KEPT = 4

#: what a guest connection may do besides writing its area's tables: read, and make transactions
_ALLOWED = frozenset(
    {
        sqlite3.SQLITE_SELECT,
        sqlite3.SQLITE_READ,
        sqlite3.SQLITE_FUNCTION,
        sqlite3.SQLITE_TRANSACTION,
        sqlite3.SQLITE_SAVEPOINT,
        sqlite3.SQLITE_RECURSIVE,
    }
)
#: (an AUTOINCREMENT insert moves sqlite_sequence without asking the authorizer)
_WRITES = frozenset({sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE})


def guest_write(view: V) -> V:
    """Mark a view whose changes are a guest's own, answered in the phones' process."""
    setattr(view, GUEST_WRITE, True)
    return view


def writes_here(view: Any) -> bool:
    """Is this view's change a guest's own (answered where it arrives, never passed on)?"""
    return getattr(view, GUEST_WRITE, False) is True


class GuestTables:
    """The tables guests may write in the phones' process (every area declares its own)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.idle: list[sqlite3.Connection] = []


def _tables(app: Flask | None = None) -> GuestTables:
    return area_state("guest_tables", GuestTables, app)


def init_app(app: Flask, tables: Iterable[str]) -> None:
    """An area's tables that its `guest_write` views write (its `register(app)` calls it)."""
    kept = _tables(app)
    if not kept.names:  # the first area: the connection is given back at each request's end
        app.teardown_appcontext(_give_back)
    kept.names.update(tables)


def authorizer(tables: frozenset[str]) -> Callable[..., int]:
    """SQLite's check of every statement a guest connection prepares: reads and transactions,
    and writes to `tables` only. A PRAGMA that sets something, ATTACH, CREATE, DROP: refused."""

    def check(action: int, arg1: str | None, arg2: str | None, *_: Any) -> int:
        if action in _ALLOWED:
            return sqlite3.SQLITE_OK
        if action in _WRITES and arg1 in tables:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and arg2 is None:  # a PRAGMA that only reads
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY

    return check


def guest_connection(app: Flask) -> sqlite3.Connection:
    """A new connection that may write the guests' tables only (the phones' process)."""
    state = hall(app)
    conn = connect(state.config.database)
    # the WAL's checkpoints are the Maestro's process's (db.Checkpointer), never a guest's commit
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.set_authorizer(authorizer(frozenset(_tables(app).names)))
    return conn


def guest_db() -> sqlite3.Connection:
    """The connection a `guest_write` view writes with (see the module's docstring)."""
    if not hall().config.read_only:
        from .db import get_db

        return get_db()
    if _KEY not in g:
        check_identity(current_app)
        kept = _tables()
        g.guest_db = kept.idle.pop() if kept.idle else guest_connection(current_app)
    conn: sqlite3.Connection = g.guest_db
    return conn


def _give_back(exc: BaseException | None = None) -> None:
    """The request's guest connection, kept for the next request when it ended cleanly."""
    conn = g.pop(_KEY, None)
    if conn is None:
        return
    kept = _tables()
    if exc is None and not conn.in_transaction and len(kept.idle) < IDLE_KEPT:
        kept.idle.append(conn)
    else:
        conn.close()
