"""A phone's join costs the public process little (issue 32, "a third of what it costs"): what
the event loop answers from memory goes out in one write, a game's stream is opened on the loop
from the kept snapshot (the same stream as its view's), a game's start makes nothing per card,
and the page around the cards is rendered once, not once per phone of the first wave."""

from __future__ import annotations

import http.client
import json
import os
import socket
import sys
import threading
from pathlib import Path

import pytest
from testkit import Caller

from bingo_hall.app import create_app
from bingo_hall.manifest import new_deck
from bingo_hall.signing import card_path
from bingo_hall.station import decks
from bingo_hall.station.state import station_state
from bingo_hall.station.verify import card_pages
from bingo_hall.station.verify.card_pages import CardPages
from bingo_hall.web.db import get_db
from bingo_hall.web.station_server import Server


def _stream_until(port: int, path: str, marker: bytes) -> tuple[socket.socket, bytes]:
    """Open a stream on a raw connection and read until `marker` has come."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: hall\r\nAccept: text/event-stream\r\n\r\n".encode())
    got = b""
    while marker not in got:
        data = sock.recv(65536)
        assert data, f"the stream ended before {marker!r}: {got[:300]!r}"
        got += data
    return sock, got


def _head_and_snapshot(raw: bytes) -> tuple[str, list[str], str]:
    """The status line, the headers (without the date, which moves), and the snapshot event."""
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = sorted(h.lower() for h in lines[1:] if not h.lower().startswith("date:"))
    text = body.decode()
    start = text.index("event: snapshot")
    return lines[0], headers, text[start : text.index("\n\n", start)]


def _openings(served) -> int:
    """Streams the server opened on its event loop so far."""
    return served.server.hall.screens.opened_here


@pytest.mark.parametrize("query", ["?view=card", ""])
def test_a_stream_opened_on_the_loop_is_the_same_stream_as_its_views(caller, live_server, query):
    gid = caller.new_game(draw="manual")
    caller.call(gid, 5, 17)
    path = f"/api/games/{gid}/events{query}"
    before = _openings(live_server)
    by_view, raw_view = _stream_until(live_server.port, path, b"event: snapshot")
    raw_view = _read_snapshot(by_view, raw_view)
    assert _openings(live_server) == before  # the snapshot was not kept yet: the view read it
    on_loop, raw_loop = _stream_until(live_server.port, path, b"event: snapshot")
    raw_loop = _read_snapshot(on_loop, raw_loop)
    assert _openings(live_server) == before + 1  # kept now: opened on the loop, no Flask
    status, headers, snapshot = _head_and_snapshot(raw_loop)
    assert (status, headers, snapshot) == _head_and_snapshot(raw_view)
    assert (
        status == "HTTP/1.1 200 OK" and "content-type: text/event-stream; charset=utf-8" in headers
    )
    assert [c["ball"] for c in json.loads(snapshot.split("data: ", 1)[1])["calls"]] == [5, 17]
    try:
        caller.call(gid, 33)  # both follow the game from there on
        for sock in (by_view, on_loop):
            got = b""
            while b'"ball":33' not in got:
                data = sock.recv(65536)
                assert data, "the stream ended before the call"
                got += data
            assert b"event: call" in got
    finally:
        by_view.close()
        on_loop.close()


def _read_snapshot(sock: socket.socket, got: bytes) -> bytes:
    while b"event: snapshot" not in got or not got.split(b"event: snapshot", 1)[1].count(b"\n\n"):
        data = sock.recv(65536)
        assert data, "the stream ended before its snapshot"
        got += data
    return got


def test_a_stream_the_loop_cannot_open_goes_to_its_view(caller, live_server):
    gid = caller.new_game(draw="manual")
    caller.call(gid, 8)
    path = f"/api/games/{gid}/events?view=card"
    first, _ = _stream_until(live_server.port, path, b"event: snapshot")  # the snapshot kept
    first.close()
    before = _openings(live_server)
    conn = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=30)
    conn.request("GET", f"/api/games/{gid + 40}/events?view=card")  # no such game: the view's 404
    r = conn.getresponse()
    assert r.status == 404 and r.read()
    conn.close()
    other, raw = _stream_until(
        live_server.port, path + "&lang=es", b"event: snapshot"
    )  # a query the
    other.close()  # loop does not read: the view opens it, as before
    leading, raw_zero = _stream_until(
        live_server.port, f"/api/games/0{gid}/events", b"event: snapshot"
    )
    leading.close()  # a number not written as the view's route writes it: the view's too
    assert _openings(live_server) == before
    assert b"200 OK" in raw.split(b"\r\n", 1)[0] and b"200 OK" in raw_zero.split(b"\r\n", 1)[0]


def _write_calls() -> int:
    """The write system calls this process has made (Linux /proc: `syscw`; libuv writes a TCP
    socket with write/writev, which it counts)."""
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("syscw:"):
                return int(line.split()[1])
    raise AssertionError("no syscw in /proc/self/io")


def test_a_static_file_or_a_kept_card_page_is_one_write_to_the_socket(caller, live_server):
    gid = caller.new_game(draw="manual")
    caller.call(gid, 5)
    page = card_path(caller.deck.secret, caller.deck.deck_id, 3) + "?lang=en"
    conn = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=30)
    for path in ("/web/static/live.js", page):
        for _ in range(2):  # the page kept by the first (Flask builds it), answered by the loop
            conn.request("GET", path)
            r = conn.getresponse()
            assert r.status == 200 and r.read()
        asks = 40
        before = _write_calls()
        for _ in range(asks):
            conn.request("GET", path)
            r = conn.getresponse()
            body = r.read()
            assert r.status == 200 and body and r.getheader("Content-Length") == str(len(body))
        writes = _write_calls() - before
        # head and body in one write: 40 writes (uvicorn alone writes them in two: 80); a few
        # more may be the station's other threads'
        assert asks <= writes < asks * 3 // 2, (path, writes)
    conn.close()


def _card_state(client, deck, serial: int) -> dict:
    """The `#card-state` JSON of a card's page, as a phone gets it."""
    r = client.get(card_path(deck.secret, deck.deck_id, serial) + "?lang=en")
    assert r.status_code == 200
    return json.loads(r.text.split('id="card-state"', 1)[1].split(">", 1)[1].split("</script>")[0])


