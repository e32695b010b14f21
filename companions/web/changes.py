"""Changing a table: an entry added, undone or corrected, and the rematch.

Every change re-reads the table's history and replays it through the game's engine with the
change applied, holding only this process's companions writer lock (never SQLite's
writer, which the station's draws need), then stores it in a short BEGIN IMMEDIATE transaction
if nothing changed meanwhile. Two phones posting at the same moment are serialised by that lock
and both entries are stored (unless the second one breaks a rule once the first is in, in which
case it gets the engine's message). A table keeps at most COMPANIONS_MAX_ENTRIES entries and
COMPANIONS_MAX_TABLE_BYTES of them and of their old versions (COMPANIONS_MAX_REVISIONS per
entry): the history is kept, but bounded (the hall's config, bingo_hall/web/config.py).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bingo_hall.web.config import HallConfig
from bingo_hall.web.db import connect, transaction
from bingo_hall.web.hub import END
from bingo_hall.web.instance import HallState, area_state, hall
from companions.errors import EntryError
from companions.web.registry import GameKind

from . import live, store
from .codes import new_code
from .live import HistoryItem
from .store import NewEntry, NoSuchEntry, Table, history, snapshot, table_state, table_version


def rematch(conn: sqlite3.Connection, table: Table, kind: GameKind) -> str:
    """A new table for the same game, players, house rules and PIN; the old one points to it,
    and every phone at the old table is told. Two phones asking at once get the same new table."""
    state = hall()
    with _writer_lock(conn):  # never the station's write lock: draws need that one
        with transaction(conn):
            _version, next_code = table_state(conn, table.code)
            if next_code:
                code = next_code
            else:
                code = new_code(conn)
                conn.execute(
                    "INSERT INTO companion_tables (code, game, settings, players, members, "
                    "pin_hash) SELECT ?, game, settings, players, members, pin_hash "
                    "FROM companion_tables WHERE code = ?",
                    (code, table.code),
                )
                conn.execute(
                    "UPDATE companion_tables SET next_code = ?, version = version + 1 "
                    "WHERE code = ?",
                    (code, table.code),
                )
        _tell(state, table.code, snapshot(conn, table, kind))
    return code


def _tell(state: HallState, code: str, snap: live.TableSnap) -> None:
    """Publish the table's new view, after the commit, holding the writer lock (so a table's
    phones get its changes in commit order; the station's write lock is the draws')."""
    live.publish(state.hub, live.TableChanged(code, snap), live.rendered_views())


def watch_check(database: str, table: Table, kind: GameKind) -> Callable[[], Any]:
    """The once-a-second check of one followed table (`EventHub.watch`): publish its view when
    its version moved without an event here (another process wrote the file), END when the
    table is gone. It runs in the hub's watcher thread, so it keeps what it needs of the app."""
    state = hall()
    rendered = live.rendered_views()

    def check() -> Any:
        conn = connect(database)
        try:
            with _writer_lock(conn):
                version = table_version(conn, table.code)
                if version is None:
                    return END
                if version == rendered.told.get(table.code):
                    return None
                snap = snapshot(conn, table, kind)
                live.publish(state.hub, live.TableChanged(table.code, snap), rendered)
        finally:
            conn.close()
        return None

    return check


def _bump(conn: sqlite3.Connection, code: str) -> None:
    conn.execute("UPDATE companion_tables SET version = version + 1 WHERE code = ?", (code,))


# --- bounds (the hall's config: COMPANIONS_MAX_ENTRIES, _TABLE_BYTES, _REVISIONS) ---------------
def _table_full(config: HallConfig) -> EntryError:
    """What a phone is told when its table is full (the history is kept, so it stays)."""
    return EntryError(
        "This table is full: it keeps at most %(entries)s entries and %(mb)s MB of notes. "
        "Start a new table to go on.",
        entries=config.companions_max_entries,
        mb=f"{config.companions_max_table_bytes / 1_000_000:g}",
    )


