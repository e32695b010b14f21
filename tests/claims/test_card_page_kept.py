"""Issue 32: a card's QR page is done ahead of need. The page is the kept shell, the card's kept
table (drawn without marks by the one drawer), the game's state (read once per change, shared by
every card) and the card's own facts; card.js marks the card and writes the verdict on load from
that state. A second page of a card renders no template; on the station's server it is answered
on the event loop, byte for byte the page Flask builds. Each change of the game gives the right
page (checked in a browser whose live stream is cut off, so only the page's own state counts)."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest
from flask import template_rendered
from playwright.sync_api import expect
from testkit import Caller, eventually

from bingo_hall.app import create_app
from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.signing import card_path
from bingo_hall.station.verify import card_pages
from bingo_hall.station.verify.card_pages import CardPages

from .hall import Hall


@pytest.fixture
def rendered(app):
    """The names of the templates the app renders, in order."""
    seen: list[str] = []

    def note(sender, template, context, **extra):
        seen.append(template.name)

    template_rendered.connect(note, app)
    yield seen
    template_rendered.disconnect(note, app)


def test_a_second_page_of_the_same_card_renders_no_template(client, rendered):
    hall = Hall(client)
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(5, "B")[:3])
    path = card_path(hall.deck.secret, hall.deck.deck_id, 5) + "?lang=en"
    first = client.get(path)
    assert first.status_code == 200 and "verify/card.html" in rendered  # the page around
    rendered.clear()
    again = client.get(path)
    assert again.status_code == 200 and rendered == []
    assert again.data == first.data
    other = card_path(hall.deck.secret, hall.deck.deck_id, 6) + "?lang=en"
    assert client.get(other).status_code == 200
    # its table is the one drawer's table cut once and filled in, the page around is kept
    assert rendered == []


def test_the_stations_server_answers_a_kept_page_on_its_loop_as_flask_builds_it(
    app, client, live_server, rendered
):
    hall = Hall(client)
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(9, "G")[:2])
    path = card_path(hall.deck.secret, hall.deck.deck_id, 9) + "?lang=es"
    pages = CardPages.of(app)

    def fetch() -> bytes:
        with urllib.request.urlopen(live_server.url + path) as r:
            assert r.status == 200 and r.headers["Content-Type"] == "text/html; charset=utf-8"
            assert "script-src 'self'" in r.headers["Content-Security-Policy"]
            return r.read()

    built = fetch()  # Flask builds what is not kept yet
    assert pages.loop_answers == 0
    rendered.clear()
    kept = fetch()
    assert pages.loop_answers == 1 and rendered == []  # no Flask, no template
    assert kept == built == client.get(path).data
    hall.call(gid, hall.numbers(9, "G")[2])  # a change: the state is read again, by Flask
    after = fetch()
    assert pages.loop_answers == 1 and after != kept
    assert fetch() == after and pages.loop_answers == 2


@pytest.fixture
def ahead(app):
    """The thread that keeps the card pages' shared parts current, as `serve` starts it. The tests
    that use it give a page a minute to wait for it (PAGE_WAIT_S), not 1 s: on a busy machine
    the thread may get no core for a second, and they are about what the page waits for, not
    how long."""
    pages = CardPages.of(app)
    pages.ahead = card_pages.Ahead(app, pages)
    pages.ahead.start()
    yield pages.ahead
    pages.ahead.stop()
    pages.ahead = None


def _calls(now) -> list[int]:
    """The balls called in a deck's kept state (the snapshot every page carries)."""
    import json

    return [c["ball"] for c in json.loads(now.state)["calls"]] if now.state else []


@pytest.mark.hall_config(PAGE_WAIT_S=60.0)
def test_after_a_change_the_thread_ahead_reads_the_state_before_any_phone_asks(
    app, client, live_server, ahead
):
    hall = Hall(client)
    gid = hall.new_game()
    path = card_path(hall.deck.secret, hall.deck.deck_id, 4) + "?lang=en"
    pages = CardPages.of(app)
    eventually(lambda: hall.deck.deck_id in pages.now)  # a game in play: read
    assert client.get(path).status_code == 200  # the card's table drawn (a worker's, in `serve`)
    ball = hall.numbers(4, "N")[0]
    hall.call(gid, ball)  # a change, published: the thread reads the state again
    eventually(lambda: _calls(pages.now[hall.deck.deck_id]) == [ball])
    built = pages.app_pages
    with urllib.request.urlopen(live_server.url + path, timeout=30) as r:
        page = r.read()
    assert pages.app_pages == built  # answered on the loop: the app built nothing
    assert page == client.get(path).data  # the page the app builds after the change