@pytest.mark.slow
@pytest.mark.cpu
def test_starting_a_game_a_round_or_a_pattern_on_a_3003_card_deck_gives_no_card_work(
    app, client, monkeypatch
):
    """Loading a deck reads it once and draws no card; starting a game on it, a new round or a
    pattern reads no deck and makes nothing per card: every card's page carries the game's
    facts, the same for all, with its own serial (card.js judges the card from its table), and
    only the pages asked fill in a table."""
    card_pages.start(app)
    pages = CardPages.of(app)
    try:
        deck = new_deck(3003, seed="no card work", name="Big")
        maestro = Caller(client, deck)  # loads the deck
        assert pages.filled == pages.drawn == 0
        read = []
        real = decks.deck_from_dict
        monkeypatch.setattr(decks, "deck_from_dict", lambda d: read.append(1) or real(d))
        gid = maestro.new_game(draw="manual")
        first = _card_state(client, deck, 1)
        maestro.call(gid, 5, 17)
        maestro.post(f"/api/games/{gid}/rounds", {})
        second = _card_state(client, deck, 2999)
        other = _card_state(client, deck, 7)
        maestro.post(f"/api/games/{gid}/settings", {"pattern": "four_corners"})
        pattern = _card_state(client, deck, 3003)
        with app.app_context():
            pages.deck_now(get_db(), deck)  # read again, as the thread ahead does
        assert read == []  # the deck read when it was loaded is the one every game uses
        assert pages.filled == 4 and pages.drawn == 0  # the four pages asked, no other card
        assert (first["serial"], second["serial"], pattern["serial"]) == (1, 2999, 3003)
        assert (first["game"], first["round"], second["round"]) == (gid, 1, 2)
        assert [f["name"] for f in pattern["figures"]] == ["four_corners"]
        assert other["serial"] == 7 and {**second, "serial": 7} == other  # all but the serial
        # are the game's, the same for every card
        assert "numbers" not in second  # the page reads them from its table
    finally:
        card_pages.stop(app)


