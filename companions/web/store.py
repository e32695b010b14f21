"""Tables and their entries in SQLite, read: a table, its history, and its view, the history
replayed through the game's engine (the settings and each entry read from their stored JSON into
the engine's values here, where the JSON is read). Changing a table is `changes.py`.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bingo_hall.values import JsonValue
from bingo_hall.web.db import transaction
from companions.web.registry import GameKind

from . import live, replays
from .codes import new_code, shown_code
from .live import HistoryItem
from .setup import Setting


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
    settings: Mapping[str, Setting],
    players: Sequence[str],
    members: Sequence[Sequence[str]] = (),
    pin_hash: str | None = None,
) -> Table:
    """Store a new table once the engine accepts its settings and players (empty replay)."""
    engine = kind.engine
    engine.replay(engine.settings(settings), tuple(players), [])
    with transaction(conn):
        code = new_code(conn)
        conn.execute(
            "INSERT INTO companion_tables (code, game, settings, players, members, pin_hash) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                code,
                kind.name,
                json.dumps(settings),
                json.dumps(players),
                json.dumps(members),
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


@dataclass(frozen=True)
class NewEntry:
    """An entry a phone sends (or corrects): the game's JSON object, kept as the text that is
    stored, and who at the table sent it (the route checks they are at the table)."""

    payload: str
    player: str | None = None

    @classmethod
    def from_json(cls, entry: Mapping[str, Any], player: str | None = None) -> NewEntry:
        return cls(json.dumps(entry), player)


def history(conn: sqlite3.Connection, code: str) -> list[HistoryItem]:
    """Every entry of the table, undone ones included (so an undo can itself be taken back)."""
    rows = conn.execute(
        "SELECT id, payload, player, undone, created_at FROM companion_entries "
        "WHERE table_code = ? ORDER BY id",
        (code,),
    ).fetchall()
    return [
        HistoryItem(
            r["id"], json.loads(r["payload"]), r["player"], bool(r["undone"]), r["created_at"]
        )
        for r in rows
    ]


def engine_entries(kind: GameKind, items: Iterable[HistoryItem]) -> list[object]:
    """The active entries, each read into the game's entry value from the stored object plus its
    `id` and `player` (from a copy, so an engine cannot change the stored history)."""
    read = kind.engine.entry
    return [
        read({**copy.deepcopy(item.entry), "id": item.id, "player": item.player})
        for item in items
        if not item.undone
    ]


def replay(table: Table, kind: GameKind, items: Iterable[HistoryItem]) -> JsonValue:
    """The table's view: its history replayed by the game's engine (replays.py: in a process
    of its own while the station serves)."""
    settings = kind.engine.settings(table.settings)
    return replays.replay(kind, settings, tuple(table.players), engine_entries(kind, items))


def table_state(conn: sqlite3.Connection, code: str) -> tuple[int, str | None]:
    row = conn.execute(
        "SELECT version, next_code FROM companion_tables WHERE code = ?", (code,)
    ).fetchone()
    return row["version"], row["next_code"]


def snapshot(conn: sqlite3.Connection, table: Table, kind: GameKind) -> live.TableSnap:
    """The view, the history, the version and the table to follow ("next", after a "play
    again"), read in one consistent transaction."""
    conn.execute("BEGIN")
    try:
        version, next_code = table_state(conn, table.code)
        items = history(conn, table.code)
    finally:
        conn.execute("COMMIT")
    view = replay(table, kind, items)
    return live.TableSnap(view, tuple(items), version, next_code)


def snapshot_after(
    conn: sqlite3.Connection, code: str, view: JsonValue, version: int, next_code: str | None
) -> live.TableSnap:
    """What a table's phones get after a change: the new view, the history, the version."""
    return live.TableSnap(view, tuple(history(conn, code)), version, next_code)