def test_the_thread_ahead_renders_a_new_games_page_in_each_language_before_a_phone_asks(
    app, client, ahead, rendered
):
    hall = Hall(client)
    pages = CardPages.of(app)
    for serial in (1, 2):  # the tables kept: the first pages drew them
        for lang in ("en", "es"):
            client.get(card_path(hall.deck.secret, hall.deck.deck_id, serial) + f"?lang={lang}")
    gid = hall.new_game()
    ball = hall.numbers(1, "B")[0]
    hall.call(gid, ball)
    # the game's state, and the page around the cards in both languages
    eventually(lambda: _calls(pages.now[hall.deck.deck_id]) == [ball])
    eventually(lambda: sum(key[4] == gid for key in list(pages.shells)) == 2)
    rendered.clear()
    got = {}
    for lang in ("en", "es"):
        path = card_path(hall.deck.secret, hall.deck.deck_id, 2) + f"?lang={lang}"
        got[lang] = client.get(path).data
    assert rendered == []  # neither the page around nor the state: made ahead, in the thread
    assert b'<html lang="en"' in got["en"] and b'<html lang="es"' in got["es"]
    pages.shells.clear()  # made again by the requests themselves: the very same pages
    pages.now.clear()
    for lang in ("en", "es"):
        path = card_path(hall.deck.secret, hall.deck.deck_id, 2) + f"?lang={lang}"
        assert client.get(path).data == got[lang]


@pytest.mark.hall_config(PAGE_WAIT_S=60.0)
def test_after_a_change_the_phones_asking_wait_for_the_thread_ahead_not_for_the_app(
    app, client, live_server, ahead
):
    """A join storm's tail: after each draw the game's state is read again. The phones whose
    pages are asked meanwhile wait on the loop for the thread ahead and are answered from what
    is kept, instead of each going to the app (which lets two in at a time)."""
    import threading

    hall = Hall(client)
    gid = hall.new_game()
    hall.call(gid, hall.numbers(1, "B")[0])
    paths = [card_path(hall.deck.secret, hall.deck.deck_id, s) + "?lang=en" for s in range(1, 41)]

    def fetch(path: str) -> bytes:
        with urllib.request.urlopen(live_server.url + path, timeout=30) as r:
            assert r.status == 200
            return r.read()

    for path in paths:  # every table drawn and kept
        fetch(path)
    pages = CardPages.of(app)
    start = threading.Barrier(len(paths) + 1)
    got: dict[str, bytes] = {}

    def phone(path: str) -> None:
        start.wait(30)
        got[path] = fetch(path)

    phones = [threading.Thread(target=phone, args=(p,)) for p in paths]
    for t in phones:
        t.start()
    before = pages.app_pages
    hall.call(gid, hall.numbers(2, "I")[0])  # a change: the state is stale
    start.wait(30)
    for t in phones:
        t.join(60)
    assert pages.app_pages == before  # no page went to the app
    for path in paths:  # and every page is the page after the change
        assert got[path] == client.get(path).data


def test_the_thread_ahead_outlives_a_page_whose_server_stopped_while_it_waited(app, ahead):
    """A page waiting for the thread when the server stops: its loop is closed when the thread
    tells it. The thread goes on (the next station's pages need it)."""
    import asyncio

    loop = asyncio.new_event_loop()
    deck = Hall(app.test_client()).deck
    assert ahead.waiter({card_pages.STALE: deck.deck_id}, loop) is not None
    loop.close()
    passes = ahead.passes
    eventually(lambda: ahead.passes >= passes + 2)  # told, then one more pass
    assert ahead._thread.is_alive()


def test_the_query_string_cannot_reach_the_pages_placeholders(client):
    """Issue 38's smaller hole: `?x=QxFOLLOWxQ` put the card's data into the language links."""
    hall = Hall(client)
    hall.new_game()
    path = card_path(hall.deck.secret, hall.deck.deck_id, 3)
    names = ("QxFOLLOWxQ", "QxCARDxQ", "QxSTATExQ", "QxTABLExQ", "QxSERIALxQ", "QxPATHxQ")
    query = "&".join(f"x{i}={n}" for i, n in enumerate(names))
    html = client.get(f"{path}?{query}").get_data(as_text=True)
    assert html.count('id="card-state"') == 1 and html.count("<table") == 1
    for i, name in enumerate(names):
        assert f"x{i}%3D{name}" in html  # in the links, as sent, never replaced
    links = re.findall(r'href="/lang/(\w+)\?next=([^"]*)"', html)
    assert [code for code, _ in links] == ["es", "en"]
    assert all("<" not in target and "{" not in target for _, target in links)


