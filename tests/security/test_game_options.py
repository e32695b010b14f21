"""Issue 20, item 6: a game's options are the claims settings, checked when the game is made with
the same rules as a later change of settings; a refused option is named in the answer."""

import pytest


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"pattern": "bogus"}, "pattern"),
        ({"pattern": "custom", "mask": "101"}, "mask"),
        ({"target": 0}, "target"),
        ({"target": "a lot"}, "target"),
        ({"completing_call_only": "yes"}, "completing_call_only"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_game_options_are_refused_at_creation_naming_the_key(caller, options, key):
    payload = {"deck_id": caller.deck.deck_id, "options": options}
    r = caller.post("/api/games", payload)
    assert r.status_code == 400
    assert key in r.get_json()["error"]
    assert caller.get("/api/games").get_json().get("games", []) == []


def test_a_pattern_is_refused_for_bingo_de_puntos_at_creation(caller):
    payload = {"deck_id": caller.deck.deck_id, "mode": "points", "options": {"pattern": "x"}}
    r = caller.post("/api/games", payload)
    assert r.status_code == 400 and "pattern" in r.get_json()["error"]


def test_valid_options_make_the_game_and_its_card_pages_work(caller):
    gid = caller.new_game(options={"pattern": "four_corners", "target": 500})
    assert caller.get(f"/api/games/{gid}/check/3").status_code == 200
    changed = caller.post(f"/api/games/{gid}/settings", {"target": 800}).get_json()
    assert changed["settings"]["pattern"] == "four_corners"


def test_refused_option_is_named_in_spanish_too(caller):
    payload = {"deck_id": caller.deck.deck_id, "options": {"pattern": "custom", "mask": "1"}}
    r = caller.client.post(
        "/api/games?lang=es", json=payload, headers={**caller.auth, "Accept-Language": "es"}
    )
    assert r.status_code == 400
    assert r.get_json()["error"].startswith("el ajuste mask")
