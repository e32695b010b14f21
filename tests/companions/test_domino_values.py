"""Tile values, the trump table and the doubles declarations of Domino Bingo.

Expected figures are typed in from seed domino-bingo.en.txt (its tables and the worked example
for trump 1) or worked out by hand in the comments, never taken from the engine.
"""

import pytest

from companions.domino_bingo import TILES, doubles_declaration, tile_points, trump_table
from companions.errors import EntryError

# The seed's table ("Suit trumps doubles specials total"), as printed.
SEED_TRADITIONAL = {
    0: (91, 42, 10, 143),
    1: (61, 54, 20, 135),
    2: (66, 52, 20, 138),
    3: (71, 50, 10, 131),
    4: (76, 48, 20, 144),  # wrong in the seed; see test_suit_4_row_follows_the_rule_not_the_seed
    5: (81, 46, 20, 147),
    6: (86, 44, 10, 140),
}
# Berndt's table in the seed ("Suit trumps doubles total").
SEED_BERNDT = {s: (21 + s, 18, 39 + s) for s in range(7)}


def test_the_set_is_a_double_six_of_28_tiles():
    assert len(TILES) == 28 == len(set(TILES))


@pytest.mark.parametrize("suit", [0, 1, 2, 3, 5, 6])
def test_seed_table_rows_are_reproduced_for_the_consistent_suits(suit):
    trumps, doubles, specials, total = SEED_TRADITIONAL[suit]
    assert trump_table(suit) == {
        "trumps": trumps,
        "doubles": doubles,
        "specials": specials,
        "total": total,
    }


def test_suit_4_row_follows_the_rule_not_the_seed():
    # The seed prints 4: 76 48 20 144. But with 4 as trump, [6-4] is a trump (counted in the 76
    # as 4+6 = 10), and a tile counts only once, so only [0-3] is left as a special: 10, and
    # 76 + 48 + 10 = 134. Row 6 of the same table shows this case correctly (specials 10).
    assert trump_table(4) == {"trumps": 76, "doubles": 48, "specials": 10, "total": 134}
    assert SEED_TRADITIONAL[4][2] == 20  # the misprint we deliberately do not reproduce


def test_seed_worked_example_for_trump_one_tile_by_tile():
    # The seed lists these for trump 1: the trumps 61, the doubles 54 (with the Bingo) and
    # the two specials 20.
    trumps = {(1, 0): 8, (1, 1): 28, (2, 1): 3, (3, 1): 4, (4, 1): 5, (5, 1): 6, (6, 1): 7}
    doubles = {(0, 0): 14, (2, 2): 4, (3, 3): 6, (4, 4): 8, (5, 5): 10, (6, 6): 12}
    specials = {(3, 0): 10, (6, 4): 10}
    for tile, value in {**trumps, **doubles, **specials}.items():
        assert tile_points(tile, 1) == value, tile
    assert sum(trumps.values()) == 61 and sum(doubles.values()) == 54
    others = set(TILES) - set(trumps) - set(doubles) - set(specials)
    assert all(tile_points(t, 1) == 0 for t in others)


def test_trump_double_is_worth_28_in_every_suit():
    assert [tile_points((s, s), s) for s in range(7)] == [28] * 7


def test_blank_counts_7_on_a_trump():
    assert tile_points((6, 0), 6) == 13  # 6 + 7
    assert tile_points((0, 5), 0) == 12  # 7 + 5, either end order


def test_a_tile_counts_once_as_the_first_kind_that_applies():
    assert tile_points((3, 0), 3) == 10  # a trump (3 + 7), not trump + special = 20
    assert tile_points((6, 4), 4) == 10  # a trump (4 + 6)
    assert tile_points((6, 6), 6) == 28  # trump double, not a double of 12
    assert tile_points((0, 0), 0) == 28  # the Bingo as trump double
    assert tile_points((0, 0), 3) == 14  # the Bingo as a plain double


def test_plain_tiles_score_nothing():
    assert tile_points((5, 2), 6) == 0
    assert tile_points((5, 1), 3) == 0


@pytest.mark.parametrize("suit", range(7))
def test_berndt_table_is_21_plus_suit(suit):
    trumps, doubles, total = SEED_BERNDT[suit]
    assert trump_table(suit, "berndt") == {
        "trumps": trumps,
        "doubles": doubles,
        "specials": 0,
        "total": total,
    }


def test_berndt_trumps_count_their_non_trump_end():
    assert tile_points((6, 4), 4, "berndt") == 6
    assert tile_points((6, 4), 6, "berndt") == 4
    assert tile_points((4, 0), 4, "berndt") == 0  # a blank is a blank here
    assert tile_points((5, 5), 5, "berndt") == 10  # the trump double counts its pips
    assert tile_points((0, 0), 0, "berndt") == 0


def test_berndt_doubles_count_3_and_there_are_no_specials():
    assert tile_points((0, 0), 5, "berndt") == 3
    assert tile_points((6, 6), 5, "berndt") == 3
    assert tile_points((3, 0), 5, "berndt") == 0
    assert tile_points((6, 4), 5, "berndt") == 0


@pytest.mark.parametrize(
    "count,points,rubbers",
    [(2, 20, 0), (3, 40, 0), (4, 50, 0), (5, 60, 0), (6, 70, 1), (7, 200, 3)],
)
def test_showing_doubles_follows_the_seed_table(count, points, rubbers):
    plain = doubles_declaration(count, False)
    assert (plain.points, plain.rubbers) == (points, rubbers)
    assert doubles_declaration(count, True).points == points + 10


def test_an_invincible_with_the_bingo_is_always_210():
    # Seven doubles include [0-0]; the seed: "an invincible is always worth 210 points".
    assert doubles_declaration(7, True).points == 210


@pytest.mark.parametrize("count", [0, 1, 8, "3", None])
def test_showing_fewer_than_2_or_more_than_7_doubles_is_refused(count):
    with pytest.raises(EntryError):
        doubles_declaration(count, False)


def test_berndt_shows_only_one_double_for_3_points_and_no_bingo_bonus():
    assert doubles_declaration(1, True, "berndt").points == 3
    with pytest.raises(EntryError, match="only one double"):
        doubles_declaration(2, False, "berndt")


@pytest.mark.parametrize("bad", [(7, 0), (1, -1), (1,), "64", (1.0, 2), (True, 0)])
def test_a_tile_outside_the_double_six_set_is_refused(bad):
    with pytest.raises(EntryError, match="Not a domino tile"):
        tile_points(bad, 3)


@pytest.mark.parametrize("bad", [7, -1, "6", None])
def test_the_trump_is_a_suit_from_0_to_6(bad):
    with pytest.raises(EntryError):
        trump_table(bad)


def test_an_unknown_variant_is_refused():
    with pytest.raises(EntryError, match="Unknown variant"):
        trump_table(3, "sixty-six")
