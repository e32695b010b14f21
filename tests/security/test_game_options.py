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


#: JSON values of every kind, for a setting that expects a name, a mask, a number or a flag
ODD_VALUES = [[], {}, [1], {"a": 1}, [[]], None, 1.5, True, -1, 10**18, "x" * 300]
SETTING_NAMES = ["pattern", "mask", "target", "completing_call_only", "winner_becomes_maestro"]


@pytest.mark.parametrize("key", SETTING_NAMES)
def test_settings_and_options_of_any_json_kind_are_refused_or_taken_never_a_500(caller, key):
    gid = caller.new_game()
    for value in ODD_VALUES:
        changed = caller.post(f"/api/games/{gid}/settings", {key: value})
        made = caller.post("/api/games", {"deck_id": caller.deck.deck_id, "options": {key: value}})
        for r in (changed, made):
            assert r.status_code < 500, (key, value, r.get_json())
            if r.status_code == 400:
                assert key in r.get_json()["error"], (key, value, r.get_json())


@pytest.mark.parametrize("options", [[], [{"pattern": "x"}], "x", 3, True])
def test_options_that_are_not_an_object_are_refused(caller, options):
    r = caller.post("/api/games", {"deck_id": caller.deck.deck_id, "options": options})
    assert r.status_code == 400


def test_a_pattern_given_as_a_list_is_refused_in_words(caller):
    gid = caller.new_game()
    r = caller.post(f"/api/games/{gid}/settings", {"pattern": []})
    assert r.status_code == 400
    assert "a pattern is a name" in r.get_json()["error"]
