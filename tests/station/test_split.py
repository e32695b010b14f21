"""The hall's port (phones, screens, files, guests) is served by the phones' process at a lower
CPU priority, and the Maestro's own port by the station's own process (web/station_server.py,
web/phones_process.py).

Which process answered is read from X-Bingo-Hall-Served-By (its pid), a header only a hall made
with SERVED_BY_HEADER (tests) writes. A guest is a request with X-Forwarded-For from the laptop,
which the server takes as the client's address (uvicorn's proxy headers, trusted from loopback
only): the pace and the gates see the guest's."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sys
from pathlib import Path

import pytest
from testkit import Caller, eventually, free_port, station_process

from bingo_hall.manifest import new_deck, save_deck
from bingo_hall.signing import card_path
from bingo_hall.web import phones_process

#: each starts a second process; they run wherever the suite runs (Linux, as CI), where
#: `phones_process.supported()` holds (asserted below, so a platform without it fails)
pytestmark = [pytest.mark.slow]


def test_this_platform_can_serve_the_halls_port_from_another_process():
    assert phones_process.supported()


SERVED_BY = "X-Bingo-Hall-Served-By"


@pytest.fixture
def split_server(app):
    """The station's server as `serve` runs it: the hall's port in the phones' process."""
    from testkit import LiveServer

    server = LiveServer(app, split=True)
    yield server
    server.close()


def _get(conn: http.client.HTTPConnection, path: str, headers=None):
    conn.request("GET", path, headers=headers or {})
    r = conn.getresponse()
    return r, r.read()


def _served_by(r) -> list[int]:
    return [int(v) for k, v in r.getheaders() if k.lower() == SERVED_BY.lower()]


def _niceness(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid)


@pytest.mark.hall_config(SERVED_BY_HEADER=True)
def test_phones_are_served_by_another_process_at_a_lower_priority(split_server, client):
    caller = Caller(client)
    gid = caller.new_game(draw="manual")
    deck = caller.deck
    conn = http.client.HTTPConnection("127.0.0.1", split_server.port, timeout=30)
    card = card_path(deck.secret, deck.deck_id, 3)
    publics = []
    for path in ("/display", "/join", "/web/static/live.js", card):
        r, _ = _get(conn, path)
        assert r.status == 200, path
        publics += _served_by(r)
    # the card's stream, as card.js opens it
    stream = socket.create_connection(("127.0.0.1", split_server.port), timeout=30)
    stream.sendall(f"GET /api/games/{gid}/events?view=card HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    head = stream.recv(4096).split(b"\r\n\r\n")[0].decode().lower()
    stream.close()
    publics.append(int(head.split(SERVED_BY.lower() + ": ")[1].split("\r\n")[0]))
    (public,) = set(publics)  # one process served them all
    assert public != os.getpid()
    assert public == split_server.server.phones.pid
    assert _niceness(public) > _niceness(os.getpid())
    # the Maestro's own page on the Maestro's port: this process, and this process alone
    maestro = http.client.HTTPConnection("127.0.0.1", split_server.maestro_port, timeout=30)
    for path in ("/caller/login", "/web/static/live.js", "/display"):
        r, _ = _get(maestro, path)
        assert r.status == 200
        assert _served_by(r) == [os.getpid()], path


def _ask(conn, deck, serial: int, address: str):
    path = card_path(deck.secret, deck.deck_id, serial) + "/ask"
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    headers["X-Bingo-Hall-Client"] = "127.0.0.1 1"  # a guest's try at the internal header
    conn.request("POST", path, body=b"{}", headers=headers)
    r = conn.getresponse()
    return r, json.loads(r.read() or b"{}")


@pytest.mark.hall_config(SERVED_BY_HEADER=True)
def test_a_guests_claim_request_through_the_public_side_lands_and_is_paced_by_its_own_address(
    split_server, client
):
    caller = Caller(client)
    gid = caller.new_game(draw="manual")
    caller.call(gid, 7)
    deck = caller.deck
    # a phone's connection on the hall's port
    phone = http.client.HTTPConnection("127.0.0.1", split_server.port, timeout=30)
    r, _ = _get(phone, card_path(deck.secret, deck.deck_id, 1), {"X-Forwarded-For": "10.0.0.7"})
    assert _served_by(r) == [split_server.server.phones.pid]
    # ten requests from one address are the most a minute (verify/asks.py), one per card
    for serial in range(1, 11):
        r, said = _ask(phone, deck, serial, "10.0.0.7")
        assert r.status == 201, said
        # written by the Maestro's process, passed on by the public one
        assert _served_by(r) == [os.getpid(), split_server.server.phones.pid]
    r, said = _ask(phone, deck, 11, "10.0.0.7")
    assert r.status == 429, said
    # another guest's own address has its own count, through the same public process
    other = http.client.HTTPConnection("127.0.0.1", split_server.port, timeout=30)
    _get(other, "/join", {"X-Forwarded-For": "10.0.0.8"})
    r, said = _ask(other, deck, 11, "10.0.0.8")
    assert r.status == 201, said
    # the Maestro sees every request that landed: eleven
    listed = caller.get(f"/api/games/{gid}/asks").get_json()["asks"]
    assert sorted(a["serial"] for a in listed) == list(range(1, 12))


def _events(sock: socket.socket, buffer: bytearray, count: int) -> list[tuple[str, dict]]:
    """The next `count` events (name, data) of a stream read from `sock`."""
    found: list[tuple[str, dict]] = []
    while len(found) < count:
        while b"\n\n" not in buffer:
            got = sock.recv(65536)
            assert got, f"the stream ended after {found}"
            buffer += got
        block, _, rest = bytes(buffer).partition(b"\n\n")
        buffer[:] = rest
        lines = block.decode().split("\n")
        name = [x[7:] for x in lines if x.startswith("event: ")]
        data = [x[6:] for x in lines if x.startswith("data: ")]
        if name and data:
            found.append((name[0], json.loads(data[0])))
    return found


def _calls(sock: socket.socket, buffer: bytearray, count: int) -> list[tuple[str, dict]]:
    """The next `count` call events (others, such as a round's odds, pass by)."""
    found: list[tuple[str, dict]] = []
    while len(found) < count:
        found += [e for e in _events(sock, buffer, 1) if e[0] == "call"]
    return found


def _open_stream(port: int, path: str) -> tuple[socket.socket, bytearray]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"GET {path} HTTP/1.0\r\nHost: x\r\n\r\n".encode())
    buffer = bytearray()
    while b"\r\n\r\n" not in buffer:
        buffer += sock.recv(65536)
    head, _, rest = bytes(buffer).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    return sock, bytearray(rest)


