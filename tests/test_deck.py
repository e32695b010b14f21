"""The deck engine: the 1933 rule that every line in the deck is a distinct combination."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bingo_hall.errors import DeckError
from bingo_hall.seventyfive.cards import LINE_CELLS, column_range
from bingo_hall.seventyfive.deck import MAX_CARDS, MAX_CARDS_FREE, generate_deck, up


def all_line_sets(cards):
    """Line sets computed straight from the grid, not through Card.lines()."""
    out = []
    for card in cards:
        for cells in LINE_CELLS.values():
            out.append(frozenset(card.columns[c][r] for r, c in cells) - {None})
    return out


def assert_deck_rules(cards, n, free):
    assert [c.serial for c in cards] == list(range(1, n + 1))
    lines = all_line_sets(cards)
    dupes = [s for s, k in Counter(lines).items() if k > 1]
    assert not dupes, f"repeated lines: {dupes[:3]}"
    for card in cards:
        nums = [x for col in card.columns for x in col if x is not None]
        assert len(nums) == len(set(nums)) == (24 if free else 25)
        for c, col in enumerate(card.columns):
            assert all(x in column_range(c) for x in col if x is not None)
        assert (card.columns[2][2] is None) == free


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 400), seed=st.text(max_size=12), free=st.booleans())
def test_every_line_of_every_card_is_a_distinct_set(n, seed, free):
    assert_deck_rules(generate_deck(n, seed=seed, free_centre=free), n, free)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 200), seed=st.binary(max_size=16), free=st.booleans())
def test_same_seed_gives_the_same_deck(n, seed, free):
    a = generate_deck(n, seed=seed, free_centre=free)
    b = generate_deck(n, seed=seed, free_centre=free)
    assert a == b


def test_different_seeds_give_different_decks():
    assert generate_deck(20, seed="a") != generate_deck(20, seed="b")


def test_no_seed_gives_a_fresh_random_deck():
    assert generate_deck(10) != generate_deck(10)


def test_a_larger_deck_extends_the_smaller_one_from_the_same_seed():
    assert generate_deck(40, seed="party")[:20] == generate_deck(20, seed="party")


def test_full_deck_reaches_3003_cards():
    assert_deck_rules(generate_deck(MAX_CARDS, seed="full"), 3003, False)


def test_full_free_centre_deck_reaches_1365_cards():
    assert_deck_rules(generate_deck(MAX_CARDS_FREE, seed="full", free_centre=True), 1365, True)


def test_every_b_column_is_used_once_in_the_full_deck():
    cards = generate_deck(MAX_CARDS, seed=7)
    b_columns = {frozenset(c.columns[0]) for c in cards}
    assert len(b_columns) == len(list(itertools.combinations(range(15), 5)))


@pytest.mark.parametrize("free,limit", [(False, 3003), (True, 1365)])
def test_asking_for_more_than_the_maximum_names_the_maximum(free, limit):
    with pytest.raises(DeckError, match=str(limit)):
        generate_deck(limit + 1, free_centre=free)


def test_free_centre_limit_error_says_the_free_centre_sets_it():
    with pytest.raises(DeckError) as free:
        generate_deck(1366, free_centre=True)
    assert "1365" in str(free.value) and "FREE centre" in str(free.value)
    with pytest.raises(DeckError) as numbered:
        generate_deck(3004)
    assert "3003" in str(numbered.value) and "FREE" not in str(numbered.value)


@pytest.mark.parametrize("n", [0, -1])
def test_zero_or_negative_cards_is_an_error(n):
    with pytest.raises(DeckError):
        generate_deck(n)


def test_greene_kleitman_step_up_is_injective_on_4_subsets():
    images = [up(t) for t in itertools.combinations(range(15), 4)]
    assert len(set(images)) == 1365
    assert all(set(t) < set(u) for t, u in zip(itertools.combinations(range(15), 4), images))
