"""A door and a treasurer's table in real Chromium (issue 39), in pounds: a price list of singles
and books, paper issued to two sellers, singles and books sold side by side (by range and by a
USB scanner), a card scanned inside a sold book refused in words naming its book and when it
was sold, Ana returning a range and voiding a torn card, a payout paid in cash, and the cash
counted by denomination: £2.00 short. Then the one-page summary PDF, rendered by pypdfium2, is
read against the sums worked out by hand below.

The sums, by hand:
  sales:  cards 1-4 at £1.00 each = £4.00; books 31-36 and 43-48 at £5.00 = £10.00; book 7-12
          scanned (card 9) = £5.00; 22 cards, £19.00 taken.
  stock:  Ana 1-30: sold 1-4 and 7-12 (10), returned 25-30 (6), void 24 (1), out 5-6 and 13-23
          (13); the door 31-60: sold 31-36 and 43-48 (12), out 37-42 and 49-60 (18). Issued 60 =
          sold 22 + returned 6 + void 1 + 31 not accounted for.
  cash:   float £20.00 + £19.00 taken - £5.00 bingo paid in cash = £34.00 expected; counted
          1 x £20 + 1 x £10 + 1 x £2 = £32.00: £2.00 short.
"""

from __future__ import annotations

import os
from datetime import datetime

import pypdfium2 as pdfium
import pytest
from playwright.sync_api import expect
from testkit import Caller

from bingo_hall.manifest import new_deck
from bingo_hall.signing import card_url

from .test_ledger_api import win_75_ball_round
from .test_ledger_room_browser import log_in

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("LEDGER_SCREENSHOTS")  # a folder: save screenshots there to look at


def shoot(locator, name: str) -> None:
    if SHOTS:
        locator.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def recorded(page, serials: str) -> None:
    """The page has reloaded after a stock entry and says which cards it recorded."""
    expect(page.locator("#ledger-message.notice")).to_have_text(f"Recorded: cards {serials}.")


