"""Issue 40, item 1: Bingo de Puntos in a hall. A claim names a player typed on the spot (seated
with the claim, checked as the players' form checks a name, or not seated at all when the claim
is refused), and the Maestro is the host's explicit choice: the first player added on the caller
page is not made the Maestro unless the box says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN

from .hall import Hall


def _seated(hall: Hall, gid: int) -> list[str]:
    return [p["name"] for p in hall.get(f"/api/games/{gid}/players").get_json()["players"]]


def test_a_claim_seats_a_new_player_typed_on_the_spot_or_nobody_when_refused(client):
    hall = Hall(client)
    gid = hall.new_game("points")
    col = hall.numbers(2, "G")
    hall.call(gid, *col)
    untyped = hall.post(f"/api/games/{gid}/claims", {"serial": 2, "add_player": True})
    assert untyped.status_code == 400 and "name of the new player" in untyped.get_json()["error"]
    made = hall.post(
        f"/api/games/{gid}/claims", {"serial": 2, "player": "Rosa", "add_player": True}
    )
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["valid"] is True and made.get_json()["player"] == "Rosa"
    assert _seated(hall, gid) == ["Rosa"]
    assert hall.get(f"/api/games/{gid}/scores").get_json()["maestro"] is None  # never made it
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    # the round is awarded: a claim is refused, and the name typed with it is not seated
    late = hall.post(
        f"/api/games/{gid}/claims", {"serial": 2, "player": "Tere", "add_player": True}
    )
    assert late.status_code == 409 and "already awarded" in late.get_json()["error"]
    assert _seated(hall, gid) == ["Rosa"]
    # the same checks as the players' form: a name too long is refused in words
    hall.post(f"/api/games/{gid}/rounds")
    long = hall.post(
        f"/api/games/{gid}/claims", {"serial": 2, "player": "x" * 80, "add_player": True}
    )
    assert long.status_code == 400 and _seated(hall, gid) == ["Rosa"]
    # without add_player a name not at the table is still refused, as before
    alone = hall.post(f"/api/games/{gid}/claims", {"serial": 2, "player": "Zoe"})
    assert alone.status_code == 400 and "add the player first" in alone.get_json()["error"]


@pytest.mark.browser
def test_the_host_names_a_new_player_in_the_claim_and_chooses_the_maestro(
    client, live_server, page
):
    hall = Hall(client)
    gid = hall.new_game("points")
    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    page.click("#players-box summary")
    expect(page.locator("#no-maestro")).to_be_visible()  # the host is told to choose one
    page.fill("#player-name", "Lucía")  # the first player, box unticked: not the Maestro
    page.click("#player-form button[type=submit]")
    lucia = page.locator('#claim-player option[value="Lucía"]')
    expect(lucia).to_have_count(1)
    expect(lucia).to_be_enabled()
    expect(lucia).not_to_contain_text("Maestro")
    page.fill("#player-name", "Marta")
    page.check("#player-maestro")
    page.click("#player-form button[type=submit]")
    expect(page.locator('#claim-player option[value="Marta"]')).to_contain_text("(Maestro)")
    expect(page.locator("#no-maestro")).to_be_hidden()
    hall.call(gid, *hall.numbers(2, "G"))
    page.fill("#claim-serial", "2")
    page.click("#claim-new")
    page.fill("#claim-new-player", "Rosa")  # shouted from the back: not at the table yet
    page.click("#claim-submit")
    expect(page.locator("#claim-result .claim-verdict.valid")).to_be_visible()
    expect(page.locator("#claim-message")).to_have_text("Rosa is at the table now.")
    expect(page.locator("#claim-player")).to_have_value("Rosa")
    expect(page.locator("#claim-list")).to_contain_text("Rosa")
    assert _seated(hall, gid) == ["Lucía", "Marta", "Rosa"]
    assert hall.get(f"/api/games/{gid}/scores").get_json()["maestro"] == "Marta"
