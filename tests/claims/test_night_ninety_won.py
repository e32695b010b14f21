"""Issue 26, item 8: a 90-ball ticket that won a prize is told so on its page ("You won the
Line", as a 75-ball card is told "You won round 1"), and the Maestro's panel follows each award
(the shown ticket is judged for the next prize; after the last one there is nothing to award)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN, Caller, marked_card

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_path

SLOW = 15_000


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(2, seed="night 90 won", name="Tiras")


def numbers(strips, serial: int, row: int | None = None) -> list[int]:
    grid = strips.cards[serial - 1].grid
    rows = grid if row is None else [grid[row]]
    return [n for r in rows for n in r if n is not None]


def _line_won_by_ticket_1(hall: Caller, strips) -> int:
    gid = hall.new_game(draw="manual")
    hall.call(gid, *numbers(strips, 1, 0))
    hall.post(f"/api/games/{gid}/claims", {"serial": 1, "player": "Eva"})
    assert hall.post(f"/api/games/{gid}/award", {"prize": "linea"}).status_code == 200
    return gid


@pytest.mark.browser
def test_the_winning_tickets_page_says_you_won_the_line(client, live_server, phone, strips):
    hall = Caller(client, strips)
    _line_won_by_ticket_1(hall, strips)
    url = live_server.url + card_path(strips.secret, strips.deck_id, 1)
    page = marked_card(phone, url + "?lang=en")
    assert "You won the Line" in page
    assert "Playing for <b" in page and ">Bingo</b>" in page  # the Bingo is played next
    other = marked_card(phone, live_server.url + card_path(strips.secret, strips.deck_id, 2))
    assert 'class="won"' not in other
    es = marked_card(phone, url + "?lang=es")
    assert "Ganó el premio: Línea" in es


@pytest.mark.browser
def test_after_the_last_prize_the_ticket_is_not_played_for_anything(
    client, live_server, phone, strips
):
    hall = Caller(client, strips)
    gid = _line_won_by_ticket_1(hall, strips)
    hall.call(gid, *[n for n in numbers(strips, 1) if n not in numbers(strips, 1, 0)])
    hall.post(f"/api/games/{gid}/claims", {"serial": 1})
    assert hall.post(f"/api/games/{gid}/award", {"prize": "bingo"}).status_code == 200
    v = hall.get(f"/api/games/{gid}/check/1?quiet=1").get_json()
    assert v["playing"] is None
    assert [w["prize"] for w in v["won"]] == ["linea", "bingo"]
    url = live_server.url + card_path(strips.secret, strips.deck_id, 1) + "?lang=en"
    page = marked_card(phone, url)
    assert "You won the Bingo" in page and "every prize awarded" in page


@pytest.mark.browser
def test_the_phone_and_the_caller_panel_follow_the_award(client, live_server, page, phone, strips):
    hall = Caller(client, strips)
    gid = hall.new_game(draw="manual")
    phone.goto(live_server.url + card_path(strips.secret, strips.deck_id, 1) + "?lang=en")
    expect(phone.locator(".verdict-head")).to_contain_text("No Line yet")
    hall.call(gid, *numbers(strips, 1, 0))
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    page.fill("#claim-serial", "1")
    page.click("#claim-submit")
    expect(page.locator("#claim-result [data-playing]")).to_have_text("Line")
    page.once("dialog", lambda d: d.accept())
    page.click("#award")
    expect(page.locator("#claim-result [data-playing]")).to_have_text("Bingo")
    expect(page.locator("#claim-result .won")).to_have_text("You won the Line")
    expect(phone.locator(".won")).to_have_text("You won the Line", timeout=SLOW)
    hall.call(gid, *[n for n in numbers(strips, 1) if n not in numbers(strips, 1, 0)])
    hall.post(f"/api/games/{gid}/claims", {"serial": 1})
    hall.post(f"/api/games/{gid}/award", {"prize": "bingo"})
    expect(page.locator("#award")).to_have_text("Every prize of this round is awarded")
    expect(page.locator("#award")).to_be_disabled()
    expect(page.locator('#claim-result [data-playing="none"]')).to_be_visible()
    expect(phone.locator(".won")).to_have_count(2, timeout=SLOW)
    # no ball after the last prize: the caller form says why (item 1)
    late = next(n for n in range(1, 91) if n not in numbers(strips, 1))
    page.fill("#manual-ball", str(late))
    page.press("#manual-ball", "Enter")
    expect(page.locator("#message")).to_contain_text("every prize of round 1 has been awarded")
    expect(page.locator(f'.tabla .ball[data-ball="{late}"]')).not_to_have_class(
        re.compile(r"\bcalled\b")
    )
