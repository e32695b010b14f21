"""The station's HTTP server: uvicorn in front (HTTP parsed by httptools, which has wheels for
Windows, macOS and Linux; h11 if it is missing), one event loop for every connection: uvloop where
it installs (Linux, macOS: a third less CPU to write to a thousand sockets), asyncio on Windows.

- Live streams (views that answer with `EventStream.response()`) are opened by their Flask view in
  a small pool of their own (the snapshot is read there), then written by the event loop: an open
  screen costs a socket and a few KB, never a thread. The hub has ONE subscriber per channel
  for all the loop's screens (`_Relay`): a publish wakes the loop once, and the loop frames the
  event once and writes it to each screen's socket.
- Everything else runs in the Flask app through a2wsgi's thread pools, chosen on the event
  loop by who asks (admission.py): the Maestro's requests (from the laptop itself, or carrying a
  valid caller credential) in pools of their own, MAESTRO_THREADS for reads and ACTION_THREADS
  for changes, that no guest request can occupy; the guests' changes (POST and the like: score
  entries, logins) in ACTION_THREADS workers, their reads (pages, card refreshes, files) in
  THREADS workers. A request's body is read in full on the loop, bounded by size and time,
  before a worker is given it, so an unfinished body holds a socket, never a thread.
- Connections are budgeted per guest address and in total, below the open-files limit, with
  room kept for the laptop (budget.py); the head of a request is bounded in bytes, count and
  time at the parser (`UvicornConnection`, the one class that touches uvicorn's internals).
- A slow or dead screen is dropped after a bounded buffer: while its socket is full it keeps at
  most the hub's queue size of events, then it is cut off, and a connection whose socket stays
  full for SEND_STALL_S is aborted. Idle connections are bounded by time: one that sends no
  request within IDLE_S, or nothing after a response within IDLE_S (keep-alive), is closed.
  Idle sockets cost the event loop nothing while they wait, so they never delay a draw.

The names in capitals are the hall's configuration keys (`web/config.py`, `hall(app).config`):
the server reads them from the app it serves, so a test passes the value it needs to
`create_app` and never patches this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import errno
import gc
import logging
import signal
import socket
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import uvicorn
from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import Body, build_environ
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RoutingException

try:  # httptools (C) parses and writes HTTP in a fraction of h11's time; h11 is the fallback
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HTTPProtocol
except ImportError:  # pragma: no cover - a platform without httptools wheels
    from uvicorn.protocols.http.h11_impl import H11Protocol as _HTTPProtocol  # type: ignore[assignment]  # the same protocol interface

from ..errors import KitError
from .admission import (
    GUEST_BODY,
    BodyLimits,
    Words,
    answer_bytes,
    guest_limits,
    headers_of,
    may_have_body,
    read_body,
)
from .budget import CHANGE_COST, ConnectionBudget, RequestPace, guest_total
from .config import HallConfig
from .hub import (
    ENVIRON_KEY,
    HEARTBEAT,
    LIVE_STREAM,
    Event,
    EventHub,
    EventStream,
    Subscription,
)
from .instance import hall
from .pages import VERSION_HEADER, LoopPages
from .security import HEADERS
from .static_files import StaticFiles

READS = frozenset({"GET", "HEAD", "OPTIONS"})


def head_too_large(config: HallConfig) -> Words:
    return Words(
        f"the request's headers are larger than {config.max_head_bytes // 1024} KB or more than "
        f"{config.max_headers}",
        f"las cabeceras de la petición pasan de {config.max_head_bytes // 1024} KB o de "
        f"{config.max_headers}",
    )


class QuietCollector:
    """When Python's full garbage collection runs. With a thousand screens open it walks every
    connection's objects (tens of milliseconds), and left to itself it runs in the middle of
    whatever allocates next, often a draw. So the server freezes what start-up made (never
    walked again), leaves the young generations to Python, and runs the full collection itself
    from its once-a-second ticker: when the Maestro has been quiet for `quiet_s`, at most every
    `every_s`, and after `latest_s` whatever happens, so a long night's memory stays bounded
    (GC_QUIET_S, GC_EVERY_S, GC_LATEST_S in the hall's config)."""

    def __init__(self, now: float, config: HallConfig) -> None:
        self.last_action = self.last_full = now
        self.quiet_s, self.every_s, self.latest_s = (
            config.gc_quiet_s,
            config.gc_every_s,
            config.gc_latest_s,
        )

    def start(self) -> None:
        gc.collect()
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, 1 << 30)  # no automatic full collection

    def action(self, now: float) -> None:
        self.last_action = now

    def due(self, now: float) -> bool:
        since = now - self.last_full
        quiet = now - self.last_action >= self.quiet_s
        return since >= self.latest_s or (quiet and since >= self.every_s)

    def tick(self, now: float) -> None:
        if self.due(now):
            gc.collect()
            self.last_full = now


