"""The station's real server at hall scale (docs/station.md, "How many screens"): hundreds of
screens on loopback follow a game while the Maestro draws over HTTP, a screen that stops reading
is dropped without holding anyone up, and idle connections neither delay a draw nor stay open.

The screens are raw asyncio connections (a browser's EventSource is far too heavy to open 400
of); they speak plain HTTP/1.1 and parse the Server-Sent Events themselves."""

from __future__ import annotations

import asyncio
import json
import re
import selectors
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from testkit import eventually

from bingo_hall.station.games import channel
from bingo_hall.web import plumbing
from bingo_hall.web.config import DEFAULT
from bingo_hall.web.instance import hall

CALL = re.compile(rb"event: call\ndata: ([^\n]*)\n\n")
SCREENS = 400
DRAWS = 8


class Screen(asyncio.Protocol):
    """One screen following a game: keeps the (seq, ball) of every `call` event, in order."""

    def __init__(self, path: str, snapshots: list[int]) -> None:
        self.path, self.snapshots = path, snapshots
        self.calls: list[tuple[int, int]] = []
        self._buffer = b""
        self._seen_snapshot = False

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(f"GET {self.path} HTTP/1.1\r\nHost: hall\r\n\r\n".encode())

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._seen_snapshot and b"event: snapshot" in self._buffer:
            self._seen_snapshot = True
            self.snapshots[0] += 1
        end = 0
        for match in CALL.finditer(self._buffer):
            call = json.loads(match.group(1))
            self.calls.append((call["seq"], call["ball"]))
            end = match.end()
        self._buffer = self._buffer[end:]


def run_apart(coro):
    """asyncio.run in a thread of its own: a browser test earlier in the session leaves
    Playwright's event loop set on the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def stalled_screen(port: int, path: str) -> socket.socket:
    """A phone that left the Wi-Fi: it asked for the stream and never reads a byte more."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: hall\r\n\r\n".encode())
    return sock


def stuff(hub, gid: int) -> None:
    """8 MB of events on the game's channel: more than a socket's largest send buffer (4 MB on
    Linux) and the phone's receive buffer hold, so the server cannot hand them all over."""
    for _ in range(128):
        hub.publish(channel(gid), "padding", {"pad": "x" * 65536})


@pytest.mark.slow
def test_every_screen_gets_every_call_in_order_while_a_stalled_one_is_dropped(
    live_server, app, caller
):
    gid = caller.new_game()
    hub = hall(app).hub
    path = f"/api/games/{gid}/events"
    # The stalled phone comes first; large events fill its socket and the server's buffer for
    # it, so its stream is stuck writing while the others follow the draws.
    stalled = stalled_screen(live_server.port, path)
    eventually(lambda: hub.count(channel(gid)) == 1)
    stuff(hub, gid)

    async def night() -> tuple[list[Screen], list[dict]]:
        loop = asyncio.get_running_loop()
        snapshots = [0]
        screens = []
        for _ in range(SCREENS):
            _, screen = await loop.create_connection(
                lambda: Screen(path, snapshots), "127.0.0.1", live_server.port
            )
            screens.append(screen)
        deadline = time.monotonic() + 60
        while snapshots[0] < SCREENS:
            assert time.monotonic() < deadline, f"{snapshots[0]} of {SCREENS} screens started"
            await asyncio.sleep(0.01)
        drawn = []
        for _ in range(DRAWS):  # the Maestro draws over HTTP, through the same server
            answer = await loop.run_in_executor(
                None,
                lambda: requests.post(
                    f"{live_server.url}/api/games/{gid}/draw", headers=caller.auth, timeout=5
                ),
            )
            assert answer.status_code == 200, answer.text
            drawn.append(answer.json())
        deadline = time.monotonic() + 10
        while any(len(s.calls) < DRAWS for s in screens) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for screen in screens:
            screen.transport.close()
        return screens, drawn

    screens, drawn = run_apart(night())
    expected = [(d["seq"], d["ball"]) for d in drawn]
    assert [d["seq"] for d in drawn] == list(range(1, DRAWS + 1))
    assert all(screen.calls == expected for screen in screens)
    # The stalled phone's buffer is bounded: past STREAM_QUEUE_SIZE waiting events it is dropped.
    streams = live_server.server.hall
    assert streams.dropped_screens == 0  # still there, stuck, all along the draws
    for _ in range(hub.queue_size):
        hub.publish(channel(gid), "padding", {"pad": "-"})
    eventually(lambda: streams.dropped_screens == 1 and streams.streams == 0)
    stalled.close()


