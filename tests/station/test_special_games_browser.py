"""Real Chromium: a wild-number game started on the caller page's New game form and played
there; the first ball's digit is named on the caller page and /display, the wild numbers are
marked on /display's Tabla Confrontadora and covered on a phone's card (docs/patterns.md, "Wild
number")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_axe_browser import _serious
from testkit import TEST_PIN, Caller

from bingo_hall.manifest import new_deck
from bingo_hall.signing import card_path


def has(*classes: str) -> re.Pattern[str]:
    """A class attribute holding every one of `classes`, in any order."""
    return re.compile("".join(rf"(?=.*\b{c}\b)" for c in classes))


@pytest.mark.browser
def test_a_wild_number_game_marks_the_wild_numbers_on_the_display_and_the_phone(
    client, live_server, page, phone, tmp_path
):
    deck = new_deck(20, seed="wild browser", name="Comodín")
    Caller(client, deck)
    # a card with a number ending in 3 (other than 43, the first ball) and 13 off it, so that
    # calling 13 later is a wild number drawn as usual
    serial, wild_on_card = next(
        (c.serial, n)
        for c in deck.cards
        for n in sorted(c.numbers)
        if n % 10 == 3 and n != 43 and 43 not in c.numbers
    )
    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/new")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url("**/caller/new")
    assert _serious(page) == []  # the form with its special games
    page.check('input[name="draw"][value="manual"]')
    page.check('input[name="wild_number"]')
    page.screenshot(path=str(tmp_path / "new-game.png"), full_page=True)
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/caller/games/*")
    gid = int(page.url.rstrip("/").rsplit("/", 1)[-1])
    rules = page.locator("#special-rules li")
    expect(rules).to_have_text(
        "Wild number: the first ball's last digit — every number ending in it counts as called"
    )
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")

    display = page.context.new_page()
    display.goto(f"{live_server.url}/display/{gid}?lang=es")
    expect(display.locator("#station")).to_have_attribute("data-live", "yes")
    phone.goto(live_server.url + card_path(deck.secret, deck.deck_id, serial) + "?lang=en")
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")

    page.fill("#manual-ball", "43")
    page.press("#manual-ball", "Enter")
    expect(rules).to_have_text("Wild number: 3 — every number ending in 3 counts as called")
    expect(display.locator("#special-rules li")).to_have_text(
        "Número comodín: 3 — todo número terminado en 3 cuenta como cantado"
    )
    board = display.locator(".tabla")
    for n in (3, 13, 23, 33, 53, 63, 73):  # counted as called, not drawn
        expect(board.locator(f'.ball[data-ball="{n}"]')).to_have_class(has("wild"))
        expect(board.locator(f'.ball[data-ball="{n}"]')).not_to_have_class(has("called"))
    expect(board.locator('.ball[data-ball="43"]')).to_have_class(has("called", "last"))
    expect(board.locator('.ball[data-ball="44"]')).not_to_have_class(has("wild"))
    expect(phone.locator(f'td.sq[data-number="{wild_on_card}"]')).to_have_class("sq covered")
    assert _serious(display) == [] and _serious(page) == []
    display.screenshot(path=str(tmp_path / "display-wild.png"))
    page.screenshot(path=str(tmp_path / "caller-wild.png"))
    phone.screenshot(path=str(tmp_path / "phone-wild.png"), full_page=True)

    # a wild number drawn later is called as usual: drawn and shown, as any call
    page.fill("#manual-ball", "13")
    page.press("#manual-ball", "Enter")
    expect(board.locator('.ball[data-ball="13"]')).to_have_class(has("called", "last"))
    expect(rules).to_have_text("Wild number: 3 — every number ending in 3 counts as called")


@pytest.mark.browser
def test_the_maestro_draws_the_money_ball_on_the_caller_page_and_the_display_names_it(
    client, live_server, page
):
    deck = new_deck(12, seed="money browser", name="Premiada")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual", options={"money_ball_pays": "double"})
    page.goto(f"{live_server.url}/caller/login?lang=es&next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url(f"**/caller/games/{gid}")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    display = page.context.new_page()
    display.goto(f"{live_server.url}/display/{gid}?lang=es")
    expect(display.locator("#station")).to_have_attribute("data-live", "yes")
    line = display.locator('#special-rules li[data-special="money_ball"]')
    expect(line).to_have_text(
        "Bola premiada: se elige antes de la primera bola — un bingo con esa bola paga el doble"
    )
    page.click("#money-ball-draw")
    expect(page.locator("#money-ball")).to_have_count(0)
    ball = hall.get(f"/api/games/{gid}").get_json()["specials"]["money_ball"]
    assert 1 <= ball <= 75
    expect(line).to_have_text(f"Bola premiada: {ball} — un bingo con el {ball} paga el doble")
    expect(page.locator('#special-rules li[data-special="money_ball"]')).to_contain_text(str(ball))