#: the connection (protocol) a request came in on: set while uvicorn reads the request, so the
#: task it starts for the ASGI app inherits it (contextvars) and a live stream can write to it
_connection: contextvars.ContextVar[UvicornConnection | None] = contextvars.ContextVar(
    "bingo_hall_connection", default=None
)


class _Live:
    """One open screen on the event loop: its connection, and the events it could not be given
    yet because its socket was full (bounded: past the hub's queue size it is dropped)."""

    __slots__ = ("conn", "transport", "chunked", "flag", "pace", "backlog")

    def __init__(
        self, stream: EventStream, conn: UvicornConnection, chunked: bool, now: float
    ) -> None:
        self.conn, self.transport, self.chunked = conn, conn.transport, chunked
        self.flag = asyncio.Event()  # set when the stream must end
        self.pace = stream.pace(now)  # skips, heartbeats and the end: the same rule as WSGI's
        self.backlog: list[bytes] | None = None

    @property
    def skip(self) -> frozenset[str]:
        return self.pace.skip

    def frame(self, data: bytes) -> bytes:
        """HTTP/1.1 chunk framing, as h11 would write it (HTTP/1.0: the bytes as they are)."""
        return b"%x\r\n%s\r\n" % (len(data), data) if self.chunked else data

    def push(self, chunk: bytes, limit: int) -> bool:
        """Write one event's chunk, or keep it while the socket is full. False: over `limit`."""
        if self.flag.is_set():
            return True
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
        if self.backlog and not self.flag.is_set():
            self.transport.write(b"".join(self.backlog))
            self.pace.sent(self.conn.now())
        self.backlog = None

    def tick(self, now: float) -> None:
        """Once a second: a heartbeat when quiet (it also finds dead sockets), the end when due."""
        if self.pace.over(now):
            self.flag.set()
        elif self.pace.heartbeat_due(now) and not self.conn.write_paused:
            self.push(self.frame(HEARTBEAT), 1 << 30)


class _Relay(Subscription):
    """ONE hub subscriber for all of the event loop's screens on a channel. The publisher's
    thread only appends the event to a list and, for the first, wakes the loop (one
    `call_soon_threadsafe` per publish, whatever the number of screens); the loop then frames
    each event once and writes it to every screen's socket in turn."""

    def __init__(self, hall: HallServer, hub: EventHub, channel: Hashable) -> None:
        super().__init__(hub, channel, 1)
        self.hall, self.loop = hall, asyncio.get_running_loop()  # made on the loop, by _pump
        self.lives: set[_Live] = set()
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
                    self.hall.dropped(live)

    def join(self, live: _Live, old: Subscription) -> None:
        """Take over a view's subscription (and the events it held) for one more screen."""
        for event in self.hub.hand_over(old, self):
            if event.name not in live.skip:
                live.push(live.frame(event.wire), self.hub.queue_size)
        self.lives.add(live)

    def leave(self, live: _Live) -> None:
        self.lives.discard(live)
        if not self.lives:
            key = (id(self.hub), self.channel)
            if self.hall.relays.get(key) is self:
                del self.hall.relays[key]
            self.hub.unsubscribe(self)


