"""The claims API against a real station (SQLite, the station's games service): balls entered by
hand complete chosen lines on chosen cards; verdicts and scores are checked against totals summed
here from the printed numbers."""

import csv
import io

import pytest

from bingo_hall.app import create_app

from .hall import Hall


@pytest.fixture
def hall(client):
    return Hall(client)


def test_check_reports_the_completed_row_its_total_and_the_last_call(hall):
    gid = hall.new_game()
    r1 = hall.numbers(7, "R1")
    hall.call(gid, *r1)
    v = hall.get(f"/api/games/{gid}/check/7").get_json()
    assert v["bingo"] and v["kind"] == "bingo" and v["points"] is None
    (line,) = [line for line in v["lines"] if line["name"] == "R1"]
    assert line["numbers"] == r1 and line["total"] == sum(r1)
    assert line["completed_by_last_call"] and not line["central"]
    assert v["last_call"] == r1[-1] and sorted(v["marked"]) == sorted(r1)


def test_check_needs_the_pin_and_a_serial_of_the_deck(hall):
    gid = hall.new_game()
    assert hall.get(f"/api/games/{gid}/check/7", auth=False).status_code == 401
    assert hall.get(f"/api/games/{gid}/check/41").status_code == 404
    assert hall.get(f"/api/games/{gid}/check/x7").status_code == 400
    assert hall.get("/api/games/999/check/7").status_code == 404


def _puntos(hall, *names):
    gid = hall.new_game("points")
    for name in names:
        assert hall.post(f"/api/games/{gid}/players", {"name": name}).status_code == 201
    return gid


def test_doble_central_claim_scores_and_award_credits_it(hall):
    gid = _puntos(hall, "Maestra", "Ana", "Beto")
    # A Doble Central is about 1200 points: play to 3000 so the game goes on to round 2.
    assert hall.post(f"/api/games/{gid}/settings", {"target": 3000}).status_code == 200
    r1, n = hall.numbers(3, "R1"), hall.numbers(3, "N")
    shared = r1[2]  # R1 and N cross at the top of the N column
    hall.call(gid, *[x for x in r1 if x != shared], *[x for x in n if x != shared], shared)
    made = hall.post(f"/api/games/{gid}/claims", {"serial": 3, "player": "Ana"})
    assert made.status_code == 201
    claim = made.get_json()
    assert claim["valid"] and claim["penalty"] is None
    assert claim["verdict"]["kind"] == "doble_central"
    expected = sum(r1) * 2 + sum(n) * 4 + 100
    assert claim["verdict"]["points"] == expected

    settled = hall.post(f"/api/games/{gid}/award").get_json()
    assert settled["award"]["player"] == "Ana" and settled["award"]["points"] == expected
    assert not settled["finished"]
    scores = hall.get(f"/api/games/{gid}/scores", auth=False).get_json()
    assert {s["name"]: s["points"] for s in scores["sides"]}["Ana"] == expected
    # The first seat was the Maestro; the Maestro's left (Ana) calls next, and Beto after her.
    assert scores["maestro"] == "Ana" and scores["next_maestro"] == "Beto"
    # The round's final board stays until the Maestro presses Next round.
    assert len(hall.get(f"/api/games/{gid}", auth=False).get_json()["calls"]) == 9
    assert scores["awarded"]["serial"] == 3 and scores["awarded"]["points"] == expected
    assert hall.post(f"/api/games/{gid}/rounds").status_code == 201
    assert hall.get(f"/api/games/{gid}", auth=False).get_json()["calls"] == []


