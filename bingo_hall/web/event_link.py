"""The event relay between the station's two processes (web/phones_process.py): the Maestro's
hub's tap (`EventTap`) writes every published event, in order, to the phones' process, whose
`EventFeed` republishes it in its own hub. Frames: a 4-byte length, then the pickled (channel,
name, data, text); a channel ended is (channel, None, None, None)."""

from __future__ import annotations

import contextlib
import pickle
import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask

from .instance import hall
from .relay import MAX_HOLD_S

_FRAME = struct.Struct(">I")


class EventTap:
    """The Maestro's hub's tap: every event, in publish order, written to the phones' process
    by a thread of its own (the publisher never waits for the socket)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        #: is a Maestro's change being answered? Then its events wait for the answer (at most
        #: MAX_HOLD_S), as the screens of one process do (relay.LiveStreams.hold)
        self.paused: Callable[[], bool] = lambda: False
        self._queue: list[bytes] = []
        self._ready = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._write, name="event-tap", daemon=True)
        self._thread.start()

    def __call__(self, channel: Any, event: Any) -> None:  # under the hub's lock
        said = (channel, None, None, None)  # the channel was ended
        if event is not None:
            said = (channel, event.name, event.data, event.text)
        with self._ready:
            self._queue.append(pickle.dumps(said))
            # the writer waits for a first frame, then takes them all; while a Maestro's answer
            # is being made it is not woken (it would only wait again): `wake` sends it then
            if len(self._queue) == 1 and not self.paused():
                self._ready.notify()

    def _write(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if self._closed and not self._queue:
                    return
                until = time.monotonic() + MAX_HOLD_S
                while self.paused() and not self._closed and (left := until - time.monotonic()) > 0:
                    self._ready.wait(left)
                frames, self._queue = self._queue, []
            try:
                self.sock.sendall(b"".join(_FRAME.pack(len(f)) + f for f in frames))
            except OSError:  # the phones' process is gone
                return

    def wake(self) -> None:
        """The Maestro's answer is out: what waited goes to the phones' process."""
        with self._ready:
            self._ready.notify()

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()
        self._thread.join(timeout=2)
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class EventFeed:
    """The phones' process's end of the event relay: each event the Maestro's hub published,
    republished in this process's hub, in order (a thread of its own). `on_end` is called when
    the Maestro's process is gone."""

    def __init__(self, sock: socket.socket, app: Flask, on_end: Callable[[], None]) -> None:
        self.sock, self.hub, self.on_end = sock, hall(app).hub, on_end
        self.thread = threading.Thread(target=self._read, name="event-feed", daemon=True)
        self.thread.start()

    def _exactly(self, size: int) -> bytes | None:
        parts, left = [], size
        while left:
            try:
                got = self.sock.recv(min(left, 1 << 20))
            except OSError:
                return None
            if not got:
                return None
            parts.append(got)
            left -= len(got)
        return b"".join(parts)

    def _read(self) -> None:
        while True:
            head = self._exactly(_FRAME.size)
            if head is None:
                break
            frame = self._exactly(_FRAME.unpack(head)[0])
            if frame is None:
                break
            channel, name, data, text = pickle.loads(frame)  # noqa: S301  # our own process's
            if name is None:  # the channel was ended there: its screens here end too
                self.hub.end(channel)
            else:
                self.hub.publish(channel, name, data, text)
        self.on_end()
