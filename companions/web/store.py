"""Tables and entries in SQLite: the storage side of the shell (issue 7).

Every change runs inside one BEGIN IMMEDIATE transaction that re-reads the table's history,
replays it through the game's engine with the change applied, and only then writes. Two phones
posting at the same moment are therefore serialised by SQLite and both entries are stored (unless
the second one breaks a rule once the first is in, in which case it gets the engine's message).
"""

from __future__ import annotations

import copy
import json
import secrets
import sqlite3
from dataclasses import dataclass
from typing import Any

from bingo_hall.web.db import transaction
from companions.errors import EntryError
from companions.registry import GameKind

#: no 0/O, 1/I: codes are read aloud and typed on phones
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: 32**8 (about 10**12) codes: even at the 20,000 guesses a minute of issue 20, with no limit,
#: finding one of 50 tables would take about a year (the limits in views.py make it millennia).
#: Shown in two groups of four ("ABCD-EF23"); the QR join is the easy way in. Tables made with
#: 5-letter codes still open.
CODE_LENGTH = 8
CODE_GROUP = 4


@dataclass(frozen=True)
class Table:
    code: str
    game: str
    settings: dict[str, Any]
    players: list[str]
    members: list[list[str]]
    version: int

    @property
    def shown_code(self) -> str:
        """The code as people read it: "ABCD-EF23" (older, short codes as they are)."""
        return shown_code(self.code)


class NoSuchTable(LookupError):
    pass


class NoSuchEntry(LookupError):
    pass


def normalise_code(text: str) -> str:
    """What a player typed or read aloud -> a stored code ("ab-c d2" -> "ABCD2")."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def shown_code(code: str) -> str:
    if len(code) != CODE_LENGTH:
        return code
    return code[:CODE_GROUP] + "-" + code[CODE_GROUP:]


def _new_code(conn: sqlite3.Connection) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not conn.execute("SELECT 1 FROM companion_tables WHERE code = ?", (code,)).fetchone():
            return code


def _row_to_table(row: sqlite3.Row) -> Table:
    return Table(
        code=row["code"],
        game=row["game"],
        settings=json.loads(row["settings"]),
        players=json.loads(row["players"]),
        members=json.loads(row["members"]),
        version=row["version"],
    )


def create_table(
    conn: sqlite3.Connection,
    kind: GameKind,
    settings: dict[str, Any],
    players: list[str],
    members: list[list[str]] | None = None,
    pin_hash: str | None = None,
) -> Table:
    """Store a new table once the engine accepts its settings and players (empty replay)."""
    kind.replay(json.loads(json.dumps(settings)), list(players), [])
    with transaction(conn):
        code = _new_code(conn)
        conn.execute(
            "INSERT INTO companion_tables (code, game, settings, players, members, pin_hash) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                code,
                kind.name,
                json.dumps(settings),
                json.dumps(players),
                json.dumps(members or []),
                pin_hash,
            ),
        )
    return load_table(conn, code)


def load_table(conn: sqlite3.Connection, code: str) -> Table:
    row = conn.execute("SELECT * FROM companion_tables WHERE code = ?", (code,)).fetchone()
    if row is None:
        raise NoSuchTable(code)
    return _row_to_table(row)


def pin_hash(conn: sqlite3.Connection, code: str) -> str | None:
    """A private notebook's salted PIN hash (companions/web/pins.py); None: open to its code."""
    row = conn.execute("SELECT pin_hash FROM companion_tables WHERE code = ?", (code,)).fetchone()
    return None if row is None else row[0]


def table_version(conn: sqlite3.Connection, code: str) -> int | None:
    row = conn.execute("SELECT version FROM companion_tables WHERE code = ?", (code,)).fetchone()
    return None if row is None else row[0]


def history(conn: sqlite3.Connection, code: str) -> list[dict[str, Any]]:
    """Every entry of the table, undone ones included (so an undo can itself be taken back)."""
    rows = conn.execute(
        "SELECT id, payload, player, undone, created_at FROM companion_entries "
        "WHERE table_code = ? ORDER BY id",
        (code,),
    ).fetchall()
    return [
        {
            "id": r["id"],
            "entry": json.loads(r["payload"]),
            "player": r["player"],
            "undone": bool(r["undone"]),
            "at": r["created_at"],
        }
        for r in rows
    ]


