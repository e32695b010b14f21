"""The odds cover every pattern of the book: each is counted exactly where its forms hold few
numbers, simulated otherwise, and either way the chance of the pattern within N calls never
falls as N grows and is certain once every ball is out; a full card, which holds every square
of the X, is never likelier than the X."""

from __future__ import annotations

import pytest

from bingo_hall.odds import EXACT_MOST, odds_for
from bingo_hall.seventyfive.deck import generate_deck
from bingo_hall.seventyfive.patterns import BUILT_IN
from bingo_hall.variants import CARDS

BALLS = 75
CARD = generate_deck(1, seed=b"every pattern's odds")[0]


def numbers(key: str) -> int:
    """How many distinct numbers the pattern's forms hold on the card (the exact count's size)."""
    forms = BUILT_IN[key].forms
    cells = frozenset().union(*forms)
    return len({n for r, c in cells if (n := CARD.columns[c][r]) is not None})


@pytest.mark.parametrize("key", list(BUILT_IN))
def test_every_pattern_of_the_book_has_odds_counted_or_simulated(key):
    needs = [CARDS.needs(CARD, CARDS.plan("normal"), "bingo", BUILT_IN[key], False)]
    odds = odds_for(needs, BALLS, nights=300, seed=7)
    assert odds.exact == (numbers(key) <= EXACT_MOST), key
    chances = [odds.chance_within(n) for n in range(BALLS + 1)]
    assert chances[0] == 0 and chances[BALLS] == pytest.approx(1), key
    assert all(a <= b + 1e-12 for a, b in zip(chances, chances[1:], strict=False)), key


def test_a_full_card_is_never_likelier_than_the_x_it_covers():
    plan = CARDS.plan("normal")
    full = odds_for([CARDS.needs(CARD, plan, "bingo", BUILT_IN["full_card"], False)], BALLS)
    x = odds_for([CARDS.needs(CARD, plan, "bingo", BUILT_IN["x"], False)], BALLS)
    for n in (30, 45, 60, 70):
        assert full.chance_within(n) <= x.chance_within(n), n