def _kept_bytes(conn: sqlite3.Connection, code: str) -> int:
    row = conn.execute(
        "SELECT (SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM companion_entries "
        "WHERE table_code = :code) + (SELECT COALESCE(SUM(LENGTH(r.payload)), 0) "
        "FROM companion_revisions r JOIN companion_entries e ON e.id = r.entry_id "
        "WHERE e.table_code = :code)",
        {"code": code},
    ).fetchone()
    return int(row[0])


# --- writing: the replay outside SQLite's writer -----------------------------------------------
#: one companions writer at a time in this process (per database file), so that the replay that
#: checks a change runs BEFORE the SQLite write lock is taken, and is not overtaken meanwhile: a
#: new entry's id is the whole file's next one, so an entry on ANY table stored between the read
#: and the write would send the change round again, and after TRIES rounds into a replay inside
#: the write transaction (with a lock per table, under ten tables' floods most entries went that
#: way). The replays share one worker process anyway (replays.py): serialising them costs little.
#: A flood of entries queues here, among the guests' workers; the station's draws never wait for
#: a replay.
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()
#: tries of the optimistic write (another process on the same file may write in between);
#: after them the change is replayed and written inside one transaction, which holds SQLite's
#: writer throughout
TRIES = 3


@dataclass
class WriteRounds:
    """How the changes went (on the app's state; tests and benchmarks read it): `rounds`, the
    reads and replays made; `in_transaction`, the changes replayed inside the write transaction
    (TRIES rounds overtaken), each holding SQLite's writer for a replay."""

    rounds: int = 0
    in_transaction: int = 0


def write_rounds() -> WriteRounds:
    return area_state("companions_write_rounds", WriteRounds)


def _writer_lock(conn: sqlite3.Connection) -> threading.Lock:
    path = conn.execute("PRAGMA database_list").fetchone()[2] or f"memory:{id(conn)}"
    with _locks_guard:
        return _locks.setdefault(path, threading.Lock())


def _next_id(conn: sqlite3.Connection) -> int:
    row = conn.execute(
        "SELECT seq FROM sqlite_sequence WHERE name = 'companion_entries'"
    ).fetchone()
    return (row[0] if row else 0) + 1


#: a change: (the history as it stands, the id a new entry would get) -> (the history with the
#: change applied, the SQL that makes it, the bytes it adds)
Change = tuple[list[HistoryItem], Callable[[sqlite3.Connection], None], int]
Plan = Callable[[list[HistoryItem], int], Change]


def _write(conn: sqlite3.Connection, table: Table, kind: GameKind, plan: Plan) -> live.TableSnap:
    """Apply a change if the whole history still replays with it, and bump the version. The
    history is read and replayed with the change applied in memory, holding only this process's
    companions writer lock; SQLite's writer is taken after, for the few statements that store
    it, and only if nothing changed meanwhile (else the read and replay are done again). An
    EntryError stores
    nothing; the replay that checked the change is the snapshot every phone gets."""
    config = hall().config
    counts = write_rounds()
    with _writer_lock(conn):
        for _ in range(TRIES):
            counts.rounds += 1
            conn.execute("BEGIN")
            try:
                version, next_code = table_state(conn, table.code)
                items, next_id = history(conn, table.code), _next_id(conn)
                kept = _kept_bytes(conn, table.code)
            finally:
                conn.execute("COMMIT")
            changed, write, added = plan(items, next_id)
            if (
                len(changed) > config.companions_max_entries
                or kept + added > config.companions_max_table_bytes
            ):
                raise _table_full(config)
            view = store.replay(table, kind, changed)
            with transaction(conn):
                if (table_state(conn, table.code)[0], _next_id(conn)) != (version, next_id):
                    continue  # another writer came in between: read and replay again
                write(conn)
                _bump(conn, table.code)
                snap = store.snapshot_after(conn, table.code, view, version + 1, next_code)
            _tell(hall(), table.code, snap)  # after the commit, holding the writer lock
            return snap
        counts.in_transaction += 1
        with transaction(conn):  # a busy file: replayed and written in one transaction
            version, next_code = table_state(conn, table.code)
            changed, write, _added = plan(history(conn, table.code), _next_id(conn))
            view = store.replay(table, kind, changed)
            write(conn)
            _bump(conn, table.code)
            snap = store.snapshot_after(conn, table.code, view, version + 1, next_code)
        _tell(hall(), table.code, snap)
        return snap


