"""Real Chromium: a pattern of the book played at the station. The Maestro picks it on the caller
page, a phone following its card learns its forms and says BINGO on any one of them, and the
hall screen names the form a claim won."""

import os
import re

import pytest
from playwright.sync_api import expect
from testkit import caller_game_page, eventually

from bingo_hall.signing import card_path

from .hall import Hall

WON = re.compile(r"^(?=.*\bcovered\b)(?=.*\bwins\b)(?=.*\bneed\b)")
SHOTS = os.environ.get("BINGO_HALL_PATTERN_SHOTS")  # a folder: save what the tests saw


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


@pytest.mark.browser
def test_the_maestro_picks_a_pattern_of_the_book_on_the_caller_page(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    page.set_viewport_size({"width": 1280, "height": 900})
    caller_game_page(page, live_server.url, gid)
    page.locator("#rules-box summary").click()
    page.select_option("#rule-pattern", "crazy_kite")
    expect(page.locator("#rule-pattern option:checked")).to_have_text("Crazy kite")
    page.locator("#rules-form button[type=submit]").click()
    expect(page.locator("#rules-form")).to_be_visible()
    shot(page, "caller-pattern-book")

    def saved():
        """the station plays the game for the crazy kite"""
        verdict = hall.get(f"/api/games/{gid}/check/1").get_json()
        return (verdict["pattern"] or {}).get("name") == "crazy_kite"

    eventually(saved)
    expect(page.locator("#rule-pattern")).to_have_value("crazy_kite")


@pytest.mark.browser
def test_a_phone_learns_the_forms_of_a_postage_stamp_and_says_bingo_on_any_corner(
    client, live_server, phone
):
    hall = Hall(client)
    gid = hall.new_game()
    phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 5))
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    assert hall.post(f"/api/games/{gid}/settings", {"pattern": "postage_stamp"}).status_code == 200
    card = hall.deck.card(5)
    top_left = [card.columns[c][r] for r, c in [(0, 0), (0, 1), (1, 0)]]
    bottom_right = [card.columns[c][r] for r, c in [(3, 3), (3, 4), (4, 3), (4, 4)]]
    hall.call(gid, *top_left, *bottom_right[:3])
    expect(phone.locator(".vfacts").first).to_contain_text("6 calls")
    expect(phone.locator(".verdict-head")).not_to_have_text("BINGO!")
    hall.call(gid, bottom_right[3])
    expect(phone.locator(".verdict-head")).to_contain_text("BINGO!")
    expect(phone.locator("td.sq.wins")).to_have_count(4)
    for n in bottom_right:
        expect(phone.locator(f'td.sq[data-number="{n}"]')).to_have_class(WON)
    shot(phone, "phone-postage-stamp")


@pytest.mark.browser
def test_the_hall_screen_names_the_two_lines_of_a_double_bingo(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    assert hall.post(f"/api/games/{gid}/settings", {"pattern": "double_bingo"}).status_code == 200
    r1 = hall.numbers(4, "R1")
    hall.call(gid, *r1, *[n for n in hall.numbers(4, "B") if n != r1[0]])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/display/{gid}?lang=es")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    assert hall.post(f"/api/games/{gid}/check/4").status_code == 200
    shown = page.locator("#claim-show")
    expect(shown.locator(".show-head")).to_contain_text("Dos hileras")
    expect(shown.locator(".show-line").first).to_contain_text("Dos hileras (Fila 1 + Columna B)")
    expect(shown.locator("td.sq.wins")).to_have_count(9)
    # the pattern being played is drawn as one small card (its first form), not 66 of them
    expect(page.locator(".pattern-now .mini-card span")).to_have_count(25)
    shot(page, "display-double-bingo")
