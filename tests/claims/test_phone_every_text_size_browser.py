"""Real Chromium: a player's phone (390x844) on her card's or ticket's page, at the page's default
text and at its largest (A+ pressed four times, kept on the phone), for every game kind: 75-ball
cards (lines, a pattern, Bingo de Puntos) and 90-ball tickets (línea-bingo, lines-house, Tambola,
Italian Tombola). In each state of a night (before the first ball, a call the card has, a
bingo, a request for a check sent) the page passes the layout check (tests/layout.py): nothing
scrolls sideways, nothing is off the screen, covered or spilt, and the last call, the bingo and
the Claim button with its answer are on the first screen. At the largest text the card's numbers
and its margin totals are larger than at the default (they grew with the rest of the text);
after a request the button says it was asked and stays disabled until the next call; with a
bingo the page says to press Claim, not to shout."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from layout import PHONE, assert_layout
from playwright.sync_api import Browser, Page, expect
from testkit import Caller, doc_shot

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_path

from .hall import Hall

pytestmark = pytest.mark.browser

#: the page's own text sizes (card_access.js: A+ four times at most, kept in localStorage)
TEXT = {"default": None, "largest": "4"}
SERIAL = 4
STRIPS = new_strip_deck(2, seed="phone every text size", name="Tiras")
SLOW = 15_000  # ms: the page follows the game's event stream, on a busy shared machine


@dataclass(frozen=True)
class Night:
    """A game of one kind, and the balls that bring the phone's card through a night: one it
    does not have, then one it has (the last call), then the rest of what makes its prize."""

    hall: Caller
    game: int
    url: str
    other: int
    later: int
    mine: int
    rest: tuple[int, ...]
    layout: str  # "card" or "ticket"


def _card_night(client, base: str, mode: str, pattern: str | None = None) -> Night:
    hall = Hall(client)
    gid = hall.new_game(mode)
    if pattern:
        assert hall.post(f"/api/games/{gid}/settings", {"pattern": pattern}).status_code == 200
        card = hall.deck.card(SERIAL)
        cells = ((0, 0), (0, 4), (4, 0), (4, 4))  # four corners
        prize = [card.number_at(r, c) for r, c in cells]
    else:
        prize = hall.numbers(SERIAL, "B")
    printed = {n for col in hall.deck.card(SERIAL).columns for n in col if n is not None}
    other, later = [n for n in range(1, 76) if n not in printed][:2]
    url = base + card_path(hall.deck.secret, hall.deck.deck_id, SERIAL)
    return Night(hall, gid, url, other, later, prize[0], tuple(prize[1:]), "card")


def _ticket_night(client, base: str, mode: str) -> Night:
    hall = Caller(client, STRIPS)
    gid = hall.new_game(mode, "manual")
    ticket = STRIPS.card(SERIAL)
    top = ticket.rows[0]  # its top row: what every kind's first prize needs
    other, later = [n for n in range(1, 91) if n not in ticket.numbers][:2]
    url = base + card_path(STRIPS.secret, STRIPS.deck_id, SERIAL)
    return Night(hall, gid, url, other, later, top[0], tuple(top[1:]), "ticket")


KINDS = {
    "bingo-lines": lambda c, u: _card_night(c, u, "normal"),
    "bingo-pattern": lambda c, u: _card_night(c, u, "normal", "four_corners"),
    "bingo-de-puntos": lambda c, u: _card_night(c, u, "points"),
    "linea-bingo": lambda c, u: _ticket_night(c, u, "linea-bingo"),
    "lines-house": lambda c, u: _ticket_night(c, u, "lines-house"),
    "tambola": lambda c, u: _ticket_night(c, u, "tambola"),
    "tombola": lambda c, u: _ticket_night(c, u, "tombola"),
}


def _phone(browser: Browser, text: str | None) -> Page:
    context = browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    if text:
        context.add_init_script(f"localStorage.setItem('bingo.text', {text!r});")
    return context.new_page()


def _px(page: Page, selector: str) -> float:
    return page.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")


def _sizes(page: Page) -> dict[str, float]:
    """The font sizes of the page's text, of the card's numbers and of its margin totals."""
    return {
        "text": page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)"),
        "number": _px(page, "table.vcard td.sq[data-number]"),
        "total": _px(page, "table.vcard td.tot"),
    }


def _still(page: Page) -> None:
    """Wait until nothing moves: the bingo pops in (scaled, see-through), the call flashes."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


def _lines(page: Page, selector: str) -> int:
    """On how many lines an element's text is laid out."""
    return page.locator(selector).evaluate(
        """e => { const r = document.createRange(); r.selectNodeContents(e);
                  return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"""
    )


def _wait_for_call(page: Page, night: Night, ball: int) -> None:
    shown = f"{'BINGO'[(ball - 1) // 15]} {ball}" if night.layout == "card" else str(ball)
    expect(page.locator("#call-now-ball")).to_have_text(shown, timeout=SLOW)


LAST_CALL = "#call-now"
BINGO = ("#bingo-now", "#ask-check")


