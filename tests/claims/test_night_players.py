"""Issue 26, item 7: a player's name or team is fixed with the PIN, and every win follows it to
the scoreboard and the record; a player is taken off the table, and one who has won is asked
about first and stays in the record."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN

from .hall import Hall


def _puntos_with_a_win(hall: Hall) -> tuple[int, int]:
    """A Puntos game where Anna (typo) won round 1 with card 2's column G: (game, points)."""
    gid = hall.new_game("points")
    for name, team in (("Maestra", None), ("Anna", "Los Rojos"), ("Beto", None)):
        assert (
            hall.post(f"/api/games/{gid}/players", {"name": name, "team": team}).status_code == 201
        )
    col = hall.numbers(2, "G")
    hall.call(gid, *col)
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 2, "player": "Anna"}).status_code == 201
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    return gid, sum(col)


def test_a_rename_carries_the_wins_to_the_scoreboard_and_the_record(client):
    hall = Hall(client)
    gid, points = _puntos_with_a_win(hall)
    anyone = client.post(
        f"/api/games/{gid}/players/rename", json={"name": "Anna", "new_name": "Ana"}
    )
    assert anyone.status_code == 401  # the PIN is needed
    r = hall.post(f"/api/games/{gid}/players/rename", {"name": "Anna", "new_name": "Ana"})
    assert r.status_code == 200, r.get_json()
    board = hall.get(f"/api/games/{gid}/scores").get_json()
    assert [p["name"] for p in board["players"]] == ["Maestra", "Ana", "Beto"]
    rojos = next(s for s in board["sides"] if s["name"] == "Los Rojos")
    assert rojos["members"] == ["Ana"] and rojos["points"] == points
    assert board["maestro"] == "Ana"  # her turn as Maestro (the seat after Maestra) follows
    record = hall.get(f"/api/games/{gid}/record.csv").get_data(as_text=True)
    assert "Anna" not in record and "Ana" in record
    taken = hall.post(f"/api/games/{gid}/players/rename", {"name": "Beto", "new_name": "Ana"})
    assert taken.status_code == 409 and "already playing" in taken.get_json()["error"]
    ghost = hall.post(f"/api/games/{gid}/players/rename", {"name": "Zoe", "new_name": "Zoa"})
    assert ghost.status_code == 404 and "not at the table" in ghost.get_json()["error"]


def test_a_player_who_won_is_asked_about_and_stays_in_the_record(client):
    hall = Hall(client)
    gid, points = _puntos_with_a_win(hall)
    asked = hall.post(f"/api/games/{gid}/players/remove", {"name": "Anna"})
    assert asked.status_code == 409 and "confirm" in asked.get_json()["error"]
    assert "Anna" in [
        p["name"] for p in hall.get(f"/api/games/{gid}/players").get_json()["players"]
    ]
    gone = hall.post(f"/api/games/{gid}/players/remove", {"name": "Anna", "confirm": True})
    assert gone.status_code == 200 and gone.get_json()["kept"] is True
    board = hall.get(f"/api/games/{gid}/scores").get_json()
    assert [p["name"] for p in board["players"]] == ["Maestra", "Beto"]
    assert next(s for s in board["sides"] if s["name"] == "Los Rojos")["points"] == points
    assert board["maestro"] == "Beto"  # Anna was the Maestro: the next seat calls
    assert "Anna" in hall.get(f"/api/games/{gid}/record.csv").get_data(as_text=True)
    # a player who won nothing just leaves, without a question
    assert hall.post(f"/api/games/{gid}/players/remove", {"name": "Beto"}).status_code == 200
    assert hall.post(f"/api/games/{gid}/players", {"name": "Beto"}).status_code == 201
    back = hall.post(f"/api/games/{gid}/players", {"name": "Anna", "team": "Los Rojos"})
    assert back.status_code == 201  # back at the table, with the points won before


@pytest.mark.browser
def test_the_maestro_renames_and_removes_players_on_the_caller_page(client, live_server, page):
    hall = Hall(client)
    gid, points = _puntos_with_a_win(hall)
    hall.post(f"/api/games/{gid}/rounds")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/caller/login?lang=en&next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.press("input[name=pin]", "Enter")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    screen = page.context.new_page()
    screen.goto(f"{live_server.url}/display/{gid}?lang=en")
    expect(screen.locator("[data-scoreboard]")).to_contain_text("Anna", timeout=15_000)
    page.click("#players-box summary")
    anna = page.locator('#player-list li[data-player="Anna"]')
    anna.locator(".pl-name").fill("Ana")
    anna.locator(".pl-rename").click()
    expect(page.locator("#claim-message")).to_have_text("Anna is now Ana.")
    expect(screen.locator("[data-scoreboard]")).to_contain_text("Ana", timeout=15_000)
    expect(screen.locator("[data-scoreboard]")).not_to_contain_text("Anna")
    expect(page.locator('#claim-player option[value="Ana"]')).to_have_count(1)
    asked: list[str] = []

    def decline(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", decline)
    page.locator('#player-list li[data-player="Ana"] .pl-remove').click()
    expect(page.locator('#player-list li[data-player="Ana"]')).to_have_count(1)
    assert asked and "Ana has won in this game (round 1" in asked[0], asked
    page.once("dialog", lambda d: d.accept())
    page.locator('#player-list li[data-player="Ana"] .pl-remove').click()
    expect(page.locator('#player-list li[data-player="Ana"]')).to_have_count(0)
    expect(page.locator('#claim-player option[value="Ana"]')).to_have_count(0)
    page.locator('#player-list li[data-player="Beto"] .pl-remove').click()  # no question
    expect(page.locator('#player-list li[data-player="Beto"]')).to_have_count(0)
    board = hall.get(f"/api/games/{gid}/scores").get_json()
    assert next(s for s in board["sides"] if s["name"] == "Los Rojos")["points"] == points
