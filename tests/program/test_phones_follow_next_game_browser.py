"""With a program, every phone follows the hall to its next game on its own (a member's phone
stayed on "Game 1 · Last call 47" after Next game until it was reloaded): the same card where
its deck plays the new game; where the new game is played with other cards (strips after
cards), the phone says so, and comes back to its card when its deck plays again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import Caller, doc_shot

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.signing import card_path

pytestmark = pytest.mark.browser
SLOW = 20_000  # ms: the phone hears of the new game and comes back within 2 s, on a busy machine

PROGRAM = """\
name = "Club night"

[[game]]
name = "Corners"
pattern = "four_corners"
draw = "manual"
prizes = { bingo = "5" }

[[game]]
name = "The X"
pattern = "x"
draw = "manual"
prizes = { bingo = "5" }

[[game]]
name = "House"
balls = 90
prize_list = "house"
draw = "manual"
prizes = { full-house = "10" }

[[game]]
name = "Full card"
pattern = "full_card"
draw = "manual"
prizes = { bingo = "5" }
"""


def test_a_phone_follows_next_game_to_its_card_and_says_when_its_card_does_not_play(
    client, live_server, browser, tmp_path
):
    cards = new_deck(10, seed="phones follow", name="Cards")
    hall = Caller(client, cards)
    hall.load_deck(new_strip_deck(1, seed="phones follow", name="Strips"))
    assert hall.post("/api/program", {"text": PROGRAM, "source": "club.toml"}).status_code == 200

    def next_game() -> int:
        r = hall.post("/api/program/next", {"confirm": True})
        assert r.status_code == 200, r.get_json()
        return r.get_json()["game_id"]

    g1 = next_game()
    hall.call(g1, 5, 20)
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(live_server.url + card_path(cards.secret, cards.deck_id, 3) + "?lang=en")
    card = phone.locator("#verify")
    expect(card).to_have_attribute("data-live", "yes", timeout=SLOW)
    assert card.get_attribute("data-game") == str(g1)

    g2 = next_game()  # the same cards: the phone comes back with game 2, no one reloads it
    expect(card).to_have_attribute("data-game", str(g2), timeout=SLOW)
    expect(card).to_have_attribute("data-live", "yes", timeout=SLOW)
    hall.call(g2, 7)
    expect(phone.locator("td.sq.covered")).to_have_count(
        1 if 7 in cards.card(3).numbers else 0, timeout=SLOW
    )

    g3 = next_game()  # strips: this card does not play in it, and the phone says so
    told = phone.locator("#next-game")
    expect(told).to_contain_text(f"Game {g3} has started with other cards", timeout=SLOW)
    expect(card).to_have_attribute("data-next", str(g3))
    phone.screenshot(path=doc_shot("phone-follows-next-game.png", tmp_path))

    g4 = next_game()  # cards again: the phone comes back to its card, in game 4
    expect(card).to_have_attribute("data-game", str(g4), timeout=SLOW)
