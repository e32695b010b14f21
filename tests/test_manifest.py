"""Deck files: everything is validated on read, and errors name the card and the problem."""

import json

import pytest

from bingo_hall.errors import DeckError
from bingo_hall.manifest import FORMAT, load_deck, new_deck, new_strip_deck, parse_deck, save_deck


@pytest.fixture(scope="module")
def deck_dict():
    return json.loads(new_deck(30, seed="m", name="Fiesta").to_json())


def test_manifest_round_trips(tmp_path):
    deck = new_deck(12, seed="r", free_centre=True, name="Casa")
    path = save_deck(deck, tmp_path / "casa.deck.json")
    assert load_deck(path) == deck


def test_manifest_has_the_documented_shape(deck_dict):
    assert deck_dict["format"] == FORMAT
    assert len(deck_dict["deck_id"]) >= 8
    assert len(bytes.fromhex(deck_dict["secret"])) >= 32
    card = deck_dict["cards"][0]
    assert card["serial"] == 1
    cols = card["columns"]
    assert card["totals"]["rows"][0] == sum(cols[c][0] for c in range(5))
    assert card["totals"]["columns"][1] == sum(cols[1])
    assert card["totals"]["diagonals"] == [
        sum(cols[i][i] for i in range(5)),
        sum(cols[4 - i][i] for i in range(5)),
    ]


def test_free_centre_is_null_and_left_out_of_totals():
    d = json.loads(new_deck(3, seed="f", free_centre=True).to_json())
    cols = d["cards"][0]["columns"]
    assert cols[2][2] is None
    assert d["cards"][0]["totals"]["columns"][2] == sum(x for x in cols[2] if x is not None)


def _broken(deck_dict, mutate):
    d = json.loads(json.dumps(deck_dict))
    mutate(d)
    return json.dumps(d)


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda d: d.update(format="other/1"), "format"),
        (lambda d: d["cards"][4]["columns"][0].__setitem__(0, 16), "card 5"),
        (lambda d: d["cards"][2]["totals"]["rows"].__setitem__(0, 1), "card 3: the printed totals"),
        (lambda d: d["cards"][6].update(serial=9), "card #7"),
        (lambda d: d.update(secret="abcd"), "secret"),
        (lambda d: d.update(free_centre="no"), "free_centre"),
        (lambda d: d["cards"].__setitem__(9, dict(d["cards"][3], serial=10)), "card 10 line"),
    ],
)
def test_hand_edited_file_is_refused_naming_the_problem(deck_dict, mutate, message):
    with pytest.raises(DeckError, match=message):
        parse_deck(_broken(deck_dict, mutate))


def test_truncated_file_is_refused(deck_dict):
    with pytest.raises(DeckError, match="invalid JSON"):
        parse_deck(json.dumps(deck_dict)[:500])


def test_repeated_number_in_a_card_is_refused(deck_dict):
    def mutate(d):
        cols = d["cards"][0]["columns"]
        cols[0][1] = cols[0][0]
        d["cards"][0]["totals"]["columns"][0] = sum(cols[0])

    with pytest.raises(DeckError, match="card 1"):
        parse_deck(_broken(deck_dict, mutate))


def test_a_saved_deck_file_is_readable_by_its_owner_only(tmp_path):
    """The deck file holds the QR signing secret (README: keep .deck.json files private)."""
    from bingo_hall.manifest import new_deck, save_deck

    path = save_deck(new_deck(3, seed="private"), tmp_path / "party.deck.json")
    assert path.stat().st_mode & 0o777 == 0o600


# 90-ball decks (issue 17): the file carries its game; older files without it are 75-ball.


def test_a_manifest_without_a_game_loads_as_a_75_ball_deck(deck_dict):
    old = dict(deck_dict)
    del old["game"]
    deck = parse_deck(json.dumps(old))
    assert deck.game == 75 and len(deck.cards) == 30


def test_manifests_name_their_game(deck_dict):
    assert deck_dict["game"] == 75
    assert json.loads(new_strip_deck(2, seed="g").to_json())["game"] == 90


def test_a_90_ball_deck_round_trips_with_its_strips(tmp_path):
    deck = new_strip_deck(3, seed="tira", name="Sala")
    loaded = load_deck(save_deck(deck, tmp_path / "sala.deck.json"))
    assert loaded == deck
    assert [t.serial for t in loaded.strips[2].tickets] == [13, 14, 15, 16, 17, 18]


@pytest.fixture(scope="module")
def strips_dict():
    return json.loads(new_strip_deck(4, seed="m90", name="Sala").to_json())


def test_a_90_ball_ticket_is_stored_as_rows_with_null_blanks_and_row_totals(strips_dict):
    ticket = strips_dict["cards"][7]
    assert ticket["serial"] == 8 and ticket["strip"] == 2
    assert [len(row) for row in ticket["rows"]] == [9, 9, 9]
    assert ticket["totals"]["rows"] == [
        sum(n for n in row if n is not None) for row in ticket["rows"]
    ]


def _swap_rows(d):
    """Ticket 7 (strip 2) takes ticket 1's grid: strip 2 no longer holds 1-90, rows repeat."""
    d["cards"][6] = dict(d["cards"][0], serial=7, strip=2)


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda d: d.update(game=80), "game must be 75 or 90"),
        (lambda d: d.update(free_centre=True), "no FREE square"),
        (lambda d: d["cards"][3]["rows"][0].__setitem__(0, 55), "ticket 4"),
        (lambda d: d["cards"][5]["totals"]["rows"].__setitem__(1, 7), "ticket 6: the printed"),
        (lambda d: d["cards"][8].update(strip=1), "ticket 9: strip"),
        (lambda d: d["cards"].pop(), "whole strips"),
        (_swap_rows, "strip 2"),
    ],
)
def test_a_hand_edited_90_ball_file_is_refused_naming_the_problem(strips_dict, mutate, message):
    with pytest.raises(DeckError, match=message):
        parse_deck(_broken(strips_dict, mutate))
