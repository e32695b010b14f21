"""The SQLite connection (one per request, foreign keys) and every area's migrations.

A request gives its connection back when it ends, and the next request takes it (at most
IDLE_KEPT kept): opening one costs about a millisecond, a third of a draw. Only a connection that
ended cleanly is kept: one left in a transaction, or that met a storage failure, is closed.

Each area keeps an ordered, append-only list of SQL migrations in its own module and hands it to
`add_migrations(app, area, scripts)` when it registers; `create_app` then calls `init_db`, which
applies the steps a database has not seen, one transaction per step. Writes are committed
synchronously before anyone is told of them.

Storage failures, so that a full disk or a lost file never costs a game:
- WAL is set once, at start-up (it stays in the file), and the app keeps one connection open
  for its life, so the WAL's side files stay and reading needs no new disk space: with the disk
  full, pages and /display keep working, and a write that needs more room answers 503 "free
  disk space" (one that fits in the WAL's file, already on the disk, is saved).
- The file's identity (device and inode) is taken at start-up; a request that finds the file
  gone or replaced is refused with a message, instead of SQLite quietly making a new, empty
  hall (connections never create the file, except `init_db`).

The WAL's checkpoints (copying what was committed into the database file, and syncing it) are
the station's own work, off every request's path, while it serves (`Checkpointer`).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from types import TracebackType
from typing import Any

import click
from flask import Flask, current_app, g
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from .errors import Unavailable, error_response, unexpected
from .instance import hall

log = logging.getLogger(__name__)


def add_migrations(app: Flask, area: str, scripts: list[str]) -> None:
    """Register an area's migrations (called by the area's `register(app)`)."""
    areas = hall(app).migrations
    if area in areas:
        raise RuntimeError(f"the {area} migrations are registered twice")
    areas[area] = list(scripts)


def connect(path: str, *, create: bool = False) -> sqlite3.Connection:
    """A connection to the hall's database. Only `create=True` (start-up) may make the file:
    anywhere else a missing file is an error, never a new, empty hall. Sets nothing that
    writes to the file, so it works on a full disk."""
    target, uri = (path, False) if create or _in_memory(path) else (_rw_uri(path), True)
    conn = sqlite3.connect(
        target, timeout=30, isolation_level=None, check_same_thread=False, uri=uri
    )
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


def _in_memory(path: str) -> bool:
    return path in ("", ":memory:") or path.startswith("file:")


def _rw_uri(path: str) -> str:
    from urllib.parse import quote

    return "file:" + quote(os.path.abspath(path)) + "?mode=rw"


def _identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file, None when there is no file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


class DatabaseLost(Unavailable):
    """The database file was deleted or replaced under a running station."""


def check_identity(app: Flask) -> None:
    """Refuse to go on when the file is not the one the station started with."""
    state = hall(app)
    path = hall(app).config.database
    if state.db_identity is None or _identity(path) == state.db_identity:
        return
    if not state.db_lost_logged:
        state.db_lost_logged = True
        log.error(
            "the database file %s was deleted or replaced while the station was running; "
            "nothing more is saved. Stop the station, put the file back and start it again.",
            path,
        )
    raise DatabaseLost(
        "the station's database file was deleted or replaced while it was running; stop the "
        "station and put the file back (nothing is saved into a new, empty hall)"
    )


#: connections kept open between requests: opening one costs about a millisecond (the file, its
#: pragmas, then the whole schema parsed at its first statement), a kept one nothing. A few are
#: enough: the workers that serve requests at once are few.
IDLE_KEPT = 4


def get_db() -> sqlite3.Connection:
    if "db" not in g:
        check_identity(current_app)
        state = hall()
        try:
            conn = state.db_idle.pop()
        except IndexError:  # none kept: a new one
            try:
                conn = app_connection(current_app)
            except sqlite3.OperationalError:
                check_identity(current_app)  # it went between the check and the open
                raise
        g.db = conn
        check_identity(current_app)
    kept: sqlite3.Connection = g.db
    return kept


def app_connection(app: Flask) -> sqlite3.Connection:
    """A new connection for the app's work (a request's, the automatic draw's): read-only in the
    phones' process (web/phones_process.py), and leaving the WAL's checkpoints to the station's
    `Checkpointer` while one runs."""
    state = hall(app)
    conn = connect(state.config.database)
    if state.config.read_only:  # the phones' process never writes
        conn.execute("PRAGMA query_only=ON")
    if state.checkpoints_apart:
        conn.execute("PRAGMA wal_autocheckpoint=0")
    return conn


#: how often the station's checkpointer looks for something committed since its last checkpoint
CHECKPOINT_EVERY_S = 1.0


class Checkpointer:
    """The WAL's checkpoints, off the requests' path. Left to SQLite, the commit that takes the
    WAL past 1000 pages copies them into the database file and syncs it, in the request that
    made it: after a deck of 1000 cards is loaded, one of the night's first draws paid tens of
    milliseconds for it. While the station serves, its connections leave checkpoints alone
    (`PRAGMA wal_autocheckpoint=0`, `app_connection`) and this thread runs a PASSIVE checkpoint
    (it neither waits for nor holds up a writer or a reader) once a second when something was
    committed since. A file in memory has no WAL: nothing to do."""

    def __init__(self, app: Flask) -> None:
        self.state = hall(app)
        self.path = self.state.config.database
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        if _in_memory(self.path) or self.state.config.read_only:
            return
        self.state.checkpoints_apart = True
        close_idle(self.state)  # opened before: they would still checkpoint
        self.thread = threading.Thread(target=self._run, name="checkpoint", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            conn = connect(self.path)
        except sqlite3.Error:  # the file went: the requests say so (check_identity)
            return
        seen = None
        try:
            while not self._stop.wait(CHECKPOINT_EVERY_S):
                try:  # data_version moves when another connection commits
                    version = conn.execute("PRAGMA data_version").fetchone()[0]
                    if version != seen:
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                        seen = version
                except sqlite3.Error:  # a full disk, a lost file: tried again on the next round
                    continue
        finally:
            conn.close()

    def stop(self) -> None:
        """End the thread; SQLite checkpoints what is left when the last connection closes."""
        self._stop.set()
        if self.thread is not None:
            self.thread.join(timeout=5)
        self.state.checkpoints_apart = False
        close_idle(self.state)  # opened without SQLite's own checkpoints


def close_idle(state: Any) -> None:
    """Close the connections kept between requests: the next requests open new ones."""
    while state.db_idle:
        state.db_idle.pop().close()


def close_db(exc: BaseException | None = None) -> None:
    """The request's connection, given back for the next request when it ended cleanly (no
    transaction left open, no error on the way), else closed."""
    conn = g.pop("db", None)
    if conn is None:
        return
    state = hall()
    if exc is None and not conn.in_transaction and len(state.db_idle) < IDLE_KEPT:
        state.db_idle.append(conn)
    else:
        conn.close()


def migrate(conn: sqlite3.Connection, areas: dict[str, list[str]]) -> None:
    """Bring the database up to every area's latest step. A database made by a newer kit (an
    area with more steps than this one knows) is refused rather than half understood."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version "
        "(area TEXT PRIMARY KEY, version INTEGER NOT NULL)"
    )
    for area, migrations in areas.items():
        row = conn.execute("SELECT version FROM schema_version WHERE area = ?", (area,)).fetchone()
        done = row[0] if row else 0
        if done > len(migrations):
            raise RuntimeError(
                f"this database was made by a newer Bingo Hall Kit ({area} step {done}); "
                "update the kit"
            )
        for version, script in enumerate(migrations[done:], start=done + 1):
            conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(script):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_version (area, version) VALUES (?, ?) "
                    "ON CONFLICT(area) DO UPDATE SET version = excluded.version",
                    (area, version),
                )
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise


