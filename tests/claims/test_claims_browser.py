"""Real Chromium: a phone opens a card's QR URL and sees the marks and the verdict, live; the
Maestro types a serial, records the BINGO and awards the round from the caller page."""

import os

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN, scripts_ran

from bingo_hall.signing import card_path

from .hall import Hall

SHOTS = os.environ.get("CLAIMS_SCREENSHOTS")  # a folder: save screenshots there to look at


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


@pytest.mark.browser
def test_phone_sees_the_card_marked_and_the_verdict_follow_the_calls(client, live_server, phone):
    hall = Hall(client)
    gid = hall.new_game("points")
    r1 = hall.numbers(8, "R1")
    hall.call(gid, *r1[:4])
    phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 8))
    expect(phone.locator("h1")).to_contain_text("Card 8")
    expect(phone.locator(".vcard td.sq.covered")).to_have_count(4)
    # One number short of row 1: the page names it.
    expect(phone.locator(".verdict-head")).to_have_text(f"No bingo yet · Row 1 lacks {r1[4]}")
    hall.call(gid, r1[4])  # the page follows the game by itself
    expect(phone.locator(".vcard td.sq.covered")).to_have_count(5)
    expect(phone.locator(".verdict-head")).to_contain_text(f"{sum(r1)} points")
    expect(phone.locator(".vcard td.sq.last")).to_have_text(str(r1[4]))
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, "the card must fit a phone without sideways scrolling"
    _shot(phone, "phone-card.png")


@pytest.mark.browser
def test_maestro_checks_a_typed_serial_records_the_bingo_and_awards(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game("points")
    for name in ("Maestra", "Ana", "Beto"):
        hall.post(f"/api/games/{gid}/players", {"name": name})
    col = hall.numbers(2, "G")
    hall.call(gid, *col)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{live_server.url}/caller/login?next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url(f"**/caller/games/{gid}")
    scripts_ran(page)
    page.fill("#claim-serial", "2")
    page.click("#claim-check")
    expect(page.locator("#claim-result .verdict-head")).to_contain_text(f"{sum(col)} points")
    page.select_option("#claim-player", "Ana")
    page.click("#claim-submit")
    expect(page.locator("#claim-list li.valid")).to_have_count(1)
    _shot(page, "caller-claims.png")
    page.once("dialog", lambda d: d.accept())
    page.click("#award")
    board = page.locator("#claims [data-scoreboard]")
    expect(board).to_contain_text("Ana")
    expect(board.locator("td.pts").first).to_have_text(str(sum(col)))
    expect(board).to_contain_text("Calls next: Beto")
    display = page.context.new_page()
    display.set_viewport_size({"width": 1280, "height": 800})
    display.goto(f"{live_server.url}/display/{gid}")
    expect(display.locator("[data-scoreboard]")).to_contain_text("Maestro now: Ana")
    # The next award is announced on the hall screen as it happens.
    hall.post(f"/api/games/{gid}/rounds")  # the Maestro's explicit Next round
    hall.call(gid, *hall.numbers(3, "R4"))
    hall.post(f"/api/games/{gid}/claims", {"serial": 3, "player": "Beto"})
    hall.post(f"/api/games/{gid}/award")
    expect(display.locator(".announce")).to_contain_text("BINGO! Beto")  # an English hall: no "¡"
    _shot(display, "display-scores.png")


@pytest.mark.browser
def test_the_hall_screen_shows_the_pattern_being_played(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    hall.post(f"/api/games/{gid}/settings", {"pattern": "four_corners"})
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/display/{gid}")
    expect(page.locator(".pattern-now")).to_contain_text("Four corners")
    expect(page.locator(".mini-card span.on")).to_have_count(4)
    hall.post(f"/api/games/{gid}/settings", {"pattern": "x"})  # live, before the first call
    expect(page.locator(".mini-card span.on")).to_have_count(9)
    _shot(page, "display-pattern.png")
