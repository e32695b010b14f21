"""Israeli Rummy scoring (seed rummy-burako.es.txt: "Valor de las fichas", "FINAL")."""

from __future__ import annotations

import pytest

from companions import rummy
from companions.errors import EntryError
from companions.rummy import RummyMatch, rack_points


def replay(settings, players, entries):
    """The engine's replay of a table stored as JSON, read as the shell reads it: the settings
    and each entry into the engine's values."""
    return rummy.replay(
        rummy.Settings.from_json(settings), players, [rummy.Entry.from_json(e) for e in entries]
    )


PLAYERS = ["Ana", "Beto", "Caro"]


def test_a_tile_is_worth_its_number_and_a_joker_left_on_the_rack_50():
    assert rack_points(["1", "7", "13"]) == 21
    assert rack_points(["J"]) == 50
    assert rack_points(["J", "J", "2"]) == 102


def test_unknown_tiles_are_refused():
    with pytest.raises(EntryError):
        rack_points(["14"])


def test_whoever_closes_scores_nothing_and_the_others_add_their_racks():
    match = RummyMatch(("Ana", "Beto")).play("Ana", {"Beto": ["12", "J"]})
    assert match.totals == {"Ana": 0, "Beto": 62}


def test_a_match_is_four_games_and_the_lowest_total_wins():
    games = [
        ("Ana", {"Beto": "10+3", "Caro": 20}),  # Ana 0, Beto 13, Caro 20
        ("Beto", {"Ana": ["J"], "Caro": 5}),  # Ana 50, Beto 0, Caro 5
        ("Caro", {"Ana": 4, "Beto": 30}),  # Ana 4, Beto 30, Caro 0
    ]
    entries = [{"id": i, "closed_by": c, "racks": r} for i, (c, r) in enumerate(games, 1)]
    view = replay({"games": 4}, PLAYERS, entries).to_json()
    assert view["totals"] == [54, 43, 25] and not view["finished"]
    entries.append({"id": 4, "closed_by": "Caro", "racks": {"Ana": 1, "Beto": 2}})
    view = replay({"games": 4}, PLAYERS, entries).to_json()
    assert view["totals"] == [55, 45, 25]
    assert view["finished"] and view["winner"] == "Caro"


def test_a_tie_for_lowest_shares_the_win():
    entries = [{"id": 1, "closed_by": None, "racks": {"Ana": 5, "Beto": 5}}]
    view = replay({"games": 1}, ["Ana", "Beto"], entries).to_json()
    assert view["winners"] == ["Ana", "Beto"] and view["winner"] == "Ana & Beto"


def test_no_fifth_game_in_a_match_of_four():
    entries = [{"id": i, "closed_by": "Ana", "racks": {"Beto": 3}} for i in range(1, 6)]
    with pytest.raises(EntryError) as err:
        replay({"games": 4}, ["Ana", "Beto"], entries)
    assert err.value.entry_id == 5


def test_a_player_who_did_not_close_must_have_tiles_left():
    with pytest.raises(EntryError) as err:
        RummyMatch(("Ana", "Beto")).play("Ana", {"Beto": ""})
    assert err.value.field == "racks.Beto"


def test_whoever_closed_has_an_empty_rack():
    with pytest.raises(EntryError) as err:
        RummyMatch(("Ana", "Beto")).play("Ana", {"Ana": 5, "Beto": 5})
    assert err.value.field == "racks.Ana"


def test_the_closer_must_be_at_the_table():
    with pytest.raises(EntryError) as err:
        RummyMatch(("Ana", "Beto")).play("Zoe", {"Ana": 5, "Beto": 5})
    assert err.value.field == "closed_by"


@pytest.mark.parametrize("players", [["Ana"], ["A", "B", "C", "D", "E"]])
def test_two_to_four_players(players):
    with pytest.raises(EntryError):
        replay({}, players, [])


def test_a_negative_rack_is_refused_next_to_its_field():
    with pytest.raises(EntryError) as err:
        RummyMatch(("Ana", "Beto")).play("Ana", {"Beto": "-4"})
    assert err.value.field == "racks.Beto"
