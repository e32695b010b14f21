"""Real Chromium (issue 36 item 4): a player claims from the phone without shouting. The card's page
offers Claim only once the card has a bingo; the caller page shows "Card 4 asks for a check (from
its phone)" with the card's verdict; the button then says it asked and waits for the next call, and
a second request on the same call (the page opened again) is refused in words on the phone;
/display shows nothing of it until the Maestro checks the card for the room."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from testkit import caller_game_page, scripts_ran

from bingo_hall.signing import card_path

from .hall import Hall

SERIAL = 4


@pytest.mark.browser
def test_a_phone_claims_and_the_caller_page_shows_it_with_the_verdict(
    client, live_server, phone, browser
):
    hall = Hall(client)
    gid = hall.new_game()
    b = hall.numbers(SERIAL, "B")
    hall.call(gid, *b[:4])
    laptop = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        caller = laptop.new_page()
        caller_game_page(caller, live_server.url, gid)
        screen = laptop.new_page()
        screen.goto(f"{live_server.url}/display/{gid}")
        scripts_ran(screen)

        phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, SERIAL))
        expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
        claim = phone.get_by_role("button", name="Claim")
        expect(claim).to_be_hidden()  # no bingo yet: nothing to claim
        hall.call(gid, b[4])
        expect(claim).to_be_visible()
        claim.click()
        answer = phone.locator("#ask-answer")
        expect(answer).to_have_text(
            "Your request is on the Maestro’s screen: the Maestro checks your card."
        )

        asked = caller.locator("#ask-list li")
        expect(asked).to_have_count(1)
        expect(asked).to_contain_text("Card 4 asks for a check (from its phone)")
        expect(asked).to_contain_text("its card has a bingo")
        expect(asked).to_have_class("valid")
        # the room sees nothing of it: no card on the big screen
        expect(screen.locator("#claim-show")).to_be_hidden()

        claim = phone.locator("#ask-check")  # named by what it did now
        expect(claim).to_have_text("Asked · the Maestro is checking")
        expect(claim).to_be_disabled()  # until the next call
        phone.reload()  # a fresh page, the same call: refused in words
        expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
        claim.click()
        expect(answer).to_have_text(
            "card 4 has already asked for a check on this call: the Maestro has it; ask again "
            "after the next call"
        )
        expect(answer).to_have_attribute("data-answer", "refused")
        expect(claim).to_be_disabled()
        expect(asked).to_have_count(1)

        # the Maestro looks at the card, then checks it for the room as with a shouted claim
        caller.get_by_role("button", name="Look at card 4").click()
        expect(caller.locator("#claim-result .vcard-wrap")).to_have_attribute("data-bingo", "yes")
        expect(screen.locator("#claim-show")).to_be_hidden()
        caller.locator("#claim-check").click()
        expect(screen.locator("#claim-show")).to_be_visible()
    finally:
        laptop.close()


@pytest.mark.browser
def test_a_phones_request_leaves_the_caller_page_once_the_prize_is_won(
    client, live_server, phone, browser
):
    """A UK caller saw a phone's request still listed after the round's line was won: the award
    answers the requests made up to its call."""
    from tambolakit import row
    from testkit import Caller

    from bingo_hall.manifest import new_strip_deck

    strips = new_strip_deck(1, seed="asks answered", name="Club")
    hall = Caller(client, strips)
    gid = hall.new_game("lines-house", "manual")
    hall.call(gid, *row(strips, 1, 0))
    caller = browser.new_page(viewport={"width": 1366, "height": 768})
    caller_game_page(caller, live_server.url, gid, "en")
    phone.goto(live_server.url + card_path(strips.secret, strips.deck_id, 1) + "?lang=en")
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    phone.locator("#ask-check").click()
    asked = caller.locator("#ask-list li")
    expect(asked).to_have_count(1)
    expect(caller.locator("#attention")).to_be_visible()
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 1}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award", {"prize": "one-line"}).status_code == 200
    expect(asked).to_have_count(0)
    expect(caller.locator("#attention")).to_be_hidden()
    expect(caller).not_to_have_title(re.compile("⚑"))
