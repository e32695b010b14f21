"""What the room is told, in real Chromium (issue 33): on /display, a jackpot paid on top of the
bingo prize and one paid instead of it, in the room's words, then the amount actually awarded;
and a Tambola check of the prize the Maestro chose under "Prize claimed".

The sums, by hand: 13 cards at £5.00 = £65.00; bingo 50 % = £32.50. On top, a £20.00 jackpot
within 40 calls adds £20.00; instead, a £50.00 jackpot is more than £32.50, so it is paid.
"""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect
from tambolakit import numbers, row
from testkit import Caller

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.seventyfive.cards import LINE_CELLS

pytestmark = pytest.mark.browser
SLOW = 15_000
SHOTS = os.environ.get("LEDGER_SCREENSHOTS")  # a folder: save screenshots there to look at


def shoot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def log_in(page, url: str, pin: str) -> None:
    page.goto(f"{url}/caller/login?lang=en")
    page.fill("input[name=pin]", pin)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/caller/(?!login)"))


def test_the_display_says_a_jackpot_on_top_one_instead_and_what_was_awarded(
    client, live_server, browser
):
    deck = new_deck(20, seed="room-jackpot", name="Club")
    hall = Caller(client, deck)
    assert hall.post("/api/ledger/currency", {"currency": "GBP"}).status_code == 200
    gid = hall.new_game(draw="manual")
    assert hall.post(f"/api/games/{gid}/ledger/price", {"amount": "5"}).status_code == 200
    assert hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-13"}).status_code == 201
    on_top = {"kind": "jackpot", "within": 40, "jackpot": "20", "percent": 50, "mode": "on-top"}
    assert (
        hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": {"bingo": on_top}}).status_code
        == 200
    )

    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/display/{gid}?lang=en")
    big = screen.locator("#ledger-prizes.big")
    expect(big).to_have_text(
        "Bingo £32.50 · Jackpot £20.00 more: Bingo in 40 calls or fewer", use_inner_text=True
    )
    expect(screen.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    shoot(screen, "ledger-jackpot-on-top-screen")

    # the host changes it: a £50.00 jackpot, paid instead of the prize (the screen follows live)
    instead = {**on_top, "jackpot": "50", "mode": "instead"}
    assert (
        hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": {"bingo": instead}}).status_code
        == 200
    )
    expect(big).to_have_text(
        "Bingo £32.50 · Jackpot £50.00 instead: Bingo in 40 calls or fewer",
        timeout=SLOW,
        use_inner_text=True,
    )
    shoot(screen, "ledger-jackpot-instead-screen")

    # won in 5 calls: the jackpot, and the screen says what was awarded
    card = deck.card(3)
    hall.call(gid, *[n for r, c in LINE_CELLS["B"] if (n := card.columns[c][r]) is not None])
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 3}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    expect(big).to_have_text("Bingo £50.00 awarded (the jackpot)", timeout=SLOW)
    shoot(screen, "ledger-jackpot-awarded-screen")


def test_a_tambola_check_shows_the_room_the_prize_the_maestro_chose(
    page, client, live_server, browser, app
):
    strips = new_strip_deck(2, seed="room-tambola", name="Tambola night")
    hall = Caller(client, strips)
    gid = hall.new_game(mode="tambola", draw="manual")
    top = row(strips, 1, 0)
    hall.call(gid, *top)  # ticket 1 holds Early Five and Top Line
    assert len(numbers(strips, 1)) == 15

    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/display/{gid}?lang=en")
    expect(screen.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    log_in(page, live_server.url, app.config["CALLER_PIN"])
    page.goto(f"{live_server.url}/caller/games/{gid}?lang=en")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    page.select_option("#claim-prize", "full-house")
    page.fill("#claim-serial", "1")
    page.click("#claim-check")
    shown = screen.locator("#claim-show")
    expect(shown).to_be_visible(timeout=SLOW)
    expect(shown).to_contain_text("No Full House yet", timeout=SLOW)
    # the Full House lacks both lower rows: the screen says how many numbers are still needed
    # (ten: too many to name one by one)
    lower = [n for r in (1, 2) for n in row(strips, 1, r)]
    expect(shown).to_contain_text(f"{len(lower)} more needed")
    expect(shown).not_to_contain_text("Middle Line")
    expect(page.locator("#claim-result")).to_contain_text("Full House")
    shoot(screen, "tambola-check-chosen-prize-screen")


def test_the_ledger_page_refuses_a_sale_that_is_not_whole_books_naming_the_book(
    page, client, live_server, app
):
    hall = Caller(client, new_deck(30, seed="room-books", name="Club"))
    gid = hall.new_game(draw="manual")
    price = {"amount": "6", "book": 6}
    assert hall.post(f"/api/games/{gid}/ledger/price", price).status_code == 200
    log_in(page, live_server.url, app.config["CALLER_PIN"])
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_server.url}/caller/ledger?game={gid}&lang=en")
    page.fill("#sale-serials", "2-7")
    page.click("#sell-range button[type=submit]")
    expect(page.locator("#ledger-message.error")).to_have_text(
        "cards are sold in whole books of 6: book 1 is cards 1-6, and this sale has only part of it"
    )
    expect(page.locator("#sales tbody tr")).to_have_text(["No sales yet."])
    shoot(page, "ledger-whole-books-laptop")
