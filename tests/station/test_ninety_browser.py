"""Real Chromium against a real server with a 90-ball game (issue 17): the caller page and the
display draw the Tabla as 9 rows of 10, a ball clicked on the caller page lights on both, the
display shows it without a letter and writes the words it speaks, and a línea checked, claimed
and awarded on the caller page moves both screens on to the bingo."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect
from testkit import Caller, scripts_ran

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_path

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("CLAIMS_SCREENSHOTS")
SLOW = 15_000  # ms: the display waits on the event stream, on a busy shared machine


@pytest.fixture
def strips():
    return new_strip_deck(2, seed="browser-90", name="Tiras")


def test_a_ninety_ball_game_lights_the_nine_by_ten_board_on_both_screens(
    page, browser, live_server, app, client, strips
):
    hall = Caller(client, strips)
    gid = hall.new_game(draw="manual")
    screen = browser.new_page(viewport={"width": 1600, "height": 900})
    screen.goto(f"{live_server.url}/display?lang=es")
    expect(screen.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    expect(screen.locator(".tabla-90 .tabla-row")).to_have_count(9)
    for n, r in enumerate(screen.locator(".tabla-90 .tabla-row").all()):
        balls = [
            int(b) for b in r.locator(".ball").evaluate_all("bs => bs.map(b => b.dataset.ball)")
        ]
        assert balls == list(range(10 * n + 1, 10 * n + 11))

    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/games/{gid}")
    page.fill("input[name=pin]", app.config["CALLER_PIN"])
    page.click("button[type=submit]")
    expect(page.locator(".tabla-90 .ball")).to_have_count(90)
    scripts_ran(page)
    page.click('.tabla .ball[data-ball="87"]')
    expect(page.locator("#last-call")).to_have_text("87")
    expect(page.locator('[data-field="left"]').first).to_have_text("89")
    expect(screen.locator("#last-call .number")).to_have_text("87", timeout=SLOW)
    expect(screen.locator("#last-call .letter")).to_have_count(0)
    expect(screen.locator("#spoken")).to_have_text("ochenta y siete")
    expect(screen.locator('.tabla .ball[data-ball="87"]')).to_have_class(
        "ball called last", timeout=SLOW
    )

    ticket = strips.cards[2]
    first_row = [n for n in ticket.grid[0] if n is not None]
    page.fill("#claim-serial", "3")  # too early: the room sees what the ticket lacks
    page.click("#claim-check")
    # the room is told the row nearest to complete (only 87 is called so far)
    missing = [[n for n in row if n is not None and n != 87] for row in ticket.grid]
    nearest = min(range(3), key=lambda r: len(missing[r]))
    lacks = ", ".join(str(n) for n in missing[nearest])
    shown = screen.locator("#claim-show")
    expect(shown.locator(".show-head")).to_have_text(
        f"Cartón 3 · Todavía no: Línea · faltan {lacks} (Fila L{nearest + 1})", timeout=SLOW
    )
    expect(shown.locator("tr")).to_have_count(3)
    expect(shown.locator("td.sq.blank")).to_have_count(12)  # 27 squares, 15 numbers
    for n in first_row:
        page.click(f'.tabla .ball[data-ball="{n}"]')
        expect(page.locator(f'.tabla .ball[data-ball="{n}"]')).to_have_class("ball called last")
    # a barcode scanner types the ticket's whole QR address, printed for another address
    scanned = "HTTP://10.9.9.9:5000" + card_path(strips.secret, strips.deck_id, 3).upper()
    page.fill("#claim-serial", scanned)
    page.click("#claim-check")
    expect(page.locator("#claim-serial")).to_have_value("3")
    expect(page.locator('#claim-result tr[data-row="L1"]')).to_have_class("complete")
    expect(shown.locator(".show-head")).to_have_text("¡Línea! Cartón 3 · Fila L1", timeout=SLOW)
    expect(shown.locator("tr.complete td.sq.wins")).to_have_count(5)
    if SHOTS:  # a folder: save the screenshot there to look at
        screen.screenshot(path=os.path.join(SHOTS, "station-90-claim.png"))
    page.click("#claim-submit")
    expect(page.locator("#claim-list li.valid")).to_have_count(1)
    page.once("dialog", lambda d: d.accept())
    page.click("#award")
    expect(page.locator('#prize-steps li[data-prize="linea"]')).to_have_class("done")
    expect(page.locator('#prize-steps li[data-prize="bingo"]')).to_have_class("now")
    expect(screen.locator('#prize-steps li[data-prize="bingo"]')).to_have_class("now", timeout=SLOW)
    expect(screen.locator("#prize-winners")).to_contain_text("3", timeout=SLOW)
