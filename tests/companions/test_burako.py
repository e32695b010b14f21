"""Burako scoring, checked against the seed (rummy-burako.es.txt, "VALOR DE LAS FICHAS",
"PUNTAJE", "GANADOR") and docs/rules.md §5. Expected values are worked out by hand in comments."""

from __future__ import annotations

import pytest

from companions import burako
from companions.burako import Rules, hand_score, tile_points
from companions.errors import EntryError


def replay(settings, players, entries):
    """The engine's replay of a table stored as JSON, read as the shell reads it: the settings
    and each entry into the engine's values."""
    return burako.replay(
        Rules.from_json(settings), players, [burako.Entry.from_json(e) for e in entries]
    )


SIDES = ["Ana & Beto", "Caro & Dani"]


def score(**kw):
    base = dict(puras=0, impuras=0, closed=False, muerto="taken", down=0, left=0)
    return hand_score(**{**base, **kw})


@pytest.mark.parametrize(
    "tile,points",
    [("1", 15), ("2", 20), ("3", 5), ("5", 5), ("7", 5), ("8", 10), ("11", 10), ("13", 10)]
    + [("J", 50), ("j", 50), (13, 10)],
)
def test_tile_values_follow_the_seed_table(tile, points):
    assert tile_points(tile) == points


@pytest.mark.parametrize("tile", ["0", "14", "X", "", "1.5"])
def test_a_tile_that_does_not_exist_is_refused(tile):
    with pytest.raises(EntryError):
        tile_points(tile)


def test_canasta_pura_is_worth_200_and_impura_100():
    # muerto taken: +100 each time (bonus on by default)
    assert score(puras=1) == 200 + 100
    assert score(impuras=1) == 100 + 100
    assert score(puras=2, impuras=3) == 400 + 300 + 100


def test_closing_adds_100():
    assert score(puras=1, closed=True) - score(puras=1, closed=False) == 100


def test_not_taking_the_muerto_costs_100():
    assert score(muerto="not_taken") == -100


def test_muerto_bonus_is_a_setting_and_off_gives_nothing_for_taking_it():
    assert score(muerto="taken") == 100
    assert score(muerto="taken", rules=Rules(muerto_bonus=False)) == 0
    # the penalty for not taking it stays either way
    assert score(muerto="not_taken", rules=Rules(muerto_bonus=False)) == -100


def test_points_laid_down_minus_points_left_in_hand():
    assert score(muerto="not_taken", down=85, left=30) == -100 + 85 - 30


def test_points_typed_as_a_sum_like_12_plus_11_plus_7():
    assert score(muerto="not_taken", down="12+11+7") == -100 + 30


def test_counting_tiles_by_tapping_gives_their_values():
    # 1 + 2 + 7 + 13 + joker = 15 + 20 + 5 + 10 + 50 = 100; left: 8 and 3 = 10 + 5
    assert score(muerto="not_taken", down=["1", "2", "7", "13", "J"], left=["8", "3"]) == (
        -100 + 100 - 15
    )


def test_house_rule_without_a_canasta_the_tiles_laid_down_count_against():
    rules = Rules(negative_without_canasta=True)
    assert score(muerto="not_taken", down=60, left=10, rules=rules) == -100 - 60 - 10
    # with a canasta the rule does not apply
    assert score(impuras=1, down=60, left=10, rules=rules) == 100 + 100 + 60 - 10


def test_worked_hand_a_closing_team():
    # 1 pura (200) + 2 impuras (200) + closing (100) + muerto (100) + down 155 - left 0 = 755
    assert score(puras=1, impuras=2, closed=True, down="120+35") == 755


def test_closing_needs_a_canasta():
    with pytest.raises(EntryError) as err:
        score(closed=True)
    assert err.value.field == "closed"


def test_closing_needs_the_muerto_taken():
    with pytest.raises(EntryError):
        score(puras=1, closed=True, muerto="not_taken")


@pytest.mark.parametrize("bad", [{"down": -5}, {"left": "ten"}, {"puras": -1}, {"muerto": "x"}])
def test_bad_input_names_its_field(bad):
    with pytest.raises(EntryError) as err:
        score(**bad)
    assert err.value.field == next(iter(bad))


def hand(**kw):
    return {"puras": 0, "impuras": 0, "closed": False, "muerto": "taken", "down": 0, **kw}


def test_a_team_reaching_the_target_wins():
    settings = {"target": 500, "muerto_bonus": True, "negative_without_canasta": False}
    first = {"id": 1, "teams": [hand(puras=1, down=150), hand(down=20)]}  # 450 | 120
    view = replay(settings, SIDES, [first]).to_json()
    assert view["totals"] == [450, 120] and not view["finished"]
    second = {"id": 2, "teams": [hand(down=0, left=40), hand(down=30)]}  # +60 | +130
    view = replay(settings, SIDES, [first, second]).to_json()
    assert view["totals"] == [510, 250]
    assert view["finished"] and view["winner"] == "Ana & Beto"


def test_when_both_pass_the_target_the_higher_total_wins_and_a_tie_plays_on():
    settings = {"target": 100}
    both = {"id": 1, "teams": [hand(down=50), hand(down=80)]}  # 150 | 180
    assert replay(settings, SIDES, [both]).to_json()["winner"] == "Caro & Dani"
    tie = {"id": 1, "teams": [hand(down=50), hand(down=50)]}
    view = replay(settings, SIDES, [tie]).to_json()
    assert view["winner"] is None and not view["finished"]


def test_no_hand_after_the_game_is_won():
    settings = {"target": 100}
    win = {"id": 1, "teams": [hand(down=50), hand()]}
    with pytest.raises(EntryError) as err:
        replay(settings, SIDES, [win, {"id": 2, "teams": [hand(), hand()]}])
    assert err.value.entry_id == 2


def test_only_one_side_closes_a_hand():
    both_close = {"id": 7, "teams": [hand(puras=1, closed=True)] * 2}
    with pytest.raises(EntryError) as err:
        replay({}, SIDES, [both_close])
    assert err.value.entry_id == 7


def test_default_target_is_3000():
    assert replay({}, SIDES, []).to_json()["target"] == 3000


@pytest.mark.parametrize("settings", [{"target": 0}, {"target": "x"}, {"muerto_bonus": "yes"}])
def test_bad_settings_are_refused(settings):
    with pytest.raises(EntryError):
        replay(settings, SIDES, [])