def _statements(script: str) -> list[str]:
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def init_db(app: Flask) -> None:
    """Create or update the tables, switch the file to WAL (once: the mode is kept in the file)
    and keep one connection open for the app's life (see the module's docstring)."""
    path = hall(app).config.database
    read_only = hall(app).config.read_only  # the phones' process: the Maestro's made them
    conn = connect(path, create=not read_only)
    try:
        if read_only:
            conn.execute("PRAGMA query_only=ON")
        else:
            conn.execute("PRAGMA journal_mode=WAL")
            migrate(conn, hall(app).migrations)
    except BaseException:
        conn.close()
        raise
    state = hall(app)
    if state.db_keeper is not None:
        state.db_keeper.close()
    close_idle(state)  # kept for the file as it was: a request opens the new one
    state.db_keeper = conn
    state.db_identity = None if _in_memory(path) else _identity(path)
    state.db_lost_logged = False


@click.command("init-db")
def init_db_command() -> None:
    """Create or update the database tables."""
    init_db(current_app)
    click.echo(f"database ready: {hall().config.database}")


#: SQLite's primary result codes (the low byte of `sqlite_errorcode`)
SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN = 8, 10, 13, 14


def storage_problem(exc: sqlite3.Error) -> str | None:
    """The English sentence for a storage failure the Maestro can fix, else None."""
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    if code == SQLITE_FULL:
        return "the station cannot save: free disk space"
    if code == SQLITE_READONLY:
        return "the station cannot save: its database file is read-only"
    if code in (SQLITE_IOERR, SQLITE_CANTOPEN):
        if _out_of_files():  # every file the process may open is taken: not the disk
            return "too many connections: the station cannot open its database now; try again"
        return "the station cannot read or write its database: check the disk"
    return None


