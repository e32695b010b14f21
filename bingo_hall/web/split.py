"""The public side in a process of its own (issue 32): no phone's or guest's work runs in the
interpreter that answers the Maestro.

ONE port, as before. The Maestro's process (normal priority) owns the listening socket and
accepts every connection (`Door`). It peeks at the first request's head (`MSG_PEEK`: no byte is
consumed, at most PEEK_BYTES, within PEEK_S) and sorts the connection:

- the Maestro's: from the laptop itself or with a valid caller credential (`HallServer.is_maestro`)
  and asking for something that is not a public page: served here, as before;
- everything else (phones, the big screen, /join, static files, card pages, live streams,
  companions, guests), a connection whose head is not whole at once, and one that sends nothing
  within PEEK_S: its socket is handed to the public process (`socket.send_fds` over a unix
  socket pair). The bytes peeked are still in the kernel's buffer: nothing is copied.

The public process (`public_main`, started with `multiprocessing`'s spawn, at
`os.nice(PUBLIC_NICE)`, 3 by default) makes the same app from the same settings
(`instance.Recipe`) with READ_ONLY set: its SQLite connections are `query_only` (a write is
refused by SQLite itself), it makes no tables, writes no book entry and starts no device. It
serves with the same HallServer (pages from memory, static files, streams, budgets, pace) and:

- gets every event the Maestro's hub publishes, in order, once (`EventFeed`: the hub's `taps`
  write them to a second socket pair; a thread republishes each in the public hub, which its
  screens follow exactly as before: subscribe, snapshot, events);
- sends every change (POST, PUT, DELETE...) and every request of the Maestro's that came on a
  public connection (a tablet whose first request was a static file) to the Maestro's process
  (`Forwarder`), over an internal unix socket whose connections carry the real client's address
  in CLIENT_HEADER (trusted on that socket only), so the pace, the gates and the audit see the
  guest, not the relay.

It ends with the Maestro's process: it reads the end of its socket pair (and on Linux, the
kernel sends it SIGTERM when its parent dies, `PR_SET_PDEATHSIG`). It ignores Ctrl+C (the
terminal sends SIGINT to both; the Maestro's process decides).

Where `socket.send_fds` is missing (Windows), or with ONE_PROCESS (`serve --one-process`), the
station runs in one process, as before (`supported()`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import unquote

from flask import Flask

from .event_link import EventFeed, EventTap
from .forward import Forwarder
from .instance import Recipe, hall
from .scratch import private_folder

#: a connection's first bytes the door looks at (a request's head is bounded by MAX_HEAD_BYTES;
#: past this the connection is the public side's, which answers a 431 itself)
PEEK_BYTES = 8192
#: a connection that sends nothing within this is handed to the public side (its bounds apply)
PEEK_S = 1.0
#: connections waiting for their first bytes in the Maestro's process at most; past it a new one
#: goes to the public side at once
PEEKING_MAX = 256
#: connections waiting for room on the link to the public process at most (web/split.py: Door)
HANDING_MAX = 4096
#: the header a public process's answer carries in debug mode (tests): its pid
SERVED_BY = b"x-bingo-hall-served-by"

_log = logging.getLogger(__name__)
#: said on stderr when the public process had to be ended at the station's stop
NOT_ENDED = "the phones' process did not end by itself within 3 s: ending it"


def supported() -> bool:
    """Can this platform hand a connection to another process?"""
    return hasattr(socket, "send_fds") and hasattr(socket, "AF_UNIX") and sys.platform != "win32"


def sorted_by_head(
    head: bytes, client: tuple[str, int] | None, is_maestros: Callable[[dict[str, Any]], bool]
) -> bool:
    """Is the request whose raw head this is the Maestro's (`is_maestros` asked of an ASGI-like
    scope made from it)? False for a head that is not whole or not well formed."""
    end = head.find(b"\r\n\r\n")
    if end < 0:
        return False
    lines = head[:end].split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        return False
    path, _, query = parts[1].partition(b"?")
    headers = []
    for line in lines[1:]:
        name, colon, value = line.partition(b":")
        if not colon:
            return False
        headers.append((name.strip().lower(), value.strip()))
    scope: dict[str, Any] = {"type": "http", "method": parts[0].decode("latin-1"), "client": client}
    scope.update(path=unquote(path.decode("latin-1")), query_string=query, headers=headers)
    return is_maestros(scope)


# --- the Maestro's process --------------------------------------------------------------------


class Door:
    """Accepts every connection on the listening socket (on the Maestro's loop) and serves it
    here (`here(sock)`) or hands it to the public process (`link`), see the module's docstring."""

    def __init__(
        self,
        listener: socket.socket,
        is_maestros: Callable[[dict[str, Any]], bool],
        here: Callable[[socket.socket], None],
        link: socket.socket | None,
    ) -> None:
        self.listener, self.is_maestros, self.here, self.link = listener, is_maestros, here, link
        self.loop: asyncio.AbstractEventLoop | None = None
        self.peeking: dict[int, tuple[socket.socket, asyncio.TimerHandle]] = {}
        self.handed = 0  # connections handed to the public process (tests read it)
        self.handing: deque[socket.socket] = deque()  # waiting for room on the link

    def open(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.listener.setblocking(False)
        loop.add_reader(self.listener.fileno(), self._accept)

    def close(self) -> None:
        if self.loop is None:
            return
        with contextlib.suppress(Exception):
            self.loop.remove_reader(self.listener.fileno())
        for fd, (sock, timer) in list(self.peeking.items()):
            timer.cancel()
            with contextlib.suppress(Exception):
                self.loop.remove_reader(fd)
            sock.close()
        self.peeking.clear()
        if self.handing and self.link is not None:
            with contextlib.suppress(Exception):
                self.loop.remove_writer(self.link.fileno())
        while self.handing:
            self.handing.popleft().close()

    def _accept(self) -> None:
        assert self.loop is not None
        for _ in range(128):
            try:
                sock, addr = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of files: listen again in a second (as asyncio does)
                self.loop.remove_reader(self.listener.fileno())
                self.loop.call_later(1.0, self.open, self.loop)
                return
            sock.setblocking(False)
            if self.link is None:
                self.here(sock)
            elif len(self.peeking) >= PEEKING_MAX:
                self._away(sock)
            else:
                fd = sock.fileno()
                timer = self.loop.call_later(PEEK_S, self._silent, fd)
                self.peeking[fd] = (sock, timer)
                self.loop.add_reader(fd, self._readable, fd)

    def _taken(self, fd: int) -> socket.socket | None:
        found = self.peeking.pop(fd, None)
        if found is None:
            return None
        sock, timer = found
        timer.cancel()
        assert self.loop is not None
        self.loop.remove_reader(fd)
        return sock

    def _silent(self, fd: int) -> None:
        sock = self._taken(fd)
        if sock is not None:
            self._away(sock)

    def _readable(self, fd: int) -> None:
        sock = self._taken(fd)
        if sock is None:
            return
        try:
            head = sock.recv(PEEK_BYTES, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            head = b" "  # not readable after all: the public side will read it
        except OSError:
            sock.close()
            return
        if not head:  # the client left before asking anything
            sock.close()
            return
        peer = sock.getpeername() if sock.family in (socket.AF_INET, socket.AF_INET6) else None
        if sorted_by_head(head, (peer[0], peer[1]) if peer else None, self.is_maestros):
            self.here(sock)
        else:
            self._away(sock)

    def _away(self, sock: socket.socket) -> None:
        """Hand the socket to the public process. While its link is full (the public process
        is busy taking what it was handed) the socket waits in `handing`, in order, and goes
        as soon as the link has room: a guest's connection is never served here, where its
        address's budget would count it a second time. Served here only once the public
        process is gone. Past HANDING_MAX waiting, a new one is closed (a flood's, as a full
        listen backlog would drop it)."""
        if self.link is None:
            self.here(sock)
        elif not self.handing and self._hand(sock):
            return
        elif self.link is None:  # it has just gone
            self.here(sock)
        elif len(self.handing) >= HANDING_MAX:
            sock.close()
        else:
            self.handing.append(sock)
            if len(self.handing) == 1 and self.loop is not None:
                self.loop.add_writer(self.link.fileno(), self._flush)

    def _hand(self, sock: socket.socket) -> bool:
        """One socket to the public process; False if the link is full or gone."""
        assert self.link is not None
        try:
            socket.send_fds(self.link, [b"c"], [sock.fileno()])
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:  # the public process is gone: everything is served here now
            self._gone()
            return False
        self.handed += 1
        sock.close()
        return True

    def _flush(self) -> None:
        """The link has room: what waits goes, in order."""
        link = self.link
        while self.handing and self.link is not None and self._hand(self.handing[0]):
            self.handing.popleft()
        if (not self.handing or self.link is None) and link is not None and self.loop:
            with contextlib.suppress(Exception):
                self.loop.remove_writer(link.fileno())

    def _gone(self) -> None:
        link, self.link = self.link, None
        if link is not None and self.loop is not None:
            with contextlib.suppress(Exception):
                self.loop.remove_writer(link.fileno())
        while self.handing:
            self.here(self.handing.popleft())


class PublicSide:
    """The public process, seen from the Maestro's: its start, its links, its end."""

    def __init__(self, recipe: Recipe, started: Callable[[Flask], None] | None) -> None:
        self.recipe, self.started = recipe, started
        self.folder = private_folder()  # mode 700, named for its process (web/scratch.py)
        self.forward_path = os.path.join(self.folder, "maestro.sock")
        self.forward = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.forward.bind(self.forward_path)
        self.forward.listen(512)
        self.link, their_link = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        events, their_events = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.link.setblocking(False)
        self.tap = EventTap(events)
        context = multiprocessing.get_context("spawn")
        self.process = context.Process(
            target=public_main,
            args=(recipe, started, their_link, their_events, self.forward_path),
            name="bingo-hall-public",
            daemon=False,
        )
        with _sigint_ignored():  # the child starts ignoring Ctrl+C (no traceback at start-up)
            self.process.start()
        their_link.close()
        their_events.close()
        self.ready = threading.Event()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def wait_ready(self, timeout: float) -> bool:
        """Wait for the public process's word that it serves (one byte on the link)."""
        if self.ready.is_set():
            return True
        self.link.setblocking(True)
        self.link.settimeout(timeout)
        try:
            got = self.link.recv(1)
        except OSError:
            got = b""
        finally:
            self.link.setblocking(False)
        if got:
            self.ready.set()
        return bool(got)

    def close(self) -> None:
        """End the public process: the end of its links tells it; it is awaited, then ended."""
        self.tap.close()
        with contextlib.suppress(OSError):
            self.link.shutdown(socket.SHUT_RDWR)
        self.link.close()
        self.process.join(timeout=3)  # it reads the end of its link and stops
        if self.process.is_alive():  # still starting (or stuck): SIGTERM ends it
            _log.warning(NOT_ENDED)
            self.process.terminate()
            self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)
        self.forward.close()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


# --- the public process -----------------------------------------------------------------------


#: the public process's name (Linux: /proc/PID/comm, `ps -o comm`, `top`)
PUBLIC_NAME = b"bingo-public"


def _die_with_parent() -> None:
    """Linux: the kernel sends this process SIGTERM when its parent dies; and it is named."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        libc.prctl(15, PUBLIC_NAME)  # PR_SET_NAME
    except (OSError, AttributeError):
        pass


def _end_now(signum: int, frame: object) -> None:
    raise SystemExit(0)  # multiprocessing ends the process with it quietly


def public_main(
    recipe: Recipe,
    started: Callable[[Flask], None] | None,
    link: socket.socket,
    events: socket.socket,
    forward_path: str,
) -> None:
    """The public process: the same app, read-only, at a lower CPU priority, serving the
    connections the Maestro's process hands it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _end_now)  # while starting: end at once (serving: stop_soon)
    _die_with_parent()
    from .station_server import Server  # here: the public process imports the server once made

    app = recipe.make(READ_ONLY=True, DEVICE_URL=None)
    with contextlib.suppress(AttributeError, OSError):
        os.nice(hall(app).config.public_nice)  # PUBLIC_NICE: a lower priority from now on
    server = Server.public(app, link, Forwarder(forward_path))
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


def receive_sockets(link: socket.socket) -> tuple[list[socket.socket], bool]:
    """The sockets the Maestro's process handed over now; True: its end (it has gone)."""
    taken: list[socket.socket] = []
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(link, 256, 64)
        except (BlockingIOError, InterruptedError):
            return taken, False
        except OSError:
            return taken, True
        taken += [socket.socket(fileno=fd) for fd in fds]
        if not data and not fds:
            return taken, True