def _engine_entries(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The active entries as the engine sees them: the payload plus `id` and `player` (copies,
    so an engine that changes its input cannot change the stored history)."""
    return [
        {**copy.deepcopy(item["entry"]), "id": item["id"], "player": item["player"]}
        for item in items
        if not item["undone"]
    ]


def replay(table: Table, kind: GameKind, items: list[dict[str, Any]]) -> dict[str, Any]:
    return kind.replay(
        json.loads(json.dumps(table.settings)), list(table.players), _engine_entries(items)
    )


def _state(conn: sqlite3.Connection, code: str) -> tuple[int, str | None]:
    row = conn.execute(
        "SELECT version, next_code FROM companion_tables WHERE code = ?", (code,)
    ).fetchone()
    return row["version"], row["next_code"]


def snapshot(conn: sqlite3.Connection, table: Table, kind: GameKind) -> dict[str, Any]:
    """The view, the history, the version and the table to follow ("next", after a "play
    again"), read in one consistent transaction."""
    conn.execute("BEGIN")
    try:
        version, next_code = _state(conn, table.code)
        items = history(conn, table.code)
    finally:
        conn.execute("COMMIT")
    view = replay(table, kind, items)
    return {"view": view, "history": items, "version": version, "next": next_code}


def rematch(conn: sqlite3.Connection, table: Table) -> str:
    """A new table for the same game, players, house rules and PIN; the old one points to it.
    Two phones asking at once get the same new table."""
    with transaction(conn):
        _version, next_code = _state(conn, table.code)
        if next_code:
            return next_code
        code = _new_code(conn)
        conn.execute(
            "INSERT INTO companion_tables (code, game, settings, players, members, pin_hash) "
            "SELECT ?, game, settings, players, members, pin_hash FROM companion_tables "
            "WHERE code = ?",
            (code, table.code),
        )
        conn.execute(
            "UPDATE companion_tables SET next_code = ?, version = version + 1 WHERE code = ?",
            (code, table.code),
        )
        return code


def _bump(conn: sqlite3.Connection, code: str) -> None:
    conn.execute("UPDATE companion_tables SET version = version + 1 WHERE code = ?", (code,))


def _write(conn: sqlite3.Connection, table: Table, kind: GameKind, change) -> dict[str, Any]:
    """Apply `change(conn)` and bump the version, then replay the whole history as it now
    stands, all inside one BEGIN IMMEDIATE: an EntryError rolls the change back, and the replay
    that checked it is the snapshot every phone gets (one replay per change)."""
    with transaction(conn):
        change(conn)
        _bump(conn, table.code)
        items = history(conn, table.code)
        view = replay(table, kind, items)
        version, next_code = _state(conn, table.code)
        return {"view": view, "history": items, "version": version, "next": next_code}


def add_entry(
    conn: sqlite3.Connection,
    table: Table,
    kind: GameKind,
    entry: dict[str, Any],
    player: str | None,
) -> dict[str, Any]:
    """Append an entry if the whole history still replays with it. Returns the snapshot plus
    the new entry's `id`."""
    new_id: list[int] = []

    def insert(c: sqlite3.Connection) -> None:
        cur = c.execute(
            "INSERT INTO companion_entries (table_code, payload, player) VALUES (?, ?, ?)",
            (table.code, json.dumps(entry), player),
        )
        new_id.append(int(cur.lastrowid or 0))  # an INSERT always sets it

    try:
        snap = _write(conn, table, kind, insert)
    except EntryError as exc:
        if new_id and exc.entry_id == new_id[0]:
            exc.entry_id = None  # the entry being posted, which was never stored
        raise
    return {**snap, "id": new_id[0]}


def _find(conn: sqlite3.Connection, code: str, entry_id: int) -> sqlite3.Row:
    row = conn.execute(
        "SELECT id, payload, undone FROM companion_entries WHERE table_code = ? AND id = ?",
        (code, entry_id),
    ).fetchone()
    if row is None:
        raise NoSuchEntry(entry_id)
    return row


def set_undone(
    conn: sqlite3.Connection, table: Table, kind: GameKind, entry_id: int, undone: bool
) -> dict[str, Any]:
    """Undo (or restore) one entry; later entries must still replay without (or with) it."""
    _find(conn, table.code, entry_id)

    def mark(c: sqlite3.Connection) -> None:
        c.execute("UPDATE companion_entries SET undone = ? WHERE id = ?", (int(undone), entry_id))

    return _write(conn, table, kind, mark)


def correct_entry(
    conn: sqlite3.Connection, table: Table, kind: GameKind, entry_id: int, entry: dict[str, Any]
) -> dict[str, Any]:
    """Replace a past entry; the old payload is kept in companion_revisions."""
    if _find(conn, table.code, entry_id)["undone"]:
        raise EntryError("Restore this entry before correcting it", entry_id=entry_id)

    def replace(c: sqlite3.Connection) -> None:
        old = _find(c, table.code, entry_id)["payload"]
        c.execute(
            "INSERT INTO companion_revisions (entry_id, payload) VALUES (?, ?)", (entry_id, old)
        )
        c.execute(
            "UPDATE companion_entries SET payload = ? WHERE id = ?", (json.dumps(entry), entry_id)
        )

    try:
        return _write(conn, table, kind, replace)
    except EntryError as exc:
        if exc.entry_id is None:
            exc.entry_id = entry_id
        raise
