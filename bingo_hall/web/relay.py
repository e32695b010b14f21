"""The live event relay: the station's open screens (live streams), written by the event loop.

A live stream (a view that answers with `EventStream.response()`) is opened on the event loop
itself when an area can open it from what it keeps (`HallState.loop_streams`: a game's stream
from its kept snapshot, station/api.py `game_stream_on_loop`; in a join storm every phone opens
one), else by its Flask view in a small pool of its own (the snapshot is read there); then it is
written by the event loop: an open screen costs a socket and a few KB, never a thread. The hub
has ONE subscriber per channel for all the loop's screens (`Relay`): a publish wakes the loop
once, and the loop frames the event once and writes it to each screen's socket.

A slow or dead screen is dropped after a bounded buffer: while its socket is full it keeps at
most the hub's queue size of events, then it is cut off (a connection whose socket stays full
for SEND_STALL_S is aborted by the connection itself, server.py).

What this module asks of a connection is `Connection` (`write_paused`, `now`, `transport`,
`live`; and `response_chunked`, `one_write` of one whose requests go to the app:
`AppConnection`): server.py's `HallConnection` and `UvicornConnection` give it, and only server.py
knows uvicorn's internals.

One idea in one module: a live stream on the event loop, from its opening to its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from a2wsgi.wsgi import Body, build_environ

from .admission import Receive, Send
from .hub import (
    ENVIRON_KEY,
    HEARTBEAT,
    SSE_HEADERS,
    Event,
    EventHub,
    EventStream,
    Subscription,
)
from .instance import hall
from .security import HEADERS

#: a stream's answer as Flask gives it (`EventStream.response()` and the security headers), for
#: a stream opened on the loop (`LiveStreams.open_here`)
STREAM_HEADERS = [
    (name.lower().encode("latin1"), value.encode("latin1"))
    for name, value in (
        ("Content-Type", "text/event-stream; charset=utf-8"),
        *SSE_HEADERS.items(),
        *HEADERS.items(),
    )
]


class Connection(Protocol):
    """What a live stream needs of the connection it is written to (server.py)."""

    transport: Any
    live: Live | None
    #: admitted into the room kept for phones with a card (admission.Trial): its first request
    #: must show one
    on_trial: bool

    @property
    def write_paused(self) -> bool: ...

    def now(self) -> float: ...


class AppConnection(Connection, Protocol):
    """A connection whose requests go to the ASGI app (server.py's `UvicornConnection`): what a
    stream opened by the app, and an answer made in one write, need of it too."""

    def response_chunked(self, scope: dict[str, Any]) -> bool: ...

    def one_write(self) -> contextlib.AbstractContextManager[None]: ...


#: the longest an event waits for a Maestro's answer to be written before it goes to the screens
#: (a draw's answer takes milliseconds; a deck's load may take seconds)
MAX_HOLD_S = 0.2

#: the connection (protocol) a request came in on: set while uvicorn reads the request, so the
#: task it starts for the ASGI app inherits it (contextvars) and a live stream can write to it
current_connection: contextvars.ContextVar[AppConnection | None] = contextvars.ContextVar(
    "bingo_hall_connection", default=None
)


def one_write() -> contextlib.AbstractContextManager[None]:
    """What the request being answered writes within it goes to its socket in one write (the
    response's head and its body: `Connection.one_write`); as it comes outside the station's
    HTTP protocol."""
    conn = current_connection.get()
    return _AS_MADE if conn is None else conn.one_write()


_AS_MADE = contextlib.nullcontext()


def chunk(data: bytes) -> bytes:
    """`data` as one HTTP/1.1 chunk, as h11 and httptools frame it (empty: nothing, since an
    empty chunk would end the answer)."""
    return b"%x\r\n%s\r\n" % (len(data), data) if data else b""


class Ending:
    """Set when a stream must end (the channel ended, the client left or fell behind, the server
    stops, its time is up): whoever follows the stream is told on the loop's next turn, never
    inside the loop that set it (a relay's fan-out, the tick). A stream written at its head is
    followed by a callback (`then`), one the app writes by a task that awaits `wait()`."""

    __slots__ = ("done", "then", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.done = False
        self.then: Callable[[], None] | None = None
        self.loop = loop

    def is_set(self) -> bool:
        return self.done

    def set(self) -> None:
        if not self.done:
            self.done = True
            if self.then is not None:
                self.loop.call_soon(self.then)

    def on_end(self, then: Callable[[], None]) -> None:
        """Tell `then` when the stream must end (on the loop's next turn; at once if it must
        already)."""
        self.then = then
        if self.done:
            self.loop.call_soon(then)

    async def wait(self) -> None:
        if not self.done:
            told: asyncio.Future[None] = self.loop.create_future()

            def tell() -> None:
                if not told.done():
                    told.set_result(None)

            self.on_end(tell)
            await told


class Live:
    """One open screen on the event loop: its connection, and the events it could not be given
    yet because its socket was full (bounded: past the hub's queue size it is dropped)."""

    __slots__ = ("conn", "transport", "chunked", "flag", "pace", "backlog")

    def __init__(self, stream: EventStream, conn: Connection, chunked: bool, now: float) -> None:
        self.conn, self.transport, self.chunked = conn, conn.transport, chunked
        self.flag = Ending(asyncio.get_running_loop())  # set when the stream must end
        self.pace = stream.pace(now)  # skips, heartbeats and the end: the same rule as WSGI's
        self.backlog: list[bytes] | None = None

    @property
    def skip(self) -> frozenset[str]:
        return self.pace.skip

    def frame(self, data: bytes) -> bytes:
        """HTTP/1.1 chunk framing, as h11 would write it (HTTP/1.0: the bytes as they are)."""
        return chunk(data) if self.chunked else data

    def push(self, chunk: bytes, limit: int) -> bool:
        """Write one event's chunk, or keep it while the socket is full. False: over `limit`."""
        if self.flag.is_set() or self.transport.is_closing():
            return True  # ended, or the client left (its stream ends when the loop hears it)
        if self.backlog is None and not self.conn.write_paused:
            self.transport.write(chunk)
            self.pace.sent(self.conn.now())
            return True
        if self.backlog is None:
            self.backlog = []
        self.backlog.append(chunk)
        return len(self.backlog) <= limit

    def resume(self) -> None:
        """The socket can take more (the client read): what waited goes out, in order."""
        if self.backlog and not self.flag.is_set() and not self.transport.is_closing():
            self.transport.write(b"".join(self.backlog))
            self.pace.sent(self.conn.now())
        self.backlog = None

    def tick(self, now: float) -> None:
        """Once a second: a heartbeat when quiet (it also finds dead sockets), the end when due."""
        if self.pace.over(now):
            self.flag.set()
        elif self.pace.heartbeat_due(now) and not self.conn.write_paused:
            self.push(self.frame(HEARTBEAT), 1 << 30)


class Relay(Subscription):
    """ONE hub subscriber for all of the event loop's screens on a channel. The publisher's
    thread only appends the event to a list and, for the first, wakes the loop (one
    `call_soon_threadsafe` per publish, whatever the number of screens); the loop then frames
    each event once and writes it to every screen's socket in turn."""

    def __init__(self, streams: LiveStreams, hub: EventHub, channel: Hashable) -> None:
        super().__init__(hub, channel, 1)
        self.streams, self.loop = streams, asyncio.get_running_loop()  # made on the loop (pump)
        self.lives: set[Live] = set()
        self._events: list[Event | None] = []
        self._lock = threading.Lock()

    def deliver(self, event: Event | None) -> bool:  # the publisher's thread; never blocks
        with self._lock:
            first = not self._events
            self._events.append(event)
        if first:
            try:
                self.loop.call_soon_threadsafe(self._fan_out)
            except RuntimeError:  # the loop is closed: the server has stopped
                pass
        return True

    def _closed(self, dropped: bool) -> None:  # the channel was ended (EventHub.end)
        self.closed = True
        self.deliver(None)

    def _fan_out(self) -> None:
        if not self.streams.later(self):  # not while a Maestro's change is being answered
            self.fan_out()

    def fan_out(self) -> None:
        """Write every event that came to every screen (on the loop)."""
        with self._lock:
            events, self._events = self._events, []
        limit = self.hub.queue_size
        for event in events:
            if event is None:  # ended: every screen's stream ends
                for live in self.lives:
                    live.flag.set()
                continue
            data, name = event.wire, event.name
            framed = {True: None, False: data}
            for live in self.lives:
                if name in live.skip:
                    continue
                chunk = framed[live.chunked]
                if chunk is None:
                    chunk = framed[True] = live.frame(data)
                if not live.push(chunk, limit):
                    self.streams.dropped(live)

    def join(self, live: Live, old: Subscription) -> None:
        """Take over a view's subscription (and the events it held) for one more screen. An
        event both held and still to be written by this relay goes to the screen once, with
        the relay's next fan-out (which includes this screen)."""
        handed = self.hub.hand_over(old, self)
        with self._lock:
            coming = {id(event) for event in self._events}
        for event in handed:
            if event.name not in live.skip and id(event) not in coming:
                live.push(live.frame(event.wire), self.hub.queue_size)
        self.lives.add(live)

    def leave(self, live: Live) -> None:
        self.lives.discard(live)
        if not self.lives:
            key = (id(self.hub), self.channel)
            if self.streams.relays.get(key) is self:
                del self.streams.relays[key]
            self.hub.unsubscribe(self)


class LiveStreams:
    """Every live stream the server's event loop writes: opened by their view in a pool of
    their own (`openers`, `maestro_openers`: the Maestro's screens never wait behind the
    guests'), then written from the channel's `Relay` until they end, the client leaves or the
    server stops."""

    def __init__(self, flask: Any, openers: int) -> None:
        self.flask = flask
        #: the areas' openers of a stream from what they keep (on the loop: `open_here`)
        self.loop_openers = hall(flask).loop_streams
        self.stream_headers = STREAM_HEADERS
        self.opened_here = 0  # streams opened on the loop (tests read it)
        self.openers = ThreadPoolExecutor(openers, thread_name_prefix="stream-open")
        self.maestro_openers = ThreadPoolExecutor(2, thread_name_prefix="stream-open-maestro")
        self.streams = 0  # open live streams (benchmarks and tests read it)
        self.dropped_screens = 0  # screens cut off for not keeping up
        self.lives: set[Live] = set()
        self.relays: dict[tuple[int, Hashable], Relay] = {}
        self.stopping = False
        #: the Maestro's changes being answered: the events they publish reach the screens
        #: after the answer is written (`hold`, `release`), or after MAX_HOLD_S
        self.holding = 0
        self._held: set[Relay] = set()
        self._flush_timer: asyncio.TimerHandle | None = None
        #: told when the last change in flight is answered (the relay to the phones' process)
        self.on_release: list[Callable[[], None]] = []

    async def serve(self, scope: Any, receive: Receive, send: Send, maestro: bool) -> None:
        """Open the stream here from what is kept (`HallState.loop_streams`: the snapshot), or
        in a worker (its view reads the snapshot), then write it here."""
        stream = self.open_here(scope)
        if stream is not None:
            await self.write(stream, scope, send, 200, self.stream_headers, stream.close)
            return
        loop = asyncio.get_running_loop()
        events: Any = receive  # a2wsgi types each message; uvicorn's are these dicts
        environ = build_environ(scope, Body(loop, events))
        started: dict[str, Any] = {}

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], None]:
            started["status"], started["headers"] = status, headers
            return lambda chunk: None

        def open_stream() -> tuple[Any, EventStream | None]:
            body = self.flask(environ, start_response)
            stream = environ.get(ENVIRON_KEY)
            if isinstance(stream, EventStream):
                return body, stream
            try:  # not a stream after all (an error page, a 404): the whole answer
                return b"".join(body), None
            finally:
                getattr(body, "close", lambda: None)()

        ctx = contextvars.copy_context()
        openers = self.maestro_openers if maestro else self.openers
        body, stream = await loop.run_in_executor(openers, ctx.run, open_stream)
        headers = [
            (k.strip().lower().encode("latin1"), v.strip().encode("latin1"))
            for k, v in started["headers"]
        ]
        status = int(started["status"].split(" ", 1)[0])
        if stream is None:
            with one_write():
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": body})
            return
        # the view's close unsubscribes (EventStream.close) and runs the view's on_close
        await self.write(stream, scope, send, status, headers, body.close)

    def open_here(self, scope: Any) -> EventStream | None:
        """The stream opened on the loop by an area, from what it keeps (None: by its view)."""
        for opener in self.loop_openers:
            try:
                stream = opener(scope)
            except Exception:  # never a 500 from here: the view opens it instead
                logging.getLogger(__name__).exception("a stream opened on the loop failed")
                stream = None
            if stream is not None:
                self.opened_here += 1
                return stream
        return None

    async def write(
        self,
        stream: EventStream,
        scope: Any,
        send: Send,
        status: int,
        headers: list[tuple[bytes, bytes]],
        close: Callable[[], None],
    ) -> None:
        """Write an opened stream until it ends (`pump`), then `close` it."""
        self.streams += 1
        try:
            with one_write():  # the answer's head and the stream's first event: one write
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": stream.head, "more_body": True})
            await self.pump(stream, scope, send)
        finally:
            self.streams -= 1
            close()

    async def pump(self, stream: EventStream, scope: Any, send: Send) -> None:
        """Write one stream, its head written: its events straight to the socket (through its
        channel's Relay), until it ends, the client leaves or the server stops."""
        conn = current_connection.get()
        if conn is None:  # never: every request reaches the app through UvicornConnection
            raise RuntimeError("a stream outside the station's HTTP protocol")
        # a response of unknown length: httptools says whether it framed it in chunks; h11 does
        # for HTTP/1.1, and not at all (the connection's end ends it) for HTTP/1.0
        live = await self._followed(stream, conn, conn.response_chunked(scope))
        if not live.transport.is_closing():
            if live.backlog is None and not conn.write_paused:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            live.transport.abort()  # a stalled client: cut it off now, not after SEND_STALL_S
        await asyncio.sleep(0)  # let uvicorn see the connection lost before the app returns

    def written_at_head(
        self, stream: EventStream, conn: Connection, end: Callable[[bool], None]
    ) -> None:
        """A stream opened on the loop whose head and first event the connection wrote itself
        (server.py, framed in chunks), followed as `pump` follows one, with no task: when it
        must end, `end(True)` ends its answer, or `end(False)` cuts off a client that stalled."""
        self.streams += 1
        live, relay = self._join(stream, conn, True)

        def ended() -> None:
            try:
                self._leave(live, relay, conn)
                if not live.transport.is_closing():
                    end(live.backlog is None and not conn.write_paused)
            finally:
                self.streams -= 1
                stream.close()

        live.flag.on_end(ended)

    async def _followed(self, stream: EventStream, conn: Connection, chunked: bool) -> Live:
        """The stream's screen, given to its channel's relay (with what came between the
        snapshot and now) until it must end, the client leaves or the server stops."""
        live, relay = self._join(stream, conn, chunked)
        try:
            await live.flag.wait()
        finally:
            self._leave(live, relay, conn)
        return live

    def _join(self, stream: EventStream, conn: Connection, chunked: bool) -> tuple[Live, Relay]:
        live = Live(stream, conn, chunked, asyncio.get_running_loop().time())
        hub, channel = stream.sub.hub, stream.sub.channel
        relay = self.relays.get((id(hub), channel))
        if relay is None or relay.closed:
            relay = self.relays[(id(hub), channel)] = Relay(self, hub, channel)
        relay.join(live, stream.sub)  # with what came between the snapshot and now
        self.lives.add(live)
        conn.live = live
        if self.stopping or live.transport.is_closing():  # (a client gone already)
            live.flag.set()
        return live, relay

    def _leave(self, live: Live, relay: Relay, conn: Connection) -> None:
        conn.live = None
        self.lives.discard(live)
        relay.leave(live)

    def hold(self) -> None:
        """A Maestro's change is being answered: what it publishes waits for its answer, so
        the answer is never written behind a thousand screens' copies of the event."""
        self.holding += 1

    def release(self) -> None:
        """The change's answer is written (or it failed): the screens get what waited."""
        self.holding -= 1
        if self.holding == 0:
            self.flush()
            for tell in self.on_release:
                tell()

    def later(self, relay: Relay) -> bool:
        """Keep `relay`'s events until the Maestro's answers are out? (True: kept.)"""
        if not self.holding:
            return False
        self._held.add(relay)
        if self._flush_timer is None:
            self._flush_timer = relay.loop.call_later(MAX_HOLD_S, self.flush)
        return True

    def flush(self) -> None:
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None
        held, self._held = self._held, set()
        for relay in held:
            relay.fan_out()

    def dropped(self, live: Live) -> None:
        """A screen that could not keep up (its backlog passed the hub's queue size)."""
        live.flag.set()
        self.dropped_screens += 1

    def tick(self, now: float) -> None:
        """Once a second: heartbeats and stream ends for every open screen."""
        for live in list(self.lives):
            live.tick(now)

    def stop(self) -> None:
        """End every open stream (on the loop, when the server stops)."""
        self.stopping = True
        for live in self.lives:
            live.flag.set()
        self.flush()

    def shutdown(self) -> None:
        self.openers.shutdown(wait=False)
        self.maestro_openers.shutdown(wait=False)
