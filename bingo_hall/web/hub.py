"""One event hub per app: every live screen (big screen, card page, phone at a table, the serial
bridge) subscribes to a channel, and a writer publishes each change once, after its commit.

A channel is any hashable value; the areas use ("game", game_id) and ("table", code). The event's
wire text (Server-Sent Events) is made once at publish time and shared by every subscriber.

A subscriber's buffer is bounded: a screen that stops reading (a phone that left the Wi-Fi) is
dropped when its buffer is full, so it never slows the others or the Maestro. A dropped screen
reconnects by itself (EventSource) and starts again from a snapshot.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any

#: events a subscriber may have waiting before it is dropped
QUEUE_SIZE = 256


@dataclass(frozen=True)
class Event:
    """One change, as its name and data (for in-process readers) and as SSE text (for screens)."""

    name: str
    data: Any
    text: str


def sse(event: str, data: Any, event_id: int | None = None) -> str:
    """One Server-Sent Event: `event:`, optional `id:`, then the data as compact JSON."""
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    lines += [f"data: {line}" for line in payload.splitlines()]
    return "\n".join(lines) + "\n\n"


class Subscription:
    """One reader of a channel: a bounded queue filled by the publisher's thread.

    `get(timeout)` gives the next Event, or None when nothing came in time. Once the reader is
    `closed` (it unsubscribed, or it was dropped for not keeping up) `get` returns None at once.
    """

    def __init__(self, hub: EventHub, channel: Hashable, size: int) -> None:
        self.hub, self.channel = hub, channel
        self._queue: queue.Queue[Event | None] = queue.Queue(size)
        self.closed = False
        self.dropped = False

    def deliver(self, event: Event) -> bool:
        """Called by the publisher; never blocks. False when the reader could not keep up."""
        try:
            self._queue.put_nowait(event)
            return True
        except queue.Full:
            return False

    def get(self, timeout: float | None = None) -> Event | None:
        if self.closed:
            return None
        try:
            event = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if event is None:  # the wake-up sent by close()
            return None
        return event

    def close(self) -> None:
        self.hub.unsubscribe(self)

    def _closed(self, dropped: bool) -> None:
        self.closed = True
        self.dropped = self.dropped or dropped
        try:  # wake a reader blocked in get()
            self._queue.put_nowait(None)
        except queue.Full:
            pass


class EventHub:
    def __init__(self, queue_size: int = QUEUE_SIZE) -> None:
        self.queue_size = queue_size
        self._lock = threading.Lock()
        self._channels: dict[Hashable, set[Subscription]] = {}
        self.published = 0  # events published so far (tests wait on it)
        self.dropped = 0  # subscribers dropped for not keeping up

    def subscribe(self, channel: Hashable) -> Subscription:
        sub = Subscription(self, channel, self.queue_size)
        self.attach(sub)
        return sub

    def attach(self, sub: Subscription) -> None:
        """Add a subscriber made elsewhere (an event-loop server brings its own kind)."""
        with self._lock:
            self._channels.setdefault(sub.channel, set()).add(sub)

    def unsubscribe(self, sub: Subscription, *, dropped: bool = False) -> None:
        with self._lock:
            subs = self._channels.get(sub.channel)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._channels[sub.channel]
        sub._closed(dropped)

    def publish(self, channel: Hashable, name: str, data: Any, text: str | None = None) -> Event:
        """Tell every subscriber of `channel`. Call it only after the change is committed."""
        event = Event(name, data, sse(name, data) if text is None else text)
        with self._lock:
            targets = list(self._channels.get(channel, ()))
            self.published += 1
        for sub in targets:
            if not sub.deliver(event):
                self.dropped += 1
                self.unsubscribe(sub, dropped=True)
        return event

    def count(self, channel: Hashable | None = None) -> int:
        """Open subscriptions on one channel, or on all of them."""
        with self._lock:
            if channel is not None:
                return len(self._channels.get(channel, ()))
            return sum(len(subs) for subs in self._channels.values())


#: `on_wake` returns this to end a stream (e.g. the table it follows is gone)
END = object()


class EventStream:
    """The body of a Server-Sent Events response over one subscription: a `retry:` hint, the
    first message (a snapshot), then events as they come and a heartbeat comment when quiet.

    `on_wake(event)` (optional) is called whenever the subscription wakes (with the event, or
    None every `wake_s` seconds) and returns the text to send, None for nothing, or END; without
    it each event's own text is sent. The stream ends after `max_seconds` (EventSource then
    reconnects by itself and starts again from a snapshot), when the subscriber is dropped for
    not keeping up, and when the server closes the response, which unsubscribes and calls
    `on_close`.
    """

    def __init__(
        self,
        sub: Subscription,
        first: str,
        *,
        retry_ms: int,
        heartbeat_s: float,
        wake_s: float | None = None,
        on_wake: Callable[[Event | None], Any] | None = None,
        max_seconds: float | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self.sub = sub
        self._on_close = on_close
        self._body = self._lines(first, retry_ms, heartbeat_s, wake_s, on_wake, max_seconds)

    def _lines(self, first, retry_ms, heartbeat_s, wake_s, on_wake, max_seconds):
        yield f"retry: {retry_ms}\n\n".encode()
        yield first.encode()
        started = quiet = time.monotonic()
        while max_seconds is None or time.monotonic() - started < max_seconds:
            event = self.sub.get(timeout=wake_s or heartbeat_s)
            if event is None and self.sub.closed:
                return
            text = on_wake(event) if on_wake else (event.text if event else None)
            if text is END:
                return
            if text:
                yield text.encode()
                quiet = time.monotonic()
            elif time.monotonic() - quiet >= heartbeat_s:
                yield b": heartbeat\n\n"
                quiet = time.monotonic()

    def __iter__(self) -> Iterator[bytes]:
        return self._body

    def close(self) -> None:
        self._body.close()
        self.sub.close()
        if self._on_close is not None:
            self._on_close()


SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
