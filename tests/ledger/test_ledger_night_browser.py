"""A club's 90-ball night at the door in real Chromium, in pounds: two books of 6 sold once for
the whole night (games 1-4 of the program) from the door form, shared £1.50 a game; a card of
them refused for this game in words naming the night sale; two games won; the night's payouts
in one list on the second game's page, the first game's marked paid from there; the night
sale's void refused once game 1 paid its 50 %.

The sums, by hand: 2 books x £3.00 = £6.00 for 4 games, £1.50 each. Game 1 pays 50 % of its
£1.50 = 75p; game 2 a fixed £10.00."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect
from test_axe_browser import _serious
from testkit import Caller

from bingo_hall.manifest import new_strip_deck

from .test_ledger_night_sales import PROGRAM, house, next_game
from .test_ledger_room_browser import log_in

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("LEDGER_SCREENSHOTS")  # a folder: save screenshots there to look at


@pytest.fixture
def hall(client):
    strips = new_strip_deck(3, seed="club-night-browser", name="Club strips")
    h = Caller(client, strips)
    assert h.post("/api/program", {"text": PROGRAM, "source": "club.toml"}).status_code == 200
    return h


def test_a_book_sold_for_the_night_at_the_door_and_the_nights_payouts_in_one_list(
    hall, client, live_server, browser
):
    g1 = next_game(hall)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    log_in(page, live_server.url, client.application.config["CALLER_PIN"])
    page.goto(f"{live_server.url}/caller/ledger?game={g1}&lang=en")

    page.get_by_label("Book of 6: £3.00").check()
    page.fill("#sale-serials", "1-12")
    options = page.locator("#sale-round option")
    expect(options).to_have_text(
        [
            "this round (1)",
            "the next round (2)",
            "the whole game (every round)",
            "this game and the next 1 (games 1-2)",
            "this game and the next 2 (games 1-3)",
            "the whole night: games 1-4 of the program",
        ]
    )
    page.select_option("#sale-round", "games:1-4")
    page.click("#sell-range button[type=submit]")
    expect(page.locator("#ledger-message.notice")).to_have_text("Sold: 1-12.")
    night = page.locator("#night-sales tbody tr")
    expect(night).to_have_count(1)
    expect(night.locator("td").nth(1)).to_have_text("1-4")
    expect(night.locator("td").nth(3)).to_have_text("£6.00 Book of 6")
    expect(night.locator("td").nth(4)).to_have_text(
        "game 1: £1.50 · game 2: £1.50 · game 3: £1.50 · game 4: £1.50"
    )
    expect(page.locator("#sales tr.night-share td").nth(3)).to_have_text("£1.50 of £6.00")
    expect(page.locator("#round-taken")).to_have_text("£1.50")

    # the same card for this game is refused, naming the night sale
    page.get_by_label("Single: £0.50").check()
    page.fill("#sale-serials", "9")
    page.select_option("#sale-round", "")
    page.click("#sell-range button[type=submit]")
    expect(page.locator("#ledger-message.error")).to_contain_text(
        "card 9 is sold for games 1-4 of the program in night sale 1 (cards 1-12, at "
    )

    house(hall, hall.deck, g1, 3)
    g2 = next_game(hall)
    house(hall, hall.deck, g2, 7)
    page.goto(f"{live_server.url}/caller/ledger?game={g2}&lang=en")
    rows = page.locator("#payouts tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td").nth(0)).to_have_text("1. Early doors")
    expect(rows.nth(0).locator("td").nth(5)).to_have_text("£0.75")
    expect(rows.nth(1).locator("td").nth(0)).to_have_text("2. Snowball")
    expect(rows.nth(1).locator("td").nth(5)).to_have_text("£10.00")
    expect(page.locator("#payouts .not-paid")).to_have_count(2)
    rows.nth(0).locator("button.pay").click()  # game 1's payout, from game 2's page
    expect(page.locator("#payouts tbody tr").nth(0).locator(".paid")).to_have_text("paid")
    expect(page.locator("#payouts .not-paid")).to_have_count(1)

    # game 1 paid 50 % of its takings: the night sale stays
    form = page.locator("#night-sales .night-void-form")
    form.locator("input").fill("wrong books")
    form.locator("button").click()
    expect(page.locator("#ledger-message.error")).to_have_text(
        "night sale 1 cannot be voided: game 1 of the program already paid a prize in round 1 "
        "as a share of the money it took, this sale's share included"
    )
    # the page with its night sales and the night's payouts passes axe-core
    assert [(v["id"], len(v["nodes"])) for v in _serious(page)] == []
    if SHOTS:
        page.locator("#night-sales").scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, "ledger-night-sale-laptop.png"))
        page.locator("#payouts").scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, "ledger-night-payouts-laptop.png"))
        page.screenshot(path=os.path.join(SHOTS, "ledger-night-full.png"), full_page=True)
