"""The phones' process: the hall's port served by an interpreter of its own, started, watched and
started again by the Maestro's process (`PhonesProcess`), so no phone's or guest's work runs in the
interpreter that answers the Maestro, and a phones' process that dies is replaced within a second.

The Maestro's process binds the hall's port (the one the cards' QR codes name) and never serves
it: the listening socket is given to the phones' process when it is spawned (multiprocessing
duplicates the descriptor), and the phones' process accepts on it itself. While it starts again,
the kernel keeps new connections in the socket's backlog: a phone waits, it is never refused, and
its connection is never served by the Maestro's process.

The phones' process (`station_server.phones_main`, at `os.nice(PUBLIC_NICE)`) makes the same
app from the same settings (`instance.Recipe`) with READ_ONLY set: its SQLite connections are
`query_only`, it makes no tables, writes no book entry and starts no device. It

- gets every event the Maestro's hub publishes, in order, once (event_link.py: `EventTap` here,
  `EventFeed` there), which its screens follow as the Maestro's own do;
- sends every change but a guest's own (web/guest_write.py: a table's entries, a notebook's
  PIN, which it writes itself), and the Maestro's own requests that reached the hall's port (a
  tablet that opened the hall's URL), to the Maestro's process over an internal unix socket in a
  folder only this user can open (forward.py), with the real client's address.

It ends with the Maestro's process: the end of its link says so (and on Linux the kernel sends it
SIGTERM when the thread that spawned it ends, `PR_SET_PDEATHSIG`). It ignores Ctrl+C: the terminal
sends SIGINT to both, and the Maestro's process decides.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Flask

from .event_link import EventTap
from .instance import Recipe
from .scratch import private_folder

_log = logging.getLogger(__name__)
#: said on stderr when the phones' process had to be ended at the station's stop
NOT_ENDED = "the phones' process did not end by itself within 3 s: ending it"
#: a phones' process that keeps ending before it serves is started again after 1, 2, 4... s, at
#: most this long (one that ended while serving is started again at once)
MAX_BACKOFF_S = 30.0
#: the phones' process's name (Linux: /proc/PID/comm, `ps -o comm`, `top`)
PHONES_NAME = b"bingo-phones"


def supported() -> bool:
    """Can this platform give a listening socket to a spawned process and forward over a unix
    socket? (Not on Windows: there `serve` is one process.)"""
    return hasattr(socket, "AF_UNIX") and sys.platform != "win32"


@dataclass(frozen=True)
class Restarted:
    """The phones' process `old` ended (`code`: its exit code, negative for a signal) and `new`
    serves the hall's port in its place."""

    old: int
    code: int
    new: int


def said_in_english(news: Restarted) -> None:
    _log.warning(
        "the phones' process %s ended (%s); process %s serves the phones now",
        news.old,
        news.code,
        news.new,
    )


class PhonesProcess:
    """The phones' process, seen from the Maestro's: its start, its links, its watch, its end.

    It is also the hub's tap (`hub.taps`): each event goes to the process serving now."""

    def __init__(
        self,
        main: Callable[..., None],
        recipe: Recipe,
        hall_socket: socket.socket,
        started: Callable[[Flask], None] | None = None,
        on_restart: Callable[[Restarted], None] = said_in_english,
    ) -> None:
        # `main` runs in the new process (station_server.phones_main): a module's function, as
        # spawn needs, given by the module that makes servers so that this one imports none
        self.main = main
        self.recipe, self.hall_socket, self.started = recipe, hall_socket, started
        self.on_restart = on_restart
        # mode 700: this user's only (a connection there is trusted to name its client); a
        # killed station's folder is removed first (web/scratch.py)
        self.folder = private_folder()
        self.forward_path = os.path.join(self.folder, "maestro.sock")
        self.forward = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.forward.bind(self.forward_path)
        self.forward.listen(512)
        #: is a Maestro's change being answered? Its events wait for its answer (EventTap)
        self.paused: Callable[[], bool] = lambda: False
        self.restarts = 0
        self._closing = False
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self.ready = threading.Event()
        with _sigint_ignored():  # the child starts ignoring Ctrl+C (no traceback at start-up)
            self._spawn()
        self._watch = threading.Thread(target=self._watching, name="phones-watch", daemon=True)
        self._watch.start()

    def _spawn(self) -> None:
        self.link, their_link = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        events, their_events = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.tap = EventTap(events)
        self.tap.paused = lambda: self.paused()
        context = multiprocessing.get_context("spawn")
        self.process = context.Process(
            target=self.main,
            args=(self.recipe, self.started, self.hall_socket, their_link, their_events),
            kwargs={"forward_path": self.forward_path},
            name="bingo-hall-phones",
            daemon=False,
        )
        self.process.start()
        their_link.close()
        their_events.close()
        self.ready.clear()
        threading.Thread(target=self._await_ready, args=(self.link,), daemon=True).start()

    def _await_ready(self, link: socket.socket) -> None:
        """The phones' process says it serves with one byte on its link."""
        try:
            if link.recv(1):
                self.ready.set()
        except OSError:
            pass

    def _watching(self) -> None:
        """Reap the phones' process when it ends (no zombie) and start another on the same
        listening socket, unless the station is stopping."""
        failed = 0  # starts in a row that ended before serving
        while True:
            process = self.process
            process.join()
            failed = 0 if self.ready.is_set() else failed + 1
            if failed > 1:  # it cannot start (a broken install?): again, less and less often
                self._stopping.wait(min(MAX_BACKOFF_S, 2.0 ** (failed - 2)))
            with self._lock:
                if self._closing:
                    return
                self.tap.close()
                self.link.close()
                self.restarts += 1
                self._spawn()
                news = Restarted(process.pid or 0, process.exitcode or 0, self.process.pid or 0)
            with contextlib.suppress(Exception):
                self.on_restart(news)

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def __call__(self, channel: Any, event: Any) -> None:
        """The hub's tap (under the hub's lock): to the phones' process serving now."""
        self.tap(channel, event)

    def wake(self) -> None:
        """The Maestro's answer is out: the events that waited for it go."""
        self.tap.wake()

    def wait_ready(self, timeout: float) -> bool:
        return self.ready.wait(timeout)

    def close(self) -> None:
        """End the phones' process: the end of its link tells it; it is awaited, then ended.
        Only the watch reaps it (two threads waiting for one child would race for its status)."""
        with self._lock:
            self._closing = True
        self._stopping.set()
        self.tap.close()
        with contextlib.suppress(OSError):
            self.link.shutdown(socket.SHUT_RDWR)
        self.link.close()
        self._watch.join(timeout=3)  # it reads the end of its link and stops
        if self._watch.is_alive():  # still starting (or stuck): SIGTERM ends it
            _log.warning(NOT_ENDED)
            with contextlib.suppress(OSError):
                self.process.terminate()
            self._watch.join(timeout=5)
        if self._watch.is_alive():
            with contextlib.suppress(OSError):
                self.process.kill()
            self._watch.join(timeout=5)
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


# --- in the phones' process -------------------------------------------------------------------


def die_with_parent() -> None:
    """Linux: the kernel sends this process SIGTERM when its parent dies; and it is named."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        libc.prctl(15, PHONES_NAME)  # PR_SET_NAME
    except (OSError, AttributeError):
        pass


def end_now(signum: int, frame: object) -> None:
    raise SystemExit(0)  # multiprocessing ends the process with it quietly
