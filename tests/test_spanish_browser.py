"""Real Chromium, in Spanish (issue 40 item 7): what the host and the players see. The claims list
of the caller page follows "Siguiente ronda" without a reload; the New game page says LIBRE where
the printed card does; the phone pages say usted. Screenshots go to $SPANISH_SCREENSHOTS when set
(the caller at 1366x768, the phone at 390x844)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN, Caller, scripts_ran

from bingo_hall.manifest import new_deck
from bingo_hall.seventyfive.cards import LINE_CELLS
from bingo_hall.signing import card_path

SHOTS = os.environ.get("SPANISH_SCREENSHOTS")


def _shot(page, name: str, full_page: bool = False) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=full_page)


def _line(deck, serial: int, line: str) -> list[int]:
    card = deck.card(serial)
    return [n for r, c in LINE_CELLS[line] if (n := card.columns[c][r]) is not None]


def _caller_in_spanish(page, url: str, path: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{url}/lang/es?next=/caller/login")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url("**/caller/**")
    page.goto(url + path)
    if "/games/" in path:
        scripts_ran(page)


@pytest.mark.browser
def test_the_claims_list_empties_when_the_maestro_presses_next_round(client, live_server, page):
    deck = new_deck(12, seed="spanish claims", name="Fiesta")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    hall.call(gid, *_line(deck, 4, "R2"))
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 7, "line": "B"}).status_code == 201
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 4}).status_code == 201
    _caller_in_spanish(page, live_server.url, f"/caller/games/{gid}")
    claims = page.locator("#claim-list li")
    expect(claims).to_have_count(2)
    expect(page.locator("#claim-list li.false")).to_contain_text(
        "Canto falso: el Maestro quita los marcadores de Columna B"
    )
    _shot(page, "spanish-caller-claims.png", full_page=True)
    page.once("dialog", lambda d: d.accept())
    page.click("#award")
    expect(page.locator("#claim-message")).to_contain_text("Ronda otorgada")
    page.once("dialog", lambda d: d.accept())
    page.click("#next-round")
    expect(page.locator("[data-field=round]")).to_have_text("2")
    # the new round has no claims: the list says so at once, without a reload
    expect(claims).to_have_count(1)
    expect(claims).to_have_text("Todavía nadie ha cantado en esta ronda.")
    expect(page.locator("#award")).to_be_disabled()
    # the big screen names the draw's seal in plain words, not cryptography's
    page.goto(f"{live_server.url}/display/{gid}")
    expect(page.locator("footer.commit .label")).to_have_text(
        "Orden sellado antes de la primera bola (SHA-256 de la clave del sorteo, que se revela "
        "al final)"
    )
    _shot(page, "spanish-display.png")


@pytest.mark.browser
def test_the_new_game_page_says_libre_as_the_printed_card_does(client, live_server, page):
    Caller(client, new_deck(8, seed="spanish new", name="Fiesta", free_centre=True))
    _caller_in_spanish(page, live_server.url, "/caller/new")
    option = page.locator("select[name=deck_id] option").first
    expect(option).to_contain_text("Fiesta · 8 cartones · LIBRE · cargado")
    expect(page.locator("[data-free-printed]")).to_have_text(
        "Este mazo tiene LIBRE impreso en el centro: sus partidas siempre juegan con espacio "
        "franco."
    )
    expect(page.locator("body")).not_to_contain_text("FREE")
    _shot(page, "spanish-new-game.png")


@pytest.mark.browser
def test_the_phone_pages_say_usted_in_spanish(client, live_server, browser):
    deck = new_deck(12, seed="spanish phone", name="Fiesta")
    hall = Caller(client, deck)
    gid = hall.new_game("points", draw="manual")
    hall.call(gid, *_line(deck, 6, "D1"))
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="es-AR"
    )
    phone = context.new_page()
    try:
        phone.goto(f"{live_server.url}/join?lang=es")
        expect(phone.locator("body")).to_contain_text("Su cartón")
        expect(phone.locator("body")).not_to_contain_text("Tu cartón")
        _shot(phone, "spanish-phone-join.png")
        phone.goto(f"{live_server.url}{card_path(deck.secret, deck.deck_id, 6)}?lang=es")
        expect(phone.locator("h1")).to_contain_text("Cartón 6")
        expect(phone.locator("body")).to_contain_text("Su cartón tiene BINGO: presione «Cantar».")
        _shot(phone, "spanish-phone-card.png")
    finally:
        context.close()


@pytest.mark.browser
def test_a_tambola_night_shows_prize_names_never_keys_once_its_scripts_ran(
    client, live_server, page
):
    """What the scripts write after the page loads (the prizes' state, the prize chosen, the
    ledger's line kept up to date) names each prize in Spanish too, with no agreement to get
    wrong: "ganador: cartón 1, en la bola 5", "en juego"."""
    from test_spanish import code_words_in

    from bingo_hall.manifest import new_strip_deck
    from bingo_hall.ninety.prize_rules import TAMBOLA

    strips = new_strip_deck(1, seed="spanish tambola browser", name="Tiras")
    hall = Caller(client, strips)
    made = hall.post("/api/games", {"deck_id": strips.deck_id, "mode": "tambola", "draw": "manual"})
    assert made.status_code == 201, made.get_json()
    gid = made.get_json()["game_id"]
    rules = {p.key: {"kind": "fixed", "amount": "10"} for p in TAMBOLA.prizes}
    assert hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": rules}).status_code == 200
    ticket = strips.cards[0]
    hall.call(gid, *ticket.rows[0])
    claim = {"serial": ticket.serial, "prize": "early-five"}
    assert hall.post(f"/api/games/{gid}/claims", claim).status_code == 201
    assert hall.post(f"/api/games/{gid}/award", {"prize": "early-five"}).status_code == 200
    _caller_in_spanish(page, live_server.url, f"/caller/games/{gid}")
    steps = page.locator("#prize-steps li[data-prize='early-five'] .prize-who")
    expect(steps).to_contain_text("ganador: cartón 1")
    expect(page.locator("#prize-steps li[data-prize='top-line'] .prize-who")).to_have_text(
        "en juego"
    )
    expect(page.locator("#ledger-prizes")).to_contain_text("Línea de arriba")
    _shot(page, "spanish-tambola-caller.png", full_page=True)
    options = " ".join(page.locator("#claim-prize option").all_inner_texts())
    shown = page.inner_text("body") + " " + options
    assert code_words_in(shown) == [], shown
    screen = page.context.new_page()
    screen.goto(f"{live_server.url}/display/{gid}?lang=es")
    scripts_ran(screen)
    expect(screen.locator("#ledger-prizes")).to_contain_text("Cinco primeros")
    assert code_words_in(screen.inner_text("body")) == []
