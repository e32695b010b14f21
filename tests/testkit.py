"""What tests share besides fixtures: `eventually` and the Maestro's API shortcuts (`Caller`,
which the `caller` fixture in conftest.py gives). A module of its own, because several test
folders have a conftest.py and `import conftest` would find whichever came first."""

from __future__ import annotations

import ast
import dataclasses
import os
import socket
import subprocess
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

from bingo_hall.manifest import Deck, new_deck
from bingo_hall.web.instance import hall

TEST_PIN = "246810"  # the caller PIN of the `app` fixture


def restart_with_pin(app, pin: str) -> None:
    """The station as restarted with another caller PIN (same instance folder and database)."""
    state = hall(app)
    state.config = dataclasses.replace(state.config, caller_pin=pin)
    app.config["CALLER_PIN"] = pin


def eventually(check: Callable[[], object], timeout: float = 30.0) -> None:
    """Wait for something another thread or process does, failing with what was awaited. The
    timeout only bounds a failing wait (a passing one ends as soon as the check holds): it is
    generous, because with both cores busy a subprocess can take seconds to start."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout} s: {check.__doc__ or check}")
        time.sleep(0.01)


def free_port() -> int:
    """A port nothing listens on now, for a station started as a process."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def station_process(argv: list[str], timeout: float = 90, **popen) -> tuple:
    """Start a station command (`serve`, `demo`) as a real process and read its banner up to
    "Press Ctrl+C to stop.": (the process, the banner's lines). A process that ends first fails
    the test with what it wrote to stderr."""
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen
    )
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not any("Ctrl+C" in x for x in lines):
        lines.append(proc.stdout.readline())
        assert proc.poll() is None, proc.stderr.read()
    return proc, lines


def scripts_ran(page) -> None:
    """Wait until a station page's scripts have all run: its live stream opens only after every
    module of the page ran (station.js), and then says data-live="yes". A click made before that
    could be lost on a busy machine."""
    from playwright.sync_api import expect

    expect(page.locator("#station")).to_have_attribute("data-live", "yes")


def caller_game_page(page, url: str, gid: int, lang: str | None = None) -> None:
    """The Maestro's game page as the laptop's browser opens it: the PIN typed on the login page
    (in `lang` when given), then the game's page, its scripts run."""
    page.goto(f"{url}/caller/login" + (f"?lang={lang}" if lang else ""))
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url("**/caller/**")
    page.goto(f"{url}/caller/games/{gid}")
    scripts_ran(page)


def marked_card(page, url: str) -> str:
    """A card's or a ticket's QR page as a phone shows it: opened, its card marked and its
    verdict written by card.js from the game's state the page carries (data-marked="yes"); the
    rendered HTML (issue 32: the station serves the card without marks)."""
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.locator("#verify")).to_have_attribute("data-marked", "yes")
    return page.content()


def refuse_streams(page, path: str) -> dict[str, bool]:
    """Answer the page's requests for the live stream at `path` with a 503 "too many
    connections" (what a full station answers a guest) while `gate["refuse"]` is true; then let
    them through. Made at the browser's network edge (Playwright's route), because the station
    never refuses the laptop's own address, where the tests run."""
    import re

    gate = {"refuse": True}

    def handle(route) -> None:
        if gate["refuse"]:
            route.fulfill(status=503, content_type="text/plain", body="too many connections")
        else:
            route.continue_()

    page.route(re.compile(re.escape(path) + r"(\?|$)"), handle)
    return gate


def stream_refused(response) -> bool:
    """A live stream answered 503 (a predicate for page.expect_response)."""
    return response.url.split("?")[0].endswith("/events") and response.status == 503


def page_login(client) -> str:
    """Log `client` in on the caller pages with the PIN, as the laptop's browser does; the
    session's CSRF token (what the pages' `<meta name="csrf-token">` carries)."""
    page = client.get("/caller/login").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    pin = client.application.config["CALLER_PIN"]
    r = client.post("/caller/login", data={"pin": pin, "csrf_token": token})
    assert r.status_code == 302, r.get_data(as_text=True)[:200]
    with client.session_transaction() as session:
        return session["csrf"]


def parsed(path: Path) -> ast.Module:
    """A source file's syntax tree, parsed once per session for the tests that read the kit's
    sources (architecture, config, error templates): they only walk it, never change it."""
    stat = path.stat()
    return _parsed(str(path), stat.st_mtime_ns, stat.st_size)