def add_entry(
    conn: sqlite3.Connection,
    table: Table,
    kind: GameKind,
    entry: NewEntry,
) -> live.Posted:
    """Append an entry if the whole history still replays with it. Returns the snapshot plus
    the new entry's `id`."""
    payload, player = entry.payload, entry.player
    new_id: list[int] = []

    def plan(items: list[HistoryItem], next_id: int) -> Change:
        new_id[:] = [next_id]
        item = HistoryItem(next_id, json.loads(payload), player, False, None)

        def insert(c: sqlite3.Connection) -> None:
            c.execute(
                "INSERT INTO companion_entries (id, table_code, payload, player) "
                "VALUES (?, ?, ?, ?)",
                (next_id, table.code, payload, player),
            )

        return [*items, item], insert, len(payload)

    try:
        snap = _write(conn, table, kind, plan)
    except EntryError as exc:
        if new_id and exc.entry_id == new_id[0]:
            exc.entry_id = None  # the entry being posted, which was never stored
        raise
    return live.Posted(snap, new_id[0])


def _find(conn: sqlite3.Connection, code: str, entry_id: int) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT id, payload, undone FROM companion_entries WHERE table_code = ? AND id = ?",
        (code, entry_id),
    ).fetchone()
    if row is None:
        raise NoSuchEntry(entry_id)
    return row


def set_undone(
    conn: sqlite3.Connection, table: Table, kind: GameKind, entry_id: int, undone: bool
) -> live.TableSnap:
    """Undo (or restore) one entry; later entries must still replay without (or with) it."""
    _find(conn, table.code, entry_id)

    def plan(items: list[HistoryItem], _next_id: int) -> Change:
        changed = [dataclasses.replace(i, undone=undone) if i.id == entry_id else i for i in items]

        def mark(c: sqlite3.Connection) -> None:
            c.execute(
                "UPDATE companion_entries SET undone = ? WHERE id = ?", (int(undone), entry_id)
            )

        return changed, mark, 0

    return _write(conn, table, kind, plan)


def correct_entry(
    conn: sqlite3.Connection, table: Table, kind: GameKind, entry_id: int, entry: NewEntry
) -> live.TableSnap:
    """Replace a past entry; the old payload is kept in companion_revisions (the newest
    COMPANIONS_MAX_REVISIONS of them per entry)."""
    kept = hall().config.companions_max_revisions
    if _find(conn, table.code, entry_id)["undone"]:
        raise EntryError("Restore this entry before correcting it", entry_id=entry_id)
    payload = entry.payload

    def plan(items: list[HistoryItem], _next_id: int) -> Change:
        changed = [
            dataclasses.replace(i, entry=json.loads(payload)) if i.id == entry_id else i
            for i in items
        ]

        def replace(c: sqlite3.Connection) -> None:
            stored = _find(c, table.code, entry_id)["payload"]
            c.execute(
                "INSERT INTO companion_revisions (entry_id, payload) VALUES (?, ?)",
                (entry_id, stored),
            )
            c.execute(
                "DELETE FROM companion_revisions WHERE entry_id = ? AND id NOT IN (SELECT id "
                "FROM companion_revisions WHERE entry_id = ? ORDER BY id DESC LIMIT ?)",
                (entry_id, entry_id, kept),
            )
            c.execute("UPDATE companion_entries SET payload = ? WHERE id = ?", (payload, entry_id))

        return changed, replace, len(payload)

    try:
        return _write(conn, table, kind, plan)
    except EntryError as exc:
        if exc.entry_id is None:
            exc.entry_id = entry_id
        raise
