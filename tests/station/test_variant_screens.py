"""The display draws each variant's call from what the call says, not from the number of balls:
a 75-ball call ("N 31") shows its letter in the letter's colour; a 90-ball call is the number
alone (tests/station/test_ninety_browser.py checks that one)."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: the display waits on the event stream, on a busy shared machine


def test_a_seventy_five_ball_call_shows_its_letter_on_the_display(browser, live_server, caller):
    gid = caller.new_game(draw="manual")
    screen = browser.new_page()
    screen.goto(f"{live_server.url}/display/{gid}?lang=en")
    expect(screen.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    caller.call(gid, 31)
    expect(screen.locator("#last-call .number")).to_have_text("31", timeout=SLOW)
    expect(screen.locator("#last-call .letter")).to_have_text("N")
    expect(screen.locator("#last-call .letter")).to_have_class("letter l-N")
    screen.close()
