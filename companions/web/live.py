"""Live updates for every phone at a table, each within a second of the change, over the app's event
hub: the store (the only writer) publishes a `TableChanged` on the table's channel after its
commit, holding the app's write lock, and each open stream then sends the table's view at its
newest version (the SSE messages `history`, `view` and `next`).

One watch per followed table (EventHub.watch) also looks at the table's version in SQLite every
`COMPANIONS_POLL_S` (a second), so a change made by another process on the same database file
is still seen within a second: one query per table a second, however many phones follow it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, ClassVar

from bingo_hall.values import JsonValue
from bingo_hall.web.hub import EventHub, sse
from bingo_hall.web.instance import area_state

#: the stream's `retry:`, for a client that lets EventSource reconnect by itself (the shell's
#: live.js closes an ended stream and comes back after a random time below 1 s instead). The
#: stream's length, its heartbeat and how often a followed table is re-checked in SQLite are the
#: app's configuration: COMPANIONS_STREAM_SECONDS, COMPANIONS_KEEPALIVE_S, COMPANIONS_POLL_S in
#: bingo_hall/web/config.py.
RETRY_MS = 1000


def channel(code: str) -> tuple[str, str]:
    """The hub channel of a table's phones."""
    return ("table", code)


class RenderedViews:
    """The last few (table, version) -> SSE text, so N phones at a table cost one replay and one
    JSON encoding per change instead of N."""

    def __init__(self, size: int = 256) -> None:
        self._items: OrderedDict[tuple[str, int], str] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size
        #: the newest version published on each table's channel
        self.told: dict[str, int] = {}

    def get(self, key: tuple[str, int]) -> str | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: tuple[str, int], text: str) -> None:
        with self._lock:
            self._items[key] = text
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


@dataclass(frozen=True)
class HistoryItem(JsonValue):
    """An entry of a table's history: its id, the game's own JSON object as a phone sent it
    (its engine reads it), who sent it, whether it is undone, and when it was stored (None for
    one being checked before it is)."""

    id: int
    entry: dict[str, Any]
    player: str | None
    undone: bool
    at: str | None


@dataclass(frozen=True)
class TableSnap(JsonValue):
    """What a table's phones get: the view (its history replayed by the game's engine), the
    history, the version and the table to follow (`next`, after a "play again")."""

    view: JsonValue
    history: tuple[HistoryItem, ...]
    version: int
    next: str | None


@dataclass(frozen=True)
class Posted(JsonValue):
    """A new entry's answer: the table's snapshot with the entry's `id`."""

    snap: TableSnap
    id: int

    def to_json(self) -> dict[str, Any]:
        return {**self.snap.to_json(), "id": self.id}


def render(snap: TableSnap) -> str:
    """A snapshot as the SSE messages a phone needs: `history`, then `view`, then `next` once
    the players have moved on to a new table."""
    version = snap.version
    text = sse("history", [h.to_json() for h in snap.history], version) + sse(
        "view", snap.view.to_json(), version
    )
    if snap.next:
        text += sse("next", {"code": snap.next}, version)
    return text


@dataclass(frozen=True)
class TableChanged:
    """A table's entries changed (or it points to a rematch): its phones get the new view."""

    NAME: ClassVar[str] = "changed"
    #: the SSE messages a phone receives for it (its text is the rendered snapshot)
    MESSAGES: ClassVar[tuple[str, ...]] = ("history", "view", "next")

    code: str
    snapshot: TableSnap

    def to_json(self) -> dict[str, Any]:
        return {"version": self.snapshot.version}


def publish(hub: EventHub, event: TableChanged, rendered: RenderedViews) -> None:
    """Tell every phone at the table (the store calls it after its commit, under the write
    lock); the rendered text is kept so a phone that connects now costs no replay."""
    text = render(event.snapshot)
    rendered.put((event.code, event.snapshot.version), text)
    rendered.told[event.code] = event.snapshot.version
    hub.publish(channel(event.code), event.NAME, event.to_json(), text=text)


def rendered_views() -> RenderedViews:
    """The app's cache of rendered views (in the app's state, never a module global)."""
    return area_state("companions_rendered", RenderedViews)
