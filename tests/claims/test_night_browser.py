"""Issue 26 in real Chromium: the caller page says why no ball comes after the award (item 1),
the room is told whose claim failed and the Line claimed menu speaks the verdicts' words (9)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN

from .hall import Hall

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: a second page waits on the event stream, on a busy shared machine


def open_caller(page, url: str, gid: int, lang: str = "en") -> None:
    page.goto(f"{url}/caller/login?lang={lang}&next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url(f"**/caller/games/{gid}")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")


def test_space_after_the_award_draws_nothing_and_says_press_next_round(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game(draw="auto")
    while not hall.get(f"/api/games/{gid}/check/1?quiet=1").get_json()["bingo"]:
        assert hall.post(f"/api/games/{gid}/draw", {}).status_code == 200
    hall.post(f"/api/games/{gid}/claims", {"serial": 1})
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    count = hall.get(f"/api/games/{gid}").get_json()["count"]
    open_caller(page, live_server.url, gid)
    page.keyboard.press("Space")
    expect(page.locator("#message")).to_contain_text("round 1 has been awarded")
    expect(page.locator("#message")).to_contain_text("Next round")
    page.click("#draw")
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator(".tabla .ball.called")).to_have_count(count)
    assert hall.get(f"/api/games/{gid}").get_json()["count"] == count


def test_a_false_claim_on_the_big_screen_names_the_card_and_the_player(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    hall.post(f"/api/games/{gid}/players", {"name": "Ana"})
    row = hall.numbers(7, "R1")
    hall.call(gid, *row[:3])
    page.goto(f"{live_server.url}/display/{gid}?lang=en")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    made = hall.post(f"/api/games/{gid}/claims", {"serial": 7, "player": "Ana", "line": "R1"})
    assert made.status_code == 201 and not made.get_json()["valid"]
    head = page.locator("#claim-show .show-head")
    expect(head).to_contain_text("Ana · Card 7 · No bingo", timeout=SLOW)
    hall.post(f"/api/games/{gid}/check/8")
    expect(head).to_have_text(re.compile(r"^Card 8 · No bingo yet"), timeout=SLOW)
    # the Maestro chose the player before pressing Check: the room hears the name too
    caller = page.context.new_page()
    open_caller(caller, live_server.url, gid)
    caller.select_option("#claim-player", "Ana")
    caller.fill("#claim-serial", "9")
    caller.click("#claim-check")
    expect(head).to_have_text(re.compile(r"^Ana · Card 9 · No bingo yet"), timeout=SLOW)


def test_the_line_claimed_menu_and_the_claims_list_use_the_verdicts_words(
    client, live_server, page
):
    hall = Hall(client)
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(4, "R2")[:2])
    hall.post(f"/api/games/{gid}/claims", {"serial": 4, "line": "B"})
    open_caller(page, live_server.url, gid)
    options = page.locator("#claim-line option").all_inner_texts()
    for words in ("Row 1", "Row 5", "Column B", "Column O", "Diagonal ↘", "Diagonal ↙"):
        assert words in options, options
    assert not {"R1", "B", "D1", "D2"} & set(options), options
    expect(page.locator("#claim-list li.false")).to_contain_text("Column B")
    page.goto(f"{live_server.url}/caller/games/{gid}?lang=es")
    expect(page.locator("#claim-line option", has_text="Columna B")).to_have_count(1)