class HallServer:
    """The ASGI app: live streams on the event loop, the Flask app for everything else, in
    worker pools that keep the Maestro apart from the guests (see the module's docstring)."""

    def __init__(self, app) -> None:
        self.flask = app
        self.config = config = hall(app).config  # the server's tunables: web/config.py
        self.threads = config.threads
        self.head_too_large = head_too_large(config)
        self.wsgi = WSGIMiddleware(app, workers=config.threads)  # guests' reads
        self.actions = WSGIMiddleware(app, workers=config.action_threads)  # guests' changes
        self.maestro_reads = WSGIMiddleware(app, workers=config.maestro_threads)
        self.maestro_actions = WSGIMiddleware(app, workers=config.action_threads)
        self.openers = ThreadPoolExecutor(config.stream_openers, thread_name_prefix="stream-open")
        self.maestro_openers = ThreadPoolExecutor(2, thread_name_prefix="stream-open-maestro")
        self.budget = ConnectionBudget(
            guest_total(open_files_limit(), config), config.connections_per_address
        )
        self.pace = RequestPace(config.requests_per_address_s, config.request_burst)
        self.streams = 0  # open live streams (benchmarks and tests read it)
        self.dropped_screens = 0  # screens cut off for not keeping up
        self.lives: set[_Live] = set()
        self.relays: dict[tuple[int, Hashable], _Relay] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        self._tasks: set[asyncio.Task] = set()
        self.collector = QuietCollector(0.0, config)  # set again, on the loop's clock, at start-up
        self.statics = StaticFiles.of(app)  # static files, answered here on the event loop
        self.statics.entries()  # read and hashed once, now: a fixed set (static_files.py)
        self._routes: Any = None  # the URL map, bound once (route_body)
        self.pages = LoopPages(app)  # /display, /join: kept per change, answered here
        self.loop_pages = hall(app).loop_pages  # pages answered from memory on the loop
        self.page_headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

    def pools(self) -> list[WSGIMiddleware]:
        return [self.wsgi, self.actions, self.maestro_reads, self.maestro_actions]

    def body_limits(self, maestro: bool, scope: dict | None = None) -> BodyLimits:
        """How large a body may be, and how long it may take (the Maestro's, a guest's: no
        larger than its route asks, `admission.guest_body`, with a budget for its JSON)."""
        if maestro:
            return BodyLimits(self.config.max_content_length, self.config.maestro_body_s)
        limits = guest_limits(self.config.max_guest_body, self.config.body_s)
        return limits if scope is None else limits.at_most(self.route_body(scope))

    def route_body(self, scope: dict) -> int | None:
        """The guest body limit the request's view declares (`guest_body`), if any."""
        if self._routes is None:
            self._routes = self.flask.url_map.bind("station")
        try:
            endpoint, _ = self._routes.match(scope.get("path", "/"), scope["method"])
        except (HTTPException, RoutingException):  # no such route, a redirect: Flask answers
            return None
        return getattr(self.flask.view_functions.get(endpoint), GUEST_BODY, None)

    def is_maestro(self, scope: dict) -> bool:
        """The laptop itself, or a request with a valid caller credential (the station's
        check, on the loop: a signature or a hash, no query)."""
        client = scope.get("client")
        if client and client[0] in self.budget.laptop:
            return True
        check = hall(self.flask).credential_check
        return check is not None and check(headers_of(scope))

    async def __call__(self, scope: Any, receive: Callable, send: Callable) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        maestro = self.is_maestro(scope)
        if not maestro and (client := scope.get("client")):  # a guest waits its turn, if due
            cost = 1.0 if scope["method"] in READS else CHANGE_COST
            wait = self.pace.wait(client[0], asyncio.get_running_loop().time(), cost)
            if wait > 0:
                await asyncio.sleep(wait)
        if may_have_body(headers_of(scope)):
            replay = await read_body(scope, receive, send, self.body_limits(maestro, scope))
            if replay is None:
                return  # answered (413, 408) or the client left
            receive = replay
        method = scope["method"]
        if method not in READS:
            self.collector.action(self.loop.time() if self.loop else 0.0)
            await (self.maestro_actions if maestro else self.actions)(scope, receive, send)
        elif self.statics.serves(scope):  # answered here on the loop, never by a worker
            await self.statics(scope, receive, send)
        elif (shared := self.pages.key(scope)) is not None:
            await self._shared(scope, receive, send, shared, maestro)
        elif method == "GET" and (page := self._from_memory(scope)) is not None:
            await send({"type": "http.response.start", "status": 200, "headers": page[0]})
            await send({"type": "http.response.body", "body": page[1]})
        elif method == "GET" and self._is_stream(scope):
            await self._stream(scope, receive, send, maestro)
        else:
            await (self.maestro_reads if maestro else self.wsgi)(scope, receive, send)

    async def _shared(
        self, scope: Any, receive: Callable, send: Callable, key: tuple, maestro: bool
    ) -> None:
        """A page every guest asks for (web/pages.py): from memory while nothing changed, else
        from the app, whose answer is kept for the version it was built at."""
        kept = self.pages.answer(key)
        if kept is not None:
            headers, body = kept
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        marker = VERSION_HEADER.lower().encode()
        said: dict[str, Any] = {"body": []}

        async def capture(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message["headers"] if k.lower() != marker]
                version = [v for k, v in message["headers"] if k.lower() == marker]
                length = [v for k, v in headers if k.lower() == b"content-length"]
                said.update(status=message["status"], headers=headers, version=version)
                said["length"] = int(length[0]) if length else -1
                message = {**message, "headers": headers}
            elif message["type"] == "http.response.body":
                said["body"].append(message.get("body", b""))
                whole = sum(map(len, said["body"])) == said["length"]
                if whole and said["status"] == 200 and said["version"]:
                    # kept before the reader has all of it: its next request finds it
                    body = b"".join(said["body"])
                    self.pages.keep(key, int(said["version"][0]), said["headers"], body)
                    said["version"] = None
            await send(message)

        await (self.maestro_reads if maestro else self.wsgi)(scope, receive, capture)

    def _from_memory(self, scope: dict) -> tuple[list[tuple[bytes, bytes]], bytes] | None:
        """A page an area answers from what it keeps (`HallState.loop_pages`: the card pages),
        here on the loop with no worker, no Flask and no SQL; None: not one of those, or not
        kept yet (the app builds it)."""
        for answer in self.loop_pages:
            try:
                body = answer(scope)
            except Exception:  # never a 500 from here: the app answers the request instead
                logging.getLogger(__name__).exception("a page answered on the loop failed")
                body = None
            if body is not None:
                headers = [
                    (b"content-type", b"text/html; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    *self.page_headers,
                ]
                return headers, body
        return None

    async def _lifespan(self, receive: Callable, send: Callable) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._started(asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _started(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.collector = QuietCollector(loop.time(), self.config)
        self.collector.start()
        self._tasks.add(loop.create_task(self._ticker()))

    def stop_streams(self) -> None:
        """End every open stream (called on the loop when the server stops)."""
        self._stopping = True
        for live in self.lives:
            live.flag.set()
        for task in self._tasks:
            task.cancel()

    def _is_stream(self, scope: dict) -> bool:
        """Does this path go to a view marked as a live stream? (Asked of Flask's own routes,
        so the areas declare their streams in one place: their view.)"""
        try:
            endpoint, _ = self.flask.url_map.bind("", "/").match(scope["path"], method="GET")
        except Exception:  # 404, 405, redirects: Flask answers them in the worker pool
            return False
        view = self.flask.view_functions.get(endpoint)
        return getattr(view, LIVE_STREAM, False)

    async def _stream(self, scope: Any, receive: Callable, send: Callable, maestro: bool) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is None:  # run without a lifespan (lifespan="off")
            self._started(loop)
        environ = build_environ(scope, Body(loop, receive))
        started: dict[str, Any] = {}

        def start_response(status, headers, exc_info=None):
            started["status"], started["headers"] = status, headers
            return lambda chunk: None

        def open_stream():
            body = self.flask(environ, start_response)
            stream = environ.get(ENVIRON_KEY)
            if stream is not None:
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
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if stream is None:
            await send({"type": "http.response.body", "body": body})
            return
        self.streams += 1
        try:
            await self._pump(stream, scope, send)
        finally:
            self.streams -= 1
            body.close()  # unsubscribes (EventStream.close) and runs the view's on_close

    async def _pump(self, stream: EventStream, scope: Any, send: Callable) -> None:
        """Write one stream: its head through uvicorn, then its events straight to the socket
        (through its channel's _Relay), until it ends, the client leaves or the server stops."""
        await send({"type": "http.response.body", "body": stream.head, "more_body": True})
        conn = _connection.get()
        if conn is None:  # never: every request reaches the app through _Protocol
            raise RuntimeError("a stream outside the station's HTTP protocol")
        # a response of unknown length: httptools says whether it framed it in chunks; h11 does
        # for HTTP/1.1, and not at all (the connection's end ends it) for HTTP/1.0
        chunked = conn.response_chunked(scope)
        live = _Live(stream, conn, chunked, asyncio.get_running_loop().time())
        hub, channel = stream.sub.hub, stream.sub.channel
        relay = self.relays.get((id(hub), channel))
        if relay is None or relay.closed:
            relay = self.relays[(id(hub), channel)] = _Relay(self, hub, channel)
        relay.join(live, stream.sub)  # with what came between the snapshot and now
        self.lives.add(live)
        conn.live = live
        try:
            if self._stopping:
                live.flag.set()
            await live.flag.wait()
        finally:
            conn.live = None
            self.lives.discard(live)
            relay.leave(live)
        if not live.transport.is_closing():
            if live.backlog is None and not conn.write_paused:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            live.transport.abort()  # a stalled client: cut it off now, not after SEND_STALL_S
        await asyncio.sleep(0)  # let uvicorn see the connection lost before the app returns

    def dropped(self, live: _Live) -> None:
        """A screen that could not keep up (its backlog passed the hub's queue size)."""
        live.flag.set()
        self.dropped_screens += 1

    async def _ticker(self) -> None:
        """Heartbeats and stream ends for every open screen, once a second."""
        while True:
            await asyncio.sleep(1.0)
            now = asyncio.get_running_loop().time()
            for live in list(self.lives):
                live.tick(now)
            self.collector.tick(now)


class UvicornConnection(_HTTPProtocol):
    """uvicorn's HTTP protocol for one connection, with the bounds it lacks. EVERY use of
    uvicorn's internals is here, and nowhere else (tests/security/test_uvicorn_contract.py
    fails on a uvicorn that breaks one; pyproject.toml bounds its version):

    - admission: a connection over the budget (`budget.ConnectionBudget`) is answered 503
      "too many connections" at once and closed;
    - the head of a request (request line and headers) is limited to MAX_HEAD_BYTES and
      MAX_HEADERS, measured before the parser sees the bytes (431), and must arrive within
      HEAD_S of its first byte (408): a byte every 10 s no longer holds a socket for ever
      (the hall's config, `hall.config`);
    - a connection that sends no request within `timeout_keep_alive` seconds is closed
      (uvicorn only times out idle keep-alive connections after a response), and one whose
      socket stays full for SEND_STALL_S is aborted;
    - the server's own 400 for a malformed request carries the security headers;
    - what the live streams need of a connection: `write_paused`, `response_chunked`, `now`.
    """

    #: the HallServer whose budget admits connections (set on a subclass per server)
    hall: HallServer
    _stall: asyncio.TimerHandle | None = None
    _head_timer: asyncio.TimerHandle | None = None
    live: _Live | None = None
    address: str | None = None
    admitted = False
    _head = 0  # bytes of the current request's head received so far
    _in_head = True  # between requests or reading a head (not a body)
    _headers = 0
    _too_many_headers = False

    # --- what the rest of the server asks of a connection ---------------------------------
    @property
    def write_paused(self) -> bool:
        return self.flow.write_paused

    def response_chunked(self, scope: dict) -> bool:
        """Is the response being written framed in chunks? httptools says; h11 frames for
        HTTP/1.1 and not at all (the connection's end ends it) for HTTP/1.0."""
        chunked = getattr(self.cycle, "chunked_encoding", None)
        if chunked is None:
            chunked = scope.get("http_version") == "1.1"
        return bool(chunked)

    def now(self) -> float:
        return self.loop.time()

    # --- admission ------------------------------------------------------------------------
    def connection_made(self, transport) -> None:
        peer = transport.get_extra_info("peername")
        self.address = peer[0] if isinstance(peer, tuple) and peer else None
        refusal = self.hall.budget.admit(self.address)
        if refusal is not None:  # answered before uvicorn sets anything up: a refusal is cheap
            words = Words(
                f"{refusal.reason}; try again later", f"{refusal.razon}; inténtalo más tarde"
            )
            transport.write(answer_bytes(503, "Service Unavailable", words))
            transport.close()
            return
        super().connection_made(transport)
        self.admitted = True
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def _answer(self, status: int, reason: str, words: Words) -> None:
        """Answer with the server's own words and close (the request is not read further)."""
        self._cancel_head_timer()
        if not self.transport.is_closing():
            self.transport.write(answer_bytes(status, reason, words))
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        if self._too_many_headers:
            self._too_large()
            return
        words = Words("the request could not be understood", "no se entendió la petición")
        self._answer(400, "Bad Request", words)

    # --- the head of each request ---------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        if not self.admitted or self.transport.is_closing():
            return
        token = _connection.set(self)  # the app's task for this request inherits it
        try:
            while data and not self.transport.is_closing():
                if self._in_head:
                    room = self.hall.config.max_head_bytes - self._head
                    if room <= 0:
                        self._too_large()
                        return
                    if self._head == 0 and self._head_timer is None:
                        self._head_timer = self.loop.call_later(
                            self.hall.config.head_s, self._head_too_slow
                        )
                    part, data = data[:room], data[room:]
                    self._head += len(part)
                else:
                    part, data = data, b""
                super().data_received(part)
                if self._too_many_headers:
                    self._too_large()
                    return
        finally:
            _connection.reset(token)

    def _too_large(self) -> None:
        self._answer(431, "Request Header Fields Too Large", self.hall.head_too_large)

    def _head_too_slow(self) -> None:
        self._head_timer = None
        head_s = self.hall.config.head_s
        words = Words(
            f"the request did not arrive within {head_s:.0f} s",
            f"la petición no llegó en {head_s:.0f} s",
        )
        self._answer(408, "Request Timeout", words)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._headers = 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers += 1
        if self._headers > self.hall.config.max_headers:
            self._too_many_headers = True
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._cancel_head_timer()
        if self._too_many_headers:
            return
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        if self._too_many_headers:
            return
        super().on_message_complete()
        self._in_head, self._head = True, 0

    # --- writing --------------------------------------------------------------------------
    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall is None:
            self._stall = self.loop.call_later(self.hall.config.send_stall_s, self.transport.abort)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        if self.live is not None:
            self.live.resume()

    def connection_lost(self, exc) -> None:
        if not self.admitted and self.flow is None:  # refused in connection_made
            return
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        self._cancel_head_timer()
        if self.admitted:
            self.admitted = False
            self.hall.budget.release(self.address)
        if self.live is not None:
            self.live.flag.set()
        super().connection_lost(exc)

    @classmethod
    def for_server(cls, hall: HallServer) -> type[UvicornConnection]:
        """The protocol class uvicorn makes for each connection of `hall`'s server."""
        return type("HallConnection", (cls,), {"hall": hall})


def open_files_limit() -> int:
    """The soft limit on open files now in force (0: none, e.g. Windows)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 0 if soft == resource.RLIM_INFINITY else soft


def raise_open_files_limit(wanted: int) -> int:
    """Raise this process's soft limit on open files towards `wanted` (every screen holds a
    socket; Linux and macOS often start at 1024 or 256). Windows has no such limit. Returns the
    limit now in force (0 where there is none)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, with a KitError a host understands when the port is taken."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        return socket.create_server((host, port), family=family, backlog=2048)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise KitError(
                "port %(port)s is already in use (is another station running?); stop it or choose "
                "another with --port",
                port=port,
            ) from None
        raise KitError(
            "cannot listen on %(host)s:%(port)s: %(reason)s",
            host=host,
            port=port,
            reason=exc.strerror or exc,
        ) from None


class Server:
    """One station server on one socket: `run()` in the foreground (the CLI, Ctrl+C stops it) or
    `start()` in a thread (tests, benchmarks) and `close()`."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0):
        config = hall(app).config  # its tunables (threads, bounds): the hall's config, built once
        raise_open_files_limit(config.wanted_files)  # before the budget, which stays below it
        self.hall = HallServer(app)
        self.socket = listen(host, port)
        self.port = self.socket.getsockname()[1]
        settings = uvicorn.Config(
            self.hall,
            http=UvicornConnection.for_server(self.hall),
            loop="auto",
            lifespan="on",
            timeout_keep_alive=config.idle_s,
            timeout_graceful_shutdown=1,
            log_level="warning",
            access_log=False,
        )
        self.uvicorn = _Uvicorn(settings, self.hall)
        self._thread: threading.Thread | None = None

    def run(self) -> None:
        try:
            self.uvicorn.run(sockets=[self.socket])
        finally:
            self.socket.close()
            for pool in self.hall.pools():
                pool.executor.shutdown(wait=False)
            self.hall.openers.shutdown(wait=False)
            self.hall.maestro_openers.shutdown(wait=False)

    @contextlib.contextmanager
    def stopped_by_signals(self) -> Iterator[None]:
        """Within it, Ctrl+C (SIGINT) or a service manager's SIGTERM stops the station whenever
        it comes: `with server.stopped_by_signals(): print the banner; server.run()` (from the
        main thread; the banner inside, so a signal sent on reading it finds this in place).
        While serving, uvicorn takes both signals and shuts down, then raises the signal again,
        which lands here and is done with; before it has taken them this asks it to stop as
        soon as it has started. Either way `run` returns and Python exits normally, so worker
        processes and their semaphores are cleaned up (a default SIGTERM would end the process
        at once, and the resource tracker would warn of leaked semaphores; an early SIGINT left
        a traceback)."""

        def stop(signum: int, frame: object) -> None:
            self.uvicorn.should_exit = True

        previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def start(self) -> Server:
        self._thread = threading.Thread(target=self.run, name="station-server", daemon=True)
        self._thread.start()
        while not self.uvicorn.started and self._thread.is_alive():
            time.sleep(0.01)
        return self

    def close(self) -> None:
        self.uvicorn.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)


class _Uvicorn(uvicorn.Server):
    """uvicorn's server, ending the live streams first when it stops (they never end by
    themselves, and the connections they hold would keep the shutdown waiting)."""

    def __init__(self, config: uvicorn.Config, hall: HallServer) -> None:
        super().__init__(config)
        self.hall = hall

    async def shutdown(self, sockets=None) -> None:
        self.hall.stop_streams()
        await super().shutdown(sockets=sockets)
