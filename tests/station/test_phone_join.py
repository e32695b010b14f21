"""The phone page the big screen's "Phones: join" QR leads to (issue 26, items 11 and 15): made
for a phone (the last ball, the calls, the card-number box, the table games), and a card followed
by typing its printed number, with typed numbers slowed down as the table codes are. A typed
number shows the card's table, never its signed page (issue 38, D): that path is the proof of
holding the card."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import watch_csp

from bingo_hall.signing import card_path
from bingo_hall.station.phone import NUMBER_PER_ADDRESS

GUEST = {"REMOTE_ADDR": "10.20.30.40"}  # a phone on the hall's Wi-Fi, not the laptop


@pytest.fixture
def phone390(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    yield context.new_page()
    context.close()


@pytest.mark.browser
def test_the_join_qr_opens_a_page_made_for_phones(caller, live_server, phone390):
    gid = caller.new_game("normal", "manual")
    caller.call(gid, 3, 18, 44, 71)
    display = caller.client.get(f"/display/{gid}").get_data(as_text=True)
    join = display.split("data-join>", 1)[1].split("<", 1)[0]
    assert join.endswith("/join")
    page = phone390
    blocked = watch_csp(page)
    page.goto(live_server.url + "/join")
    expect(page.locator("#last-call")).to_have_text("O71")
    expect(page.locator(".phone-row.l-B .phone-ball")).to_have_text(["3"])
    expect(page.locator(".phone-row.l-N .phone-ball")).to_have_text(["44"])
    expect(page.locator("#card-number")).to_be_visible()
    expect(page.locator("a[href='/t/']")).to_be_visible()
    caller.call(gid, 50)  # live: the phone follows the calls
    expect(page.locator("#last-call")).to_have_text("G50")
    expect(page.locator(".phone-row.l-G .phone-ball.last")).to_have_text("50")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    big = page.locator("#last-call .number").bounding_box()
    assert big["height"] >= 80  # the last ball reads from arm's length
    assert blocked == []  # its scripts and styles are the station's own


@pytest.mark.browser
def test_a_player_follows_their_card_by_typing_its_number(caller, live_server, phone390):
    gid = caller.new_game("normal", "manual")
    card = caller.deck.card(7)
    first, second = card.number_at(0, 0), card.number_at(1, 1)
    caller.call(gid, first)
    page = phone390
    page.goto(live_server.url + "/join?lang=es")
    page.fill("#card-number", "7")
    page.get_by_role("button", name="Abrir mi cartón").click()
    page.wait_for_url("**/join/card?lang=es&n=7")
    box = page.locator("#followed-card[data-live=yes]")
    expect(box.locator("td.sq.covered")).to_have_text([str(first)])
    # the card's signed page is nowhere on this view: it is no proof of holding the card
    assert card_path(caller.deck.secret, caller.deck.deck_id, 7) not in page.content()
    caller.call(gid, second)  # it follows the calls as they come
    expect(box.locator("td.sq.covered")).to_have_count(2)
    expect(box.locator("td.sq.last")).to_have_text(str(second))
    # read-only: nothing on it changes the game
    assert page.locator("form[method=post]").count() == 0
    page.goto(live_server.url + "/join?lang=es")
    page.fill("#card-number", "99")
    page.get_by_role("button", name="Abrir mi cartón").click()
    expect(page.locator("#card-error")).to_contain_text("No hay ningún cartón 99")


def test_a_typed_number_never_hands_out_the_cards_signed_path(caller, client):
    caller.new_game()
    deck = caller.deck
    page = client.get("/join/card?n=4", environ_base=GUEST)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    signed = card_path(deck.secret, deck.deck_id, 4)
    assert signed not in html and signed.rsplit("/", 1)[1] not in html  # nor its signature
    assert 'data-serial="4"' in html and html.count('class="sq') == 25


def test_typed_card_numbers_are_slowed_down_as_table_codes_are(caller, client):
    caller.new_game()
    free = NUMBER_PER_ADDRESS.free
    for n in range(1, free + 1):
        r = client.get(f"/join/card?n={n}", environ_base=GUEST)
        assert r.status_code in (200, 404), (n, r.status_code)
    held = client.get("/join/card?n=12", environ_base=GUEST)
    assert held.status_code == 429 and int(held.headers["Retry-After"]) >= 1
    assert "Too many card numbers" in held.get_data(as_text=True)
    # a number this phone already opened is never held up, nor is the laptop itself
    assert client.get("/join/card?n=3", environ_base=GUEST).status_code == 200
    assert client.get("/join/card?n=12").status_code == 200
    # another phone is not held up by this one
    other = client.application.test_client()
    assert (
        other.get("/join/card?n=5", environ_base={"REMOTE_ADDR": "10.20.30.41"}).status_code == 200
    )


def test_bad_card_numbers_get_a_readable_4xx(client):
    assert client.get("/join/card?n=", environ_base=GUEST).status_code == 400
    r = client.get("/join/card?n=abc", environ_base=GUEST)
    assert r.status_code == 400 and "digits only" in r.get_data(as_text=True)
    r = client.get("/join/card?n=" + "9" * 50, environ_base=GUEST)
    assert r.status_code == 400
    r = client.get("/join/card?n=1")
    assert r.status_code == 404 and "No game has started yet" in r.get_data(as_text=True)
    from testkit import Caller

    Caller(client).new_game()
    r = client.get("/join/card?n=13")  # the test deck has 12 cards
    assert r.status_code == 404 and "There is no card 13" in r.get_data(as_text=True)


@pytest.mark.browser
def test_a_90_ball_game_on_the_phone_groups_the_calls_by_tens(client, live_server, phone390):
    from testkit import Caller

    from bingo_hall.manifest import new_strip_deck

    hall = Caller(client, new_strip_deck(1, seed="phone-90", name="Tiras"))
    gid = hall.new_game("lines-house", "manual")
    hall.call(gid, 5, 39, 80, 90)
    phone390.goto(live_server.url + "/join")
    expect(phone390.locator("#last-call")).to_have_text("90")  # no letter in a 90-ball call
    rows = phone390.locator(".phone-row")
    expect(rows).to_have_count(9)
    expect(rows.nth(0).locator(".phone-ball")).to_have_text(["5"])
    expect(rows.nth(8).locator(".phone-row-label")).to_have_text("80–90")
    expect(rows.nth(8).locator(".phone-ball")).to_have_text(["80", "90"])