def test_without_javascript_the_card_shows_unmarked_with_a_line_saying_why(client):
    hall = Hall(client)
    gid = hall.new_game()
    called = hall.numbers(2, "R1")
    hall.call(gid, *called)  # a bingo, which only a browser with JavaScript is told
    path = card_path(hall.deck.secret, hall.deck.deck_id, 2)
    for lang, line in (
        ("en", "The called numbers are marked by JavaScript, which this browser does not run."),
        ("es", "Los números cantados los marca JavaScript, que este navegador no ejecuta."),
    ):
        html = client.get(f"{path}?lang={lang}").get_data(as_text=True)
        assert f'<noscript><p class="verdict-head none">{line}</p></noscript>' in html
        squares = re.findall(r'<td class="(sq[^"]*)" data-number="(\w+)"', html)
        assert len(squares) == 25
        assert [c for c, n in squares if "covered" in c or "wins" in c] == []
        assert "verdict-head yes" not in html  # no BINGO verdict drawn in the served page


def test_part_verdict_is_the_card_judged_now_with_its_marks(client):
    hall = Hall(client)
    gid = hall.new_game()
    row = hall.numbers(4, "R2")
    hall.call(gid, *row)
    path = card_path(hall.deck.secret, hall.deck.deck_id, 4)
    part = client.get(path + "?part=verdict&lang=en").get_data(as_text=True)
    covered = re.findall(r'<td class="sq covered[^"]*" data-number="(\d+)"', part)
    assert sorted(map(int, covered)) == sorted(row) and "BINGO!" in part and "¡" not in part
    assert 'data-bingo="yes"' in part and "<html" not in part


def test_a_reloaded_deck_and_a_restarted_station_give_the_same_page(app, client, tmp_path):
    hall = Hall(client)
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(7, "O")[:2])
    path = card_path(hall.deck.secret, hall.deck.deck_id, 7) + "?lang=en"
    before = client.get(path).data
    hall.load_deck(hall.deck)  # the same deck loaded again: nothing changes
    assert client.get(path).data == before
    again = create_app(dict(app.config), instance_path=app.instance_path)  # a restart
    assert again.test_client().get(path).data == before
    other = new_deck(6, seed="another deck", name="Otra")
    hall.deck = hall.load_deck(other)
    newer = hall.new_game()  # the first deck's game ends: its cards show it finished
    assert f'data-game="{gid}"'.encode() in client.get(path).data
    mine = card_path(other.secret, other.deck_id, 1) + "?lang=en"
    assert f'data-game="{newer}"'.encode() in client.get(mine).data


@pytest.mark.parametrize("balls", [90, 75])
def test_a_card_page_fills_in_its_table_and_nothing_is_drawn_per_card_ahead_of_it(
    app, client, rendered, balls
):
    """Loading a deck and starting its game draw no card's table: each page fills its table in
    from the variant's cut (made once per language), with no template drawn for it."""
    if balls == 90:
        deck = new_strip_deck(2, "filled in", name="Tiras")  # 12 tickets
    else:
        deck = new_deck(30, seed="filled in", name="Ya")
    template = "verify/_ticket_table.html" if balls == 90 else "verify/_card_table.html"
    card_pages.start(app)
    try:
        maestro = Caller(client, deck)
        maestro.new_game(draw="manual")
        pages = CardPages.of(app)
        assert pages.filled == pages.drawn == 0  # no phone asked: nothing made per card
        url = card_path(deck.secret, deck.deck_id, 1) + "?lang=es"
        assert client.get(url).status_code == 200  # the cut in Spanish is made by now
        # and the thread ahead makes the page around the cards and the cut in each language
        eventually(lambda: all((template, lang) in pages.cuts for lang in ("en", "es")))
        eventually(lambda: len(pages.shells) == 2)
        rendered.clear()
        for card in deck.cards[1:]:
            r = client.get(card_path(deck.secret, deck.deck_id, card.serial) + "?lang=es")
            assert r.status_code == 200 and f'data-serial="{card.serial}"' in r.text
        assert template not in rendered
        assert pages.filled == len(deck.cards) and pages.drawn == 0  # one per page asked
    finally:
        card_pages.stop(app)


