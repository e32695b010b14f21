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


def test_a_checked_card_is_shown_on_the_screens_with_the_numbers_it_lacks(app, hall):
    gid = hall.new_game()
    r2 = hall.numbers(7, "R2")
    hall.call(gid, *r2[:4])  # one short of row 2: the nearest line, lacking its last number
    q = hall_state(app).hub.subscribe(channel(gid))
    assert hall.post(f"/api/games/{gid}/check/7").status_code == 200
    shown = dict(_drain(q))["verdict"]
    assert shown["source"] == "check" and shown["serial"] == 7 and not shown["valid"]
    assert shown["verdict"]["missing"] == {"line": "R2", "numbers": [r2[4]]}
    card = hall.deck.card(7)
    assert shown["verdict"]["totals"]["R2"] == sum(r2) == card.lines_by_name["R2"].total
    assert hall.get(f"/api/games/{gid}/check/7").status_code == 200
    assert _drain(q) == []  # a GET only reads: the caller page's refreshes, or a link


def test_a_false_claim_is_shown_with_its_penalty_and_a_valid_one_with_its_line(app, hall):
    gid = hall.new_game()
    r5 = hall.numbers(9, "R5")
    hall.call(gid, *r5[:3])
    q = hall_state(app).hub.subscribe(channel(gid))
    hall.post(f"/api/games/{gid}/claims", {"serial": 9, "player": "Ana", "line": "R5"})
    shown = dict(_drain(q))["verdict"]
    assert shown["source"] == "claim" and shown["player"] == "Ana" and not shown["valid"]
    assert shown["penalty"]["line"] == "R5" and shown["penalty"]["numbers"] == sorted(r5)
    hall.post(f"/api/games/{gid}/undo", {"reason": "test"})  # keep the penalty out of the way
    col = hall.numbers(10, "G")
    hall.call(gid, *col)
    hall.post(f"/api/games/{gid}/claims", {"serial": 10})
    shown = dict(_drain(q))["verdict"]
    assert shown["valid"] and shown["verdict"]["winning"] == ["G"]
    assert shown["verdict"]["winning_cells"] == [[r, 3] for r in range(5)]


def test_a_scanned_card_must_carry_this_games_deck_and_a_true_signature(hall):
    from bingo_hall.signing import card_path

    gid = hall.new_game()
    path = card_path(hall.deck.secret, hall.deck.deck_id, 5)
    deck_id, serial, sig = path.strip("/").split("/")[1:]
    ok = hall.get(f"/api/games/{gid}/check/{serial}?deck={deck_id}&sig={sig}")
    assert ok.status_code == 200 and ok.get_json()["serial"] == 5
    forged = hall.get(f"/api/games/{gid}/check/6?deck={deck_id}&sig={sig}")
    assert forged.status_code == 400 and "does not verify" in forged.get_json()["error"]
    other = hall.get(f"/api/games/{gid}/check/5?deck=ZZZZZZZZ&sig={sig}")
    assert other.status_code == 400 and "another deck" in other.get_json()["error"]


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


def test_an_award_cut_off_before_the_game_ends_is_finished_not_repeated(app, hall, monkeypatch):
    gid = hall.new_game("points")
    hall.post(f"/api/games/{gid}/players", {"name": "Maestra"})
    hall.post(f"/api/games/{gid}/players", {"name": "Ana"})
    hall.post(f"/api/games/{gid}/settings", {"target": 1})  # any bingo reaches it
    hall.call(gid, *hall.numbers(12, "O"))
    hall.post(f"/api/games/{gid}/claims", {"serial": 12, "player": "Ana"})

    def power_cut(*_args, **_kwargs):
        raise RuntimeError("power cut")

    with monkeypatch.context() as m:
        m.setattr(awards.games, "end_game", power_cut)
        with app.app_context(), pytest.raises(RuntimeError):
            from bingo_hall.web.db import get_db

            awards.award(get_db(), gid)
    settled = hall.post(f"/api/games/{gid}/award").get_json()
    assert settled["finished"] and settled["scores"]["winner"] == "Ana"
    rec = hall.get(f"/api/games/{gid}/record", auth=False).get_json()
    assert [r["award"]["player"] for r in rec["rounds"]] == ["Ana"] and rec["status"] == "ended"


def test_an_awarded_round_stays_until_the_maestro_starts_the_next(hall):
    gid = hall.new_game()
    col = hall.numbers(4, "B")
    hall.call(gid, *col)
    hall.post(f"/api/games/{gid}/claims", {"serial": 4, "player": "Ana"})
    settled = hall.post(f"/api/games/{gid}/award").get_json()
    snap = hall.get(f"/api/games/{gid}", auth=False).get_json()
    assert snap["round"] == 1 and [c["ball"] for c in snap["calls"]] == col
    assert snap["scores"]["awarded"]["player"] == "Ana" and settled["finished"] is False
    # Awarding again or claiming on the settled board is refused until Next round.
    assert hall.post(f"/api/games/{gid}/award").status_code == 409
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 4}).status_code == 409
    assert hall.post(f"/api/games/{gid}/rounds").status_code == 201
    snap = hall.get(f"/api/games/{gid}", auth=False).get_json()
    assert snap["round"] == 2 and snap["calls"] == [] and snap["scores"]["awarded"] is None


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
