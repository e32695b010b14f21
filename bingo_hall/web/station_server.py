"""One station server on one socket (`Server`): it runs uvicorn (server.py, the one module that
knows uvicorn's internals) on the station's ASGI app (dispatch.py), accepts at the door and, split
(web/split.py), hands the public side to a process of its own."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask

from .config import HallConfig
from .db import Checkpointer
from .dispatch import HallServer
from .forward import Forwarder
from .instance import hall
from .plumbing import listen, raise_open_files_limit, stopped_by_signals
from .server import uvicorn_server
from .split import Door, PublicSide, receive_sockets, supported

#: makes the protocol of one accepted connection (uvicorn's, server.py)
Protocols = Callable[[], asyncio.Protocol]
#: serves one accepted socket on the loop
Accepted = Callable[[socket.socket], None]


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
        app: Flask,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        split: bool = False,
        started: Callable[[Flask], None] | None = None,
    ) -> None:
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
        self.checkpoints: Checkpointer | None = Checkpointer(app)  # the writing process's
        self._build(config)

    @classmethod
    def public(cls, app: Flask, link: socket.socket, forward: Forwarder) -> Server:
        """The public process's server: no socket of its own; it serves the connections handed
        over on `link`, and forwards changes and the Maestro's requests (`forward`)."""
        self = cls.__new__(cls)
        config = hall(app).config
        raise_open_files_limit(config.wanted_files)
        self.hall = HallServer(app, forward=forward)
        self.socket, self.port, self.public_side = None, 0, None
        self._link, self.doors, self.checkpoints = link, [], None
        link.setblocking(False)
        self._build(config)
        return self

    @property
    def split(self) -> bool:
        return self.public_side is not None

    def _build(self, config: HallConfig) -> None:
        self.uvicorn = uvicorn_server(self.hall, config.idle_s, self._opened, self._closing)
        self._thread: threading.Thread | None = None
        self._tasks: set[asyncio.Future[Any]] = set()

    def _serve(self, loop: asyncio.AbstractEventLoop, make: Protocols) -> Accepted:
        def here(sock: socket.socket) -> None:
            task = asyncio.ensure_future(loop.connect_accepted_socket(make, sock))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        return here

    def _opened(self, loop: asyncio.AbstractEventLoop, make: Callable[[bool], Protocols]) -> None:
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

    def _take(self, link: socket.socket, here: Accepted) -> None:
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
        if self.checkpoints is not None:
            self.checkpoints.start()
        try:
            self.uvicorn.run(sockets=[])
        finally:
            if self.checkpoints is not None:
                self.checkpoints.stop()
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
