"""Real Chromium against a real server playing Tambola to Full House (issue 28): every prize open
at once on the caller page, /display and a ticket's phone page; Early Five and Top Line won on
the SAME call by DIFFERENT tickets, each claimed naming its prize and awarded on its own; the
verdict on /display naming the prize; a late claim of a closed prize told when it was won; and
the round finished once the Full House is awarded. The calls are built from the deck's tickets
(tambolakit); the Maestro enters them by hand, as with balls from a cage."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect
from tambolakit import numbers, same_call_plan
from testkit import Caller

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_path

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("CLAIMS_SCREENSHOTS")
SLOW = 15_000  # ms: the screens wait on the event stream, on a busy shared machine


@pytest.fixture
def strips():
    return new_strip_deck(2, seed="tambola-browser", name="Tambola")


def claim_on_page(page, serial: int, prize: str) -> None:
    page.select_option("#claim-prize", prize)
    page.fill("#claim-serial", str(serial))
    page.click("#claim-submit")


def award_on_page(page, prize: str) -> None:
    page.select_option("#claim-prize", prize)
    expect(page.locator("#award")).to_be_enabled()
    page.once("dialog", lambda d: d.accept())
    page.click("#award")
    expect(page.locator(f'#prize-steps li[data-prize="{prize}"]')).to_have_class(
        "done", timeout=SLOW
    )


def test_a_tambola_game_to_full_house_with_two_prizes_won_on_one_call_by_two_tickets(
    page, browser, live_server, app, client, strips
):
    a, b, calls = same_call_plan(strips)
    hall = Caller(client, strips)
    gid = hall.new_game(mode="tambola", draw="manual")
    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/display?lang=es")
    expect(screen.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    expect(screen.locator("#prize-steps li.now")).to_have_count(6)  # every prize open at once
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(live_server.url + card_path(strips.secret, strips.deck_id, b) + "?lang=en")
    expect(phone.locator("#ticket-prizes li")).to_have_count(6)

    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/games/{gid}")
    page.fill("input[name=pin]", app.config["CALLER_PIN"])
    page.click("button[type=submit]")
    expect(page.locator("#claim-prize option")).to_have_count(6)
    hall.call(gid, *calls[:-1])  # the cage's balls, typed by the Maestro
    # the page has followed them (its stream) before the Maestro presses the next ball: a press
    # on a page that has not caught up is refused as stale (expect_seq, 409), by design
    expect(page.locator("#last-call")).to_have_text(str(calls[-2]), timeout=SLOW)
    page.click(f'.tabla .ball[data-ball="{calls[-1]}"]')  # the call that wins twice
    expect(page.locator("#last-call")).to_have_text(str(calls[-1]), timeout=SLOW)

    claim_on_page(page, a, "early-five")
    expect(page.locator("#claim-list li.valid")).to_have_count(1)
    claim_on_page(page, b, "top-line")
    expect(page.locator("#claim-list li.valid")).to_have_count(2)
    # the room sees the claimed ticket and the prize it is for, in the display's language
    shown = screen.locator("#claim-show .show-head")
    expect(shown).to_contain_text("Línea de arriba", timeout=SLOW)
    expect(shown).to_contain_text(f"Cartón {b}", timeout=SLOW)

    award_on_page(page, "early-five")
    award_on_page(page, "top-line")
    n = len(calls)
    five = page.locator('#prize-steps li[data-prize="early-five"] .prize-who')
    expect(five).to_have_text(f"won by ticket {a} on call {n}")
    line = page.locator('#prize-steps li[data-prize="top-line"] .prize-who')
    expect(line).to_have_text(f"won by ticket {b} on call {n}")
    on_screen = screen.locator('#prize-steps li[data-prize="top-line"]')
    expect(on_screen).to_have_class("done", timeout=SLOW)
    expect(on_screen.locator(".prize-who")).to_contain_text(f"{b}", timeout=SLOW)
    expect(screen.locator("#prize-steps li.now")).to_have_count(4, timeout=SLOW)
    won = phone.locator('#ticket-prizes li[data-prize="top-line"] .prize-who')
    expect(won).to_have_text(f"won by ticket {b} on call {n}", timeout=SLOW)
    expect(phone.locator('#ticket-prizes li[data-prize="middle-line"]')).to_have_class(
        "now", timeout=SLOW
    )

    # a late Early Five is told it was already won, and on which call
    claim_on_page(page, b, "early-five")
    expect(page.locator("#claim-message")).to_have_text(f"Early Five was already won on call {n}")

    # on to the Full House: the rest of B's numbers; B claims and is awarded every other prize
    rest = [x for x in numbers(strips, b) if x not in calls]
    hall.call(gid, *rest)
    for made, prize in enumerate(("middle-line", "bottom-line", "four-corners", "full-house")):
        claim_on_page(page, b, prize)
        expect(page.locator("#claim-list li.valid")).to_have_count(3 + made)
        award_on_page(page, prize)
    expect(page.locator("#prize-done")).to_be_visible()
    expect(page.locator("#award")).to_be_disabled()
    expect(screen.locator("#prize-steps li.done")).to_have_count(6, timeout=SLOW)
    expect(screen.locator("#prize-winners")).to_contain_text("Cartón lleno", timeout=SLOW)
    snap = hall.get(f"/api/games/{gid}").get_json()["prizes"]
    assert snap["finished"] is True and snap["open"] == []
    if SHOTS:  # a folder: save the screenshots there to look at
        page.screenshot(path=os.path.join(SHOTS, "tambola-caller.png"), full_page=True)
        screen.screenshot(path=os.path.join(SHOTS, "tambola-display.png"))
        phone.screenshot(path=os.path.join(SHOTS, "tambola-phone.png"), full_page=True)
