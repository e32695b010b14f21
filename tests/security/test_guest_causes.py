"""Issue 38: the causes behind the six guest attacks, each checked where it lives (the attacks
themselves, from another machine, are tests/security/test_guests.py).

A static files are a fixed set: an alias or an unknown path is a 404 that adds nothing;
B a guest's JSON is held to a budget of size, values and depth before any worker parses it;
C /display and /join are built once per change and then answered from memory;
D a typed card number never gives the card's signed path (tests/station/test_phone_join.py);
E numbers in messages are written whatever their size;
F the event stream's data is one line whatever a string holds.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from bingo_hall.web import admission
from bingo_hall.web.admission import CHANGE_COST, RequestPace
from bingo_hall.web.errors import number_text
from bingo_hall.web.forward import CLIENT_HEADER, trusted_client
from bingo_hall.web.hub import sse
from bingo_hall.web.inputs import GUEST_VALUES, MAX_DEPTH, JsonBudget
from bingo_hall.web.instance import area_state, hall
from bingo_hall.web.pages import VERSION_HEADER, ChangeCache, screen_host
from bingo_hall.web.server import HallApp
from bingo_hall.web.static_files import StaticFiles
from firmware_bridge.follow import SseParser


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


# --- A: static files ------------------------------------------------------------------------
def test_an_aliased_or_unknown_static_path_is_a_404_that_keeps_nothing(live_server):
    files = StaticFiles.of(live_server.app)
    known = dict(files.entries())
    status, body = _get(live_server.url + "/static/vendor/jsQR.js")
    assert status == 200 and len(body) > 100_000
    for _ in range(50):
        alias = f"/static/{secrets.token_hex(8)}/../vendor/jsQR.js"
        assert _get(live_server.url + alias)[0] == 404, alias
        assert _get(live_server.url + f"/web/static/{secrets.token_hex(8)}.js")[0] == 404
    assert files.entries() == known  # the same files, nothing added for what was asked


def test_the_static_files_are_read_once_at_start_up(app, tmp_path):
    files = StaticFiles.of(app)
    folder = app.blueprints["station"].static_folder
    entries = files.entries()
    assert "/static/vendor/jsQR.js" in entries and "/web/static/live.js" in entries
    assert all(
        path.startswith(("/static/", "/web/", "/t/", "/verify/", "/ledger/")) for path in entries
    )
    assert files.entries() is entries  # never read again
    assert folder  # (each area's own folder is walked: station, web, companions, verify, ledger)


# --- B: a guest's JSON ------------------------------------------------------------------------
def test_a_json_budget_counts_values_and_depth_before_parsing():
    budget = JsonBudget(1 << 20, values=100, depth=4)
    assert budget.over(json.dumps({"a": list(range(50))}).encode()) is None
    assert budget.over(b"[" + b"[]," * 200 + b"[]]") == "values"
    assert budget.over(b"[[[[[1]]]]]") == "depth"
    # separators inside strings are not values
    assert budget.over(json.dumps({"note": "," * 5000}).encode()) is None
    assert JsonBudget(10).over(b'{"pin": "123456"}') == "size"


def _run_read_body(limits: admission.BodyLimits, body: bytes) -> tuple[int | None, bool]:
    """Drive admission.read_body as the server does (ASGI messages in, messages out)."""
    sent: list[dict] = []
    scope = {"headers": [(b"content-length", str(len(body)).encode())]}
    chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)] or [b""]

    async def receive() -> dict:
        chunk = chunks.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

    async def send(message: dict) -> None:
        sent.append(message)

    # a loop of its own, in a thread: a browser test before this one leaves Playwright's loop
    # running in the main thread, where asyncio.run() is refused
    with ThreadPoolExecutor(1) as thread:
        replay = thread.submit(
            asyncio.run, admission.read_body(scope, receive, send, limits)
        ).result()
    status = sent[0]["status"] if sent else None
    return status, replay is not None


def test_a_guests_json_over_its_budget_is_refused_on_the_loop():
    limits = admission.guest_limits(64 * 1024, 10.0)
    bomb = b"[" + b"[]," * 20_000 + b"[]]"  # 60 KB: under the size, over the values
    assert _run_read_body(limits, bomb) == (400, False)
    deep = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    assert _run_read_body(limits, deep) == (400, False)
    entry = json.dumps({"teams": [{"puras": 1, "down": [5, 6, 7]}] * 2}).encode()
    assert _run_read_body(limits, entry) == (None, True)  # a score entry goes on to the app
    assert GUEST_VALUES >= 1000  # room for any table's entry


def test_a_login_and_a_tables_setup_take_4_kb_from_a_guest(app):
    server = HallApp(app)
    for method, path in (
        ("POST", "/api/login"),
        ("POST", "/caller/login"),
        ("POST", "/t/new/burako"),
        ("POST", "/t/ABCDEFGH/unlock"),
    ):
        limits = server.body_limits(False, {"method": method, "path": path})
        assert limits.size == admission.SMALL_BODY == 4096, path
    entries = server.body_limits(False, {"method": "POST", "path": "/t/ABCDEFGH/entries"})
    assert entries.size == hall(app).config.max_guest_body
    maestro = server.body_limits(True, {"method": "POST", "path": "/t/new/burako"})
    assert maestro.size == hall(app).config.max_content_length  # the Maestro's own limit


def test_a_number_that_is_no_finite_number_is_refused(client):
    r = client.post("/api/login", data=b'{"pin": 1e400}', content_type="application/json")
    assert r.status_code == 400
    assert r.get_json()["error"] == "the request body holds a number too large to keep"


# --- C: pages built once per change -------------------------------------------------------------
def test_display_and_join_are_built_once_per_change(caller, client):
    gid = caller.new_game("normal", "manual")
    guest = {"REMOTE_ADDR": "10.20.30.40"}
    pages = area_state("shared_pages", ChangeCache, client.application)
    for path in ("/display", "/join"):
        client.get(path, environ_base=guest)
    built = pages.built
    for _ in range(5):
        for path in ("/display", "/join", "/display?x=1", "/join?y=2"):
            assert client.get(path, environ_base=guest).status_code == 200
    assert pages.built == built  # twenty requests, no template rendered
    caller.call(gid, 44)
    page = client.get("/display", environ_base=guest).get_data(as_text=True)
    assert pages.built == built + 1 and '"ball": 44' in page.replace('"ball":44', '"ball": 44')


def test_the_servers_loop_answers_a_kept_page_until_the_next_change(caller, live_server):
    gid = caller.new_game("normal", "manual")
    loop_pages, hub = live_server.server.hall.pages, hall(live_server.app).hub
    for _ in range(3):  # a run that an event of the station's own came through is run again
        published = hub.published
        first = _get(live_server.url + "/display")
        before = loop_pages.answered
        again = [_get(live_server.url + "/display") for _ in range(5)]
        if hub.published == published:
            break
    assert loop_pages.answered == before + 5  # five answers from memory, no worker
    assert all(a == first for a in again)
    caller.call(gid, 7)
    status, page = _get(live_server.url + "/display")
    assert status == 200 and loop_pages.answered == before + 5  # built again, by the app
    assert page != first[1]
    with urllib.request.urlopen(live_server.url + "/display", timeout=20) as r:
        assert r.headers.get(VERSION_HEADER) is None  # the loop's own note is not sent


def test_made_up_host_headers_share_one_page(app):
    with app.app_context():
        hosts = [f"h{i}.example:8080" for i in range(40)]
        kept = [screen_host(h) for h in hosts]
    assert kept[:8] == hosts[:8] and kept[8:] == [None] * 32


# --- guests' requests paced per address --------------------------------------------------------
def test_a_guest_address_waits_its_turn_past_its_burst():
    pace = RequestPace(rate=50.0, burst=10)
    assert [pace.wait("10.0.0.2", 0.0) for _ in range(10)] == [0.0] * 10
    waits = [pace.wait("10.0.0.2", 0.0) for _ in range(5)]
    assert waits == pytest.approx([0.02, 0.04, 0.06, 0.08, 0.10])
    assert pace.wait("10.0.0.3", 0.0) == 0.0  # another address has its own
    assert pace.wait("10.0.0.2", 10.0) == 0.0  # and the bucket fills again
    # a change counts for CHANGE_COST requests: ten a second, not fifty
    changes = [pace.wait("10.0.0.4", 0.0, CHANGE_COST) for _ in range(3)]
    assert changes == pytest.approx([0.0, 0.0, (3 * CHANGE_COST - 10) / 50.0])


def test_a_turn_taken_now_or_not_at_all_is_counted_once():
    """A request answered at its head takes its turn only if it is due now; one that is not
    waits for it and counts once (`wait`); a turn given back is there for the next request."""
    pace = RequestPace(rate=50.0, burst=3)
    assert [pace.now_or_later("10.0.0.5", 0.0) for _ in range(4)] == [True, True, True, False]
    assert pace.wait("10.0.0.5", 0.0) == pytest.approx(0.02)  # the fourth, counted once
    pace.give_back("10.0.0.5")
    assert pace.wait("10.0.0.5", 0.0) == pytest.approx(0.02)  # the turn given back was used
    assert pace.now_or_later("10.0.0.5", 1.0)  # the bucket fills again


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("127.0.0.1", ["10.0.0.7"], "10.0.0.7"),  # the laptop's proxy names its client
        ("127.0.0.1", ["1.2.3.4, 10.0.0.7"], "10.0.0.7"),  # the nearest address, not a claimed one
        ("127.0.0.1", ["10.0.0.7", "10.0.0.8"], "10.0.0.8"),  # two headers: read as one list
        ("127.0.0.1", ["10.0.0.7, 127.0.0.1"], "10.0.0.7"),  # the laptop itself is skipped
        ("10.0.0.9", ["127.0.0.1"], "10.0.0.9"),  # a guest cannot say it is the laptop
        ("127.0.0.1", [], "127.0.0.1"),
    ],
)
def test_x_forwarded_for_names_the_client_only_from_the_laptop(peer, forwarded, client):
    scope = {
        "headers": [(b"x-forwarded-for", f.encode()) for f in forwarded]
        + [(CLIENT_HEADER, b"10.6.6.6 1")],
        "client": (peer, 5000),
    }
    trusted_client(scope, internal=False)
    assert scope["client"][0] == client
    assert all(name != CLIENT_HEADER for name, _ in scope["headers"])  # never from outside


# --- E: numbers in messages ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "written"),
    [(1e26, "1e+26"), (-1e300, "-1e+300"), (1e25, "1e+25"), (1e-9, "1e-09"), (12.5, "12.5")],
)
def test_a_number_in_a_message_is_written_whatever_its_size(app, value, written):
    with app.test_request_context("/?lang=en"):
        assert number_text(value) == written
    with app.test_request_context("/?lang=es"):
        assert number_text(value) == written.replace(".", ",")


def test_a_huge_number_in_a_score_entry_is_a_400_that_names_it(client):
    code = client.post("/t/new/burako", json={"teams": [["Ana"], ["Beto"]]}).get_json()["code"]
    hand = {"puras": 0, "impuras": 0, "closed": False, "muerto": "taken", "down": 10}
    for number, shown in ((1e26, "1e+26"), (-1e300, "-1e+300")):
        r = client.post(f"/t/{code}/entries", json={"teams": [{**hand, "down": [number]}, hand]})
        assert r.status_code == 400 and r.get_json()["error"].startswith(shown), r.get_json()


# --- F: the event stream -------------------------------------------------------------------------
@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\u0085", "\r", "\n", "\x1c", "\x0b"])
def test_no_character_in_a_string_breaks_a_data_line(char):
    data = {"names": [f"Ana{char}Sol", "Beto"], "n": 1}
    text = sse("view", data, 3)
    lines = text.split("\n")
    assert lines[-2:] == ["", ""] and len(lines) == 5  # event, id, ONE data line, the blank
    assert text.isascii()
    assert json.loads(lines[2].removeprefix("data: ")) == data
    assert SseParser().feed(text) == [("view", data)]
