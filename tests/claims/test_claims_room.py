"""Real Chromium: the claim as the room lives it (issue 15). The hall screen shows the card the
Maestro checks, the verdict in big words and the penalty of a false claim; the round's final
board stays after the award until Next round; the winner's phone says so; a phone following its
card is told to shout; on the caller page a valid verdict, a false claim and a typing mistake
look different."""

import os

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN, scripts_ran

from bingo_hall.signing import card_path

from .hall import Hall

SHOTS = os.environ.get("CLAIMS_SCREENSHOTS")  # a folder: save screenshots there to look at


def _shot(page, name, full=True):
    if SHOTS:
        settled = "() => document.getAnimations().every(a => a.playState !== 'running')"
        page.wait_for_function(settled)  # a function, not an expression: no eval under the CSP
        page.screenshot(path=os.path.join(SHOTS, name), full_page=full)


def _log_in(page, url, gid):
    page.goto(f"{url}/caller/login?next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url(f"**/caller/games/{gid}")
    scripts_ran(page)


def _puntos_with_ana(client):
    """A Bingo de Puntos game: the Maestra calls, Ana plays."""
    hall = Hall(client)
    gid = hall.new_game("points")
    for name in ("Maestra", "Ana"):
        hall.post(f"/api/games/{gid}/players", {"name": name})
    return hall, gid


@pytest.mark.browser
def test_the_hall_screen_shows_a_checked_claim_and_keeps_the_final_board(client, live_server, page):
    hall, gid = _puntos_with_ana(client)
    r2 = hall.numbers(36, "R2")
    hall.call(gid, *r2[:4])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/display/{gid}")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    shown = page.locator("#claim-show")
    sala = page.context.new_page()  # the same screen in Spanish
    sala.set_viewport_size({"width": 1280, "height": 800})
    sala.goto(f"{live_server.url}/display/{gid}?lang=es")
    expect(sala.locator("#station")).to_have_attribute("data-live", "yes")
    # A false claim: the card, the numbers it lacks and the penalty, at once.
    hall.post(f"/api/games/{gid}/claims", {"serial": 36, "player": "Ana"})
    expect(shown).to_be_visible()
    expect(sala.locator("#claim-show .show-head")).to_have_text(
        f"Ana · Cartón 36 · No es bingo: falta el {r2[4]} (Fila 2)"
    )
    _shot(sala, "display-false-claim-es.png", full=False)
    sala.close()
    expect(shown).to_have_class("claim-show false")
    expect(shown.locator(".show-head")).to_have_text(
        f"Ana · Card 36 · No bingo: Row 2 lacks {r2[4]}"
    )
    expect(shown.locator(".show-penalty")).to_contain_text("Row 2")
    expect(shown.locator("td.sq.covered")).to_have_count(4)  # as the card was when claimed
    _shot(page, "display-false-claim.png", full=False)
    hall.call(gid, r2[4])  # the game goes on: the checked card leaves the screen
    expect(shown).to_be_hidden()
    expect(page.locator(".hero")).to_be_visible()
    col = hall.numbers(36, "O")
    hall.call(gid, *[n for n in col if n not in r2])
    assert hall.post(f"/api/games/{gid}/check/36").status_code == 200
    expect(shown).to_have_class("claim-show valid")
    points = sum(col)  # row 2 lost its markers for the calls before the claim: only O wins
    head = f"BINGO! Card 36 · Column O · {points} points"
    expect(shown.locator(".show-head")).to_have_text(head)
    expect(shown.locator("td.sq.wins")).to_have_count(5)
    expect(shown.locator("td.tot.lit")).to_have_text([str(points)])
    hall.post(f"/api/games/{gid}/claims", {"serial": 36, "player": "Ana"})
    hall.post(f"/api/games/{gid}/award")
    expect(shown.locator(".show-final")).to_contain_text("Round 1 is won")
    expect(shown.locator(".show-head")).to_contain_text("Ana · BINGO! Card 36")
    _shot(page, "display-final-board.png", full=False)
    page.reload()  # a screen that reconnects still shows the final board
    expect(page.locator("#claim-show .show-final")).to_contain_text("Round 1 is won")
    hall.post(f"/api/games/{gid}/rounds")
    expect(page.locator("#claim-show")).to_be_hidden()
    expect(page.locator(".hero")).to_be_visible()


@pytest.mark.browser
def test_the_phone_says_shout_then_you_won_and_never_claims(client, live_server, phone):
    hall, gid = _puntos_with_ana(client)
    # Record what the page asks the phone to do (desktop Chromium will not buzz).
    phone.add_init_script(
        "window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };"
    )
    b = hall.numbers(5, "B")
    hall.call(gid, *b[:4])
    phone.goto(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 5))
    expect(phone.locator("#verify")).to_have_attribute("data-live", "yes")
    expect(phone.locator(".shout")).to_have_count(0)
    hall.call(gid, b[4])
    expect(phone.locator(".shout")).to_have_text("Your card has BINGO: press “Claim”.")
    assert phone.evaluate("window.__buzz.length") == 1
    _shot(phone, "phone-shout.png")
    assert hall.get(f"/api/games/{gid}/scores", auth=False).get_json()["claims"] == []
    hall.post(f"/api/games/{gid}/claims", {"serial": 5, "player": "Ana"})
    hall.post(f"/api/games/{gid}/award")
    expect(phone.locator(".won")).to_have_text(f"You won round 1 · {sum(b)} points")
    expect(phone.locator(".shout")).to_have_count(0)
    hall.post(f"/api/games/{gid}/rounds")
    hall.call(gid, b[0])
    expect(phone.locator(".verdict-head")).to_contain_text("No bingo yet")
    expect(phone.locator(".won")).to_have_text(f"You won round 1 · {sum(b)} points")
    _shot(phone, "phone-won.png")


