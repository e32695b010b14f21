"""Awarding a game's last prize asks in its own words: it no longer says "The game moves on to
the next prize" when there is none (a UK caller read that before the full house)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tambolakit import numbers
from testkit import Caller, caller_game_page

from bingo_hall.manifest import new_strip_deck

pytestmark = pytest.mark.browser


def test_the_award_of_the_last_prize_says_it_is_the_last(client, live_server, page):
    strips = new_strip_deck(1, seed="last prize", name="Club")
    hall = Caller(client, strips)
    gid = hall.new_game("linea-bingo", "manual")
    hall.call(gid, *numbers(strips, 1))
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 1}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award", {"prize": "linea"}).status_code == 200
    caller_game_page(page, live_server.url, gid, "en")
    page.fill("#claim-serial", "1")
    page.click("#claim-submit")
    expect(page.locator("#claim-list li.valid")).to_have_count(2)
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    page.click("#award")
    expect(page.locator("#award")).to_be_enabled()
    assert asked and "last prize" in asked[0] and "next prize" not in asked[0], asked
