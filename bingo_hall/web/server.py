"""uvicorn, set up for the station: the ONE module that knows uvicorn's internals
(`UvicornConnection`, `_Uvicorn`, `uvicorn_server`). One idea in one module: every use of those
internals is here, so that a uvicorn upgrade is checked in one place
(tests/security/test_uvicorn_contract.py), the answers written at a request's head included.

HTTP is parsed by httptools (wheels for Windows, macOS and Linux; h11 if it is missing), on one
event loop for every connection: uvloop where it installs (Linux, macOS: a third less CPU to write
to a thousand sockets), asyncio on Windows. Each listening socket the station gives it
(`Listener`) is served by an asyncio server of its own (station_server.py says which process
listens where).

Connections are budgeted per guest address and in total, below the open-files limit, with room
kept for the laptop and for phones holding a valid card (admission.py); the head of a request is
bounded in bytes, count and time at the parser (`UvicornConnection`). Idle connections are bounded
by time: one that sends no request within IDLE_S, or nothing after a response within IDLE_S
(keep-alive), is closed. Idle sockets cost the event loop nothing while they wait, so they never
delay a draw.
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


class UvicornConnection(_HTTPProtocol):
    """uvicorn's HTTP protocol for one connection, with the bounds it lacks. EVERY use of
    uvicorn's internals is here, and nowhere else (tests/security/test_uvicorn_contract.py
    fails on a uvicorn that breaks one; pyproject.toml bounds its version):

    - admission: a connection over the budget (`admission.ConnectionBudget`) is answered 503
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
    _answered = False  # the current request was answered at its head (`_answer_now`)
    _streaming = False  # a live stream written at its request's head is under way
    _ignored = False  # a request sent behind that stream: the connection is closed, unread

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

    # --- admission ------------------------------------------------------------------------
    # uvicorn names the transport's type its own way; asyncio's Transport is what it is given
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        self.address = peer[0] if isinstance(peer, tuple) and peer else None
        said = None if self.internal else self.hall.budget.admit(self.address)
        self.on_trial = isinstance(said, Trial)  # its first request must show a card (HallApp)
        self.kept_room = self.on_trial
        if isinstance(said, Refusal):  # answered before uvicorn sets anything up: cheap
            refusal = said
            words = Words(
                f"{refusal.reason}; try again later", f"{refusal.razon}; inténtalo más tarde"
            )
            transport.write(answer_bytes(503, "Service Unavailable", words))
            transport.close()
            return
        if self.internal or not isinstance(peer, tuple) or len(peer) < 2:
            super().connection_made(transport)
        else:  # uvicorn's own set-up, with the peer's address read once (not a socket object each)
            self.connections.add(self)
            self.transport = transport
            self.flow = FlowControl(transport)
            local = transport.get_extra_info("sockname")
            self.server = (str(local[0]), int(local[1])) if isinstance(local, tuple) else None
            self.client = (str(peer[0]), int(peer[1]))
            self.scheme = "http"  # the station serves no TLS
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
        self._answered = False
        if self._streaming:  # a client that pipelines behind a stream (no browser does)
            self._ignored = True
            self.transport.close()

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._ignored:
            return
        self._headers += 1
        if self._headers > self.hall.config.max_headers:
            self._too_many_headers = True
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._cancel_head_timer()
        if self._too_many_headers or self._ignored:
            return
        if self._answer_now():
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._ignored:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._too_many_headers or self._ignored:
            return
        if not self._answered:  # (answered at its head: uvicorn has no cycle for it)
            super().on_message_complete()
        self._in_head, self._head = True, 0

    # --- answers from memory, at the request's head -------------------------------------------
    def _answer_now(self) -> bool:
        """A join's four requests (its static files, its card's page kept in memory, its stream
        opened from the kept snapshot) are answered here as soon as the request's head is read
        (`HallApp.answer_now` says what, with `__call__`'s checks): no ASGI scope, cycle or
        messages, one write, and no task but a stream's own (relay.py follows it). Only a
        kept-alive HTTP/1.1 GET or HEAD with no body, from outside, on a connection whose first
        request needs no card check, with no answer under way (so answers keep their order) and
        its socket not full."""
        if self.internal or self.on_trial or self.pipeline or self.flow.write_paused:
            return False
        if self.cycle is not None and not self.cycle.response_complete:
            return False
        parser = self.parser
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
        self._answered = True
        self.server_state.total_requests += 1
        if isinstance(said, Answer):
            self.transport.write(self._http(said))
            self._kept_alive()
            return True
        # a live stream: its head and first event now, then its events as they come (relay.py);
        # nothing more is read from the connection until it ends (answers keep their order)
        streamed = [*self.hall.screens.stream_headers, *self.hall.served_by, CHUNKED]
        self.transport.write(self._http(Answer(200, streamed, chunk(said.head))))
        self._streaming = True
        self.flow.pause_reading()
        task = self.loop.create_task(
            self.hall.screens.written_at_head(said, self, self._stream_ended)
        )
        self.tasks.add(task)  # (uvicorn's: a server that stops waits for them, or ends them)
        task.add_done_callback(self.tasks.discard)
        return True

    def _stream_ended(self, whole: bool) -> None:
        """A stream written at its head has ended: its answer ends (the last chunk) and the
        connection may take its next request; or a client that stalled is cut off."""
        self._streaming = False
        if not whole:
            self.transport.abort()
            return
        self.transport.write(b"0\r\n\r\n")
        self.flow.resume_reading()
        self._kept_alive()

    def _kept_alive(self) -> None:
        """An answer is complete: the connection waits for its next request at most
        `timeout_keep_alive` (as uvicorn's own answers do)."""
        self._unset_keepalive_if_required()
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def _http(self, answer: Answer) -> bytes:
        """An answer as HTTP/1.1 bytes, with uvicorn's default headers (date, server)."""
        out = [STATUS_LINE[answer.status]]
        for name, value in (*self.server_state.default_headers, *answer.headers):
            out += (name, b": ", value, b"\r\n")
        out += (b"\r\n", answer.body)
        return b"".join(out)

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
        if not self.admitted and self.flow is None:  # refused in connection_made
            return
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
        socket: our connection class, told whether it is the internal socket."""
        await super().startup(sockets=[])
        if self.should_exit:
            return
        loop = asyncio.get_running_loop()
        for listener in self.listeners:
            protocol = UvicornConnection.for_app(self.hall, listener.internal)
            made = functools.partial(self._connection, protocol)
            server = await loop.create_server(made, sock=listener.sock, backlog=BACKLOG)
            self.servers.append(server)
        self._opened(loop)

    def _connection(self, protocol: type[UvicornConnection]) -> asyncio.Protocol:
        state = self.lifespan.state
        return protocol(config=self.config, server_state=self.server_state, app_state=state)

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
