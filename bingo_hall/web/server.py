"""The station's HTTP server: uvicorn in front (HTTP parsed by httptools, which has wheels for
Windows, macOS and Linux; h11 if it is missing), one event loop for every connection: uvloop where
it installs (Linux, macOS: a third less CPU to write to a thousand sockets), asyncio on Windows.

This is the ONE module that knows uvicorn's internals (`UvicornConnection`; `Server` runs
uvicorn). The rest of the server is split by idea:
- dispatch.py: the ASGI app (`HallServer`): who asks, who answers, the worker pools;
- relay.py: the live event relay (the open screens, written by the event loop);
- plumbing.py: process plumbing (open files, the listening socket, signals, the collector).

Connections are budgeted per guest address and in total, below the open-files limit, with room
kept for the laptop (budget.py); the head of a request is bounded in bytes, count and time at
the parser (`UvicornConnection`). Idle connections are bounded by time: one that sends no
request within IDLE_S, or nothing after a response within IDLE_S (keep-alive), is closed. Idle
sockets cost the event loop nothing while they wait, so they never delay a draw.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator

import uvicorn

try:  # httptools (C) parses and writes HTTP in a fraction of h11's time; h11 is the fallback
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HTTPProtocol
except ImportError:  # pragma: no cover - a platform without httptools wheels
    from uvicorn.protocols.http.h11_impl import H11Protocol as _HTTPProtocol  # type: ignore[assignment]  # the same protocol interface

from .admission import Words, answer_bytes
from .dispatch import HallServer
from .instance import hall
from .plumbing import listen, raise_open_files_limit, stopped_by_signals
from .relay import Live, current_connection
from .split import Door, Forwarder, PublicSide, receive_sockets, supported

__all__ = ["HallServer", "Server", "UvicornConnection"]


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
    #: a connection on the internal socket (requests the public process forwards, split.py):
    #: not budgeted, and its CLIENT_HEADER names the real client
    internal = False
    _stall: asyncio.TimerHandle | None = None
    _head_timer: asyncio.TimerHandle | None = None
    live: Live | None = None
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
        refusal = None if self.internal else self.hall.budget.admit(self.address)
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
            if not self.internal:
                self.hall.budget.release(self.address)
        if self.live is not None:
            self.live.flag.set()
        super().connection_lost(exc)

    @classmethod
    def for_server(cls, hall: HallServer, internal: bool = False) -> type[UvicornConnection]:
        """The protocol class uvicorn makes for each connection of `hall`'s server."""
        return type("HallConnection", (cls,), {"hall": hall, "internal": internal})


