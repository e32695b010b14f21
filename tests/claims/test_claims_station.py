"""How claims sit in the station: events after commits, the scoreboard in every snapshot, the
Normal-mode Maestro option, and an award interrupted between its two commits."""

import json

import pytest

from bingo_hall.station.games import channel
from bingo_hall.station.verify import awards
from bingo_hall.web.instance import hall as hall_state

from .hall import Hall


@pytest.fixture
def hall(client):
    return Hall(client)


def _drain(q):
    out = []
    while (event := q.get(timeout=0)) is not None:
        kind = event.text.split("\n", 1)[0].removeprefix("event: ")
        out.append((kind, json.loads(event.text.split("data: ", 1)[1])))
    return out


def test_a_claim_is_announced_after_it_is_stored(app, hall):
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(1, "B"))
    q = hall_state(app).hub.subscribe(channel(gid))
    made = hall.post(f"/api/games/{gid}/claims", {"serial": 1}).get_json()
    got = dict(_drain(q))
    assert got["claim"]["claim_id"] == made["claim_id"] and got["claim"]["valid"]
    assert got["scores"]["claims"][0]["claim_id"] == made["claim_id"]


def test_every_snapshot_carries_the_scoreboard(hall):
    gid = hall.new_game("points")
    hall.post(f"/api/games/{gid}/players", {"name": "Ana", "team": "Norte"})
    snap = hall.get(f"/api/games/{gid}", auth=False).get_json()
    assert snap["scores"]["players"] == [{"name": "Ana", "team": "Norte"}]
    assert snap["scores"]["sides"][0]["name"] == "Norte"


def test_in_normal_the_winner_becomes_maestro_with_the_option(hall):
    gid = hall.new_game()
    for name in ("Ana", "Beto"):
        hall.post(f"/api/games/{gid}/players", {"name": name})
    hall.post(f"/api/games/{gid}/settings", {"winner_becomes_maestro": True, "maestro": "Ana"})
    hall.call(gid, *hall.numbers(10, "I"))
    hall.post(f"/api/games/{gid}/claims", {"serial": 10, "player": "Beto"})
    settled = hall.post(f"/api/games/{gid}/award").get_json()
    assert settled["scores"]["maestro"] == "Beto"
    assert {s["name"]: s["points"] for s in settled["scores"]["sides"]} == {"Beto": 1, "Ana": 0}


def test_an_award_cut_off_before_the_next_round_is_finished_not_repeated(app, hall, monkeypatch):
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(12, "O"))
    hall.post(f"/api/games/{gid}/claims", {"serial": 12, "player": "Ana"})

    def power_cut(*_args, **_kwargs):
        raise RuntimeError("power cut")

    with monkeypatch.context() as m:
        m.setattr(awards.games, "start_next_round", power_cut)
        with app.app_context(), pytest.raises(RuntimeError):
            from bingo_hall.web.db import get_db

            awards.award(get_db(), gid)
    settled = hall.post(f"/api/games/{gid}/award").get_json()
    assert settled["next_round"] == 2
    rec = hall.get(f"/api/games/{gid}/record", auth=False).get_json()
    assert [r["award"]["player"] if r["award"] else None for r in rec["rounds"]] == ["Ana", None]


def test_a_claim_on_a_ball_the_maestro_undid_is_not_awarded(hall):
    gid = hall.new_game()
    col = hall.numbers(14, "B")
    hall.call(gid, *col)
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 14}).get_json()["valid"]
    undo = hall.post(f"/api/games/{gid}/undo", {"reason": "wrong ball typed"})
    assert undo.status_code == 200
    scores = hall.get(f"/api/games/{gid}/scores", auth=False).get_json()
    assert scores["claims"][0]["undone"]
    assert hall.post(f"/api/games/{gid}/award").status_code == 409