def test_a_door_sells_singles_and_books_counts_its_paper_and_its_cash(client, live_server, browser):
    deck = new_deck(60, seed="door-night", name="Charity night")
    hall = Caller(client, deck)
    assert hall.post("/api/ledger/currency", {"currency": "GBP"}).status_code == 200
    gid = hall.new_game(draw="manual")
    bingo = {"bingo": {"kind": "fixed", "amount": "5"}}
    assert hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": bingo}).status_code == 200
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    log_in(page, live_server.url, client.application.config["CALLER_PIN"])
    page.goto(f"{live_server.url}/caller/ledger?game={gid}&lang=en")

    # the treasurer: the float, then the price list (one with no price is refused first)
    page.fill("#float-amount", "20")
    page.click("#float-form button")
    expect(page.locator(".cash-entries li")).to_have_text(["Float: £20.00"])
    page.fill("#price-label", "Single")
    page.click("#price-form button[type=submit]")
    expect(page.locator("#ledger-message.error")).to_have_text(
        "each price needs its amount, such as 1,00"
    )
    rows = page.locator("#price-form .price-row")
    for i, (label, amount, book) in enumerate((("Single", "1", "1"), ("Book of 6", "5", "6"))):
        rows.nth(i).locator('[name="label"]').fill(label)
        rows.nth(i).locator('[name="amount"]').fill(amount)
        rows.nth(i).locator('[name="book"]').fill(book)
    page.click("#price-form button[type=submit]")
    expect(page.locator("#sale-price label")).to_have_text(
        ["Single: £1.00", "Book of 6: £5.00 (6 cards)"]
    )

    # paper to two sellers
    for serials, seller in (("1-30", "Ana"), ("31-60", "the door")):
        page.fill("#issue-serials", serials)
        page.fill("#issue-seller", seller)
        page.click("#stock-issue button")
        recorded(page, serials)
    page.fill("#issue-serials", "28-33")
    page.fill("#issue-seller", "Luis")
    page.click("#stock-issue button")
    expect(page.locator("#ledger-message.error")).to_have_text("card 28 is already issued to Ana")

    # the door: singles, then books, side by side
    page.check('#sale-price input[type="radio"] >> nth=0')
    page.fill("#sale-serials", "1-4")
    page.click("#sell-range button[type=submit]")
    expect(page.locator("#round-cards")).to_have_text("4")
    page.check('#sale-price input[type="radio"] >> nth=1')
    page.fill("#sale-serials", "31-36, 43-48")
    page.click("#sell-range button[type=submit]")
    expect(page.locator("#round-cards")).to_have_text("16")
    # the price chosen stays chosen for the next sale
    expect(page.locator('#sale-price input[type="radio"] >> nth=1')).to_be_checked()
    page.fill("#scan-text", card_url("http://10.0.0.9:5000", deck.secret, deck.deck_id, 9))
    page.press("#scan-text", "Enter")  # a USB scanner types the code and Enter
    expect(page.locator("#round-cards")).to_have_text("22")
    expect(page.locator("#round-taken")).to_have_text("£19.00")
    # a card scanned inside a sold book: which book, and when it was sold
    sold_at = next(
        s["at"]
        for s in hall.get(f"/api/games/{gid}/ledger").get_json()["sales"]
        if s["serials"] == "31-36, 43-48"
    )
    clock = datetime.fromisoformat(sold_at.replace("Z", "+00:00")).astimezone().strftime("%H:%M")
    page.check('#sale-price input[type="radio"] >> nth=0')
    page.fill("#scan-text", card_url("http://10.0.0.9:5000", deck.secret, deck.deck_id, 45))
    page.press("#scan-text", "Enter")
    expect(page.locator("#ledger-message.error")).to_have_text(
        f"card 45 is in book 8 (43-48), sold at {clock}"
    )
    expect(page.locator("#sales tbody tr td:nth-child(6)")).to_have_text(
        ["Book of 6", "Book of 6", "Single"]
    )
    shoot(page.locator("#sell-range").locator("xpath=ancestor::section"), "ledger-door-laptop")
    if SHOTS:  # the door on a phone
        page.set_viewport_size({"width": 390, "height": 844})
        shoot(page.locator("#sell-range").locator("xpath=ancestor::section"), "ledger-door-phone")
        shoot(page.locator("#cash"), "ledger-cash-phone")
        page.set_viewport_size({"width": 1366, "height": 900})

    # Ana returns a range and voids a torn card; a card returned is not sold
    page.fill("#return-serials", "25-30")
    page.click("#stock-return button")
    recorded(page, "25-30")
    page.fill("#void-serials", "24")
    page.fill("#void-reason", "torn")
    page.click("#stock-void button")
    recorded(page, "24")
    page.check('#sale-price input[type="radio"] >> nth=0')
    page.fill("#sale-serials", "26")
    page.click("#sell-range button[type=submit]")
    expect(page.locator("#ledger-message.error")).to_have_text(
        "card 26 came back unsold from Ana: it cannot be sold"
    )
    expect(page.locator("#stock-sums")).to_have_text(
        "Issued 60 = sold 22 + returned 6 + void 1 · 31 not accounted for"
    )
    expect(page.locator("#stock-gaps li")).to_have_text(
        [
            "Cards 5-6, 13-23 issued to Ana, neither sold nor returned",
            "Cards 37-42, 49-60 issued to the door, neither sold nor returned",
        ]
    )
    shoot(page.locator("#stock"), "ledger-stock-laptop")

    # the bingo, won on card 3 and paid in cash at the table
    win_75_ball_round(hall, deck, gid, 3)
    page.reload()
    page.locator("#payouts button.pay").first.click()
    expect(page.locator("#payouts .paid")).to_have_count(1)

    # the count, by denomination: £32.00
    box = page.locator("#count-form")
    box.locator('input[data-value="2000"]').fill("1")
    box.locator('input[data-value="1000"]').fill("1")
    box.locator('input[data-value="200"]').fill("1")
    page.click("#count-form button[type=submit]")
    expect(page.locator("#over-short")).to_have_text("£2.00")
    expect(page.locator("#cash-sums .over-short td").first).to_have_text("Short")
    expect(page.locator("#cash-sums")).to_contain_text("£34.00")
    shoot(page.locator("#cash"), "ledger-cash-laptop")

    pdf_resp = page.request.get(f"{live_server.url}/caller/ledger/summary.pdf?lang=en")
    assert pdf_resp.ok
    pdf = pdfium.PdfDocument(pdf_resp.body())
    assert len(pdf) == 1
    if SHOTS:
        pdf[0].render(scale=2).to_pil().save(os.path.join(SHOTS, "ledger-door-summary-pdf.png"))
    text = pdf[0].get_textpage().get_text_range().replace("\r\n", "\n").replace("\xa0", " ")
    for expected in (
        "Cards sold: 22 · Money taken: £19.00",
        "Paper stock: issued 60 = sold 22 + returned 6 + void 1 + 31 not accounted for",
        "cards 5-6, 13-23 issued to Ana, neither sold nor returned",
        "cards 37-42, 49-60 issued to the door, neither sold nor returned",
        "Float: £20.00",
        "Payouts paid in cash: £5.00",
        "Expected in the box (float + takings - cash payouts): £34.00",
        "Counted at the end: £32.00",
        "1 × £20.00 · 1 × £10.00 · 1 × £2.00",
        "Short: £2.00",
    ):
        assert expected in text, (expected, text)
