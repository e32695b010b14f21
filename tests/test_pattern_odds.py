"""The odds of a pattern of several forms on one card, counted exactly by the kit, match values
worked out here by counting, independently of `bingo_hall.odds`.

The chance that k given numbers are all among the first N of 75 calls is hypergeometric:
C(75 - k, N - k) / C(75, N) (the N-ball draws that hold the k numbers over all N-ball draws). A
pattern is won by any of its forms: by inclusion-exclusion over the forms,
P(some form complete) = sum over non-empty families F of forms of (-1)^(|F|+1) P(the numbers of
F's union all called)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from bingo_hall.odds import estimate, exact, odds_for
from bingo_hall.seventyfive.deck import generate_deck
from bingo_hall.seventyfive.patterns import BUILT_IN, FULL_CARD
from bingo_hall.variants import CARDS

BALLS = 75
NUMBERED = generate_deck(1, seed=b"pattern odds")[0]
PRINTED_FREE = generate_deck(1, seed=b"pattern odds, free", free_centre=True)[0]


def all_called(k: int, n: int) -> Fraction:
    return Fraction(comb(BALLS - k, n - k), comb(BALLS, n)) if k <= n else Fraction(0)


def form_numbers(card, form, free_centre):
    """The numbers a form needs called: its printed squares, less a centre played free."""
    return frozenset(
        n
        for r, c in form
        if (n := card.columns[c][r]) is not None and not (free_centre and (r, c) == (2, 2))
    )


def by_inclusion_exclusion(sets: list[frozenset[int]], n: int) -> Fraction:
    total = Fraction(0)
    for size in range(1, len(sets) + 1):
        for family in combinations(sets, size):
            union = frozenset().union(*family)
            total += (-1) ** (size + 1) * all_called(len(union), n)
    return total


def kit_odds(card, key, free_centre):
    plan = CARDS.plan("normal")
    return odds_for([CARDS.needs(card, plan, "bingo", BUILT_IN[key], free_centre)], BALLS)


@pytest.mark.parametrize("key", ["postage_stamp", "crazy_l", "crazy_kite", "small_plus"])
@pytest.mark.parametrize("card", [NUMBERED, PRINTED_FREE], ids=["numbered", "printed FREE"])
@pytest.mark.parametrize("free_centre", [False, True])
def test_a_one_card_pattern_within_n_calls_is_the_exact_count(key, card, free_centre):
    sets = [form_numbers(card, f, free_centre) for f in BUILT_IN[key].forms]
    odds = kit_odds(card, key, free_centre)
    assert odds.exact
    for n in (4, 9, 15, 25, 35, 50, 65, 75):
        assert odds.probability_within(n) == by_inclusion_exclusion(sets, n), (key, n)


def test_the_postage_stamp_and_crazy_l_counts_on_cases_done_by_hand():
    # one stamp of 4 numbers within 4 calls: 4 stamps, disjoint, each 1 / C(75, 4)
    stamp = kit_odds(NUMBERED, "postage_stamp", False)
    assert stamp.probability_within(4) == Fraction(4, comb(75, 4))
    assert stamp.probability_within(3) == 0
    # an L is 9 squares; two Ls together hold 13 or more, so 9 calls win at most one
    crazy_l = kit_odds(NUMBERED, "crazy_l", False)
    assert crazy_l.probability_within(9) == Fraction(4, comb(75, 9))
    assert stamp.probability_within(75) == crazy_l.probability_within(75) == 1


def test_the_expected_call_of_a_stamp_is_the_sum_of_the_chances_of_none_yet():
    sets = [form_numbers(NUMBERED, f, False) for f in BUILT_IN["postage_stamp"].forms]
    expected = sum(1 - by_inclusion_exclusion(sets, n) for n in range(BALLS))
    assert kit_odds(NUMBERED, "postage_stamp", False).expected_call == pytest.approx(
        float(expected), abs=1e-9
    )


def test_the_simulation_agrees_with_the_exact_count_of_a_postage_stamp():
    needs = [CARDS.needs(NUMBERED, CARDS.plan("normal"), "bingo", BUILT_IN["postage_stamp"], True)]
    sets = [frozenset(n.numbers) for n in needs[0]]
    simulated = estimate(needs, BALLS, nights=40_000, seed=52)
    for n in (20, 30, 40):
        assert abs(simulated.chance_within(n) - float(by_inclusion_exclusion(sets, n))) <= 0.01


def test_a_pattern_of_many_numbers_is_simulated_not_counted():
    needs = [CARDS.needs(NUMBERED, CARDS.plan("normal"), "bingo", FULL_CARD, False)]
    assert exact(needs, BALLS) is None
    odds = odds_for(needs, BALLS, nights=200, seed=1)
    assert not odds.exact and odds.nights == 200
