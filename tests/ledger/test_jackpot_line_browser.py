"""The big screen's jackpot line is kept true as the calls pass: "Jackpot £100.00 more: Full
house in 3 calls or fewer" while it can be won, then "Jackpot gone for this game: £100.00 rolls
over" (at call 46 a screen still offered "in 45 calls or fewer: £100.00 more"), back again if
the call is undone; and once the house is won after its calls, the room hears that the pot rolls
over."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import Caller, doc_shot, scripts_ran

from bingo_hall.manifest import new_strip_deck

pytestmark = pytest.mark.browser
SLOW = 15_000


def test_the_jackpot_line_says_when_the_jackpot_is_gone_and_that_it_rolls_over(
    client, live_server, page, tmp_path
):
    strips = new_strip_deck(1, seed="jackpot line", name="Club")
    hall = Caller(client, strips)
    assert hall.post("/api/ledger/currency", {"currency": "GBP"}).status_code == 200
    gid = hall.new_game("house", "manual")
    rule = {"kind": "jackpot", "within": 3, "jackpot": "100", "amount": "20", "mode": "on-top"}
    made = hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": {"full-house": rule}})
    assert made.status_code == 200, made.get_json()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_server.url}/display/{gid}?lang=en")
    scripts_ran(page)
    line = page.locator("#ledger-prizes")

    def shows(text: str) -> None:  # what the room sees (a hidden wording is not seen)
        expect(line).to_contain_text(text, timeout=SLOW, use_inner_text=True)

    shows("Jackpot £100.00 more: Full house in 3 calls or fewer")
    ticket = strips.card(1)
    balls = [n for row in ticket.rows for n in row]
    hall.call(gid, *balls[:3])
    shows("in 3 calls or fewer")
    page.screenshot(path=doc_shot("jackpot-line-before-limit.png", tmp_path))
    hall.call(gid, balls[3])  # the fourth call: the jackpot can no longer be won
    shows("Jackpot gone for this game: £100.00 rolls over")
    expect(line).not_to_contain_text("or fewer", use_inner_text=True)
    page.screenshot(path=doc_shot("jackpot-line-after-limit.png", tmp_path))
    undone = hall.post(f"/api/games/{gid}/undo", {"reason": "mistyped"})
    assert undone.status_code == 200, undone.get_json()
    shows("in 3 calls or fewer")
    hall.call(gid, *balls[3:])
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 1}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award", {}).status_code == 200
    expect(line).to_contain_text(
        "£20.00 awarded · jackpot not won: £100.00 rolls over", timeout=SLOW
    )