def _open(phone, url: str) -> None:
    phone.goto(url)
    expect(phone.locator("#verify")).to_have_attribute("data-marked", "yes")


@pytest.mark.browser
def test_each_change_of_the_game_gives_the_right_page(client, live_server, phone):
    """Opened afresh after each change, with no live stream: the page's own state marks it."""
    phone.route("**/events?*", lambda route: route.abort())
    hall = Hall(client)
    url = live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 5) + "?lang=en"
    phone.goto(url)
    expect(phone.locator(".verdict-head")).to_have_text(
        "No game is being played with this deck yet."
    )
    covered = phone.locator("td.sq.covered:not(.free)")
    gid = hall.new_game("normal")  # a new game
    _open(phone, url)
    expect(phone.locator("#verify")).to_have_attribute("data-game", str(gid))
    expect(covered).to_have_count(0)
    b = hall.numbers(5, "B")
    hall.call(gid, *b[:4])  # calls
    _open(phone, url)
    expect(covered).to_have_count(4)
    expect(phone.locator(f'td.sq[data-number="{b[3]}"]')).to_have_class("sq covered last")
    expect(phone.locator(".vfacts").first).to_contain_text("4 calls")
    hall.post(f"/api/games/{gid}/undo", {"reason": "misread"})  # an undo
    _open(phone, url)
    expect(covered).to_have_count(3)
    expect(phone.locator(".vfacts").first).to_contain_text("3 calls")
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 5, "line": "B"}).status_code == 201
    _open(phone, url)  # a false claim: its penalty uncovers the squares called so far
    expect(covered).to_have_count(0)
    hall.call(gid, *hall.numbers(5, "I"))  # column I: a bingo the penalty cannot touch
    _open(phone, url)
    expect(phone.locator(".verdict-head")).to_contain_text("BINGO!")
    expect(phone.locator(".shout")).to_have_text("Your card has BINGO: press “Claim”.")
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 5}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award", {}).status_code == 200  # an award
    _open(phone, url)
    expect(phone.locator(".won")).to_have_text("You won round 1")
    expect(phone.locator(".shout")).to_have_count(0)
    hall.post(f"/api/games/{gid}/rounds")  # a new round
    _open(phone, url)
    expect(covered).to_have_count(0)
    expect(phone.locator(".vfacts").first).to_contain_text("Round 2")
    expect(phone.locator(".won")).to_have_text("You won round 1")
    hall.post(f"/api/games/{gid}/settings", {"pattern": "four_corners"})  # a pattern
    _open(phone, url)
    expect(phone.locator("td.sq.need")).to_have_count(4)
    expect(phone.locator('[data-part="pattern"]')).to_contain_text("Four corners")
    _open(phone, url.replace("lang=en", "lang=es"))  # a language switch
    expect(phone.locator(".vfacts").first).to_contain_text("Ronda 2")
    expect(phone.locator("h1")).to_contain_text("Cartón 5")


def test_what_a_guest_sends_to_a_kept_page_never_breaks_it(app, client, live_server):
    """The event loop reads the request's own parts (path, query, cookie, Accept-Language):
    odd ones are answered as Flask answers them, never with a 500."""
    hall = Hall(client)
    hall.new_game()
    path = card_path(hall.deck.secret, hall.deck.deck_id, 8)
    base = live_server.url
    with urllib.request.urlopen(base + path) as r:  # built once: kept from now on
        assert r.status == 200
    asked = [
        (path, {"Cookie": "a=b; lang=es; =; ;;"}, 200, "Cartón 8"),
        (path, {"Cookie": 'lang="es'}, 200, "Card 8"),
        (path, {"Accept-Language": "es;q=abc, *;q=-1, " + "x" * 2000}, 200, "Card 8"),
        (path + "?lang=xx", {}, 200, "Card 8"),
        (path + "?lang=es&lang=en", {}, 200, "Cartón 8"),
        (path[:-2] + "AA", {}, 404, None),
        (path.replace("/8/", "/999999/"), {}, 404, None),
        (path.replace("/8/", "/0008/"), {}, 200, "Card 8"),  # the same serial, as Flask reads it
        (path + "/extra", {}, 404, None),
    ]
    for target, headers, status, text in asked:
        request = urllib.request.Request(base + target, headers=headers)
        try:
            with urllib.request.urlopen(request) as r:
                got, body = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            got, body = e.code, e.read().decode()
        assert got == status, (target, headers, got, body[:200])
        if text:
            assert f"<h1>{text} <small>" in body, (target, headers)