class Server:
    """One station server on one socket: `run()` in the foreground (the CLI, Ctrl+C stops it) or
    `start()` in a thread (tests, benchmarks) and `close()`.

    With `split` (`serve` and `demo` ask for it unless ONE_PROCESS; web/split.py), the public
    side is served
    by a process of its own at a lower CPU priority, made from the same settings: this process
    keeps the Maestro's connections and hands the others over. `started(app)` runs in that
    process once its app is made (the card tables' worker). Where the platform cannot hand a
    connection over, or the app was not made by `create_app`, it is one process, as before."""

    def __init__(
        self,
        app,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        split: bool = False,
        started: Callable | None = None,
    ):
        config = hall(app).config  # its tunables (threads, bounds): the hall's config, built once
        raise_open_files_limit(config.wanted_files)  # before the budget, which stays below it
        self.hall = HallServer(app)
        self.socket: socket.socket | None = listen(host, port)
        self.port = self.socket.getsockname()[1]
        recipe = hall(app).made_with
        self.public_side: PublicSide | None = None
        if split and supported() and recipe is not None:
            self.public_side = PublicSide(recipe, started)
            tap = self.public_side.tap
            hall(app).hub.taps.append(tap)
            tap.paused = lambda: self.hall.screens.holding > 0  # the Maestro's answer first
            self.hall.screens.on_release.append(tap.wake)
        self._link: socket.socket | None = None  # the public process's end (Server.public)
        self.doors: list[Door] = []
        self._build(config)

    @classmethod
    def public(cls, app, link: socket.socket, forward: Forwarder) -> Server:
        """The public process's server: no socket of its own; it serves the connections handed
        over on `link`, and forwards changes and the Maestro's requests (`forward`)."""
        self = cls.__new__(cls)
        config = hall(app).config
        raise_open_files_limit(config.wanted_files)
        self.hall = HallServer(app, forward=forward)
        self.socket, self.port, self.public_side = None, 0, None
        self._link, self.doors = link, []
        link.setblocking(False)
        self._build(config)
        return self

    @property
    def split(self) -> bool:
        return self.public_side is not None

    def _build(self, config) -> None:
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
        self.uvicorn = _Uvicorn(settings, self.hall, self._opened, self._closing)
        self._thread: threading.Thread | None = None
        self._tasks: set[asyncio.Future] = set()

    def _serve(self, loop: asyncio.AbstractEventLoop, make: Callable) -> Callable:
        def here(sock: socket.socket) -> None:
            task = asyncio.ensure_future(loop.connect_accepted_socket(make, sock))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        return here

    def _opened(self, loop: asyncio.AbstractEventLoop, make: Callable[[bool], Callable]) -> None:
        """On the loop, once uvicorn has started: accept connections (web/split.py)."""
        here = self._serve(loop, make(False))
        if self._link is not None:  # the public process: take what the Maestro's hands over
            link = self._link
            loop.add_reader(link.fileno(), self._take, link, here)
            with contextlib.suppress(OSError):
                link.send(b"r")  # serving: the Maestro's process may say so
            return
        assert self.socket is not None
        side = self.public_side
        door = Door(self.socket, self.hall.is_maestros, here, side.link if side else None)
        self.doors = [door]
        if side is not None:  # the public process's forwarded requests
            inside = Door(side.forward, lambda scope: True, self._serve(loop, make(True)), None)
            self.doors.append(inside)
        for each in self.doors:
            each.open(loop)

    def _take(self, link: socket.socket, here: Callable) -> None:
        taken, ended = receive_sockets(link)
        for sock in taken:
            sock.setblocking(False)
            here(sock)
        if ended:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(link.fileno())
            self.stop_soon()

    def _closing(self) -> None:
        for door in self.doors:
            door.close()

    def stop_soon(self) -> None:
        self.uvicorn.should_exit = True

    def run(self) -> None:
        try:
            self.uvicorn.run(sockets=[])
        finally:
            if self.socket is not None:
                self.socket.close()
            if self.public_side is not None:
                self.public_side.close()
            for pool in self.hall.pools():
                pool.executor.shutdown(wait=False)
            self.hall.screens.shutdown()

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
        a traceback). The public process, if any, ends with it (web/split.py)."""

        with stopped_by_signals(self.stop_soon):
            yield

    def start(self) -> Server:
        self._thread = threading.Thread(target=self.run, name="station-server", daemon=True)
        self._thread.start()
        while not self.uvicorn.started and self._thread.is_alive():
            time.sleep(0.01)
        if self.public_side is not None:
            self.public_side.wait_ready(timeout=60)
        return self

    def close(self) -> None:
        self.uvicorn.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=15)


class _Uvicorn(uvicorn.Server):
    """uvicorn's server, ending the live streams first when it stops (they never end by
    themselves, and the connections they hold would keep the shutdown waiting)."""

    def __init__(
        self,
        config: uvicorn.Config,
        hall: HallServer,
        opened: Callable[[asyncio.AbstractEventLoop, Callable[[bool], Callable]], None],
        closing: Callable[[], None],
    ) -> None:
        super().__init__(config)
        self.hall, self._opened, self._closing = hall, opened, closing

    async def startup(self, sockets=None) -> None:
        """uvicorn's start-up with no listener of its own: the station accepts (`Door`) and
        gives uvicorn each connection it serves (`connect_accepted_socket`)."""
        await super().startup(sockets=[])
        if self.should_exit:
            return
        config = self.config

        def make(internal: bool) -> Callable:
            cls = UvicornConnection.for_server(self.hall, internal)

            def create_protocol() -> asyncio.Protocol:
                state = self.lifespan.state
                return cls(config=config, server_state=self.server_state, app_state=state)

            return create_protocol

        self._opened(asyncio.get_running_loop(), make)

    async def shutdown(self, sockets=None) -> None:
        self._closing()
        self.hall.stop_streams()
        await super().shutdown(sockets=sockets)