@cache
def _parsed(path: str, _mtime_ns: int, _size: int) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"), filename=path)


def doc_shot(name: str, scratch: Path) -> str:
    """Where a test saves a screenshot that the docs show: docs/NAME when asked for
    (`BINGO_HALL_DOC_SHOTS=1 make test`, to refresh the docs), else the test's scratch folder,
    so that a test run never changes the checkout."""
    docs = Path(__file__).resolve().parent.parent / "docs"
    return str((docs if os.environ.get("BINGO_HALL_DOC_SHOTS") == "1" else scratch) / name)


@cache
def test_deck() -> Deck:
    """The Maestro's deck when a test names none: 12 cards, always the same (a frozen value)."""
    return new_deck(12, seed="tests", name="Test deck")


class Caller:
    """The Maestro at a station under test: logged in with the caller PIN (a bearer token from
    POST /api/login), loading a deck, starting games and calling balls through the JSON API."""

    def __init__(self, client, deck: Deck | None = None) -> None:
        self.client = client
        r = client.post("/api/login", json={"pin": client.application.config["CALLER_PIN"]})
        assert r.status_code == 200, r.get_json()
        self.auth = {"Authorization": "Bearer " + r.get_json()["token"]}
        self.deck = deck or test_deck()
        self.load_deck(self.deck)

    def load_deck(self, deck: Deck) -> Deck:
        r = self.client.post(
            "/api/decks", data=deck.to_json(), headers=self.auth, content_type="application/json"
        )
        assert r.status_code in (200, 201), r.get_json()
        return deck

    def new_game(self, mode: str = "normal", draw: str = "auto", **extra) -> int:
        payload = {"deck_id": self.deck.deck_id, "mode": mode, "draw": draw, **extra}
        r = self.client.post("/api/games", json=payload, headers=self.auth)
        assert r.status_code == 201, r.get_json()
        return r.get_json()["game_id"]

    def call(self, gid: int, *balls: int) -> None:
        """Balls from the cage, typed by the Maestro (a game drawn by hand)."""
        for ball in balls:
            r = self.client.post(f"/api/games/{gid}/calls", json={"ball": ball}, headers=self.auth)
            assert r.status_code == 201, (ball, r.get_json())

    def post(self, path: str, payload=None, auth: bool = True):
        return self.client.post(path, json=payload, headers=self.auth if auth else {})

    def get(self, path: str, auth: bool = True):
        return self.client.get(path, headers=self.auth if auth else {})


def watch_csp(page) -> list[str]:
    """What the Content-Security-Policy blocked on `page` from now on: the browser's console
    reports and the `securitypolicyviolation` events of every document the page loads."""
    blocked: list[str] = []
    page.on(
        "console",
        lambda msg: blocked.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.expose_function("__cspViolation", lambda text: blocked.append(text))
    page.add_init_script(
        """document.addEventListener("securitypolicyviolation", (e) =>
             window.__cspViolation(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}`
                                   + `:${e.lineNumber}`));"""
    )
    return blocked


#: BINGO_HALL_SPLIT_TESTS=1: every live server serves the hall's port from the phones' process,
#: and the Maestro's from a port of its own, as `serve` runs it (web/station_server.py); by
#: default a test's server is one process on one port (tests reach into the app object they
#: serve), and tests/station/test_split.py serves split ones
SPLIT_TESTS = os.environ.get("BINGO_HALL_SPLIT_TESTS") == "1"


class LiveServer:
    """The station's own server (bingo_hall.web.server: uvicorn, the event loop for live streams,
    the worker pool for the rest), as `bingo-hall serve` runs it, in a thread on a free loopback
    port. `split`: the hall's port served by the phones' process, and the Maestro's own port
    (`maestro_url`) by this one (web/station_server.py); else `maestro_url` is `url`."""

    def __init__(self, app, port: int = 0, split: bool | None = None) -> None:
        from bingo_hall.web.station_server import Server

        self.app = app
        split = SPLIT_TESTS if split is None else split
        self.server = Server(app, "127.0.0.1", port, split=split).start()
        self.port = self.server.port
        self.url = f"http://127.0.0.1:{self.port}"
        self.maestro_port = self.server.maestro_port
        self.maestro_url = f"http://127.0.0.1:{self.maestro_port}"

    def close(self) -> None:
        self.server.close()
