"""Live updates: Server-Sent Events for every phone at a table (issue 7: "within a second").

A writer calls `notify(code)` after its commit; each open stream waits on a condition with a
short timeout and then compares the table's version in SQLite, so a change made by another
process on the same database file is still seen within a second.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

#: how often a stream re-checks SQLite even without a notification
POLL_SECONDS = 0.5
#: a comment line this often, so a phone that went away frees its server thread
KEEPALIVE_SECONDS = 10.0
#: streams end after this long; EventSource reconnects by itself and gets the current view
STREAM_SECONDS = 300.0

_changed = threading.Condition()


def notify(code: str) -> None:
    with _changed:
        _changed.notify_all()


def _wait(timeout: float) -> None:
    with _changed:
        _changed.wait(timeout)


class RenderedViews:
    """The last few (table, version) -> SSE text, so N phones at a table cost one replay and one
    JSON encoding per change instead of N."""

    def __init__(self, size: int = 256) -> None:
        self._items: OrderedDict[tuple[str, int], str] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: tuple[str, int]) -> str | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: tuple[str, int], text: str) -> None:
        with self._lock:
            self._items[key] = text
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


def render(snap: dict[str, Any]) -> str:
    """A snapshot as the SSE messages a phone needs: `history`, then `view`, then `next` once
    the players have moved on to a new table."""
    version = snap["version"]
    text = sse("history", snap["history"], version) + sse("view", snap["view"], version)
    if snap.get("next"):
        text += sse("next", {"code": snap["next"]}, version)
    return text


def sse(event: str, data: Any, event_id: int | None = None) -> str:
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines += [f"data: {line}" for line in json.dumps(data, separators=(",", ":")).splitlines()]
    return "\n".join(lines) + "\n\n"


def stream(
    version_of: Callable[[], int | None],
    events_for: Callable[[int], tuple[int, str]],
    close: Callable[[], None],
    *,
    stream_seconds: float = STREAM_SECONDS,
) -> Iterator[str]:
    """Yield `history` then `view` events whenever the table's version moves.

    `events_for(version)` returns the rendered messages and the version they show (which may
    be newer than asked if another change landed meanwhile)."""
    try:
        yield "retry: 1000\n\n"
        last: int | None = None
        quiet_since = started = time.monotonic()
        while time.monotonic() - started < stream_seconds:
            version = version_of()
            if version is None:
                return
            if version != last:
                last, text = events_for(version)
                yield text
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > KEEPALIVE_SECONDS:
                yield ": keepalive\n\n"
                quiet_since = time.monotonic()
            _wait(POLL_SECONDS)
    finally:
        close()
