"""The station's server (`Server`): its ports, its processes, its start and stop.

Two ports. The **Maestro's port** (`serve --maestro-port`, bound to 127.0.0.1 unless
`--maestro-host` opens it to a tablet) is accepted and served by the Maestro's process alone: the
caller page, its files, its streams, the laptop's projector window. The **hall's port** (`--port`,
the one the cards' QR codes name) is accepted and served by the phones' process
(phones_process.py), which forwards the changes it gets to the Maestro's process over an internal
unix socket (forward.py). A guest's work therefore never runs where the Maestro's draw does, and
however a browser reuses its connections, the caller page's requests never pass through the
phones' process. With `one_process` (`serve --one-process`, or a platform without the split) one
process serves both ports; a test may serve one port alone (`maestro_port=None`).

A phone's request, followed through the code (the four modules it touches):

1. **server.py** - the connection on the hall's port (`loop.create_server`) is a
   `HallConnection`, which first admits it against the connection budget (the
   `ConnectionBudget` kept by the app: per address, in total, with room kept for phones holding a
   valid card) or answers 503 at once. A join's four requests (the card's page, its stylesheet,
   its script, its stream) are answered right there once their whole head is read by httptools
   (asking the app's `answer_now` what, with the same checks): no ASGI cycle. Any other request
   hands the connection to uvicorn (`UvicornConnection`, which bounds a head's bytes, count and
   time) and so to the ASGI app.
2. **dispatch.py** - `HallApp`, the ASGI app, paces a guest's requests per address, reads a body
   on the loop within its limits (admission.py's `read_body`), and then either forwards it to the
   Maestro's process (`forwarded(scope)`: every change, and the Maestro's own pages reached on the
   hall's port), or answers it: a static file or a kept page from memory, a live stream, or the
   Flask app in a worker pool chosen by who asks.
3. **pages.py** - a card's page, /display and /join from memory, made once per version of what
   they show (the card page's one stylesheet and one script are static files, made at start-up,
   with long-lived immutable caching: static_files.py).
4. **relay.py** - a live stream: one hub subscription per channel for every open screen, written
   by the event loop.

The Maestro's process serves its port with the same four modules (no forwarding), plus the
internal socket on which it answers what the phones' process forwards (forward.py names the real
client there) and the tap that relays its hub's events to the phones' process (event_link.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator

from flask import Flask

from .db import Checkpointer
from .dispatch import HallApp
from .event_link import EventFeed
from .forward import Forwarder
from .instance import Recipe, hall
from .phones_process import (
    PhonesProcess,
    Restarted,
    die_with_parent,
    end_now,
    said_in_english,
    supported,
)
from .plumbing import listen, raise_open_files_limit, stopped_by_signals
from .server import Listener, uvicorn_server


class Server:
    """The station's server: `run()` in the foreground (the CLI, Ctrl+C stops it) or `start()` in
    a thread (tests, benchmarks) and `close()`. `port` is the hall's port, `maestro_port` the
    Maestro's (the hall's when it has none of its own).

    With `split` (`serve` and `demo` ask for it unless ONE_PROCESS), the hall's port is served by
    the phones' process (phones_process.py), made from the same settings; `started(app)` runs in
    that process once its app is made (the card pages' thread ahead). Where the platform cannot
    split, or the app was not made by `create_app`, one process serves both ports."""

    def __init__(
        self,
        app: Flask,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        split: bool = False,
        maestro_host: str = "127.0.0.1",
        maestro_port: int | None = None,
        started: Callable[[Flask], None] | None = None,
        on_restart: Callable[[Restarted], None] = said_in_english,
    ) -> None:
        config = hall(app).config
        #: the open-files limit now in force, raised to the system's hard limit where allowed
        self.open_files = raise_open_files_limit(config.wanted_files)
        self.hall = HallApp(app)
        recipe = hall(app).made_with
        split = split and supported() and recipe is not None
        if split and maestro_port is None:
            maestro_port = 0  # the Maestro's requests need a port of their own
        self.hall_socket = listen(host, port)
        self.port: int = self.hall_socket.getsockname()[1]
        hall(app).hall_port = self.port  # (the big screen's QR for phones names it)
        self.maestro_socket: socket.socket | None = None
        self.maestro_port = self.port
        if maestro_port is not None:
            try:
                self.maestro_socket = listen(maestro_host, maestro_port)
            except BaseException:
                self.hall_socket.close()  # the caller may try another Maestro's port
                raise
            self.maestro_port = self.maestro_socket.getsockname()[1]
        self.phones: PhonesProcess | None = None
        listeners: list[Listener] = []
        if split:
            assert recipe is not None
            self.phones = PhonesProcess(phones_main, recipe, self.hall_socket, started, on_restart)
            hall(app).hub.taps.append(self.phones)
            self.phones.paused = lambda: self.hall.screens.holding > 0  # the Maestro's answer first
            self.hall.screens.on_release.append(self.phones.wake)
            listeners.append(Listener(self.phones.forward, internal=True))
        else:
            listeners.append(Listener(self.hall_socket))
        if self.maestro_socket is not None:
            listeners.append(Listener(self.maestro_socket))
        self._link: socket.socket | None = None
        self.checkpoints: Checkpointer | None = Checkpointer(app)  # the writing process's
        self._build(listeners)

    @classmethod
    def for_phones(
        cls, app: Flask, hall_socket: socket.socket, link: socket.socket, forward: Forwarder
    ) -> Server:
        """The phones' process's server: it accepts on the hall's port, and forwards changes and
        the Maestro's requests to the Maestro's process (`forward`)."""
        self = cls.__new__(cls)
        self.open_files = raise_open_files_limit(hall(app).config.wanted_files)
        self.hall = HallApp(app, forward=forward)
        self.hall_socket, self.port = hall_socket, hall_socket.getsockname()[1]
        self.maestro_socket, self.maestro_port, self.phones = None, 0, None
        self._link, self.checkpoints = link, None
        link.setblocking(False)
        self._build([Listener(hall_socket)])
        return self

    @property
    def split(self) -> bool:
        return self.phones is not None

    def _build(self, listeners: list[Listener]) -> None:
        config = hall(self.hall.flask).config
        self.uvicorn = uvicorn_server(self.hall, config.idle_s, listeners, self._opened)
        self._thread: threading.Thread | None = None

    def _opened(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the loop, once serving: the phones' process says so, and stops when the Maestro's
        process is gone (the end of its link)."""
        link = self._link
        if link is None:
            return
        loop.add_reader(link.fileno(), self._link_readable, loop, link)
        with contextlib.suppress(OSError):
            link.send(b"r")

    def _link_readable(self, loop: asyncio.AbstractEventLoop, link: socket.socket) -> None:
        try:
            got = link.recv(64)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            got = b""
        if not got:
            loop.remove_reader(link.fileno())
            self.stop_soon()

    def stop_soon(self) -> None:
        self.uvicorn.should_exit = True

    def run(self) -> None:
        if self.checkpoints is not None:
            self.checkpoints.start()
        try:
            self.uvicorn.run(sockets=[])
        finally:
            if self.checkpoints is not None:
                self.checkpoints.stop()
            if self.phones is not None:
                self.phones.close()
            self.hall_socket.close()
            if self.maestro_socket is not None:
                self.maestro_socket.close()
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
        a traceback). The phones' process, if any, ends with it."""

        with stopped_by_signals(self.stop_soon):
            yield

    def start(self) -> Server:
        self._thread = threading.Thread(target=self.run, name="station-server", daemon=True)
        self._thread.start()
        while not self.uvicorn.started and self._thread.is_alive():
            time.sleep(0.01)
        if self.phones is not None:
            self.phones.wait_ready(timeout=60)
        return self

    def close(self) -> None:
        self.uvicorn.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=15)


def phones_main(
    recipe: Recipe,
    started: Callable[[Flask], None] | None,
    hall_socket: socket.socket,
    link: socket.socket,
    events: socket.socket,
    forward_path: str,
) -> None:
    """The phones' process: the same app, read-only, at a lower CPU priority, accepting on the
    hall's port."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, end_now)  # while starting: end at once (serving: stop_soon)
    die_with_parent()
    app = recipe.make(READ_ONLY=True, DEVICE_URL=None)
    with contextlib.suppress(AttributeError, OSError):
        os.nice(hall(app).config.public_nice)  # PUBLIC_NICE: a lower priority from now on
    server = Server.for_phones(app, hall_socket, link, Forwarder(forward_path))
    EventFeed(events, app, server.stop_soon)
    signal.signal(signal.SIGTERM, lambda signum, frame: server.stop_soon())
    if started is not None:
        started(app)
    try:
        server.run()
    finally:
        for end in hall(app).on_stop:
            with contextlib.suppress(Exception):
                end()
