"""Issue 55, item "guests' work runs outside the Maestro's process": the companions' changes (a
table's set-up, a notebook's PIN, score entries) are answered by the phones' process, which may
write the companions' tables and nothing else (bingo_hall/web/guest_write.py).

Which process answered is read from X-Bingo-Hall-Served-By (its pid, SERVED_BY_HEADER); a guest
is a request with X-Forwarded-For, which the server takes as the client's address from loopback
(tests/station/test_split.py does the same)."""

from __future__ import annotations

import http.client
import json
import os
import socket
import sqlite3
import threading

import pytest
from testkit import LiveServer

from bingo_hall.web.guest_write import guest_connection
from bingo_hall.web.instance import hall

pytestmark = [pytest.mark.slow]

SERVED_BY = "x-bingo-hall-served-by"
HAND = {"puras": 0, "impuras": 0, "closed": False, "muerto": "taken", "down": 10}


@pytest.fixture
def split_server(app):
    server = LiveServer(app, split=True)
    yield server
    server.close()


def _phone(port: int) -> http.client.HTTPConnection:
    """A phone's keep-alive connection on the hall's port, which the phones' process serves;
    its first request a static file, as a real phone's is."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/web/static/live.js")
    r = conn.getresponse()
    r.read()
    assert r.status == 200
    return conn


def _send(conn, method: str, path: str, body: object, guest: str):
    headers = {"Content-Type": "application/json", "X-Forwarded-For": guest}
    conn.request(method, path, body=json.dumps(body).encode(), headers=headers)
    r = conn.getresponse()
    served = [int(v) for k, v in r.getheaders() if k.lower() == SERVED_BY]
    return r.status, json.loads(r.read() or b"{}"), served, r.getheader("Set-Cookie")


def _stream(port: int, path: str, guest: str) -> tuple[socket.socket, bytearray]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"GET {path} HTTP/1.0\r\nHost: x\r\nX-Forwarded-For: {guest}\r\n\r\n".encode())
    buffer = bytearray()
    while b"\r\n\r\n" not in buffer:
        buffer += sock.recv(65536)
    head, _, rest = bytes(buffer).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    return sock, bytearray(rest)


def _next_view(sock: socket.socket, buffer: bytearray) -> dict:
    """The stream's next `view` message's data (the others, history and heartbeats, pass)."""
    while True:
        while b"\n\n" not in buffer:
            got = sock.recv(65536)
            assert got, "the stream ended"
            buffer += got
        block, _, rest = bytes(buffer).partition(b"\n\n")
        buffer[:] = rest
        lines = block.decode().split("\n")
        if "event: view" in lines:
            data: dict = json.loads("".join(x[6:] for x in lines if x.startswith("data: ")))
            return data


# the table's own watch (a query a second) is pushed out of the test's reach: only the entry's own
# event, published where it was written, can bring it to the other phone
@pytest.mark.hall_config(SERVED_BY_HEADER=True, COMPANIONS_POLL_S=600.0)
def test_an_entry_written_by_the_phones_process_reaches_another_phone_at_the_table(split_server):
    public = split_server.server.phones.pid
    phone = _phone(split_server.port)
    status, made, served, _ = _send(
        phone, "POST", "/t/new/burako", {"teams": [["Ana"], ["Beto"]]}, "10.0.0.7"
    )
    assert status == 201, made
    assert served == [public]  # answered there, never passed on to the Maestro's process
    code = made["code"]
    sock, buffer = _stream(split_server.port, f"/t/{code}/events", "10.0.0.8")
    try:
        assert _next_view(sock, buffer)["totals"] == [0, 0]
        status, posted, served, _ = _send(
            phone, "POST", f"/t/{code}/entries", {"teams": [HAND, HAND]}, "10.0.0.7"
        )
        assert status == 201, posted
        assert served == [public]
        seen = _next_view(sock, buffer)
        assert seen == posted["view"]
        assert seen["totals"] == [110, 110]  # 10 down and the muerto taken, each side
    finally:
        sock.close()
    assert os.getpid() != public


@pytest.mark.hall_config(SERVED_BY_HEADER=True)
def test_a_notebooks_pin_is_hashed_and_checked_by_the_phones_process(split_server, app):
    public = split_server.server.phones.pid
    owner = _phone(split_server.port)
    notebook = {"players": ["Ana", "Beto", "Caro"], "pin": "4321"}
    status, made, served, _ = _send(owner, "POST", "/t/new/clue", notebook, "10.0.0.7")
    assert status == 201, made
    assert served == [public]
    with sqlite3.connect(hall(app).config.database) as db:
        (stored,) = db.execute(
            "SELECT pin_hash FROM companion_tables WHERE code = ?", (made["code"],)
        ).fetchone()
    assert stored.startswith("scrypt$") and "4321" not in stored
    other = _phone(split_server.port)
    unlock = f"/t/{made['code']}/unlock"
    status, said, served, _ = _send(other, "POST", unlock, {"pin": "1111"}, "10.0.0.8")
    assert (status, served) == (401, [public])
    status, said, served, cookie = _send(other, "POST", unlock, {"pin": "4321"}, "10.0.0.8")
    assert (status, served) == (200, [public]), said
    assert cookie and "session=" in cookie  # this phone is remembered for the notebook


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO games (deck_id, status) VALUES ('x', 'active')",
        "UPDATE decks SET name = 'x'",
        "INSERT INTO book (seq) VALUES (1)",
        "DELETE FROM schema_version",
        "CREATE TABLE guests_own (x)",
        "DROP TABLE companion_entries",
        "PRAGMA query_only = OFF",
        "ATTACH DATABASE ':memory:' AS other",
    ],
)
def test_the_phones_process_guest_connection_writes_nothing_but_the_companions_tables(
    app, statement
):
    conn = guest_connection(app)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
            conn.execute(statement)
        conn.execute("BEGIN IMMEDIATE")  # and the companions' tables it may write
        conn.execute(
            "INSERT INTO companion_tables (code, game, settings, players) "
            "VALUES ('ZZZZ2222', 'burako', '{}', '[]')"
        )
        conn.execute("ROLLBACK")
    finally:
        conn.close()


def test_entries_on_ten_tables_at_once_are_each_replayed_once_and_never_in_the_write_lock(app):
    """A new entry's id is the file's next one, so an entry on any table stored meanwhile would
    send another table's change round again, and after three rounds into a replay inside the
    write transaction, holding SQLite's writer (which the draws need) for it. Replays in their
    worker process, as `serve` runs them."""
    from bingo_hall.app import start_workers, stop_workers
    from companions.web.changes import write_rounds

    start_workers()
    try:
        maker = app.test_client()
        codes = [
            maker.post("/t/new/burako", json={"teams": [["Ana"], ["Beto"]]}).get_json()["code"]
            for _ in range(10)
        ]
        start = threading.Barrier(20)
        statuses: list[int] = []

        def phone(code: str) -> None:
            client = app.test_client()
            start.wait()
            for _ in range(10):
                statuses.append(
                    client.post(f"/t/{code}/entries", json={"teams": [HAND, HAND]}).status_code
                )

        threads = [threading.Thread(target=phone, args=(code,)) for code in codes * 2]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        stop_workers()
    assert statuses == [201] * 200
    with app.app_context():
        counts = write_rounds()
    assert (counts.rounds, counts.in_transaction) == (200, 0)