def test_doble_beats_an_earlier_single_on_the_same_call(hall):
    gid = _puntos(hall, "Maestra", "Ana", "Beto")
    single, doble = 11, 12
    s_row = hall.numbers(single, "R2")
    d_r1, d_b = hall.numbers(doble, "R1"), hall.numbers(doble, "B")
    last = d_r1[0]  # the top-left square is on R1 and on column B
    balls = list(dict.fromkeys(s_row + [x for x in d_r1 + d_b if x != last]))
    assert last not in balls
    hall.call(gid, *balls, last)
    a = hall.post(f"/api/games/{gid}/claims", {"serial": single, "player": "Ana"}).get_json()
    b = hall.post(f"/api/games/{gid}/claims", {"serial": doble, "player": "Beto"}).get_json()
    assert a["valid"] and a["verdict"]["kind"] in ("bingo", "central")
    assert b["verdict"]["kind"] == "doble" and b["verdict"]["points"] == sum(d_r1) + sum(d_b) + 100
    assert b["simultaneous"] == 2
    award = hall.post(f"/api/games/{gid}/award").get_json()["award"]
    assert award["player"] == "Beto" and award["kind"] == "doble"


def test_false_claim_clears_the_claimed_line(hall):
    gid = hall.new_game()
    r1 = hall.numbers(5, "R1")
    hall.call(gid, *r1[:4])
    made = hall.post(f"/api/games/{gid}/claims", {"serial": 5, "line": "R1"}).get_json()
    assert not made["valid"]
    assert made["penalty"]["line"] == "R1" and made["penalty"]["numbers"] == sorted(r1)
    hall.call(gid, r1[4])
    v = hall.get(f"/api/games/{gid}/check/5").get_json()
    assert "R1" not in [line["name"] for line in v["lines"]] and not v["bingo"]
    assert hall.post(f"/api/games/{gid}/award").status_code == 409


def test_puntos_claims_name_a_seated_player_who_is_not_the_maestro(hall):
    gid = _puntos(hall, "Maestra", "Ana")
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 1}).status_code == 400
    assert hall.post(f"/api/games/{gid}/claims", {"serial": 1, "player": "Zoe"}).status_code == 400
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "player": "Maestra"})
    assert r.status_code == 409 and "Maestro" in r.get_json()["error"]


@pytest.mark.parametrize(
    "path,payload",
    [
        ("claims", {"serial": 1}),
        ("award", {}),
        ("players", {"name": "Ana"}),
        ("settings", {"target": 500}),
    ],
)
def test_players_on_the_wifi_cannot_change_a_game(hall, path, payload):
    gid = hall.new_game()
    assert hall.post(f"/api/games/{gid}/{path}", payload, auth=False).status_code == 401


@pytest.mark.parametrize(
    "payload",
    [
        {"serial": "seven"},
        {"serial": 0},
        {"serial": 1, "line": "R9"},
        {"serial": 1, "player": ["Ana"]},
    ],
)
def test_bad_claims_are_refused_with_a_message(hall, payload):
    gid = hall.new_game()
    r = hall.post(f"/api/games/{gid}/claims", payload)
    assert 400 <= r.status_code < 500 and r.get_json()["error"]


def test_malformed_json_is_a_400_not_a_500(hall):
    gid = hall.new_game()
    r = hall.client.post(
        f"/api/games/{gid}/claims",
        data="{nope",
        headers={**hall.auth, "Content-Type": "application/json"},
    )
    assert r.status_code == 400


def test_sociedad_partners_share_one_total_and_reaching_the_target_ends_the_game(hall):
    gid = hall.new_game("points")
    for name, team in [("Maestra", None), ("Ana", "Norte"), ("Beto", "Sur"), ("Carla", "Norte")]:
        assert (
            hall.post(f"/api/games/{gid}/players", {"name": name, "team": team}).status_code == 201
        )
    assert hall.post(f"/api/games/{gid}/settings", {"target": 150}).status_code == 200
    r5 = hall.numbers(9, "R5")  # a single, non-central row
    hall.call(gid, *r5)
    assert (
        hall.post(f"/api/games/{gid}/claims", {"serial": 9, "player": "Carla"}).status_code == 201
    )
    settled = hall.post(f"/api/games/{gid}/award").get_json()
    assert (
        sum(r5) >= 150
    )  # any row of five numbers from 1-75, one per column, totals >= 1+16+31+46+61
    assert settled["finished"] and settled["scores"]["winner"] == "Norte"
    norte = next(s for s in settled["scores"]["sides"] if s["name"] == "Norte")
    assert norte["points"] == sum(r5) and norte["members"] == ["Ana", "Carla"]
    assert hall.get(f"/api/games/{gid}", auth=False).get_json()["status"] == "ended"


