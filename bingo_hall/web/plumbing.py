"""Process plumbing for the station's server: open files, the listening socket, signals and the
garbage collector. Nothing here knows HTTP or uvicorn."""

from __future__ import annotations

import contextlib
import errno
import gc
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor

from ..errors import KitError
from .config import HallConfig


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


def open_files_limit() -> int:
    """The soft limit on open files now in force (0: none, e.g. Windows)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 0 if soft == resource.RLIM_INFINITY else soft


def raise_open_files_limit(wanted: int) -> int:
    """Raise this process's soft limit on open files as far as the system allows: to the hard
    limit (every phone holds a socket or two; Linux and macOS often start at 1024 or 256 while
    the hard limit is far higher), else towards `wanted`. Windows has no such limit. Returns the
    limit now in force (0 where there is none)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 0
    # macOS refuses an unlimited (or too high) soft limit: then the wanted one is tried
    targets = [] if hard == resource.RLIM_INFINITY else [hard]
    targets += [wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)]
    for target in targets:
        if soft >= target:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            continue
        soft = target
        break
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


@contextlib.contextmanager
def stopped_by_signals(stop: Callable[[], None]) -> Iterator[None]:
    """Within it, Ctrl+C (SIGINT) or a service manager's SIGTERM calls `stop()` whenever it
    comes (from the main thread). See `station_server.Server.stopped_by_signals`."""

    def handler(signum: int, frame: object) -> None:
        stop()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def worker_ignores_ctrl_c() -> None:
    """A worker process's start (a pool's `initializer`): Ctrl+C at a terminal reaches the whole
    process group, workers included, and would print a KeyboardInterrupt traceback from each;
    the station ends its workers itself when it stops (`end_pool`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def end_pool(pool: ProcessPoolExecutor, *, kill: bool = False) -> None:
    """End a worker pool without waiting for its work. With `kill`, its workers are ended too
    (and reaped, a short wait). Then the pool's manager thread is joined (a short wait), so that it
    has closed its wake-up pipe before the interpreter exits: otherwise the interpreter's exit hook
    may write to that pipe while the thread closes it, and print a traceback (EBADF) at exit. A
    worker ended in the middle of sending a result would leave that thread reading for ever (and
    the interpreter's exit waiting for it): the result pipe's last write end is closed too."""
    workers = list((getattr(pool, "_processes", None) or {}).values()) if kill else []
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    results = getattr(pool, "_result_queue", None)  # shutdown() forgets it too
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(timeout=2)
    if workers and results is not None:
        # A worker ended while it was sending a result leaves the manager thread reading the rest
        # of it for ever, and the interpreter's exit joins that thread: the process would never
        # end. With the last write end closed (the workers' died with them) it reads the end of
        # the pipe instead, and stops.
        with contextlib.suppress(OSError, AttributeError):
            results._writer.close()
    if isinstance(manager, threading.Thread) and manager is not threading.current_thread():
        manager.join(timeout=2)