def test_events_reach_the_public_sides_streams_in_order_none_lost_or_doubled_across_a_reconnect(
    split_server, client
):
    caller = Caller(client)
    gid = caller.new_game(draw="manual")
    path = f"/api/games/{gid}/events?view=card"
    sock, buffer = _open_stream(split_server.port, path)
    ((name, snap),) = _events(sock, buffer, 1)
    assert name == "snapshot" and snap["calls"] == []
    balls = [5, 17, 33, 48, 62, 71, 2, 29]
    caller.call(gid, *balls[:5])
    calls = _calls(sock, buffer, 5)
    assert [d["ball"] for _, d in calls] == balls[:5]
    assert [d["seq"] for _, d in calls] == [1, 2, 3, 4, 5]
    sock.close()
    # while the screen is away, three more calls: the snapshot it reconnects to has them all
    caller.call(gid, *balls[5:])
    sock, buffer = _open_stream(split_server.port, path)
    ((name, snap),) = _events(sock, buffer, 1)
    assert name == "snapshot"
    assert [c["ball"] for c in snap["calls"]] == balls
    caller.call(gid, 40)
    ((name, data),) = _calls(sock, buffer, 1)
    assert (data["ball"], data["seq"]) == (40, len(balls) + 1)
    sock.close()


def test_the_public_process_cannot_write_the_database(split_server, client, app):
    """Its connections are SQLite's query_only: a write is refused by SQLite itself."""
    from bingo_hall.web.instance import hall

    recipe = hall(app).made_with
    public = recipe.make(READ_ONLY=True)
    from bingo_hall.web.db import get_db

    with public.app_context():
        conn = get_db()
        assert conn.execute("PRAGMA query_only").fetchone()[0] == 1
        with pytest.raises(Exception, match="readonly"):
            conn.execute("CREATE TABLE written (x)")


