"""Real Chromium: a card's page for every player (issue 36 items 2, 3, 5 and 6). A screen reader is
told each call in the polite live region ("B 12", ", you have it" when the card has it) and
the card's bingo ("press Claim") in the assertive one; "read the calls aloud" speaks each call
in the page's language (a page-side spy on speechSynthesis: headless Chromium has no voices); a
phone with no voice for the language shows the call big and vibrates, and the switch says so; the
page says when it is offline and clears the notice when it is current again; the last call is big;
the text size and high contrast are remembered on the phone, and high contrast follows the
system's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import refuse_streams

from bingo_hall.signing import card_path

from .hall import Hall

SERIAL = 5

#: the page's speech engine replaced by a spy with the given voices (SpeechSynthesisUtterance
#: too: a real one takes only a real voice)
SPY = """
window.__spoken = [];
window.__buzz = [];
navigator.vibrate = (p) => { window.__buzz.push(p); return true; };
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  getVoices: () => %s,
  speak: (u) => window.__spoken.push({ text: u.text, lang: u.lang }),
  cancel() {},
  addEventListener() {},
}});
"""


def _other(hall: Hall, count: int) -> list[int]:
    """Balls card SERIAL does not have."""
    mine = {n for col in hall.deck.card(SERIAL).columns for n in col if n is not None}
    return [n for n in range(1, 76) if n not in mine][:count]


def _label(ball: int) -> str:
    return f"{'BINGO'[(ball - 1) // 15]} {ball}"


def _open(phone, hall: Hall, lang: str = "en") -> None:
    url = hall.url + card_path(hall.deck.secret, hall.deck.deck_id, SERIAL) + f"?lang={lang}"
    phone.goto(url)
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")


@pytest.fixture
def hall(client, live_server):
    h = Hall(client)
    h.url = live_server.url
    return h


@pytest.mark.browser
def test_a_screen_reader_hears_each_call_and_the_shout(hall, phone):
    gid = hall.new_game()
    b = hall.numbers(SERIAL, "B")
    _open(phone, hall)
    polite, assertive = phone.locator("#say-calls"), phone.locator("#say-shout")
    expect(polite).to_have_attribute("aria-live", "polite")
    expect(assertive).to_have_attribute("aria-live", "assertive")
    expect(polite).to_have_text("")
    other = _other(hall, 1)[0]
    hall.call(gid, other)
    expect(polite).to_have_text(_label(other))  # not on the card: the call alone
    expect(phone.locator("#call-now-ball")).to_have_text(_label(other))
    for ball in b:
        hall.call(gid, ball)
        expect(polite).to_have_text(f"{_label(ball)}, you have it")
        if ball != b[-1]:
            expect(assertive).to_have_text("")
    expect(assertive).to_have_text("Your card has BINGO: press “Claim”.")
    # "shout!" pops in, unless the phone asks for less motion
    motion = "e => getComputedStyle(e).animationName"
    assert phone.locator(".shout").evaluate(motion) == "pop"
    phone.emulate_media(reduced_motion="reduce")
    assert phone.locator(".shout").evaluate(motion) == "none"
    # the last call is big at the top: at least 48 px
    size = phone.locator("#call-now-ball").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 48, size
    # the margin totals are readable: at least 16 px, not the muted grey
    tot = phone.locator("table.vcard td.tot").first
    assert tot.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 16
    # a new round: the shout is over
    hall.post(f"/api/games/{gid}/rounds")
    expect(assertive).to_have_text("")


@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "mine", "voice"), [("en", "you have it", "en-GB"), ("es", "la tiene", "es-ES")]
)
def test_read_the_calls_aloud_speaks_each_call_in_the_pages_language(
    hall, phone, lang, mine, voice
):
    gid = hall.new_game()
    phone.add_init_script(SPY % f'[{{ lang: "{voice}", name: "test voice" }}]')
    _open(phone, hall, lang)
    switch = phone.locator("#speak")
    expect(switch).to_have_attribute("aria-checked", "false")
    first = hall.numbers(SERIAL, "B")[0]
    hall.call(gid, first)
    expect(phone.locator("#say-calls")).to_contain_text(_label(first))
    assert phone.evaluate("window.__spoken") == []  # the switch is off: nothing said
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(phone.locator("#speak-note")).to_be_hidden()  # a voice for the language
    other = _other(hall, 1)[0]
    second = hall.numbers(SERIAL, "B")[1]
    hall.call(gid, other, second)
    expect(phone.locator("#say-calls")).to_contain_text(_label(second))
    phone.wait_for_function("window.__spoken.length >= 2")
    assert phone.evaluate("window.__spoken") == [
        {"text": _label(other), "lang": voice},
        {"text": f"{_label(second)}, {mine}", "lang": voice},
    ]
    # the switch is remembered on the phone
    phone.reload()
    expect(phone.locator("#speak")).to_have_attribute("aria-checked", "true")


@pytest.mark.browser
def test_a_phone_with_no_voice_for_the_language_shows_the_call_big_and_vibrates(hall, phone):
    gid = hall.new_game()
    phone.add_init_script(SPY % '[{ lang: "en-US", name: "English only" }]')
    _open(phone, hall, "es")
    phone.locator("#speak").click()
    note = phone.locator("#speak-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("no tiene voz para este idioma")
    assert phone.locator("#speak").get_attribute("aria-describedby") == "speak-note"
    ball = hall.numbers(SERIAL, "N")[0]
    hall.call(gid, ball)
    expect(phone.locator("#call-now")).to_have_class("call-now mine flash")
    expect(phone.locator("#call-now-ball")).to_have_text(_label(ball))
    phone.wait_for_function("window.__buzz.length >= 1")
    assert phone.evaluate("window.__spoken") == []  # never in another language's voice


@pytest.mark.browser
def test_the_card_page_says_when_it_is_offline_and_clears_it_when_current(app, hall, phone):
    from bingo_hall.station import games
    from bingo_hall.web.instance import hall as hall_state

    gid = hall.new_game()
    _open(phone, hall)
    offline = phone.locator("#offline")
    expect(offline).to_be_hidden()
    gate = refuse_streams(phone, f"/api/games/{gid}/events")
    with app.app_context():
        hall_state().hub.end(games.channel(gid))  # the Wi-Fi drops the stream
    expect(offline).to_be_visible()
    expect(offline).to_have_text("Connection lost, reconnecting…")
    expect(phone.locator("#say-calls")).to_have_text("Connection lost, reconnecting…")
    ball = hall.numbers(SERIAL, "G")[0]
    hall.call(gid, ball)  # while away
    gate["refuse"] = False
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    expect(offline).to_be_hidden()
    expect(phone.locator(f'td.sq[data-number="{ball}"]')).to_have_class("sq covered last")


@pytest.mark.browser
def test_text_size_and_high_contrast_are_remembered_and_contrast_follows_the_system(hall, browser):
    hall.new_game()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        phone = context.new_page()
        _open(phone, hall)
        html = phone.locator("html")
        base = html.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        phone.locator("#text-larger").click()
        phone.locator("#text-larger").click()
        expect(html).to_have_attribute("data-text", "2")
        phone.reload()
        expect(html).to_have_attribute("data-text", "2")
        assert html.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") > base
        phone.locator("#text-smaller").click()
        phone.locator("#text-smaller").click()
        expect(phone.locator("#text-smaller")).to_be_disabled()
        expect(html).not_to_have_attribute("data-text", "0")
        # high contrast: off by default, on when the system asks for more contrast
        expect(html).not_to_have_class("hc")
        phone.emulate_media(contrast="more")
        expect(html).to_have_class("hc")
        expect(phone.locator("#contrast")).to_have_attribute("aria-pressed", "true")
        phone.locator("#contrast").click()  # the player's choice wins, and is remembered
        expect(html).not_to_have_class("hc")
        phone.reload()
        expect(phone.locator("#verify")).to_have_attribute("data-marked", "yes")
        expect(html).not_to_have_class("hc")
    finally:
        context.close()
