"""Live events: an in-process broker and the Server-Sent Events stream of a game.

Everything a screen shows is in the database first; events only say "this changed". A screen
that connects (or reconnects, which EventSource does by itself after `retry:` ms) first gets a
full `snapshot`, so a projector that was off is right again at once.

Other areas publish their own events (`scores`, `claim`) with `publish()` and add keys to every
snapshot with `register_snapshot_extender()`.
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import current_app, has_app_context

RETRY_MS = 2000
HEARTBEAT_S = 15.0

_lock = threading.Lock()
_subscribers: dict[tuple[str, int], set[queue.Queue]] = {}
_extenders: list[Callable[[sqlite3.Connection, int], dict]] = []


def _channel(game_id: int) -> tuple[str, int]:
    """Games are numbered per database, so two apps in one process (tests) never cross-talk."""
    scope = current_app.config["DATABASE"] if has_app_context() else ""
    return scope, int(game_id)


def publish(game_id: int, event: str, data: dict) -> None:
    """Tell every screen following `game_id`. Call it only after the change is committed."""
    message = format_event(event, data)
    with _lock:
        targets = list(_subscribers.get(_channel(game_id), ()))
    for q in targets:
        q.put(message)


def subscribe(game_id: int) -> queue.Queue:
    q: queue.Queue = queue.Queue()
    with _lock:
        _subscribers.setdefault(_channel(game_id), set()).add(q)
    return q


def unsubscribe(game_id: int, q: queue.Queue, channel: tuple[str, int] | None = None) -> None:
    key = channel or _channel(game_id)
    with _lock:
        subs = _subscribers.get(key)
        if subs is not None:
            subs.discard(q)
            if not subs:
                del _subscribers[key]


def subscriber_count(game_id: int) -> int:
    with _lock:
        return len(_subscribers.get(_channel(game_id), ()))


def open_streams() -> int:
    """Event streams open on this app, all games together: each holds a server thread."""
    scope = _channel(0)[0]
    with _lock:
        return sum(len(subs) for (where, _), subs in _subscribers.items() if where == scope)


def register_snapshot_extender(fn: Callable[[sqlite3.Connection, int], dict]) -> None:
    """`fn(conn, game_id) -> dict` is merged into every snapshot (claims adds `scores`)."""
    if fn not in _extenders:
        _extenders.append(fn)


def extend_snapshot(conn: sqlite3.Connection, game_id: int, snap: dict) -> dict:
    for fn in list(_extenders):
        snap.update(fn(conn, game_id))
    return snap


def format_event(event: str, data: Any) -> str:
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"event: {event}\ndata: {payload}\n\n"


def stream(game_id: int, q: queue.Queue, first: str) -> Iterable[bytes]:
    """The body of an SSE response: retry hint, the snapshot, then events and heartbeats.

    Call it inside the request (it reads the app's database path); the queue is subscribed before
    the snapshot is read, so no event can fall between them, and screens ignore a `call` whose
    seq they already have. The server's close() unsubscribes, even if nothing was sent yet.
    """
    return _Stream(_channel(game_id), game_id, q, first)


class _Stream:
    def __init__(self, channel: tuple[str, int], game_id: int, q: queue.Queue, first: str):
        self.channel, self.game_id, self.q = channel, game_id, q
        self._body = self._lines(first)

    def _lines(self, first: str) -> Iterator[bytes]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        yield first.encode()
        while True:
            try:
                yield self.q.get(timeout=HEARTBEAT_S).encode()
            except queue.Empty:
                yield b": heartbeat\n\n"

    def __iter__(self) -> Iterator[bytes]:
        return self._body

    def close(self) -> None:
        self._body.close()
        unsubscribe(self.game_id, self.q, self.channel)
