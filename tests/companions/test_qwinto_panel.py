"""The Qwinto panel through the companions shell: real SQLite, real HTTP, real Chromium at 360 px.
Scores are worked out by hand from `dice-sheet-qwinto.es.txt` ("Final del juego")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect


def new_table(client, players=("Ana", "Beto"), **settings) -> str:
    resp = client.post("/t/new/qwinto", json={"players": list(players), "settings": settings})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["code"]


def throw(page, colours, total, who=None):
    """Tap "New roll", choose who throws (if not the one suggested), the dice and the sum."""
    page.locator("#qw-new-roll").click()
    if who is not None:
        page.locator("#qw-dice-player button", has_text=who).click()
    for colour in colours:
        page.locator(f'#qw-dice-colours [data-colour="{colour}"]').click()
    page.locator(f'#qw-dice-numbers [data-value="{total}"]').click()


def test_a_refused_number_is_a_400_naming_the_rule_in_the_players_language(panel_app):
    client = panel_app.test_client()
    code = new_table(client)
    base = f"/t/{code}/entries"
    roll = {"op": "roll", "player": "Ana", "colours": ["orange", "yellow"], "sum": 9}
    assert client.post(base, json=roll).status_code == 201
    place = {"op": "place", "player": "Ana", "colour": "orange", "box": 3, "value": 9}
    assert client.post(base, json=place).status_code == 201
    again = {**place, "box": 4}
    resp = client.post(base + "?lang=es", json=again)
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "Ana ya anotó un número en esta tirada"
    view = client.get(f"/t/{code}/view").get_json()["view"]
    assert view["sheets"][0]["boxes"]["orange"][3] == 9  # nothing lost, nothing added
    assert view["sheets"][0]["boxes"]["orange"][4] is None


def test_bad_settings_and_junk_entries_are_refused_without_a_500(panel_app):
    client = panel_app.test_client()
    resp = client.post("/t/new/qwinto", json={"players": ["Ana", "Beto"], "settings": {"rolls": 3}})
    assert resp.status_code == 400 and "error" in resp.get_json()
    code = new_table(client)
    for junk in ({"op": "place"}, {"op": "roll", "player": "Ana", "colours": "orange"}, {}):
        resp = client.post(f"/t/{code}/entries", json=junk)
        assert resp.status_code == 400 and resp.get_json()["error"]


def test_the_page_is_in_spanish_and_english_with_a_switch(panel_app):
    client = panel_app.test_client()
    code = new_table(client)
    es = client.get(f"/t/{code}?lang=es").get_data(as_text=True)
    en = client.get(f"/t/{code}?lang=en").get_data(as_text=True)
    assert "Tiro fallido" in es and "Clasificación" in es
    assert "Failed throw" in en and "Ranking" in en
    assert "/lang/es" in en and "/lang/en" in es


@pytest.mark.browser
def test_a_phone_fills_boxes_sees_a_refusal_and_the_score(panel_app, serve, phone):
    server = serve(panel_app)
    code = new_table(panel_app.test_client())
    page = phone
    page.goto(f"{server.url}/t/{code}?lang=en")

    # Ana is the active player: she throws the orange and yellow dice for a 9
    expect(page.get_by_role("button", name="New roll: Ana")).to_be_visible()
    throw(page, ["orange", "yellow"], 9)
    expect(page.locator("#qw-roll-text")).to_contain_text("Ana threw Orange + Yellow: 9")
    # the purple die was not thrown: that row is greyed out for this sum
    expect(page.locator('.qw-box[data-colour="purple"]').first).to_have_class("qw-box qw-off")

    box = page.locator('#qw-sheet [data-colour="orange"][data-box="3"]')
    box.click()
    page.locator('#qw-pad-numbers [data-value="9"]').click()
    expect(box).to_have_text("9")
    expect(page.locator("#qw-pad")).to_be_hidden()

    # Beto writes the 9 in yellow, then throws orange + yellow for a 5
    page.locator('.qw-chip[data-player="Beto"]').click()
    page.locator('#qw-sheet [data-colour="yellow"][data-box="0"]').click()
    page.locator('#qw-pad-numbers [data-value="9"]').click()
    expect(page.get_by_role("button", name="New roll: Beto")).to_be_visible()
    throw(page, ["orange", "yellow"], 5)

    # Ana's 5 to the right of her 9 breaks "numbers increase left to right"
    page.locator('.qw-chip[data-player="Ana"]').click()
    page.locator('#qw-sheet [data-colour="orange"][data-box="5"]').click()
    page.locator('#qw-pad-numbers [data-value="5"]').click()
    expect(page.locator("#qw-pad-error")).to_have_text(
        "5 is not larger than every number before it in the row (9 is there)"
    )
    page.locator("#qw-pad [data-close]").click()
    page.locator('#qw-sheet [data-colour="orange"][data-box="0"]').click()
    page.locator('#qw-pad-numbers [data-value="5"]').click()

    # Beto cannot write the 5 anywhere useful and crosses a failed throw
    page.locator('.qw-chip[data-player="Beto"]').click()
    page.get_by_role("button", name="Failed throw").click()
    expect(page.locator("#qw-fails .qw-x.on")).to_have_count(1)

    # Ana: an incomplete orange row with 2 numbers = 2; Beto: 1 number - 5 = -4
    expect(page.locator("#qw-score .qw-total")).to_have_text("-4")
    expect(page.locator("#qw-ranking li")).to_have_text(["1Ana2", "2Beto-4"])


@pytest.mark.browser
def test_the_other_phone_greys_out_the_rows_not_rolled_as_soon_as_the_roll_is_announced(
    panel_app, serve, browser
):
    server = serve(panel_app)
    code = new_table(panel_app.test_client())
    phones = []
    for who in ("Ana", "Beto"):
        context = browser.new_context(
            viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
        )
        page = context.new_page()
        page.goto(f"{server.url}/t/{code}?lang=es")
        page.locator(f'.qw-chip[data-player="{who}"]').click()
        phones.append(page)
    ana, beto = phones
    expect(beto.locator("#live")).to_have_attribute("data-state", "live")
    ana.get_by_role("button", name="Nueva tirada: Ana").click()
    ana.locator('#qw-dice-colours [data-colour="purple"]').click()
    ana.locator('#qw-dice-numbers [data-value="4"]').click()
    # Beto's phone learns of the roll over the live stream, without reloading
    expect(beto.locator("#qw-roll-text")).to_contain_text("Ana tiró Lila: 4")
    for colour, greyed in (("orange", True), ("yellow", True), ("purple", False)):
        boxes = beto.locator(f'#qw-sheet .qw-box[data-colour="{colour}"].qw-off')
        expect(boxes).to_have_count(9 if greyed else 0)
    for page in phones:
        page.context.close()


@pytest.mark.browser
def test_the_phone_offers_only_sums_of_the_dice_and_names_whose_turn_it_is(panel_app, serve, phone):
    server = serve(panel_app)
    code = new_table(panel_app.test_client(), players=("Ana", "Beto", "Caro"))
    page = phone
    page.goto(f"{server.url}/t/{code}?lang=en")
    throw(page, ["purple"], 4)
    # the 4 was announced: the pad offers it and nothing else
    page.locator('#qw-sheet [data-colour="purple"][data-box="0"]').click()
    enabled = page.locator("#qw-pad-numbers button:enabled")
    expect(enabled).to_have_text(["4"])
    page.locator('#qw-pad-numbers [data-value="4"]').click()
    # Caro picks herself to throw, but it is Beto's turn
    expect(page.get_by_role("button", name="New roll: Beto")).to_be_visible()
    throw(page, ["orange"], 3, who="Caro")
    expect(page.locator("#qw-dice-error")).to_have_text(
        "It is Beto's turn to throw: the dice pass clockwise"
    )


@pytest.mark.browser
def test_the_pad_offers_only_what_can_be_accepted(panel_app, serve, phone):
    client = panel_app.test_client()
    code = new_table(client)
    base = f"/t/{code}/entries"
    roll = {"op": "roll", "player": "Ana", "colours": ["orange", "yellow"], "sum": 8}
    assert client.post(base, json=roll).status_code == 201
    server = serve(panel_app)
    phone.goto(f"{server.url}/t/{code}?lang=en")
    phone.locator('#qw-sheet [data-colour="orange"][data-box="3"]').click()
    # two dice with 8 announced: only the 8 can be written, not 2-12
    expect(phone.locator("#qw-pad-numbers button:enabled")).to_have_text(["8"])
    phone.locator("#qw-pad [data-close]").click()
    # a roll with no sum said: any sum two dice can make, until someone writes one
    client.post(
        base, json={"op": "place", "player": "Ana", "colour": "orange", "box": 3, "value": 8}
    )
    roll = {"op": "roll", "player": "Beto", "colours": ["orange", "yellow"]}
    assert client.post(base, json=roll).status_code == 201
    phone.reload()
    phone.locator('.qw-chip[data-player="Beto"]').click()
    phone.locator('#qw-sheet [data-colour="yellow"][data-box="4"]').click()
    expect(phone.locator("#qw-pad-numbers button:enabled")).to_have_text(
        [str(n) for n in range(2, 13)]
    )
