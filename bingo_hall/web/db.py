"""The SQLite connection (one per request, WAL, foreign keys) and every area's migrations.

Each area keeps an ordered, append-only list of SQL migrations in its own module and hands it to
`add_migrations(app, area, scripts)` when it registers; `create_app` then calls `init_db`, which
applies the steps a database has not seen, one transaction per step. Writes are committed
synchronously before anyone is told of them.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import click
from flask import Flask, current_app, g

from .instance import hall


def add_migrations(app: Flask, area: str, scripts: list[str]) -> None:
    """Register an area's migrations (called by the area's `register(app)`)."""
    areas = hall(app).migrations
    if area in areas:
        raise RuntimeError(f"the {area} migrations are registered twice")
    areas[area] = list(scripts)


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


def get_db() -> sqlite3.Connection:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    conn = g.pop("db", None)
    if conn is not None:
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
    conn = connect(app.config["DATABASE"])
    try:
        migrate(conn, hall(app).migrations)
    finally:
        conn.close()


@click.command("init-db")
def init_db_command() -> None:
    """Create or update the database tables."""
    init_db(current_app)
    click.echo(f"database ready: {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    """The connection's teardown and the `init-db` command; `create_app` runs `init_db` once
    every area has added its migrations."""
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)


def transaction(conn: sqlite3.Connection) -> Any:
    """`with transaction(conn):` runs a BEGIN IMMEDIATE ... COMMIT block (rollback on error)."""
    return _Tx(conn)


class _Tx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
