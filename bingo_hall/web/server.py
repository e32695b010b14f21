"""The station's HTTP server: `HallConnection`, our own lean protocol for each browser's
connection, and uvicorn behind it for everything the app answers. The ONE module that knows
uvicorn's internals (`UvicornConnection`, `_Uvicorn`, `uvicorn_server`): every use of them is
here, so that a uvicorn upgrade is checked in one place (tests/security/test_uvicorn_contract.py).

HTTP is parsed by httptools (wheels for Windows, macOS and Linux; h11 if it is missing), on one
event loop for every connection: uvloop where it installs (Linux, macOS: a third less CPU to write
to a thousand sockets), asyncio on Windows. Each listening socket the station gives it
(`Listener`) is served by an asyncio server of its own (station_server.py says which process
listens where).

Connections are budgeted per guest address and in total, below the open-files limit, with room
kept for the laptop and for phones holding a valid card (admission.py, at `HallConnection`'s
start); the head of a request is bounded in bytes, count and time (`UvicornConnection`: a head
the HallConnection does not answer whole goes there). Idle connections are bounded by time: one
that sends no request within IDLE_S, or nothing after a response within IDLE_S (keep-alive), is
closed. Idle sockets cost the event loop nothing while they wait, so they never delay a draw.

One idea in one module: the station's connections, from their first byte to their answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import uvicorn
from uvicorn.protocols.http.flow_control import FlowControl

try:  # httptools (C) parses and writes HTTP in a fraction of h11's time; h11 is the fallback
    import httptools
    from uvicorn.protocols.http.httptools_impl import STATUS_LINE
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HTTPProtocol
except ImportError:  # pragma: no cover - a platform without httptools wheels
    from uvicorn.protocols.http.h11_impl import H11Protocol as _HTTPProtocol  # type: ignore[assignment]  # the same protocol interface

from .admission import Refusal, Trial, Words, answer_bytes, may_have_body
from .dispatch import Answer, HallApp
from .relay import Live, chunk, current_connection

__all__ = ["HallApp", "Listener", "UvicornConnection", "uvicorn_server"]

#: the header of an answer framed in chunks (a live stream written at its request's head)
CHUNKED = (b"transfer-encoding", b"chunked")
#: connections the kernel keeps waiting for each listening socket's accept (a join storm's, or
#: the phones' while their process starts again)
BACKLOG = 2048


@dataclass(frozen=True)
class Listener:
    """A listening socket the station serves; `internal`: the unix socket on which the Maestro's
    process answers what the phones' process forwards (not budgeted; its client header is
    trusted, forward.py)."""

    sock: socket.socket
    internal: bool = False


class HallConnection(asyncio.Protocol):
    """One connection on a port the station listens on for browsers (the hall's, the Maestro's),
    as lean as a join needs: every phone of a storm opens two, and on an idle machine each one's
    cost is mostly the code it runs cold.

    - admission: a connection over the budget (`admission.ConnectionBudget`) is answered 503
      "too many connections" at once and closed;
    - a request whose head arrives whole, that the app answers from memory (`HallApp.answer_now`:
      a join's page, its two files and its stream, with `__call__`'s checks), is answered right
      here: httptools reads the head, and the answer is one write, with no ASGI scope, cycle or
      task (a stream is then followed by its channel's relay: relay.py `written_at_head`);
    - anything else (a head in pieces or over the limits, a body, HTTP/1.0, a POST, a request
      the app must make) hands the connection to uvicorn (`UvicornConnection.take_over`) with
      the bytes not answered yet, for the rest of its life: its bounds, errors and app apply;
    - a connection that sends no request within `timeout_keep_alive` seconds, or nothing more
      after an answer, is closed (one timer, moved forward rather than made again), and one
      whose socket stays full for SEND_STALL_S is aborted.
    """

    __slots__ = (
        "maker",
        "hall",
        "loop",
        "transport",
        "parser",
        "address",
        "client",
        "local",
        "on_trial",
        "kept_room",
        "live",
        "write_paused",
        "headers",
        "url",
        "complete",
        "streaming",
        "closing",
        "idle_until",
        "timer",
        "stall",
    )

    def __init__(self, maker: _Uvicorn, hall: HallApp) -> None:
        self.maker, self.hall = maker, hall
        self.loop = asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.live: Live | None = None
        self.write_paused = self.streaming = self.closing = False
        self.timer: asyncio.TimerHandle | None = None
        self.stall: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        self.address = peer[0] if isinstance(peer, tuple) and peer else None
        said = self.hall.budget.admit(self.address)
        if isinstance(said, Refusal):  # answered before anything is set up: cheap
            words = Words(f"{said.reason}; try again later", f"{said.razon}; inténtalo más tarde")
            transport.write(answer_bytes(503, "Service Unavailable", words))
            transport.close()
            return
        self.transport = transport
        self.kept_room = self.on_trial = isinstance(said, Trial)  # must show a card: HallApp
        # uvicorn's set of its connections: it asks each one only to `shutdown()` when it stops
        self.maker.server_state.connections.add(self)  # type: ignore[arg-type]
        local = transport.get_extra_info("sockname")
        self.local = (str(local[0]), int(local[1])) if isinstance(local, tuple) else None
        if not isinstance(peer, tuple) or len(peer) < 2 or self.on_trial:
            self.client = None if not isinstance(peer, tuple) or len(peer) < 2 else peer[:2]
            self._to_uvicorn(b"")
            return
        self.client = (str(peer[0]), int(peer[1]))
        self.parser = httptools.HttpRequestParser(self)
        self.idle_until = self.loop.time() + self.maker.config.timeout_keep_alive
        self.timer = self.loop.call_at(self.idle_until, self._idle)

    # --- what a live stream asks of its connection (relay.Connection) ---------------------
    def now(self) -> float:
        return self.loop.time()

    # --- requests -------------------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        if self.streaming:  # a client that pipelines behind a stream (no browser does)
            transport.close()
            return
        limit = self.hall.config.max_head_bytes
        while True:
            end = data.find(b"\r\n\r\n") + 4
            if end < 4 or end > limit or not self._answered(data[:end]):
                self._to_uvicorn(data)
                return
            data = data[end:]
            if not data:
                return
            if self.streaming:
                transport.close()
                return

    def _answered(self, head: bytes) -> bool:
        """Answer the request whose whole head is `head`, if it is one the app answers from
        memory: a kept-alive HTTP/1.1 GET or HEAD with no body and a plain path, its headers
        within the limit, its socket not full."""
        if self.write_paused:
            return False
        self.headers: list[tuple[bytes, bytes]] = []
        self.url, self.complete = b"", False
        parser = self.parser
        try:
            parser.feed_data(head)
        except httptools.HttpParserError:  # uvicorn's parser says why (400), or upgrades
            return False
        if not self.complete or len(self.headers) > self.hall.config.max_headers:
            return False  # a body follows; or uvicorn answers 431
        method = parser.get_method()
        if method not in (b"GET", b"HEAD") or parser.get_http_version() != "1.1":
            return False
        if not parser.should_keep_alive() or parser.should_upgrade():
            return False
        headers = dict(self.headers)
        if may_have_body(headers):
            return False
        url = httptools.parse_url(self.url)
        path = url.path.decode("ascii")
        if "%" in path:
            return False
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": method.decode("ascii"),
            "path": path,
            "query_string": url.query or b"",
            "headers": self.headers,
            "client": self.client,
        }
        said = self.hall.answer_now(scope, headers)
        if said is None:
            return False
        self.maker.server_state.total_requests += 1
        self.idle_until = self.loop.time() + self.maker.config.timeout_keep_alive
        if isinstance(said, Answer):
            self.transport.write(self._http(said))  # type: ignore[union-attr]
            return True
        # a live stream: its head and first event now, then its events as they come (relay.py).
        # The connection is still read: a client that leaves is heard at once (its place in
        # the budget is given back), and one that sends a request behind the stream is closed
        streamed = [*self.hall.screens.stream_headers, *self.hall.served_by, CHUNKED]
        self.transport.write(self._http(Answer(200, streamed, chunk(said.head))))  # type: ignore[union-attr]
        self.streaming = True
        if self.timer is not None:  # a stream is never idle: the bound waits for its end
            self.timer.cancel()
            self.timer = None
        self.hall.screens.written_at_head(said, self, self._stream_ended)
        return True

    # httptools' callbacks while `_answered` reads a head
    def on_url(self, url: bytes) -> None:
        self.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name.lower(), value))

    def on_message_complete(self) -> None:
        self.complete = True

    def _http(self, answer: Answer) -> bytes:
        """An answer as HTTP/1.1 bytes, with uvicorn's default headers (date, server)."""
        out = [STATUS_LINE[answer.status]]
        for name, value in (*self.maker.server_state.default_headers, *answer.headers):
            out += (name, b": ", value, b"\r\n")
        out += (b"\r\n", answer.body)
        return b"".join(out)

    def _stream_ended(self, whole: bool) -> None:
        """A stream written at its head has ended: its answer ends (the last chunk) and the
        connection may take its next request; or a client that stalled is cut off."""
        self.streaming = False
        transport = self.transport
        if transport is None:
            return
        if not whole:
            transport.abort()
            return
        transport.write(b"0\r\n\r\n")
        if self.closing:
            transport.close()
            return
        self.idle_until = self.loop.time() + self.maker.config.timeout_keep_alive
        self.timer = self.loop.call_at(self.idle_until, self._idle)

    def _to_uvicorn(self, data: bytes) -> None:
        """uvicorn serves this connection from now on, starting with `data`."""
        self._stop_timers()
        self.maker.server_state.connections.discard(self)
        self.maker.uvicorn_connection().take_over(self, data)
        self.transport = None  # (uvicorn's now: not ours to close or count)

    # --- timers ---------------------------------------------------------------------------
    def _idle(self) -> None:
        """The idle bound's timer: moved forward while the connection is in use."""
        self.timer = None
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        now = self.loop.time()
        if now < self.idle_until:
            self.timer = self.loop.call_at(self.idle_until, self._idle)
            return
        transport.close()

    def _stop_timers(self) -> None:
        for timer in (self.timer, self.stall):
            if timer is not None:
                timer.cancel()
        self.timer = self.stall = None

    # --- writing and the end --------------------------------------------------------------
    def pause_writing(self) -> None:
        self.write_paused = True
        if self.stall is None and self.transport is not None:
            self.stall = self.loop.call_later(self.hall.config.send_stall_s, self.transport.abort)

    def resume_writing(self) -> None:
        self.write_paused = False
        if self.stall is not None:
            self.stall.cancel()
            self.stall = None
        if self.live is not None:
            self.live.resume()

    def shutdown(self) -> None:
        """The server stops (uvicorn asks each connection): closed now, or once its stream's
        last chunk is written (the streams are ended first: `_Uvicorn.shutdown`)."""
        self.closing = True
        if self.transport is not None and not self.streaming:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is None:  # refused in connection_made, or uvicorn's since
            return
        self.transport = None
        self._stop_timers()
        self.maker.server_state.connections.discard(self)
        self.hall.budget.release(self.address, self.kept_room)
        if self.live is not None:
            self.live.flag.set()


class UvicornConnection(_HTTPProtocol):
    """uvicorn's HTTP protocol for a connection the app answers (one a `HallConnection` handed
    over, or one on the internal socket), with the bounds it lacks. EVERY use of uvicorn's
    internals is here, and nowhere else (tests/security/test_uvicorn_contract.py fails on a
    uvicorn that breaks one; pyproject.toml bounds its version):

    - the head of a request (request line and headers) is limited to MAX_HEAD_BYTES and
      MAX_HEADERS, measured before the parser sees the bytes (431), and must arrive within
      HEAD_S of its first byte (408): a byte every 10 s no longer holds a socket for ever
      (the hall's config, `hall.config`);
    - a connection that sends no request within `timeout_keep_alive` seconds is closed
      (uvicorn only times out idle keep-alive connections after a response), and one whose
      socket stays full for SEND_STALL_S is aborted;
    - the server's own 400 for a malformed request carries the security headers;
    - what the live streams need of a connection: `write_paused`, `response_chunked`, `now`;
    - a connection taken over keeps its place in the connection budget until it closes.
    """

    #: the HallApp whose budget admits connections (set on a subclass per server)
    hall: HallApp
    #: a connection on the internal socket (requests the phones' process forwards):
    #: not budgeted, and its CLIENT_HEADER names the real client
    internal = False
    _stall: asyncio.TimerHandle | None = None
    _head_timer: asyncio.TimerHandle | None = None
    live: Live | None = None
    address: str | None = None
    admitted = False
    #: admitted into the room kept for phones with a card: its first request must show one
    on_trial = False
    #: holds a place in that room until it closes
    kept_room = False
    _head = 0  # bytes of the current request's head received so far
    _in_head = True  # between requests or reading a head (not a body)
    _headers = 0
    _too_many_headers = False

    # --- what the rest of the server asks of a connection ---------------------------------
    @property
    def write_paused(self) -> bool:
        return self.flow.write_paused

    def response_chunked(self, scope: dict[str, Any]) -> bool:
        """Is the response being written framed in chunks? httptools says; h11 frames for
        HTTP/1.1 and not at all (the connection's end ends it) for HTTP/1.0."""
        chunked = getattr(self.cycle, "chunked_encoding", None)
        if chunked is None:
            chunked = scope.get("http_version") == "1.1"
        return bool(chunked)

    def now(self) -> float:
        return self.loop.time()

    def one_write(self) -> contextlib.AbstractContextManager[None]:
        """Within it, what the request being answered writes (uvicorn writes a response's head
        and its body in two `transport.write` calls: two system calls, and on loopback two runs
        of the reader's TCP receive path) goes out in ONE write when it ends. Only while this
        connection's current cycle is the request's own (no pipelined request waiting behind
        it); otherwise the writes go out as uvicorn makes them. (A class, not a generator: it
        is entered for every answer made from memory.)"""
        cycle = self.cycle
        real = self.transport
        if (
            cycle is None
            or getattr(self, "pipeline", None)
            or getattr(cycle, "transport", None) is not real
            or getattr(cycle, "response_started", True)
        ):
            return _AS_MADE
        return self.OneWrite(real, cycle)

    class OneWrite:
        """`one_write`'s context manager: a `_Gathered` transport stands in for the cycle's real
        one while it is entered, and is flushed when it ends."""

        __slots__ = ("cycle", "gathered")

        def __init__(self, real: Any, cycle: Any) -> None:
            self.cycle, self.gathered = cycle, _Gathered(real)

        def __enter__(self) -> None:
            self.cycle.transport = self.gathered  # as a transport to uvicorn

        def __exit__(self, *exc: object) -> None:
            self.cycle.transport = self.gathered.real
            self.gathered.flush()

    # --- set-up ---------------------------------------------------------------------------
    # uvicorn names the transport's type its own way; asyncio's Transport is what it is given
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A connection on the internal socket (not budgeted: the phones' process forwards)."""
        super().connection_made(transport)
        self.admitted = True
        self._kept_alive()

    def take_over(self, conn: HallConnection, data: bytes) -> None:
        """Serve the rest of `conn`'s life (admitted already, the budget's count and all): set
        up as uvicorn's `connection_made` does, with the peer's address read once, then given
        what `conn` has not answered."""
        transport = conn.transport
        assert transport is not None  # (a connection refused is never taken over)
        self.connections.add(self)
        self.transport = transport
        self.flow = FlowControl(transport)
        self.server, self.client, self.scheme = conn.local, conn.client, "http"  # no TLS here
        self.address, self.kept_room, self.on_trial = conn.address, conn.kept_room, conn.on_trial
        self.admitted = True
        transport.set_protocol(self)
        if conn.write_paused:  # the socket is full: this connection's stall bound from now on
            self.pause_writing()
        self._kept_alive()
        if data:
            self.data_received(data)

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
        token = current_connection.set(self)  # the app's task for this request inherits it
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
            current_connection.reset(token)

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

    def _kept_alive(self) -> None:
        """The connection waits for its next request at most `timeout_keep_alive` (uvicorn only
        bounds the wait after a response, not the one for the first request)."""
        self._unset_keepalive_if_required()
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

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

    def connection_lost(self, exc: Exception | None) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        self._cancel_head_timer()
        if self.admitted:
            self.admitted = False
            if not self.internal:
                self.hall.budget.release(self.address, self.kept_room)
        if self.live is not None:
            self.live.flag.set()
        super().connection_lost(exc)

    @classmethod
    def for_app(cls, hall: HallApp, internal: bool = False) -> type[UvicornConnection]:
        """The protocol class uvicorn makes for each connection of `hall`'s server."""
        return type("HallConnection", (cls,), {"hall": hall, "internal": internal})


#: `one_write` where the writes go out as uvicorn makes them
_AS_MADE = contextlib.nullcontext()


class _Gathered:
    """A transport that keeps what is written until `flush` (UvicornConnection.one_write); the
    rest of what uvicorn asks of a transport is the real one's."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.parts.append(data)

    def flush(self) -> None:
        parts, self.parts = self.parts, []
        if parts and not self.real.is_closing():
            self.real.write(b"".join(parts))

    def close(self) -> None:  # the answer's end when the connection is not kept: written first
        self.flush()
        self.real.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


class _Uvicorn(uvicorn.Server):
    """uvicorn's server on the station's listening sockets, ending the live streams first when
    it stops (they never end by themselves, and the connections they hold would keep the
    shutdown waiting)."""

    def __init__(
        self,
        config: uvicorn.Config,
        hall: HallApp,
        listeners: list[Listener],
        opened: Callable[[asyncio.AbstractEventLoop], None],
    ) -> None:
        super().__init__(config)
        self.hall, self.listeners, self._opened = hall, listeners, opened

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's start-up (the app's lifespan), then one asyncio server per listening
        socket: a `HallConnection` for each connection, or uvicorn's on the internal socket."""
        await super().startup(sockets=[])
        if self.should_exit:
            return
        loop = asyncio.get_running_loop()
        self._uvicorn = UvicornConnection.for_app(self.hall)
        internal = UvicornConnection.for_app(self.hall, internal=True)
        for listener in self.listeners:
            if listener.internal:
                made: Callable[[], asyncio.Protocol] = functools.partial(
                    self._uvicorn_connection, internal
                )
            else:
                made = functools.partial(HallConnection, self, self.hall)
            server = await loop.create_server(made, sock=listener.sock, backlog=BACKLOG)
            self.servers.append(server)
        self._opened(loop)

    def uvicorn_connection(self) -> UvicornConnection:
        """uvicorn's protocol for a hall's connection it takes over (`HallConnection`)."""
        return self._uvicorn_connection(self._uvicorn)

    def _uvicorn_connection(self, protocol: type[UvicornConnection]) -> UvicornConnection:
        state = self.lifespan.state
        return protocol(config=self.config, server_state=self.server_state, app_state=state)

    #: how often the server looks at the time (its date header) and whether it must stop: uvicorn
    #: ticks ten times a second; an idle station wakes once
    tick_s = 1.0

    @property
    def should_exit(self) -> bool:
        return self._should_exit

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        """Set by a signal handler, `station_server.Server.close` (another thread) or uvicorn:
        the main loop hears it at once."""
        self._should_exit = value
        wake = getattr(self, "_wake", None)
        if value and wake is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to wake
                wake[0].call_soon_threadsafe(wake[1].set)

    async def main_loop(self) -> None:
        """uvicorn's, with one tick a second instead of ten: each wake of an idle process costs
        its code run cold (on a Raspberry Pi most of all), and a station is idle most of a night.
        The date header is still made each second; an exit asked is heard at once."""
        woken = asyncio.Event()
        self._wake = (asyncio.get_running_loop(), woken)
        while not await self.on_tick(0):  # (a tick numbered 0 makes the date header)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), self.tick_s)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.hall.stop_streams()
        await super().shutdown(sockets=sockets)


def uvicorn_server(
    hall: HallApp,
    idle_s: int,
    listeners: list[Listener],
    opened: Callable[[asyncio.AbstractEventLoop], None],
) -> _Uvicorn:
    """uvicorn set up for the station (`station_server.Server` runs it): our connection class,
    uvloop where it installs, the hall's keep-alive bound, quiet logs."""
    settings = uvicorn.Config(
        hall,
        http=UvicornConnection.for_app(hall),
        loop="auto",
        lifespan="on",
        timeout_keep_alive=idle_s,
        timeout_graceful_shutdown=1,
        proxy_headers=False,  # X-Forwarded-For from the laptop: forward.trusted_client
        log_level="warning",
        access_log=False,
    )
    return _Uvicorn(settings, hall, listeners, opened)
