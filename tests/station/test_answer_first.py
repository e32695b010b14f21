"""The Maestro's answer is written before the screens get the event it publishes (issue 32): a
thousand screens' copies of a call never queue ahead of the draw's own answer on the event loop.
Real server, raw sockets on loopback (a write on loopback is readable at once)."""

from __future__ import annotations

import json
import re
import socket
import struct
import time

from testkit import eventually

from bingo_hall.station.games import channel
from bingo_hall.web.instance import hall
from bingo_hall.web.relay import MAX_HOLD_S

#: Linux's kernel receive time of a packet (socket(7)); the check reads when bytes arrived, not
#: when this thread got round to reading them
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def _stamped(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=15)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    return sock


def _arrival(sock: socket.socket) -> tuple[bytes, int]:
    """The next bytes to come, and when the kernel received them (ns)."""
    data, ancillary, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(16))
    for level, kind, value in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            sec, nsec = struct.unpack("qq", value[:16])
            return data, sec * 1_000_000_000 + nsec
    raise AssertionError("no receive time")


def _screen(port: int, path: str) -> socket.socket:
    sock = _stamped(port)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: hall\r\n\r\n".encode())
    assert b"event: snapshot" in _read_until(sock, b"event: snapshot", time.monotonic() + 15)
    return sock


def _read_until(sock: socket.socket, marker: bytes, deadline: float) -> bytes:
    data = b""
    while marker not in data and time.monotonic() < deadline:
        more = sock.recv(65536)
        if not more:
            break
        data += more
    return data


# Linux only, as CI: it reads the kernel's receive times (SO_TIMESTAMPNS)
def test_the_draws_answer_is_out_before_its_call_reaches_a_screen(live_server, app, caller):
    gid = caller.new_game()
    screens = [_screen(live_server.port, f"/api/games/{gid}/events") for _ in range(20)]
    maestro = _stamped(live_server.port)
    token = caller.auth["Authorization"]
    for _ in range(3):
        maestro.sendall(
            f"POST /api/games/{gid}/draw HTTP/1.1\r\nHost: hall\r\nAuthorization: {token}\r\n"
            "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".encode()
        )
        answer, answered = _arrival(maestro)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        head, _, body = answer.partition(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
        while len(body) < length:
            body += maestro.recv(65536)
        ball = json.loads(body)["ball"]
        for screen in screens:
            event, heard = _arrival(screen)
            while b"event: call" not in event:  # a heartbeat first, on a slow machine
                event, heard = _arrival(screen)
            assert f'"ball":{ball},'.encode() in event or f'"ball":{ball}}}'.encode() in event
            assert heard > answered, "a screen heard of the call before the Maestro's answer"
    maestro.close()
    for s in screens:
        s.close()


def test_an_event_waits_at_most_max_hold_s_for_a_maestros_answer(live_server, app, caller):
    """A slow change (a deck's load) never holds the screens' events for longer than
    MAX_HOLD_S: an event published meanwhile still reaches them."""
    gid = caller.new_game()
    server = live_server.server.hall
    screen = _screen(live_server.port, f"/api/games/{gid}/events")
    eventually(lambda: server.streams == 1)
    deadline = time.monotonic() + 15
    server.loop.call_soon_threadsafe(server.screens.hold)  # a Maestro's change, never answered
    try:
        sent = time.monotonic()
        hall(app).hub.publish(channel(gid), "padding", {"pad": "held"})
        assert b"held" in _read_until(screen, b"held", deadline)
        assert time.monotonic() - sent >= MAX_HOLD_S * 0.9  # it did wait for the answer
    finally:
        server.loop.call_soon_threadsafe(server.screens.release)
    screen.close()
