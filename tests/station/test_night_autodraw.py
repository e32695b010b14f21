"""Issue 26, item 10: hands-free calling. The station draws a ball every N seconds (3 to 60),
pauses by itself while a claim is checked and when the round is won, and the Maestro pauses,
resumes and stops it; its state is the station's (a reloaded page shows it)."""

from __future__ import annotations

import pytest
from testkit import Caller, eventually


@pytest.fixture
def hall(client):
    return Caller(client)


def auto(hall, gid, **body):
    return hall.post(f"/api/games/{gid}/autodraw", body)


def state(hall, gid):
    return hall.get(f"/api/games/{gid}").get_json()["autodraw"]


@pytest.mark.parametrize("every", [2, 61, "ten", True, None, 4.5])
def test_the_interval_is_three_to_sixty_seconds_said_in_words(hall, every):
    gid = hall.new_game(draw="auto")
    r = auto(hall, gid, action="start", every=every)
    assert r.status_code == 400
    assert "every 3 to 60 seconds" in r.get_json()["error"]
    assert state(hall, gid)["state"] == "off"


def test_a_game_drawn_by_hand_has_no_automatic_draw(hall):
    gid = hall.new_game(draw="manual")
    r = auto(hall, gid, action="start", every=10)
    assert r.status_code == 409 and "drawn by hand" in r.get_json()["error"]


@pytest.mark.slow  # it waits for two balls three seconds apart
def test_the_station_draws_by_itself_every_n_seconds(hall):
    gid = hall.new_game(draw="auto")
    assert auto(hall, gid, action="start", every=3).get_json()["state"] == "running"

    def two_balls_drawn():
        """the ticker drew two balls by itself"""
        return hall.get(f"/api/games/{gid}").get_json()["count"] >= 2

    eventually(two_balls_drawn, timeout=30)
    assert auto(hall, gid, action="stop").get_json()["state"] == "off"


def test_a_claim_checked_pauses_it_and_the_maestro_resumes(hall):
    gid = hall.new_game(draw="auto")
    auto(hall, gid, action="start", every=60)  # no ball comes during this test
    assert hall.get(f"/api/games/{gid}/check/3?quiet=1").status_code == 200
    assert state(hall, gid)["state"] == "running"  # a GET only reads: not shown to the room
    assert hall.post(f"/api/games/{gid}/check/3").status_code == 200
    assert state(hall, gid) | {"next_at": None, "next_in": None} == {
        "state": "paused",
        "every": 60,
        "reason": "claim",
        "next_at": None,
        "next_in": None,
    }
    resumed = auto(hall, gid, action="resume").get_json()
    assert resumed["state"] == "running" and resumed["next_in"] > 50
    assert auto(hall, gid, action="pause").get_json()["reason"] == "maestro"
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 3}).status_code == 201
    assert state(hall, gid)["reason"] == "claim"
    auto(hall, gid, action="stop")


def test_the_award_pauses_it_until_the_next_round(hall):
    gid = hall.new_game(draw="auto")
    while not hall.get(f"/api/games/{gid}/check/1?quiet=1").get_json()["bingo"]:
        hall.post(f"/api/games/{gid}/draw", {})
    auto(hall, gid, action="start", every=60)
    hall.post(f"/api/games/{gid}/claims", {"serial": 1})
    assert hall.post(f"/api/games/{gid}/award").status_code == 200
    assert state(hall, gid)["reason"] == "won"
    refused = auto(hall, gid, action="resume")
    assert refused.status_code == 409 and "Next round" in refused.get_json()["error"]
    assert state(hall, gid)["state"] == "paused"
    hall.post(f"/api/games/{gid}/rounds")
    assert auto(hall, gid, action="resume").get_json()["state"] == "running"
    hall.post(f"/api/games/{gid}/end")  # ending the game stops it
    assert state(hall, gid)["state"] == "off"
    assert auto(hall, gid, action="resume").status_code == 409


def test_a_puntos_game_won_by_its_last_round_stops_it(hall):
    gid = hall.new_game(mode="points", draw="auto")
    for name in ("Maestra", "Ana"):  # the first seat is the Maestro
        hall.post(f"/api/games/{gid}/players", {"name": name})
    hall.post(f"/api/games/{gid}/settings", {"target": 1})
    while not hall.get(f"/api/games/{gid}/check/1?quiet=1").get_json()["bingo"]:
        hall.post(f"/api/games/{gid}/draw", {})
    auto(hall, gid, action="start", every=60)
    hall.post(f"/api/games/{gid}/claims", {"serial": 1, "player": "Ana"})
    awarded = hall.post(f"/api/games/{gid}/award").get_json()
    assert awarded["finished"] is True, awarded
    assert state(hall, gid)["state"] == "off"


def test_after_the_last_ball_it_pauses_by_itself(app, hall):
    from bingo_hall.station.state import station_state

    gid = hall.new_game(draw="auto")
    auto(hall, gid, action="start", every=60)
    for _ in range(75):
        assert hall.post(f"/api/games/{gid}/draw", {}).status_code == 200
    station_state(app).tickers[gid]._draw()  # the interval is up: the ticker's own draw
    assert state(hall, gid)["reason"] == "all_called"
    assert auto(hall, gid, action="resume").status_code == 409
    auto(hall, gid, action="stop")


def test_a_new_game_ends_the_old_one_and_its_automatic_draw(hall):
    old = hall.new_game(draw="auto")
    auto(hall, old, action="start", every=60)
    hall.new_game(draw="auto")  # one game at a time: the old one ends
    assert state(hall, old)["state"] == "off"
