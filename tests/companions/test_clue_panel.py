"""The Clue notebook through the companions shell: real SQLite, real HTTP, real Chromium at 360 px.
Expected facts are worked out by hand from the rules in `clue.es.txt`."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

PLAYERS = ["Ana", "Beto", "Caro", "Dani"]
MINE = ["green", "mustard", "candlestick", "knife", "ballroom"]  # Ana holds 5 (5,5,4,4)


def new_notebook(client, setup=True) -> str:
    resp = client.post("/t/new/clue", json={"players": PLAYERS})
    assert resp.status_code == 201, resp.get_json()
    code = resp.get_json()["code"]
    if setup:
        entry = {"type": "setup", "me": "Ana", "cards": MINE}
        assert client.post(f"/t/{code}/entries", json=entry).status_code == 201
    return code


def test_the_first_entry_must_say_who_i_am_and_my_cards(panel_app):
    client = panel_app.test_client()
    code = new_notebook(client, setup=False)
    event = {"type": "seen", "holder": "Beto", "card": "rope"}
    resp = client.post(f"/t/{code}/entries", json=event)
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "Set up your notebook first"
    bad = {"type": "setup", "me": "Ana", "cards": ["green", "mustard"]}
    resp = client.post(f"/t/{code}/entries?lang=es", json=bad)
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "Tienes 5 naipes: elige exactamente esa cantidad"
    assert resp.get_json()["field"] == "my_cards"


def test_a_contradiction_is_refused_in_spanish_naming_the_earlier_event_and_this_note(panel_app):
    client = panel_app.test_client()
    code = new_notebook(client)
    base = f"/t/{code}/entries"
    shown = {
        "type": "suggestion",
        "suggester": "Ana",
        "suspect": "plum",
        "weapon": "knife",
        "room": "ballroom",
        "shown_by": "Caro",
        "card": "plum",
    }
    assert client.post(base, json=shown).status_code == 201
    # Dani suggests plum and nobody refutes, so Caro would lack plum: a typo
    typo = {
        "type": "suggestion",
        "suggester": "Dani",
        "suspect": "plum",
        "weapon": "rope",
        "room": "hall",
    }
    resp = client.post(base + "?lang=es", json=typo)
    assert resp.status_code == 400
    # the refused note is not an event yet: it is "this note", and #1 the event it clashes with
    assert (
        resp.get_json()["error"]
        == "Contradicción: esta nota no puede ser cierta junto con el evento #1"
    )
    view = client.get(f"/t/{code}/view").get_json()["view"]
    assert len(view["events"]) == 1  # nothing stored
    assert view["grid"]["plum"]["Caro"] == "has"
    assert view["why"]["plum"]["Caro"] == [1]


def test_correcting_an_event_redoes_the_deductions(panel_app):
    client = panel_app.test_client()
    code = new_notebook(client)
    nobody = {
        "type": "suggestion",
        "suggester": "Beto",
        "suspect": "plum",
        "weapon": "rope",
        "room": "hall",
    }
    resp = client.post(f"/t/{code}/entries", json=nobody)
    entry_id = resp.get_json()["id"]
    view = resp.get_json()["view"]
    # nobody refuted: Caro, Dani and Ana lack all three, so each is Beto's or in the envelope
    assert view["grid"]["rope"]["Caro"] == "lacks" and view["grid"]["rope"]["Dani"] == "lacks"
    assert view["odds"]["rope"]["Beto"] + view["odds"]["rope"]["envelope"] == pytest.approx(1)
    fixed = {**nobody, "shown_by": "Caro"}
    resp = client.put(f"/t/{code}/entries/{entry_id}", json=fixed)
    assert resp.status_code == 200
    view = resp.get_json()["view"]
    assert view["grid"]["rope"]["Caro"] == "unknown"
    assert view["events"][0]["passed"] == []


@pytest.mark.browser
def test_phone_notebook_sets_up_adds_a_suggestion_and_explains_a_cell(panel_app, serve, phone):
    server = serve(panel_app)
    client = panel_app.test_client()
    code = new_notebook(client, setup=False)
    phone.goto(f"{server.url}/t/{code}?lang=en")
    setup = phone.get_by_test_id("setup")
    expect(setup).to_be_visible()
    setup.locator("#cl-me button", has_text="Ana").click()
    for name in ("Mr. Green", "Col. Mustard", "Candlestick", "Knife", "Ballroom"):
        setup.get_by_role("button", name=name, exact=True).click()
    expect(setup.locator("#cl-count")).to_have_text("· 5 of 5")
    setup.get_by_role("button", name="Move Caro up").click()  # Caro sits at my left
    expect(setup.locator("#cl-seating li span")).to_have_text(
        ["1. Ana", "2. Caro", "3. Beto", "4. Dani"]
    )
    setup.get_by_role("button", name="Start my notes").click()
    grid = phone.get_by_test_id("grid")
    expect(grid).to_be_visible()
    # The notes open at their top (the envelope), not mid-page where the button was.
    expect(phone.locator("#cl-env")).to_be_in_viewport()
    assert phone.evaluate("window.scrollY") == 0
    expect(phone.locator("#cl-env .cl-tied").first).to_have_text("4 tied at 25%")
    # I suggest Plum, Rope, Hall; Caro passes and Beto shows me the rope
    form = phone.locator("#cl-add")
    form.locator("select[name=suggester]").select_option("Ana")
    form.locator("select[name=suspect]").select_option("plum")
    form.locator("select[name=weapon]").select_option("rope")
    form.locator("select[name=room]").select_option("hall")
    form.locator("#cl-shower button", has_text="Beto").click()
    expect(phone.locator("#cl-passed")).to_have_text("Passed: Caro")
    form.locator("#cl-card button", has_text="Rope").click()
    form.get_by_role("button", name="Add to my notes").click()
    expect(phone.get_by_test_id("events").locator("li")).to_have_count(1)
    expect(grid.locator("td[data-card=rope][data-place=Beto]")).to_have_text("✓")
    expect(grid.locator("td[data-card=plum][data-place=Caro]")).to_have_text("✗")
    expect(grid.locator("td[data-card=plum][data-place=Dani]")).not_to_have_text("✗")
    grid.locator("td[data-card=hall][data-place=Caro]").click()
    why = phone.get_by_test_id("why")
    expect(why).to_contain_text("Caro does not have Hall.")
    expect(why).to_contain_text("Ana suggested Prof. Plum, Rope, Hall")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360  # no sideways scrolling on a phone
    phone.screenshot(path=str(Path(panel_app.instance_path) / "clue-phone.png"), full_page=True)


def test_most_likely_names_no_card_when_several_tie(panel_app):
    client = panel_app.test_client()
    code = new_notebook(client)
    likely = client.get(f"/t/{code}/view").get_json()["view"]["likely"]
    # Ana holds Green and Mustard: the other four suspects are alike, 25% each, by symmetry.
    assert likely["suspect"]["card"] is None
    assert sorted(likely["suspect"]["tied"]) == sorted(["scarlet", "white", "peacock", "plum"])
    assert likely["suspect"]["p"] == 0.25
    # Seeing three of them leaves one: then it is named.
    for holder, card in (("Beto", "scarlet"), ("Caro", "white"), ("Dani", "peacock")):
        seen = {"type": "seen", "holder": holder, "card": card}
        assert client.post(f"/t/{code}/entries", json=seen).status_code == 201
    likely = client.get(f"/t/{code}/view").get_json()["view"]["likely"]
    assert likely["suspect"] == {"card": "plum", "tied": ["plum"], "p": 1.0}


def test_the_setup_can_put_the_players_in_seating_order(panel_app):
    client = panel_app.test_client()
    code = new_notebook(client, setup=False)
    setup = {
        "type": "setup",
        "seating": ["Ana", "Caro", "Beto", "Dani"],
        "me": "Ana",
        "cards": MINE,
    }
    resp = client.post(f"/t/{code}/entries", json=setup)
    assert resp.status_code == 201
    assert resp.get_json()["view"]["players"] == ["Ana", "Caro", "Beto", "Dani"]
    # Caro now sits to my left: when Beto shows, only Caro passed
    shown = {
        "type": "suggestion",
        "suggester": "Ana",
        "suspect": "plum",
        "weapon": "rope",
        "room": "hall",
    }
    resp = client.post(f"/t/{code}/entries", json={**shown, "shown_by": "Beto", "card": "rope"})
    view = resp.get_json()["view"]
    assert view["events"][0]["passed"] == ["Caro"]
    assert view["grid"]["hall"]["Caro"] == "lacks"
    assert view["grid"]["hall"]["Dani"] == "unknown"
    bad = {**setup, "seating": ["Ana", "Caro", "Beto"]}
    resp = client.put(f"/t/{code}/entries/{view['setup']['id']}?lang=es", json=bad)
    assert resp.status_code == 400
    assert (
        resp.get_json()["error"] == "El orden de los asientos debe nombrar a cada jugador una vez"
    )


@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "% of what is still possible"), ("es", "% de lo que aún es posible")],
)
def test_the_advice_speaks_of_possibilities_ruled_out_not_bits(
    panel_app, serve, phone, lang, words
):
    server = serve(panel_app)
    code = new_notebook(panel_app.test_client())
    phone.goto(f"{server.url}/t/{code}?lang={lang}")
    advice = phone.locator("#cl-advice li small")
    expect(advice.first).to_contain_text(words)
    said = " ".join(advice.all_inner_texts()) + phone.get_by_test_id("advice").inner_text()
    assert "bits" not in said
    # The best suggestion at the start rules out most of what is possible, and says a number.
    first = advice.first.inner_text()
    assert 0 < int("".join(c for c in first if c.isdigit())) <= 100