def test_four_corners_pattern_reports_the_pattern_instead_of_lines(hall):
    gid = hall.new_game()
    assert hall.post(f"/api/games/{gid}/settings", {"pattern": "four_corners"}).status_code == 200
    card = hall.deck.card(4)
    corners = [card.columns[0][0], card.columns[4][0], card.columns[0][4], card.columns[4][4]]
    hall.call(gid, *hall.numbers(4, "R1"))  # a whole row is not the pattern
    v = hall.get(f"/api/games/{gid}/check/4").get_json()
    assert not v["bingo"] and v["pattern"]["name"] == "four_corners"
    hall.call(gid, corners[2], corners[3])
    v = hall.get(f"/api/games/{gid}/check/4").get_json()
    assert v["bingo"] and v["kind"] == "pattern" and v["lines"][0]["total"] == sum(corners)
    # Rules do not change in the middle of a round.
    assert hall.post(f"/api/games/{gid}/settings", {"pattern": "x"}).status_code == 409


def test_custom_pattern_must_be_playable(hall):
    gid = hall.new_game()
    bad = hall.post(f"/api/games/{gid}/settings", {"pattern": "custom", "mask": "0" * 25})
    assert bad.status_code == 400
    ok = hall.post(f"/api/games/{gid}/settings", {"pattern": "custom", "mask": "1" * 5 + "0" * 20})
    assert ok.get_json()["settings"]["mask"] == "11111/00000/00000/00000/00000"


def test_record_has_calls_claims_award_commitment_and_revealed_seed(hall):
    gid = hall.new_game()
    r2 = hall.numbers(2, "R2")
    hall.call(gid, *r2)
    hall.post(f"/api/games/{gid}/claims", {"serial": 2, "player": "Ana"})
    hall.post(f"/api/games/{gid}/award")
    assert hall.post(f"/api/games/{gid}/rounds").status_code == 201  # the Maestro's next step
    rec = hall.get(f"/api/games/{gid}/record", auth=False).get_json()
    first, second = rec["rounds"]
    assert [c["ball"] for c in first["calls"]] == r2
    assert first["seed"] and first["commitment"] and second["seed"] is None
    assert first["claims"][0]["valid"] and first["award"]["player"] == "Ana"
    text = hall.get(f"/api/games/{gid}/record.csv", auth=False).get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["event"] for r in rows[:7]] == ["round"] + ["call"] * 5 + ["claim"]
    assert rows[7]["event"] == "award" and rows[7]["player"] == "Ana"
    assert first["seed"] in rows[0]["detail"] and rows[8]["event"] == "round"


def test_claims_and_scores_survive_a_restart(hall, tmp_path):
    gid = _puntos(hall, "Maestra", "Ana")
    r3 = hall.numbers(6, "R3")
    hall.call(gid, *r3)
    hall.post(f"/api/games/{gid}/claims", {"serial": 6, "player": "Ana"})
    before = hall.get(f"/api/games/{gid}/scores").get_json()
    again = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "test.sqlite"),
            "SECRET_KEY": "test-secret",
        },
        instance_path=str(tmp_path),
    )
    after = again.test_client().get(f"/api/games/{gid}/scores").get_json()
    assert after == before and after["claims"][0]["points"] == sum(r3) * 2


def test_errors_come_in_the_maestros_language(hall):
    gid = _puntos(hall, "Maestra", "Ana")
    es = {**hall.auth, "Accept-Language": "es"}
    r = hall.client.post(
        f"/api/games/{gid}/claims", json={"serial": 1, "player": "Maestra"}, headers=es
    )
    assert r.get_json()["error"] == "Maestra es el Maestro en esta ronda y no juega"
    r = hall.client.post(f"/api/games/{gid}/settings", json={"target": 0}, headers=es)
    assert r.get_json()["error"] == (
        "el ajuste target: la meta debe ser un número entero de puntos del 1 al 1000000"
    )
