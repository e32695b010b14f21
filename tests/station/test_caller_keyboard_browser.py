"""Real Chromium (issue 36 item 7): the caller page works with the keyboard alone, with a visible
focus. The Maestro tabs to Draw and presses Enter, types a card's number and checks it, records
the claim, and opens the claim from the list, never touching the mouse; every place the focus
stops on shows an outline, and a button pressed from the keyboard keeps the focus (a mouse's
click gives it back to the page so the space bar draws)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import Caller, caller_game_page

from bingo_hall.manifest import new_deck

#: the focused element's outline (the page's :focus-visible), as the browser draws it
FOCUS = """() => {
  const e = document.activeElement;
  const s = getComputedStyle(e);
  return { id: e.id, tag: e.tagName, visible: e.matches(":focus-visible"),
           style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
}"""


def _tab_to(page, target: str, limit: int = 80) -> list[dict]:
    """Press Tab until the element with id `target` has the focus; every stop on the way."""
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS)
        stops.append(stop)
        if stop["id"] == target:
            return stops
    raise AssertionError(f"Tab never reached #{target}: {[s['id'] or s['tag'] for s in stops]}")


def _tab_into_claims(page) -> None:
    """Press Tab until the focus is on a line of the claims list."""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.closest('#claim-list') !== null"):
            return
    raise AssertionError("Tab never reached the claims list")


def _visible(stops: list[dict]) -> None:
    hidden = [s for s in stops if not (s["visible"] and s["style"] != "none" and s["width"] >= 2)]
    assert hidden == [], hidden


@pytest.mark.browser
def test_the_caller_page_works_with_the_keyboard_alone_with_a_visible_focus(
    client, live_server, page
):
    hall = Caller(client, new_deck(12, seed="keyboard", name="Teclado"))
    gid = hall.new_game()
    page.set_viewport_size({"width": 1366, "height": 768})
    caller_game_page(page, live_server.url, gid, lang="en")

    stops = _tab_to(page, "draw")
    page.keyboard.press("Enter")
    expect(page.locator("#last-call")).not_to_have_text("–")
    stops += _tab_to(page, "claim-serial")
    page.keyboard.type("7")
    page.keyboard.press("Enter")  # Enter in the serial box checks the card
    expect(page.locator("#claim-result .vcard-wrap")).to_have_count(1)
    stops += _tab_to(page, "claim-submit")
    page.keyboard.press("Enter")
    expect(page.locator("#claim-list li.false")).to_have_count(1)
    # a button pressed from the keyboard keeps the focus
    assert page.evaluate(FOCUS)["id"] == "claim-submit"
    page.locator("#claim-result").evaluate("e => e.replaceChildren()")
    # the claim in the list opens from the keyboard too
    _tab_into_claims(page)
    stops.append(page.evaluate(FOCUS))
    page.keyboard.press("Enter")
    expect(page.locator("#claim-result .vcard-wrap")).to_have_count(1)
    _visible(stops)


@pytest.mark.browser
def test_a_live_update_of_the_claims_list_keeps_the_keyboards_place(client, live_server, page):
    """The claims list is redrawn on every change of the scores (a claim recorded on another
    device, an award): the claim the Maestro had tabbed to keeps the focus and its outline,
    instead of the focus falling back to the page."""
    hall = Caller(client, new_deck(12, seed="keyboard", name="Teclado"))
    gid = hall.new_game(draw="manual")
    hall.call(gid, 1, 16, 31)
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 3}).status_code == 201
    caller_game_page(page, live_server.url, gid, lang="en")
    expect(page.locator("#claim-list li.false")).to_have_count(1)
    page.focus("#claim-submit")  # the claims form (the ball pad of a hand-drawn game is before it)
    _tab_into_claims(page)
    was = page.evaluate("() => document.activeElement.textContent")

    assert hall.post(f"/api/games/{gid}/claims", {"serial": 5}).status_code == 201
    expect(page.locator("#claim-list li.false")).to_have_count(2)
    now = page.evaluate(FOCUS)
    assert (now["tag"], now["visible"]) == ("LI", True), now
    assert page.evaluate("() => document.activeElement.textContent") == was
    # and the keyboard goes on from there: Tab moves to the new claim below it
    page.keyboard.press("Tab")
    assert page.evaluate(
        "() => document.activeElement === document.querySelectorAll('#claim-list li')[1]"
    )