@pytest.mark.browser
def test_caller_verdicts_look_like_success_penalty_or_a_typing_mistake(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    g = hall.numbers(2, "G")
    hall.call(gid, *g)
    page.set_viewport_size({"width": 1400, "height": 1000})
    _log_in(page, live_server.url, gid)
    result = page.locator("#claim-result")
    message = page.locator("#claim-message")
    page.fill("#claim-serial", "99")
    page.click("#claim-check")
    expect(message).to_contain_text("this deck has no card 99")
    expect(result).not_to_have_class("verdict-false")
    page.fill("#claim-serial", "3")
    page.select_option("#claim-line", "R1")
    page.click("#claim-submit")
    expect(result).to_have_class("verdict-false")
    expect(result.locator(".claim-verdict.false")).to_contain_text("False claim")
    expect(message).to_be_hidden()
    bg_false = result.evaluate("e => getComputedStyle(e).borderTopColor")
    _shot(page, "caller-false-claim.png", full=False)
    page.select_option("#claim-line", "")
    page.fill("#claim-serial", "2")
    page.click("#claim-submit")
    expect(result).to_have_class("verdict-valid")
    expect(result.locator(".claim-verdict.valid")).to_contain_text("Valid BINGO")
    expect(result.locator("td.sq.wins")).to_have_count(5)
    _shot(page, "caller-valid-claim.png", full=False)
    bg_valid = result.evaluate("e => getComputedStyle(e).borderTopColor")
    page.fill("#claim-serial", "99")
    page.click("#claim-check")
    bg_error = message.evaluate("e => getComputedStyle(e).backgroundColor")
    assert len({bg_false, bg_valid, bg_error}) == 3
    assert bg_valid == "rgb(62, 207, 142)" and bg_false == "rgb(229, 72, 77)"  # --ok, --danger


@pytest.mark.browser
def test_a_wedge_scanner_typing_the_card_url_checks_that_card(client, live_server, page):
    hall = Hall(client)
    gid = hall.new_game()
    page.set_viewport_size({"width": 1400, "height": 1000})
    _log_in(page, live_server.url, gid)
    # The card was printed for another address: only the path counts.
    url = "HTTP://10.9.8.7:5000" + card_path(hall.deck.secret, hall.deck.deck_id, 17)
    page.click("#claim-serial")
    page.keyboard.type(url)
    page.keyboard.press("Enter")
    expect(page.locator("#claim-result .vcard-wrap")).to_have_attribute("data-serial", "17")
    expect(page.locator("#claim-serial")).to_have_value("17")
    forged = url.rsplit("/", 1)[0] + "/" + "0" * 16
    page.fill("#claim-serial", forged)
    page.press("#claim-serial", "Enter")
    expect(page.locator("#claim-message")).to_contain_text("does not verify")
