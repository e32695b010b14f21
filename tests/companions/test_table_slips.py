"""Small slips a family found at the table: an undone game still offered after it was entered
again, a team of two announced in the singular, a finished Qwinto sheet greyed as if a throw were
still to be written. Real SQLite, real HTTP, real Chromium where the page's script draws it."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import expect


def _post(url_or_client, code: str, entry: dict) -> None:
    if isinstance(url_or_client, str):
        resp = requests.post(f"{url_or_client}/t/{code}/entries", json=entry, timeout=10)
        assert resp.status_code == 201, resp.text
    else:
        resp = url_or_client.post(f"/t/{code}/entries", json=entry)
        assert resp.status_code == 201, resp.get_json()


def test_a_team_of_two_wins_in_the_plural_and_one_player_in_the_singular(tclient, new_table):
    pairs = new_table(tclient, "burako", teams=[["Ana", "Luis"], ["Caro", "Tom"]])
    alone = new_table(tclient, "burako", teams=[["Ana"], ["Caro"]])
    for code in (pairs, alone):
        won = {"puras": 1, "muerto": "taken", "closed": True, "down": 3000}
        _post(tclient, code, {"teams": [won, {"muerto": "not_taken", "down": 10}]})
    en = tclient.get(f"/t/{pairs}?lang=en").get_data(as_text=True)
    assert "Ana &amp; Luis win!" in en and "Luis wins!" not in en
    es = tclient.get(f"/t/{pairs}?lang=es").get_data(as_text=True)
    assert "¡Ganan Ana &amp; Luis!" in es
    assert "Ana wins!" in tclient.get(f"/t/{alone}?lang=en").get_data(as_text=True)


@pytest.mark.browser
def test_an_undone_game_entered_again_is_no_longer_offered_to_restore(panel_app, serve, phone):
    server = serve(panel_app)
    code = requests.post(
        f"{server.url}/t/new/rummy", json={"players": ["Ana", "Luis"]}, timeout=10
    ).json()["code"]
    for closer, other in (("Ana", "Luis"), ("Luis", "Ana"), ("Ana", "Luis")):
        _post(server.url, code, {"closed_by": closer, "racks": {other: 10}})
    phone.goto(f"{server.url}/t/{code}?lang=en")
    phone.once("dialog", lambda d: d.accept())
    phone.get_by_role("button", name="Undo last entry").click()
    expect(phone.locator("#undone-list")).to_contain_text("Entry 3 was undone")
    # game 3 entered again, differently: the undone one cannot come back in its place
    _post(server.url, code, {"closed_by": "Luis", "racks": {"Ana": 20}})
    expect(phone.locator('[data-total="0"]')).to_have_text("30")
    expect(phone.locator("#undone-list .undone-row")).to_have_count(0)


@pytest.mark.browser
def test_a_finished_qwinto_sheet_greys_no_row(panel_app, serve, phone):
    server = serve(panel_app)
    players = ["Ana", "Beto"]
    code = requests.post(
        f"{server.url}/t/new/qwinto", json={"players": players}, timeout=10
    ).json()["code"]
    # each crosses failed throws in turn; Ana's 4th ends the game on an orange throw that Beto
    # has not written: he still may, so his yellow and purple rows are not where it can go
    for who in players * 3 + ["Ana"]:
        _post(server.url, code, {"op": "roll", "player": who, "colours": ["orange"], "sum": 1})
        _post(server.url, code, {"op": "fail", "player": who})
    phone.goto(f"{server.url}/t/{code}?lang=en")
    expect(phone.locator("#qw-over")).to_be_visible()
    phone.locator("#qw-who button", has_text="Beto").click()
    expect(phone.locator("#qw-sheet .qw-box")).to_have_count(27)
    expect(phone.locator("#qw-sheet .qw-off")).to_have_count(0)
