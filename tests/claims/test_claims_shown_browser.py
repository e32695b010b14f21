"""Real Chromium: the hall screen's card is the one every view draws (verify/_vcard.html), in the
screen's language, and a screen that (re)connects while a card is up shows it too."""

import pytest
from playwright.sync_api import expect

from .hall import Hall


@pytest.mark.browser
def test_a_screen_that_reconnects_while_a_card_is_up_shows_it_in_its_language(
    client, live_server, page
):
    hall = Hall(client)
    gid = hall.new_game()
    r2 = hall.numbers(36, "R2")
    hall.call(gid, *r2[:4])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/display/{gid}?lang=es")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    shown = page.locator("#claim-show")
    assert hall.post(f"/api/games/{gid}/check/36").status_code == 200
    head = f"Cartón 36 · Todavía no hay bingo: falta el {r2[4]} (Fila 2)"
    expect(shown.locator(".show-head")).to_have_text(head)
    expect(shown.locator("table.vcard td.sq")).to_have_count(25)
    expect(shown.locator("td.sq.covered")).to_have_count(4)
    expect(shown.locator('td.tot[title="Fila 2"]')).to_have_text(str(sum(r2)))
    page.reload()  # the stream does not replay the verdict: the screen asks what is up
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    expect(shown.locator(".show-head")).to_have_text(head)
    expect(shown.locator("td.sq.covered")).to_have_count(4)
    expect(page.locator(".hero")).to_be_hidden()
    other = page.context.new_page()  # a screen switched on now, in English
    other.goto(f"{live_server.url}/display/{gid}?lang=en")
    expect(other.locator("#claim-show .show-head")).to_have_text(
        f"Card 36 · No bingo yet: Row 2 lacks {r2[4]}"
    )
    expect(other.locator('#claim-show td.tot[title="Row 2"]')).to_have_text(str(sum(r2)))
    hall.call(gid, r2[4])  # the game goes on: the card leaves both screens
    expect(shown).to_be_hidden()
    expect(other.locator("#claim-show")).to_be_hidden()
