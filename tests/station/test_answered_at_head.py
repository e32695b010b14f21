"""A join's four requests (the card's page, its stylesheet, its script, its stream) are answered
by the connection as soon as the request's head is read (`HallApp.answer_now`, server.py's
`HallConnection`), with no ASGI cycle: the same answers the app gives, in the order they were
asked, and a stream written that way ends as any other does. A request the app must make hands
the connection to uvicorn, which answers the rest in order."""

from __future__ import annotations

import re
import socket
import time

from bingo_hall.signing import card_path
from bingo_hall.station import games
from bingo_hall.web.instance import hall

#: what a page names: its stylesheets and scripts (as benchmarks/phones.py reads them)
_ASSET = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"')


class Wire:
    """One raw HTTP connection to the station (a phone's browser, or a client that pipelines)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.got = b""

    def send(self, *requests: bytes) -> None:
        self.sock.sendall(b"".join(requests))

    def _more(self) -> bool:
        data = self.sock.recv(65536)
        self.got += data
        return bool(data)

    def answer(self) -> tuple[str, dict[str, str], bytes]:
        """The next whole answer (status line, headers, body) of a length the head gives."""
        while b"\r\n\r\n" not in self.got:
            assert self._more(), f"the connection closed mid-answer: {self.got[:200]!r}"
        head, self.got = self.got.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, v in (h.split(":", 1) for h in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(self.got) < length:
            assert self._more(), "the connection closed mid-body"
        body, self.got = self.got[:length], self.got[length:]
        return lines[0], headers, body

    def until_closed(self) -> bytes:
        while self._more():
            pass
        return self.got

    def until(self, marker: bytes) -> bytes:
        while marker not in self.got:
            assert self._more(), f"the connection closed before {marker!r}: {self.got[-200:]!r}"
        return self.got

    def close(self) -> None:
        self.sock.close()


def _get(path: str, version: str = "1.1", extra: str = "") -> bytes:
    return f"GET {path} HTTP/{version}\r\nHost: hall\r\n{extra}\r\n".encode()


def _asked_by_the_app(port: int, path: str, extra: str) -> tuple[str, dict[str, str], bytes]:
    """The same request in HTTP/1.0, which is never answered at its head: the ASGI app's answer."""
    wire = Wire(port)
    try:
        wire.send(_get(path, "1.0", extra))
        raw = wire.until_closed()
    finally:
        wire.close()
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (h.split(":", 1) for h in lines[1:])}
    return lines[0].replace("HTTP/1.1", "HTTP/1.x"), headers, body


def _comparable(headers: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k not in ("date", "connection")}


def _page_at_head(served, path: str) -> tuple[Wire, tuple[str, dict[str, str], bytes]]:
    """The card's page on a new kept-alive connection, asked until the station answers it at its
    head (its deck's state is made current by the thread ahead after the game's start; until
    then the app answers, and the connection is uvicorn's)."""
    for _ in range(200):
        before = served.server.hall.at_head
        wire = Wire(served.port)
        wire.send(_get(path))
        said = wire.answer()
        if served.server.hall.at_head == before + 1:
            return wire, said
        wire.close()
    raise AssertionError("the card's page was never answered at its head")


def test_a_joins_page_and_files_answered_at_their_head_are_the_apps_own_answers(
    caller, live_server
):
    gid = caller.new_game(draw="manual")
    caller.call(gid, 5, 17)
    deck = caller.deck
    page_path = card_path(deck.secret, deck.deck_id, 1)
    wire, (status, headers, page) = _page_at_head(live_server, page_path)
    try:
        assert status == "HTTP/1.1 200 OK" and headers["content-type"].startswith("text/html")
        app_status, app_headers, app_page = _asked_by_the_app(live_server.port, page_path, "")
        assert app_status == "HTTP/1.x 200 OK" and page == app_page
        assert _comparable(headers) == _comparable(app_headers)
        files = [u.replace("&amp;", "&") for u in _ASSET.findall(page.decode())]
        assert any(".css" in f for f in files) and any(".js" in f for f in files)
        for url in files:
            for extra in ("", "Accept-Encoding: gzip, deflate\r\n"):
                before = live_server.server.hall.at_head
                wire.send(_get(url, extra=extra))
                status, headers, body = wire.answer()
                assert live_server.server.hall.at_head == before + 1, url  # at its head
                app_status, app_headers, app_body = _asked_by_the_app(live_server.port, url, extra)
                assert live_server.server.hall.at_head == before + 1  # HTTP/1.0: by the app
                assert status == "HTTP/1.1 200 OK" and app_status == "HTTP/1.x 200 OK", url
                assert _comparable(headers) == _comparable(app_headers), url
                assert body == app_body and body, url
                if extra:
                    assert headers["content-encoding"] == "gzip"
    finally:
        wire.close()


def test_pipelined_requests_are_answered_in_the_order_they_were_asked(caller, live_server):
    """A file answered at its head, then a page only the app makes (its answer takes a worker),
    then a file again: the third is not written before the second, which is under way."""
    caller.new_game(draw="manual")
    wire = Wire(live_server.port)
    try:
        wire.send(_get("/web/static/live.js"))  # the first file, to learn the files' URLs
        status, headers, _ = wire.answer()
        assert status == "HTTP/1.1 200 OK"
        wire.send(_get("/web/static/live.js"), _get("/caller?lang=es"), _get("/web/static/live.js"))
        said = [wire.answer() for _ in range(3)]
    finally:
        wire.close()
    kinds = [h["content-type"].split(";")[0] for _, h, _ in said]
    assert kinds == ["text/javascript", "text/html", "text/javascript"], kinds


