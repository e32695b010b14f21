"""The hall's settings for the whole night, kept in the station's database so a restart keeps
them: the language of pages that have no choice yet (`serve --lang`, the caller page) and the
traditional calls after each number on /display (docs/station.md).

A fixed set of keys, each with its fixed set of values: the caller page draws a choice from
`CHOICES`, and the API refuses anything else with a readable 400.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..values import JsonValue
from ..web import book_store as book
from ..web.db import get_db, write_transaction
from ..web.errors import RequestError
from ..web.instance import hall

#: each setting, its values (the first is the default)
CHOICES: dict[str, tuple[Any, ...]] = {
    "lang": (None, "es", "en"),  # None: each browser's own language
    "traditional_calls": (False, True),
}


#: the hub's channel of the hall's settings (nothing follows it; a publish marks the change)
CHANNEL = ("hall", "settings")


@dataclass(frozen=True)
class HallSettings(JsonValue):
    """Every setting of the hall (`CHOICES`' keys), the default where none was saved."""

    lang: str | None
    traditional_calls: bool


def load(conn: sqlite3.Connection) -> HallSettings:
    """Every setting, the default where none was saved."""
    saved = {r["key"]: json.loads(r["value"]) for r in conn.execute("SELECT * FROM hall_settings")}
    return HallSettings(**{k: saved.get(k, values[0]) for k, values in CHOICES.items()})


@dataclass(frozen=True)
class SettingsChange:
    """Some of the hall's settings, each one of its `CHOICES` (all checked when the request is
    read, so none is written when one is wrong)."""

    changes: Mapping[str, object]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SettingsChange:
        for key, value in d.items():
            if key not in CHOICES:
                raise RequestError(
                    "unknown setting %(key)s; use %(keys)s", key=key, keys=", ".join(CHOICES)
                )
            if value not in CHOICES[key] or isinstance(value, bool) != isinstance(
                CHOICES[key][-1], bool
            ):
                shown = ", ".join(json.dumps(v) for v in CHOICES[key])
                raise RequestError("%(key)s is one of %(values)s", key=key, values=shown)
        return cls(dict(d))


def save(conn: sqlite3.Connection, change: SettingsChange) -> HallSettings:
    """Change some settings (all checked when the request was read); returns them all."""
    changes = change.changes
    with write_transaction(conn) as tx:
        for key, value in changes.items():
            conn.execute(
                "INSERT INTO hall_settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value)),
            )
        book.append(conn, "hall_settings", {"changes": dict(changes)})
        tx.commit()
        saved = load(conn)
        # the pages built from them are stale
        hall().hub.publish(CHANNEL, "settings", saved.to_json())
    return saved


def house_language() -> str | None:
    """The language pages open in when the visitor has not chosen one (web.i18n asks this)."""
    return load(get_db()).lang
