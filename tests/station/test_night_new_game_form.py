"""Issue 26, item 6: the new-game form fits the deck chosen. A 90-ball deck offers its prize
sequences and no Bingo de Puntos or free centre; a 75-ball deck no prizes box; a deck printed
with FREE always plays it. What does not fit is refused in words a host reads (never a field
name such as `free_centre`), by the API and by the form alike."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN, Caller

from bingo_hall.manifest import new_deck, new_strip_deck

FIELD_NAMES = ("free_centre", "mode", "deck_id", "prizes", "options")


@pytest.fixture
def decks(client):
    strips = new_strip_deck(2, seed="night form", name="Tiras")
    cards = new_deck(12, seed="night form", name="Cartones")
    free = new_deck(12, seed="night form free", name="Con FREE", free_centre=True)
    hall = Caller(client, cards)
    hall.load_deck(strips)
    hall.load_deck(free)
    return hall, cards, strips, free


def _words(r) -> str:
    assert 400 <= r.status_code < 500, (r.status_code, r.get_json())
    error = r.get_json()["error"]
    assert not any(re.search(rf"\b{f}\b", error) for f in FIELD_NAMES), error
    return error


def test_the_api_refuses_puntos_and_a_free_centre_on_tickets_in_words(decks):
    hall, _cards, strips, free = decks
    puntos = hall.post("/api/games", {"deck_id": strips.deck_id, "mode": "points"})
    assert "Bingo de Puntos" in _words(puntos) and "Tiras" in _words(puntos)
    centre = hall.post("/api/games", {"deck_id": strips.deck_id, "free_centre": True})
    assert "free centre" in _words(centre)
    printed = hall.post("/api/games", {"deck_id": free.deck_id, "free_centre": False})
    assert "FREE printed" in _words(printed)
    spanish = hall.client.post(
        "/api/games?lang=es", json={"deck_id": strips.deck_id, "mode": "points"}, headers=hall.auth
    )
    assert "cartones de 75 bolas" in _words(spanish)
    assert hall.get("/api/games").get_json()["games"] == []  # nothing was started


@pytest.mark.browser
def test_the_form_shows_only_what_the_chosen_deck_can_play(decks, live_server, page):
    hall, cards, strips, free = decks
    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/new")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url("**/caller/new")
    puntos = page.locator('input[name="mode"][value="points"]')
    prizes = page.locator('input[name="prizes"][value="lines-house"]')
    centre = page.locator('input[name="free_centre"]')
    page.select_option('select[name="deck_id"]', strips.deck_id)
    expect(puntos).to_be_hidden()
    expect(centre).to_be_hidden()
    expect(prizes).to_be_visible()
    page.select_option('select[name="deck_id"]', cards.deck_id)
    expect(puntos).to_be_visible()
    expect(centre).to_be_visible()
    expect(centre).not_to_be_checked()
    expect(prizes).to_be_hidden()
    page.select_option('select[name="deck_id"]', free.deck_id)
    expect(centre).to_be_checked()
    expect(centre).to_be_disabled()
    expect(page.locator("[data-free-printed]")).to_be_visible()
    # a 75-ball deck chosen with Puntos, then tickets: the game starts with the prizes chosen
    page.select_option('select[name="deck_id"]', cards.deck_id)
    puntos.check()
    page.select_option('select[name="deck_id"]', strips.deck_id)
    prizes.check()
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r"/caller/games/\d+$"))
    gid = int(page.url.rsplit("/", 1)[1])
    snap = hall.get(f"/api/games/{gid}").get_json()
    assert snap["balls"] == 90 and snap["mode"] == "lines-house"


@pytest.mark.browser
def test_the_form_offers_tonights_decks_first_with_their_time_and_picks_the_newest_75_ball(
    app, client, live_server, page
):
    import sqlite3

    old = new_deck(40, seed="last month", name="Demo")
    hall = Caller(client, old)  # loaded first...
    with sqlite3.connect(app.config["DATABASE"]) as db:  # ...on an earlier night
        db.execute(
            "UPDATE decks SET loaded = '2026-10-30T20:00:00Z' WHERE deck_id = ?", (old.deck_id,)
        )
    cards = hall.load_deck(new_deck(12, seed="tonight", name="Fiesta"))
    strips = hall.load_deck(new_strip_deck(2, seed="tonight", name="Tiras"))  # the newest
    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/new")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    page.wait_for_url("**/caller/new")
    groups = page.locator('select[name="deck_id"] optgroup')
    expect(groups).to_have_count(2)
    assert groups.nth(0).get_attribute("label") == "Loaded tonight"
    assert groups.nth(1).get_attribute("label") == "Earlier nights"
    tonight = [o.get_attribute("value") for o in groups.nth(0).locator("option").all()]
    assert tonight == [strips.deck_id, cards.deck_id]  # the last loaded first
    assert [o.get_attribute("value") for o in groups.nth(1).locator("option").all()] == [
        old.deck_id
    ]
    fiesta = groups.nth(0).locator(f'option[value="{cards.deck_id}"]')
    expect(fiesta).to_contain_text(re.compile(r"Fiesta · 12 cards · loaded \d\d:\d\d$"))
    expect(groups.nth(1).locator("option")).to_contain_text("loaded Oct 30, 2026")
    # the newest 75-ball deck is chosen, so Normal / Puntos is offered at once
    expect(page.locator('select[name="deck_id"]')).to_have_value(cards.deck_id)
    expect(page.locator('input[name="mode"][value="points"]')).to_be_visible()