@pytest.mark.hall_config(SEND_STALL_S=0.5)
def test_a_stream_whose_socket_stays_full_is_cut_off(serve, app, caller):
    server = serve(app)
    gid = caller.new_game()
    hub, streams = hall(app).hub, server.server.hall
    stalled = stalled_screen(server.port, f"/api/games/{gid}/events")
    eventually(lambda: streams.streams == 1)
    stuff(hub, gid)

    def cut_off():
        """the server closed the stalled stream and its connection"""
        return streams.streams == 0 and hub.count() == 0

    eventually(cut_off, timeout=10)
    stalled.settimeout(5)
    try:
        while stalled.recv(65536):  # what was sent before the cut, then the end
            pass
    except ConnectionResetError:
        pass  # aborted: the unsent rest was thrown away, as it should be
    stalled.close()


IDLE_S = 4  # s: the idle bound in the next test (the station's default is 15)
IDLE = 1100  # more than waitress's connection_limit of 1000 used to allow


@pytest.mark.slow
@pytest.mark.hall_config(IDLE_S=IDLE_S)
def test_eleven_hundred_idle_connections_neither_delay_a_draw_nor_stay_open(serve, app, caller):
    server = serve(app)
    gid = caller.new_game()
    idle = []
    for _ in range(IDLE):
        idle.append(socket.create_connection(("127.0.0.1", server.port)))
    # Held by the server, not only queued in the kernel's backlog: every one admitted (loopback
    # is the laptop's), so the draw below is timed while the server itself holds them.
    budget = server.server.hall.budget
    eventually(lambda: budget.laptops >= IDLE)
    t0 = time.monotonic()
    answer = requests.post(f"{server.url}/api/games/{gid}/draw", headers=caller.auth, timeout=30)
    took = time.monotonic() - t0
    assert answer.status_code == 200 and answer.json()["seq"] == 1
    # Not queued behind them: the draw was answered before the server let go of any idle
    # connection (a server with a connection limit answers it only once one times out and frees
    # a slot). Told by the sockets, not by the clock, so a busy machine cannot fail it.
    with selectors.DefaultSelector() as sel:
        for sock in idle:
            sel.register(sock, selectors.EVENT_READ)
        closed = sel.select(timeout=0)  # an idle socket turns readable when the server closes it
    assert closed == [], "the server let go of idle connections before it answered the draw"
    assert took < 1.0, f"the draw took {took:.2f} s behind {IDLE} idle connections"
    # Idle connections are bounded by time: the server closes each one after IDLE_S.
    deadline = time.monotonic() + IDLE_S + 10
    for sock in idle:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        assert sock.recv(1) == b""  # closed by the server, having sent nothing
        sock.close()


def test_the_full_garbage_collection_waits_for_the_maestro_to_be_quiet():
    """A full collection walks every screen's objects: it runs between draws, not during them,
    and never later than GC_LATEST_S so memory stays bounded on a busy night."""
    c = plumbing.QuietCollector(0.0, DEFAULT)
    quiet, every, latest = c.quiet_s, c.every_s, c.latest_s
    assert (quiet, every, latest) == (DEFAULT.gc_quiet_s, DEFAULT.gc_every_s, DEFAULT.gc_latest_s)
    assert not c.due(every - 1)  # too soon after the last one
    c.action(every - 0.5)  # the Maestro draws
    assert not c.due(every)  # due by time, but a draw was just made
    assert c.due(every - 0.5 + quiet)  # quiet long enough
    c.last_full = 100.0
    for t in range(100, int(100 + latest)):  # a draw every second, never quiet
        c.action(float(t))
        assert not c.due(t + 0.5)
    assert c.due(100 + latest)  # but not later than LATEST_S