def _out_of_files(margin: int = 16) -> bool:
    """Is this process (nearly) at its open-files limit? (Linux; elsewhere: not known, False.)"""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        return len(os.listdir("/proc/self/fd")) >= soft - margin
    except (ImportError, OSError, ValueError):
        return False


def init_app(app: Flask) -> None:
    """The connection's teardown, the `init-db` command and the answer to storage failures;
    `create_app` runs `init_db` once every area has added its migrations."""
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)

    @app.errorhandler(sqlite3.OperationalError)
    def storage_error(exc: sqlite3.OperationalError) -> ResponseReturnValue:
        failed = g.pop("db", None)  # never kept for the next request: it opens its own
        if failed is not None:
            failed.close()
        problem = storage_problem(exc)
        if problem is None:
            return unexpected(exc)
        log.error("%s (%s on %s)", problem, exc, hall(app).config.database)
        return error_response(503, gettext(problem))


def transaction(conn: sqlite3.Connection) -> Any:
    """`with transaction(conn):` runs a BEGIN IMMEDIATE ... COMMIT block (rollback on error)."""
    return _Tx(conn)


def write_transaction(conn: sqlite3.Connection) -> WriteTransaction:
    """`with write_transaction(conn) as tx:` one write of the station: the app's write lock held
    around a BEGIN IMMEDIATE ... COMMIT block, and still held after `tx.commit()` for what the
    write sends, so that its events go out in the order of the commits (HallState.write_lock).
    Without `tx.commit()` the block commits at its end; an error rolls it back."""
    return WriteTransaction(conn, hall().write_lock)


class WriteTransaction:
    """See `write_transaction`."""

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock) -> None:
        self.conn = conn
        self._lock = lock
        self._open = False

    def __enter__(self) -> WriteTransaction:
        self._lock.acquire()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._lock.release()
            raise
        self._open = True
        return self

    def commit(self) -> None:
        """Commit now; the lock stays held until the block ends."""
        if self._open:
            self._open = False
            self.conn.execute("COMMIT")

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if self._open:
                self._open = False
                if exc_type is None:
                    self.conn.execute("COMMIT")
                elif self.conn.in_transaction:  # SQLite already rolled back after a full disk
                    self.conn.execute("ROLLBACK")
        finally:
            self._lock.release()


class _Tx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:  # SQLite already rolled back after e.g. a full disk
            self.conn.execute("ROLLBACK")