def _night_on_the_phone(page: Page, night: Night, shots: str | None = None) -> None:
    """The night's states in turn, each checked with the layout check."""
    page.goto(night.url + "?lang=en")
    expect(page.locator("#verify")).to_have_attribute("data-live", "yes", timeout=SLOW)
    # before the first ball
    assert_layout(page, [PHONE], first_screen=[LAST_CALL])
    # a call the card does not have, then one it has: the last call and "you have it"
    night.hall.call(night.game, night.other, night.mine)
    _wait_for_call(page, night, night.mine)
    expect(page.locator("#call-now-mine")).to_have_text("you have it")
    assert _lines(page, "#call-now-ball") == 1  # "O 62" whole, never "O" above "62"
    assert_layout(page, [PHONE], first_screen=[LAST_CALL, "#call-now-mine"])
    # the bingo: said at the top, beside the button that claims it, and no "shout"
    night.hall.call(night.game, *night.rest)
    claim = page.locator("#ask-check")
    expect(claim).to_be_visible(timeout=SLOW)
    notice = page.locator("#bingo-now")
    expect(notice).to_contain_text("press “Claim”")
    expect(notice).not_to_contain_text("shout")
    _still(page)
    assert_layout(page, [PHONE], first_screen=[LAST_CALL, *BINGO])
    if shots:
        page.screenshot(path=shots % "bingo")
    # a request for a check: the button says so and waits for the next call
    claim.click()
    expect(claim).to_have_text("Asked · the Maestro is checking")
    expect(claim).to_be_disabled()
    answer = page.locator("#ask-answer")
    expect(answer).to_have_text(
        "Your request is on the Maestro’s screen: the Maestro checks your card."
    )
    assert_layout(page, [PHONE], first_screen=[LAST_CALL, *BINGO, "#ask-answer"])
    if shots:
        page.screenshot(path=shots % "asked")
    # the next call: she may ask again
    night.hall.call(night.game, night.later)
    expect(claim).to_be_enabled(timeout=SLOW)
    expect(claim).to_have_text("Claim")
    expect(answer).to_have_text("")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("text", TEXT)
def test_the_phone_shows_the_call_and_the_bingo_first_at_every_text_size(
    client, live_server, browser, kind, text
):
    night = KINDS[kind](client, live_server.url)
    page = _phone(browser, TEXT[text])
    try:
        _night_on_the_phone(page, night)
    finally:
        page.context.close()


@pytest.mark.parametrize("kind", ["bingo-lines", "linea-bingo", "tambola"])
def test_the_cards_numbers_and_totals_grow_with_the_text(client, live_server, browser, kind):
    night = KINDS[kind](client, live_server.url)
    sizes = {}
    for text, stored in TEXT.items():
        page = _phone(browser, stored)
        try:
            page.goto(night.url + "?lang=en")
            expect(page.locator("#verify")).to_have_attribute("data-marked", "yes")
            sizes[text] = _sizes(page)
        finally:
            page.context.close()
    small, large = sizes["default"], sizes["largest"]
    assert large["text"] >= 1.7 * small["text"], sizes  # the page's own step: 18 to 32 px
    # as far as 390 px lets them (7 columns of a card, 10 of a ticket; nothing spilt: the
    # layout check above)
    assert large["number"] >= 1.2 * small["number"], sizes
    assert large["total"] >= 1.2 * small["total"], sizes


@pytest.mark.parametrize("kind", ["bingo-lines", "linea-bingo"])
@pytest.mark.parametrize("width", [360, PHONE[0]])
def test_a_card_followed_on_join_fits_the_phone(client, live_server, browser, kind, width):
    """/join/card?n=...: a card or a ticket typed by its number, kept marked, in a phone's width."""
    night = KINDS[kind](client, live_server.url)
    night.hall.call(night.game, night.other, night.mine, *night.rest)
    page = _phone(browser, None)
    try:
        page.goto(f"{live_server.url}/join/card?n={SERIAL}&lang=es")
        expect(page.locator("#followed-card")).to_have_attribute("data-live", "yes", timeout=SLOW)
        assert_layout(page, [(width, PHONE[1])])
    finally:
        page.context.close()


def test_the_phone_at_its_largest_text_for_the_docs(client, live_server, browser, tmp_path):
    """The screenshots docs/claims.md shows: a card with a bingo, and after its request; and
    the whole page of a card with a bingo with A+ pressed three times."""
    night = _card_night(client, live_server.url, "normal")
    page = _phone(browser, TEXT["largest"])
    try:
        _night_on_the_phone(page, night, doc_shot("claims-phone-largest-%s.png", tmp_path))
    finally:
        page.context.close()
    page = _phone(browser, "3")
    try:
        page.goto(night.url + "?lang=en")
        expect(page.locator("#bingo-now")).to_be_visible(timeout=SLOW)
        _still(page)
        page.screenshot(path=doc_shot("access-phone-large.png", tmp_path), full_page=True)
    finally:
        page.context.close()


def test_a_spanish_phone_asks_in_spanish(client, live_server, browser):
    night = _card_night(client, live_server.url, "normal")
    page = _phone(browser, TEXT["largest"])
    try:
        page.goto(night.url + "?lang=es")
        expect(page.locator("#verify")).to_have_attribute("data-live", "yes", timeout=SLOW)
        night.hall.call(night.game, night.mine, *night.rest)
        notice = page.locator("#bingo-now")
        expect(notice).to_have_text("Su cartón tiene BINGO: presione «Cantar».", timeout=SLOW)
        page.locator("#ask-check").click()
        expect(page.locator("#ask-check")).to_have_text("Pedido · el Maestro está revisando")
        expect(page.locator("#ask-check")).to_be_disabled()
    finally:
        page.context.close()