def test_the_page_around_the_cards_is_rendered_once_for_a_wave_of_first_phones(
    app, caller, client, monkeypatch
):
    gid = caller.new_game(draw="manual")
    caller.call(gid, 5)
    rendered: list[int] = []
    real = card_pages._render_shell

    def counted(*args, **kwargs):
        rendered.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(card_pages, "_render_shell", counted)  # counted, and really rendered
    start = threading.Barrier(8)
    answers: list[int] = []

    def phone(serial: int) -> None:
        own = app.test_client()
        start.wait()
        path = card_path(caller.deck.secret, caller.deck.deck_id, serial) + "?lang=en"
        answers.append(own.get(path).status_code)

    phones = [threading.Thread(target=phone, args=(s,)) for s in range(1, 9)]
    for t in phones:
        t.start()
    for t in phones:
        t.join(60)
    assert answers == [200] * 8
    assert rendered == [1]  # one language, one game: one page around them all


#: a guest in the network namespace: opens `n` streams at once, each on a connection of its own,
#: and prints when each snapshot came (seconds from the first request)
_GUEST = """
import asyncio, json, sys, time
host, port, path, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
async def one(t0):
    r, w = await asyncio.open_connection(host, port)
    w.write(f"GET {path} HTTP/1.1\\r\\nHost: hall\\r\\n\\r\\n".encode())
    got = b""
    while b"event: snapshot" not in got:
        data = await asyncio.wait_for(r.read(65536), 60)
        if not data:
            return None
        got += data
    at = time.monotonic() - t0
    w.close()
    return at
async def main():
    t0 = time.monotonic()
    print(json.dumps(await asyncio.gather(*(one(t0) for _ in range(n)))), flush=True)
asyncio.run(main())
"""


@pytest.mark.slow
@pytest.mark.hall_config(REQUESTS_PER_ADDRESS_S=4.0, REQUEST_BURST=4)
def test_a_guests_flood_of_stream_openings_is_still_paced(app, caller):
    """Opened on the loop or not, a guest's stream openings wait their turn: 12 from one address
    with a burst of 4 and 4 a second take at least 2 s (8 past the burst, a quarter second each).
    The guest runs in a network namespace, so the station sees another machine (as
    tests/security/test_guests.py)."""
    assert os.geteuid() == 0, "the guest runs in a network namespace, which needs root"
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import guests

    gid = caller.new_game(draw="manual")
    caller.call(gid, 5)
    with guests.GuestNetwork() as net:
        server = Server(app, net.host, 0).start()
        try:
            path = f"/api/games/{gid}/events?view=card"
            first, _ = _stream_until_at(net.host, server.port, path)  # the snapshot kept
            first.close()
            before = server.hall.screens.opened_here
            proc = net.popen([sys.executable, "-c", _GUEST, net.host, str(server.port), path, "12"])
            out, _ = proc.communicate(timeout=120)
            times = json.loads(out)
        finally:
            server.close()
    assert None not in times and len(times) == 12  # every stream opened, in the end
    assert server.hall.screens.opened_here - before == 12  # on the loop
    assert max(times) >= 8 / 4.0 * 0.9  # paced: 8 past the burst at 4 a second
    assert sorted(times)[3] < max(times) / 2  # the burst came at once


def _stream_until_at(host: str, port: int, path: str) -> tuple[socket.socket, bytes]:
    sock = socket.create_connection((host, port), timeout=30)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: hall\r\n\r\n".encode())
    got = b""
    while b"event: snapshot" not in got:
        data = sock.recv(65536)
        assert data, "the stream ended before its snapshot"
        got += data
    return sock, got


def test_a_deck_loaded_before_the_station_starts_is_read_when_it_starts(app, client, monkeypatch):
    """`serve --deck` loads the deck before the station serves, and a station restarted keeps
    last night's decks: tonight's are read as it starts, so a first game reads no deck."""
    deck = new_deck(30, seed="loaded first", name="First")
    Caller(client, deck)
    again = create_app(dict(app.config), instance_path=app.instance_path)  # a restart
    assert station_state(again).decks == {}
    with again.app_context():
        decks.read_tonights_decks(get_db())
    assert list(station_state(again).decks) == [deck.deck_id]
    read = []
    real = decks.deck_from_dict
    monkeypatch.setattr(decks, "deck_from_dict", lambda d: read.append(1) or real(d))
    Caller(again.test_client(), deck).new_game()
    assert read == []