def test_one_process_when_asked(app):
    from testkit import LiveServer

    server = LiveServer(app, split=False)
    try:
        assert server.server.phones is None
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        r, _ = _get(conn, "/display")
        assert r.status == 200
    finally:
        server.close()


def _serve(tmp_path: Path, *extra: str):
    deck = new_deck(12, seed="split", name="Split")
    deck_file = tmp_path / "split.deck.json"
    save_deck(deck, deck_file)
    (tmp_path / "inst").mkdir()
    (tmp_path / "inst" / "config.py").write_text("SERVED_BY_HEADER = True\n")
    port = free_port()
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--deck", str(deck_file)]
    argv += ["--instance", str(tmp_path / "inst"), "--host", "127.0.0.1", "--port", str(port)]
    proc, banner = station_process([*argv, *extra], start_new_session=True)
    return proc, banner, port


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_serve_runs_the_public_side_apart_and_a_signal_ends_both_cleanly(tmp_path, sig):
    proc, banner, port = _serve(tmp_path)
    try:
        (line,) = [x for x in banner if "served by process" in x]
        public = int(line.rsplit(" ", 1)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        r, _ = _get(conn, "/display")
        assert r.status == 200 and _served_by(r) == [public]
        assert _niceness(public) > _niceness(proc.pid)
        # a phone follows a scorekeeper's table: the public process replays its history in its
        # worker process (companions/web/replays.py), which must end with it
        body = json.dumps({"teams": [["A"], ["B"]]}).encode()
        conn.request("POST", "/t/new/burako", body, {"Content-Type": "application/json"})
        r = conn.getresponse()
        code = json.loads(r.read())["code"]
        sock, buffer = _open_stream(port, f"/t/{code}/events")
        assert dict(_events(sock, buffer, 2))["view"]["totals"] == [0, 0]
        sock.close()
        # Ctrl+C at a terminal reaches the whole group; a service manager's SIGTERM, the station
        os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "leaked" not in err, err
    # the public process ended by itself, its worker processes with it (none was left for the
    # station to end after a wait: a stop that took 8 s)
    assert phones_process.NOT_ENDED not in err, err
    eventually(lambda: not Path(f"/proc/{public}").exists() or _zombie(public))


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return True


@pytest.mark.slow
def test_serve_one_process_serves_everything_itself(tmp_path):
    proc, banner, port = _serve(tmp_path, "--one-process")
    try:
        assert not [x for x in banner if "served by process" in x]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        r, _ = _get(conn, "/display")
        assert r.status == 200 and _served_by(r) == [proc.pid]
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err


@pytest.mark.hall_config(SERVED_BY_HEADER=True)
def test_a_companions_score_entry_on_the_halls_port_lands_and_reaches_the_tables_phones(
    split_server,
):
    guest = {"X-Forwarded-For": "10.0.0.9"}
    conn = http.client.HTTPConnection("127.0.0.1", split_server.port, timeout=30)
    _get(conn, "/join", guest)  # a phone's connection on the hall's port
    body = json.dumps({"teams": [["A"], ["B"]]}).encode()
    conn.request("POST", "/t/new/burako", body, {**guest, "Content-Type": "application/json"})
    r = conn.getresponse()
    code = json.loads(r.read())["code"]
    # a guest's own write: written by the phones' process, never the Maestro's
    assert r.status == 201 and _served_by(r) == [split_server.server.phones.pid]
    sock, buffer = _open_stream(split_server.port, f"/t/{code}/events")
    first = dict(_events(sock, buffer, 2))  # the table's view (and its history)
    assert first["view"]["totals"] == [0, 0]
    hand = {"puras": 0, "impuras": 0, "closed": False, "muerto": "not_taken", "down": 40}
    entry = json.dumps({"teams": [hand, {**hand, "down": 0}]}).encode()
    conn.request("POST", f"/t/{code}/entries", entry, {**guest, "Content-Type": "application/json"})
    r = conn.getresponse()
    r.read()
    assert r.status in (200, 201)
    # the phone following the table (in the public process) gets the new view: -60 and -100,
    # the burako rules' totals for a hand without closing (tests/companions/test_shell_live.py)
    while True:
        ((name, view),) = _events(sock, buffer, 1)
        if name == "view" and view["hands"]:
            break
    assert view["totals"] == [-60, -100]
    sock.close()
