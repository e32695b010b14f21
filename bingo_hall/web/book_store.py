"""The night's book over SQLite: the append-only table, the station's key, and `append`, the one
call every service makes inside the transaction of the change it records (docs/audit.md). The
rules of the book (entries, the chain, the signed head) are the pure `bingo_hall.audit`.

- The table refuses UPDATE and DELETE (triggers), so a change to the night is a new entry.
- `append(conn, kind, data, personal=...)` reads the newest entry and writes the next one in the
  caller's transaction: the change and its entry are committed together or not at all, and
  BEGIN IMMEDIATE serialises writers, so the chain never forks.
- Who: the laptop, a caller login (the SHA-256 of its session's or token's secret, never the
  PIN) or a guest (its address, kept as personal data).
- A database that had a night before the book (an upgraded station) starts its book with a
  `genesis` entry that counts what was there.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import Flask, has_request_context, request, session

from ..audit import (
    ORIGIN,
    Entry,
    Head,
    SignedHead,
    StationKey,
    canonical,
    night_bounds,
)
from .instance import area_state, current_flask, hall, kept_secret
from .limits import from_this_machine

MIGRATIONS: list[str] = [
    """
    CREATE TABLE book (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        who TEXT NOT NULL,
        data TEXT NOT NULL,
        personal TEXT,
        prev TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE
    );
    CREATE TRIGGER book_no_update BEFORE UPDATE ON book
    BEGIN SELECT RAISE(ABORT, 'the book is append-only'); END;
    CREATE TRIGGER book_no_delete BEFORE DELETE ON book
    BEGIN SELECT RAISE(ABORT, 'the book is append-only'); END;
    """,
]

KEY_FILE = "book_key.pem"
#: tables whose rows a station had before its book began (the genesis entry counts them)
_COUNTED = (
    "decks",
    "games",
    "rounds",
    "calls",
    "claims",
    "awards",
    "prize_awards",
    "ledger_sales",
    "ledger_corrections",
    "ledger_payouts",
    "ledger_paid_marks",
)


def init_app(app: Flask) -> None:
    from .db import add_migrations

    add_migrations(app, "book", MIGRATIONS)


def key_folder(database: str, instance: str | Path) -> Path:
    """Where the station keeps its book's key: beside its database, so that `serve --db FILE`
    and `book export --db FILE` (and `ledger --db FILE`) find the same key, and a copy of the
    database's folder carries its key. A database in memory has no folder: the instance's."""
    if database in ("", ":memory:") or database.startswith("file:"):
        return Path(instance)
    return Path(database).parent


def station_key(app: Flask | None = None) -> StationKey:
    """The station's Ed25519 key, made once and kept beside the database (book_key.pem)."""

    def load() -> StationKey:
        flask_app = app or current_flask()
        instance = Path(flask_app.instance_path)
        folder = key_folder(hall(flask_app).config.database, instance)
        earlier = instance / KEY_FILE
        if folder != instance and not (folder / KEY_FILE).exists() and earlier.is_file():
            # a station that kept its key in the instance folder while its database was
            # elsewhere: the same key moves beside the database, so its fingerprint (printed on
            # earlier summaries) stays the station's
            pem = kept_secret(folder, KEY_FILE, lambda: earlier.read_text().strip())
        else:
            pem = kept_secret(folder, KEY_FILE, lambda: StationKey.new().to_pem().decode())
        return StationKey.from_pem(pem.encode())

    return area_state("book_key", load, app)


