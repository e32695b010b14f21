"""One event hub per app: every live screen (big screen, card page, phone at a table, the serial
bridge) subscribes to a channel, and a writer publishes each change once, after its commit.

A channel is any hashable value; the areas use ("game", game_id) and ("table", code). The event's
wire text (Server-Sent Events) is made once at publish time and shared by every subscriber.

A subscriber's buffer is bounded: a screen that stops reading (a phone that left the Wi-Fi) is
dropped when its buffer is full, so it never slows the others or the Maestro. A dropped screen
reconnects by itself (the pages' live.js) and starts again from a snapshot.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Generator, Hashable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from flask import Response

V = TypeVar("V")


@dataclass(frozen=True)
class Event:
    """One change, as its name and data (for in-process readers) and as SSE text (for screens),
    encoded once for every screen (`wire`)."""

    name: str
    data: Any
    text: str
    wire: bytes


def sse(event: str, data: Any, event_id: int | None = None) -> str:
    """One Server-Sent Event: `event:`, optional `id:`, then the data as compact JSON on ONE
    `data:` line. The JSON is pure ASCII (`ensure_ascii`): every character a guest may put in a
    string (U+2028, U+0085, a lone CR...) is written as a `\\uXXXX` escape, so nothing inside
    the data can end the line, whoever splits the stream into lines and however."""
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, separators=(",", ":"), ensure_ascii=True))
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
        """Called by the publisher (holding the hub's lock); never blocks. False when the reader
        could not keep up."""
        try:
            self._queue.put_nowait(event)
            return True
        except queue.Full:
            return False

    def pending(self) -> list[Event]:
        """The events waiting, taken out (for a hand-over)."""
        out: list[Event] = []
        while True:
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                return out
            if event is not None:
                out.append(event)

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


class Held(Subscription):
    """A subscription held by a screen opened on the event loop only from its snapshot until its
    channel's relay takes it over (relay.py, `EventHub.hand_over`, in the same turn of the loop):
    the events of that moment in a plain list, filled and emptied under the hub's lock. No queue,
    no lock or condition of its own: a join storm makes a thousand."""

    def __init__(self, hub: EventHub, channel: Hashable, size: int) -> None:
        self.hub, self.channel, self.size = hub, channel, size
        self.held: list[Event] = []
        self.closed = False
        self.dropped = False

    def deliver(self, event: Event) -> bool:
        if len(self.held) >= self.size:
            return False
        self.held.append(event)
        return True

    def pending(self) -> list[Event]:  # (called under the hub's lock: `hand_over`)
        held, self.held = self.held, []
        return held

    def get(self, timeout: float | None = None) -> Event | None:
        """Never waits: the first event held, if any (a held subscription is handed over to a
        relay, not read)."""
        with self.hub._lock:
            return self.held.pop(0) if self.held else None

    def _closed(self, dropped: bool) -> None:
        self.closed = True
        self.dropped = self.dropped or dropped


#: how often the watcher thread looks for checks that are due
WATCH_TICK_S = 0.25

#: a watch's `check` returns this to end its channel's streams (e.g. the table is gone)
END = object()


class EventHub:
    """`queue_size`: the events a subscriber may have waiting before it is dropped (the hall's
    STREAM_QUEUE_SIZE, web/config.py)."""

    def __init__(self, queue_size: int) -> None:
        self.queue_size = queue_size
        self._lock = threading.Lock()
        self._channels: dict[Hashable, set[Subscription]] = {}
        self.published = 0  # events published so far (tests wait on it)
        self.dropped = 0  # subscribers dropped for not keeping up
        self._watches: dict[Hashable, tuple[Callable[[], Any], float]] = {}
        self._watcher: threading.Thread | None = None
        #: called with (channel, event) for every event, in publish order, under the hub's lock
        #: (the relay to the phones' process, web/event_link.py), and with (channel, None) when
        #: a channel is ended; each must never block
        self.taps: list[Callable[[Hashable, Event | None], None]] = []

    def subscribe(self, channel: Hashable, held: bool = False) -> Subscription:
        """A reader of `channel`; `held`: one the event loop's relay takes over at once (`Held`)."""
        sub = (Held if held else Subscription)(self, channel, self.queue_size)
        self.attach(sub)
        return sub

    def attach(self, sub: Subscription) -> None:
        """Add a subscriber made elsewhere (an event-loop server brings its own kind)."""
        with self._lock:
            self._channels.setdefault(sub.channel, set()).add(sub)

    def unsubscribe(self, sub: Subscription, *, dropped: bool = False) -> None:
        with self._lock:
            self._remove(sub)
        sub._closed(dropped)

    def _remove(self, sub: Subscription) -> None:
        subs = self._channels.get(sub.channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._channels[sub.channel]

    def hand_over(self, old: Subscription, new: Subscription) -> list[Event]:
        """Atomically replace `old` by `new` on old's channel (`new` may already be there, e.g. one
        subscriber for all of an event loop's screens on a channel) and give the events `old` was
        still holding: each event then goes to exactly one of them, none is lost or doubled."""
        with self._lock:
            self._remove(old)
            self._channels.setdefault(new.channel, set()).add(new)
            return old.pending()

    def publish(self, channel: Hashable, name: str, data: Any, text: str | None = None) -> Event:
        """Tell every subscriber of `channel`. Call it only after the change is committed.

        Deliveries happen under the hub's lock (each is a non-blocking put), so events reach a
        channel's subscribers in the order they were published, and a hand-over is atomic."""
        text = sse(name, data) if text is None else text
        event = Event(name, data, text, text.encode())
        dropped = []
        with self._lock:
            self.published += 1
            for tap in self.taps:
                tap(channel, event)
            for sub in list(self._channels.get(channel, ())):
                if not sub.deliver(event):
                    self.dropped += 1
                    self._remove(sub)
                    dropped.append(sub)
        for sub in dropped:
            sub._closed(True)
        return event

    def end(self, channel: Hashable) -> None:
        """Close every subscription of `channel` (e.g. the table it follows is gone)."""
        with self._lock:
            targets = list(self._channels.get(channel, ()))
            for tap in self.taps:
                tap(channel, None)
        for sub in targets:
            self.unsubscribe(sub)

    def watch(self, channel: Hashable, check: Callable[[], Any], every_s: float) -> None:
        """Call `check()` every `every_s` seconds while `channel` has subscribers: ONE check per
        channel however many screens follow it (e.g. a table's version in SQLite, which another
        process may change). `check` publishes what it finds itself; it returns END to end the
        channel's streams. The watcher thread starts with the first watch and stops when idle."""
        with self._lock:
            self._watches.setdefault(channel, (check, every_s))
            if self._watcher is None or not self._watcher.is_alive():
                self._watcher = threading.Thread(
                    target=self._watch_loop, name="hub-watch", daemon=True
                )
                self._watcher.start()

    def _watch_loop(self) -> None:
        due: dict[Hashable, float] = {}
        while True:
            with self._lock:
                for channel in [c for c in self._watches if c not in self._channels]:
                    del self._watches[channel]
                    due.pop(channel, None)
                if not self._watches:
                    self._watcher = None
                    return
                watches = list(self._watches.items())
            now = time.monotonic()
            for channel, (check, every_s) in watches:
                if due.setdefault(channel, now + every_s) > now:
                    continue
                due[channel] = now + every_s
                try:
                    if check() is END:
                        self.end(channel)
                except Exception:  # a failing check must not stop the other channels'
                    logging.getLogger(__name__).exception("watch of %r failed", channel)
            time.sleep(WATCH_TICK_S)

    def count(self, channel: Hashable | None = None) -> int:
        """Open subscriptions on one channel, or on all of them."""
        with self._lock:
            if channel is not None:
                return len(self._channels.get(channel, ()))
            return sum(len(subs) for subs in self._channels.values())


#: the attribute `live_stream` sets on a view
LIVE_STREAM = "live_stream"


def live_stream(view: V) -> V:
    """Mark a Flask view as a live stream: the station's server (bingo_hall.web.server) opens it
    in the streams' own small pool and its event loop writes the EventStream the view answers
    with (`EventStream.response()`), so the screen holds no thread while it follows."""
    setattr(view, LIVE_STREAM, True)
    return view


#: the WSGI environ key under which a view leaves its EventStream for an event-loop server
ENVIRON_KEY = "bingo_hall.event_stream"


#: the comment a quiet stream sends (it also finds a screen that went away)
HEARTBEAT = b": heartbeat\n\n"


class StreamPace:
    """When a live stream sends what: which events it skips, when a quiet stream owes a
    heartbeat, and when it has run its `max_seconds` (then the page reconnects by itself, live.js,
    and starts again from a snapshot). One rule for both writers of a stream: `EventStream` (a WSGI
    server's thread) and the station's event loop (`bingo_hall.web.server`). `now` is any
    monotonic clock in seconds, the same one for every call."""

    __slots__ = ("skip", "heartbeat_s", "ends", "quiet")

    def __init__(
        self, now: float, heartbeat_s: float, max_seconds: float | None, skip: frozenset[str]
    ) -> None:
        self.skip = skip
        self.heartbeat_s = heartbeat_s
        self.ends = now + max_seconds if max_seconds else None
        self.quiet = now  # when the stream last sent something

    def takes(self, name: str) -> bool:
        """This screen takes events of this name."""
        return name not in self.skip

    def sent(self, now: float) -> None:
        self.quiet = now

    def over(self, now: float) -> bool:
        """The stream has run its time."""
        return self.ends is not None and now >= self.ends

    def heartbeat_due(self, now: float) -> bool:
        return now - self.quiet >= self.heartbeat_s


class EventStream:
    """The body of a Server-Sent Events response over one subscription: a `retry:` hint, the
    first message (a snapshot), then each event's text as it comes and a heartbeat comment when
    quiet.

    `skip` names events this screen does not take (e.g. the big screen's claim verdicts on a phone
    following its card): with a thousand phones, an event only the projector shows then costs
    the phones nothing.

    The stream ends after `max_seconds` (the page, live.js, then reconnects by itself and
    starts again from a snapshot), when the subscriber is dropped for not keeping up or its
    channel is ended (`EventHub.end`), and when the server closes the response, which
    unsubscribes and calls `on_close`.

    Under the station's server (bingo_hall.web.server) the view only opens the stream: `response()`
    leaves it in the request's environ and the event loop writes it to the screen, so an open
    screen holds no thread. Any other WSGI server (or Flask's test client) iterates it here.
    """

    def __init__(
        self,
        sub: Subscription,
        first: str,
        *,
        retry_ms: int,
        heartbeat_s: float,
        max_seconds: float | None = None,
        on_close: Callable[[], None] | None = None,
        skip: frozenset[str] = frozenset(),
    ) -> None:
        self.sub = sub
        self.skip = skip
        self.head = f"retry: {retry_ms}\n\n{first}".encode()
        self.heartbeat_s = heartbeat_s
        self.max_seconds = max_seconds
        self._on_close = on_close
        self._closed = False
        self._body = self._lines()

    def pace(self, now: float) -> StreamPace:
        """The stream's timing and filter, started at `now`."""
        return StreamPace(now, self.heartbeat_s, self.max_seconds, self.skip)

    def _lines(self) -> Generator[bytes, None, None]:
        yield self.head
        pace = self.pace(time.monotonic())
        while not pace.over(time.monotonic()):
            event = self.sub.get(timeout=self.heartbeat_s)
            if event is None and self.sub.closed:
                return
            if event is not None and pace.takes(event.name):
                yield event.wire
                pace.sent(time.monotonic())
            elif pace.heartbeat_due(time.monotonic()):
                yield HEARTBEAT
                pace.sent(time.monotonic())

    def response(self) -> Response:
        """The Flask response for this stream (and the hand-over to an event-loop server)."""
        from flask import Response, request

        request.environ[ENVIRON_KEY] = self
        return Response(self, mimetype="text/event-stream", headers=SSE_HEADERS)

    def __iter__(self) -> Iterator[bytes]:
        return self._body

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._body.close()
        self.sub.close()
        if self._on_close is not None:
            self._on_close()


SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
