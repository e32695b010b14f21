"""The shell's HTTP side (issue 7): tables, codes, entries, undo, correction, bad input, storage.
Burako is the game under test; expected totals are worked out by hand in comments."""

from __future__ import annotations

import pytest

from bingo_hall.app import create_app

TEAMS = [["Ana", "Beto"], ["Caro", "Dani"]]


def hand(**kw):
    return {"puras": 0, "impuras": 0, "closed": False, "muerto": "taken", "down": 0, **kw}


@pytest.fixture
def code(tclient, new_table):
    return new_table(tclient, "burako", teams=TEAMS, settings={"target": 1000})


def post(client, code, *teams, **extra):
    return client.post(f"/t/{code}/entries", json={"teams": list(teams), **extra})


def totals(client, code):
    return client.get(f"/t/{code}/view").get_json()["view"]["totals"]


def test_a_table_gets_an_eight_letter_code_and_its_sides_are_the_teams(tclient, code):
    assert len(code) == 8 and set(code) <= set("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    view = tclient.get(f"/t/{code}/view").get_json()["view"]
    assert view["sides"] == ["Ana & Beto", "Caro & Dani"] and view["target"] == 1000


def test_a_table_can_be_started_from_the_form(tclient):
    r = tclient.post(
        "/t/new/burako",
        data={"team0": ["Ana", ""], "team1": ["Caro", ""], "setting.target": "1500"},
    )
    assert r.status_code == 302
    view = tclient.get(r.headers["Location"] + "/view").get_json()["view"]
    assert view["sides"] == ["Ana", "Caro"] and view["target"] == 1500
    # an unticked checkbox is a False setting
    assert view["rules"]["muerto_bonus"] is False


@pytest.mark.parametrize(
    "body,field",
    [
        ({"teams": [["Ana"], []]}, "team1"),
        ({"teams": [["Ana", "Beto"], ["Caro"]]}, "team1"),
        ({"teams": [["Ana"], ["ana"]]}, "team0"),
        ({"teams": [["Ana"], ["Caro"]], "settings": {"target": "lots"}}, "setting.target"),
        ({"teams": [["Ana"], ["Caro"]], "settings": {"target": -5}}, "setting.target"),
        ({"teams": [["Ana"], ["Caro"], ["Eva"]]}, "team0"),
        ({"teams": "Ana y Caro"}, "team0"),
        ({"teams": [[1], [2]]}, "team0"),
    ],
)
def test_a_bad_table_gets_a_message_for_its_field(tclient, body, field):
    r = tclient.post("/t/new/burako", json=body)
    assert r.status_code == 400 and r.get_json()["field"] == field


def test_a_bad_form_is_shown_again_with_the_message_next_to_the_field(tclient):
    r = tclient.post("/t/new/burako?lang=es", data={"team0": ["Ana"], "team1": [""]})
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert 'id="team1-error"' in page and "Cada equipo necesita al menos un nombre" in page
    assert 'value="Ana"' in page  # what was typed is kept


def test_unknown_game_and_unknown_code_are_404_not_500(tclient):
    assert tclient.get("/t/new/chess").status_code == 404
    r = tclient.get("/t/ZZZZZ")
    assert r.status_code == 404 and "ZZZZZ" in r.get_data(as_text=True)
    r = tclient.post("/t/ZZZZZ/entries", json={})
    assert r.status_code == 404 and "ZZZZZ" in r.get_json()["error"]


def test_joining_by_code_forgives_case_spaces_and_dashes(tclient, code):
    r = tclient.get(f"/t/join?code={code[:2].lower()} -{code[2:].lower()}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/t/{code}")


def test_joining_an_unknown_code_says_so_next_to_the_field(tclient):
    r = tclient.get("/t/join?code=QQQQQ&lang=es")
    assert r.status_code == 404
    page = r.get_data(as_text=True)
    assert 'id="code-error"' in page and "No hay ninguna mesa con el código QQQQQ" in page


def test_rounds_add_up_and_undo_and_restore_recompute_the_totals(tclient, code):
    # hand 1: 200 pura + 100 muerto + 55 down = 355 | -100 + 20 - 50 (joker left) = -130
    r = post(
        tclient, code, hand(puras=1, down="40+15"), hand(muerto="not_taken", down=20, left=["J"])
    )
    assert r.status_code == 201
    first = r.get_json()["id"]
    # hand 2: 100 + 10 = 110 | 100 impura + 100 + 0 = 200
    second = post(tclient, code, hand(down=10), hand(impuras=1)).get_json()["id"]
    assert totals(tclient, code) == [465, 70]
    r = tclient.post(f"/t/{code}/entries/{first}/undo")
    assert r.status_code == 200 and r.get_json()["view"]["totals"] == [110, 200]
    history = r.get_json()["history"]
    assert [(h["id"], h["undone"]) for h in history] == [(first, True), (second, False)]
    assert tclient.post(f"/t/{code}/entries/{first}/restore").status_code == 200
    assert totals(tclient, code) == [465, 70]


def test_a_past_round_can_be_corrected_and_the_totals_recompute(tclient, code):
    first = post(tclient, code, hand(down=10), hand(down=20)).get_json()["id"]
    post(tclient, code, hand(down=5), hand(down=5))
    assert totals(tclient, code) == [100 + 10 + 100 + 5, 100 + 20 + 100 + 5]
    r = tclient.put(f"/t/{code}/entries/{first}", json={"teams": [hand(down=70), hand(down=20)]})
    assert r.status_code == 200
    assert totals(tclient, code) == [100 + 70 + 100 + 5, 225]


def test_a_correction_that_breaks_a_later_round_is_refused_and_nothing_changes(tclient, code):
    first = post(tclient, code, hand(down=10), hand(down=20)).get_json()["id"]
    second = post(tclient, code, hand(down=5), hand(down=5)).get_json()["id"]
    before = totals(tclient, code)
    # hand 1 now wins the game (100 + 900 >= 1000), so hand 2 can no longer be played
    r = tclient.put(f"/t/{code}/entries/{first}", json={"teams": [hand(down=900), hand()]})
    assert r.status_code == 400 and r.get_json()["entry_id"] == second
    assert totals(tclient, code) == before


@pytest.mark.parametrize(
    "team0,field",
    [
        (hand(down=-4), "teams.0.down"),
        (hand(down="twelve"), "teams.0.down"),
        (hand(left="3+x"), "teams.0.left"),
        (hand(puras=-1), "teams.0.puras"),
        (hand(muerto=None), "teams.0.muerto"),
        (hand(closed=True), "teams.0.closed"),
    ],
)
def test_a_bad_round_gets_a_message_for_its_field_and_is_not_stored(tclient, code, team0, field):
    r = post(tclient, code, team0, hand())
    assert r.status_code == 400 and r.get_json()["field"] == field
    assert "entry_id" not in r.get_json()  # it is about the round being sent
    assert tclient.get(f"/t/{code}/view").get_json()["history"] == []


def test_error_messages_follow_the_language(tclient, code):
    r = tclient.post(f"/t/{code}/entries?lang=es", json={"teams": [hand(down=-4), hand()]})
    assert r.get_json()["error"] == "Una cuenta no puede ser negativa"


@pytest.mark.parametrize(
    "body", ["not json", "[1, 2]", "null", '{"teams": 5}', '{"teams": [1, 2]}', "x" * 40_000]
)
def test_garbage_entries_are_a_4xx_with_a_message_never_500(tclient, code, body):
    r = tclient.post(f"/t/{code}/entries", data=body, content_type="application/json")
    assert r.status_code in (400, 413) and r.get_json()["error"]


def test_undo_of_an_entry_that_does_not_exist_is_404(tclient, code):
    assert tclient.post(f"/t/{code}/entries/999/undo").status_code == 404
    assert tclient.put(f"/t/{code}/entries/999", json={"teams": []}).status_code == 404


def test_the_phone_holder_must_be_someone_at_the_table(tclient, code):
    assert post(tclient, code, hand(), hand(), player="Zoe").status_code == 400
    assert post(tclient, code, hand(), hand(), player=["Ana"]).status_code == 400
    r = post(tclient, code, hand(), hand(), player="Beto")
    assert r.status_code == 201 and r.get_json()["history"][0]["player"] == "Beto"


def test_the_table_survives_a_restart_of_the_server(companions_app, tclient, code, tmp_path):
    post(tclient, code, hand(down=10), hand())
    again = create_app({**companions_app.config, "TESTING": True})
    assert again.test_client().get(f"/t/{code}/view").get_json()["view"]["totals"] == [110, 100]


def test_the_page_is_bilingual_and_installable(tclient, code):
    es = tclient.get(f"/t/{code}?lang=es").get_data(as_text=True)
    en = tclient.get(f"/t/{code}?lang=en").get_data(as_text=True)
    assert "Guardar la mano" in es and "Save hand" in en
    for page in (es, en):
        assert 'rel="manifest"' in page and 'src="/t/static/install.js"' in page
        assert f"/lang/es?next=/t/{code}" in page and "<svg" in page and code in page
    manifest = tclient.get("/t/manifest.webmanifest").get_json(force=True)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/t/"
    for icon in manifest["icons"]:
        assert tclient.get(icon["src"]).status_code == 200
    assert "serviceWorker.register" in tclient.get("/t/static/install.js").get_data(as_text=True)
    sw = tclient.get("/t/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.content_type


def test_game_static_files_are_served_under_t_static_game(tclient):
    assert tclient.get("/t/static/burako/burako.js").status_code == 200
    assert tclient.get("/t/static/shell.js").status_code == 200
    assert tclient.get("/t/static/burako/../../views.py").status_code == 404


def test_the_index_lists_the_games_to_start_and_a_code_field(tclient):
    page = tclient.get("/t/?lang=es").get_data(as_text=True)
    assert "/t/new/burako" in page and "/t/new/rummy" in page and "Rummy israelí" in page
    assert 'name="code"' in page


def test_israeli_rummy_table_over_http(tclient, new_table):
    code = new_table(tclient, "rummy", players=["Ana", "Beto"], settings={"games": 2})
    r = tclient.post(f"/t/{code}/entries", json={"closed_by": "Ana", "racks": {"Beto": "9+J"}})
    assert r.status_code == 400 and r.get_json()["field"] == "racks.Beto"
    r = tclient.post(f"/t/{code}/entries", json={"closed_by": "Ana", "racks": {"Beto": ["9", "J"]}})
    assert r.get_json()["view"]["totals"] == [0, 59]
    r = tclient.post(f"/t/{code}/entries", json={"closed_by": "Beto", "racks": {"Ana": "30+30"}})
    view = r.get_json()["view"]
    assert view["totals"] == [60, 59] and view["finished"] and view["winner"] == "Beto"


def test_play_again_starts_a_new_table_with_the_same_players_and_rules(tclient, code):
    post(tclient, code, hand(down=950), hand())  # 100 + 950 >= 1000: Ana & Beto win
    r = tclient.post(f"/t/{code}/rematch")
    assert r.status_code == 201
    new = r.get_json()["code"]
    assert new != code
    view = tclient.get(f"/t/{new}/view").get_json()["view"]
    assert view["sides"] == ["Ana & Beto", "Caro & Dani"] and view["target"] == 1000
    assert view["hands"] == [] and not view["finished"]
    # the old table points every phone to it, and a second tap does not start a third table
    assert tclient.get(f"/t/{code}/view").get_json()["next"] == new
    assert tclient.post(f"/t/{code}/rematch").get_json()["code"] == new
    assert f"/t/{new}" in tclient.get(f"/t/{code}").get_data(as_text=True)