def key_beside(database: str | Path) -> StationKey | None:
    """The key kept beside a database (where the station keeps it), for the command line; None
    when there is none."""
    try:
        return StationKey.from_pem((Path(database).parent / KEY_FILE).read_bytes())
    except OSError:
        return None


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def actor() -> tuple[str, str | None]:
    """(who, the guest's address or None) for the request being served: the laptop, a caller
    login by the hash of its session's or token's secret, else a guest on the Wi-Fi."""
    if not has_request_context():
        return "laptop", None
    address = request.remote_addr
    if from_this_machine(address):
        return "laptop", None
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return "login:" + _short_hash("token:" + header[7:].strip()), None
    if session.get("caller") is True and session.get("csrf"):
        return "login:" + _short_hash("session:" + str(session["csrf"])), None
    return "guest", address


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def append(
    conn: sqlite3.Connection,
    kind: str,
    data: dict[str, Any],
    personal: dict[str, Any] | None = None,
) -> Entry:
    """Write the next entry in the caller's transaction (which must be open: an entry is
    committed with its change or not at all). `personal`: names that a redacted copy hides."""
    if not conn.in_transaction:
        raise RuntimeError(f"the book's {kind!r} entry is written outside a transaction")
    who, address = actor()
    private = {k: v for k, v in (personal or {}).items() if v is not None}
    if address is not None:
        private["address"] = address
    if private:
        private["salt"] = secrets.token_hex(8)
    return _write(conn, kind, who, data, private or None)


def _write(
    conn: sqlite3.Connection,
    kind: str,
    who: str,
    data: dict[str, Any],
    personal: dict[str, Any] | None,
) -> Entry:
    row = conn.execute("SELECT seq, hash FROM book ORDER BY seq DESC LIMIT 1").fetchone()
    prev, seq = (row[1], row[0] + 1) if row else (ORIGIN, 1)
    entry = Entry(seq, now(), kind, who, data, prev, personal or None).sealed()
    conn.execute(
        "INSERT INTO book (seq, at, kind, who, data, personal, prev, hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            entry.seq,
            entry.at,
            entry.kind,
            entry.who,
            canonical(dict(entry.data)).decode(),
            None if entry.personal is None else canonical(dict(entry.personal)).decode(),
            entry.prev,
            entry.hash,
        ),
    )
    return entry


def start(conn: sqlite3.Connection) -> None:
    """At start-up: an empty book begins, with a genesis entry counting what the database
    already held (an upgraded station's earlier nights are summarised, not replayed)."""
    from .db import transaction

    with transaction(conn):
        if conn.execute("SELECT 1 FROM book LIMIT 1").fetchone():
            return
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        counts = {
            t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]  # noqa: S608  # names above
            for t in _COUNTED
            if t in tables
        }
        _write(conn, "genesis", "laptop", {"before": counts}, None)


def head(conn: sqlite3.Connection) -> Head:
    row = conn.execute("SELECT seq, hash FROM book ORDER BY seq DESC LIMIT 1").fetchone()
    return Head(row[0], row[1]) if row else Head(0, ORIGIN)


def signed_head(conn: sqlite3.Connection, app: Flask | None = None) -> SignedHead:
    """The head, signed now (whenever it is shown or exported)."""
    return station_key(app).sign(head(conn))


def entry_of(row: sqlite3.Row) -> Entry:
    import json

    return Entry(
        row["seq"],
        row["at"],
        row["kind"],
        row["who"],
        json.loads(row["data"]),
        row["prev"],
        None if row["personal"] is None else json.loads(row["personal"]),
        row["hash"],
    )


def entries(conn: sqlite3.Connection, night: str | None = None) -> tuple[str, list[Entry]]:
    """(the anchor, the entries) of the whole book or of one night."""
    if night is None:
        rows = conn.execute("SELECT * FROM book ORDER BY seq").fetchall()
    else:
        lo, hi = night_bounds(night)
        rows = conn.execute(
            "SELECT * FROM book WHERE at >= ? AND at < ? ORDER BY seq", (lo, hi)
        ).fetchall()
    found = [entry_of(r) for r in rows]
    anchor = found[0].prev if found else head(conn).hash
    return anchor, found


def exported_head(conn: sqlite3.Connection, key: StationKey, found: list[Entry]) -> SignedHead:
    """The signed head of an export: its own last entry's (a night's export ends there)."""
    last = found[-1] if found else None
    return key.sign(Head(last.seq, last.hash) if last else head(conn))


def shown_head(app: Flask | None = None) -> SignedHead:
    """The head for a page: signed now (its short hash, number and the key's fingerprint are
    what the page shows)."""
    from .db import get_db

    return signed_head(get_db(), app)


def keeper(app: Flask) -> sqlite3.Connection:
    state = hall(app)
    assert state.db_keeper is not None  # init_db ran
    return state.db_keeper