def test_a_request_sent_behind_a_stream_closes_the_connection_unanswered(caller, live_server):
    """No browser sends a request on a connection whose stream is still open; a client that does
    is closed, and nothing is written inside the stream's answer."""
    gid = caller.new_game(draw="manual")
    caller.call(gid, 5)
    path = f"/api/games/{gid}/events?view=card"
    screens = live_server.server.hall.screens
    before_streams = screens.streams
    _stream_at_head(live_server, path).close()  # the snapshot kept: opened at the head now
    _wait_for(lambda: screens.streams == before_streams, "the first stream was never let go")
    before_at_head = live_server.server.hall.at_head
    wire = Wire(live_server.port)
    try:
        wire.send(_get(path, extra="Accept: text/event-stream\r\n"), _get("/web/static/live.js"))
        got = wire.until_closed()
    finally:
        wire.close()
    assert live_server.server.hall.at_head == before_at_head + 1  # the stream, not the file
    assert got.count(b"HTTP/1.1 ") == 1 and b"event: snapshot" in got
    assert b"text/javascript" not in got
    _wait_for(lambda: screens.streams == before_streams, "the stream was never let go")


def test_a_stream_written_at_its_head_ends_with_its_last_chunk_and_the_connection_goes_on(
    caller, live_server, app
):
    gid = caller.new_game(draw="manual")
    caller.call(gid, 5)
    path = f"/api/games/{gid}/events?view=card"
    wire = _stream_at_head(live_server, path)
    try:
        caller.call(gid, 33)
        wire.until(b'"ball":33')
        hall(app).hub.end(games.channel(gid))  # the channel ends (as the phones' process's does)
        assert wire.until(b"\r\n0\r\n\r\n").endswith(b"\r\n0\r\n\r\n")  # the answer's last chunk
        wire.got = b""
        wire.send(_get("/web/static/live.js"))
        status, headers, body = wire.answer()  # the same connection takes the next request
        assert status == "HTTP/1.1 200 OK" and body
    finally:
        wire.close()


def _stream_at_head(served, path: str) -> Wire:
    """A game's stream on a raw connection, read to its snapshot, asked until it is opened at
    its head (from the kept snapshot: the first is opened by its view, which keeps it)."""
    for _ in range(20):
        before = served.server.hall.at_head
        wire = Wire(served.port)
        wire.send(_get(path, extra="Accept: text/event-stream\r\n"))
        wire.until(b"event: snapshot")
        if served.server.hall.at_head == before + 1:
            assert b"transfer-encoding: chunked" in wire.got.lower()
            return wire
        wire.close()
    raise AssertionError("the stream was never opened at its head")


def _wait_for(done, what: str, most_s: float = 30.0) -> None:
    """Wait until the server shows `done()`, bounded (a guard against a hang, not a pace)."""
    end = time.monotonic() + most_s
    while not done():
        assert time.monotonic() < end, what
        time.sleep(0.01)


def test_a_phone_that_closes_its_stream_gives_its_place_in_the_budget_back_at_once(
    caller, live_server
):
    """A stream written at its head is still read: a phone that leaves (its page closed, its
    Wi-Fi gone) is heard at once, not at the next heartbeat 15 s later, so its place in the
    connection budget is free for the next phone and its screen is let go."""
    gid = caller.new_game(draw="manual")
    caller.call(gid, 5)
    path = f"/api/games/{gid}/events?view=card"
    budget, screens = live_server.server.hall.budget, live_server.server.hall.screens
    before, streams = budget.laptops, screens.streams  # (127.0.0.1 is the laptop's address)
    _stream_at_head(live_server, path).close()  # the snapshot kept: opened at the head now
    _wait_for(lambda: budget.laptops == before, "the first phone's place")
    wires = [_stream_at_head(live_server, path) for _ in range(4)]
    _wait_for(lambda: budget.laptops == before + 4, "four phones' streams")
    assert screens.streams == streams + 4
    for wire in wires:
        wire.close()
    _wait_for(
        lambda: budget.laptops == before and screens.streams == streams,
        "the phones that left still hold their places",
        most_s=10,  # within the heartbeat (15 s), which would find them too
    )


def test_a_shared_page_kept_current_is_answered_at_its_head_as_the_app_answers_it(
    caller, live_server
):
    """/display, once the app has made and kept it, is answered at its head to a guest (a big
    screen reloading, a guest's phone, a client on a loop): the app's own answer, byte for byte."""
    caller.new_game(draw="manual")
    hall_app = live_server.server.hall
    guest = "X-Forwarded-For: 10.0.0.7\r\n"  # from the laptop's proxy: a guest's request
    for _ in range(200):
        before = hall_app.at_head
        wire = Wire(live_server.port)
        try:
            wire.send(_get("/display?lang=es", extra=guest))
            status, headers, page = wire.answer()
        finally:
            wire.close()
        if hall_app.at_head == before + 1:
            break
    else:
        raise AssertionError("/display was never answered at its head")
    app_status, app_headers, app_page = _asked_by_the_app(
        live_server.port, "/display?lang=es", guest
    )
    assert status == "HTTP/1.1 200 OK" and app_status == "HTTP/1.x 200 OK"
    assert page == app_page and b"<html" in page.lower()
    assert _comparable(headers) == _comparable(app_headers)
