"""The odds of a prize (issue 37 item 2): the simulation agrees with exact values counted here.

The exact values are worked out by counting, independently of `bingo_hall.odds`: the chance
that a given set U of u numbers is all called within the first N of 75 balls is
C(N, u) / C(75, u) (the N-ball subsets that hold U over all N-ball subsets). A prize won by any
of several sets (one of a card's 12 lines) is counted by inclusion-exclusion over the sets:
P(some set complete) = sum over non-empty families S of (-1)^(|S|+1) P(union of S complete).
For two cards that is 2^24 families, grouped here by the size of their union with numpy bit
masks so the count stays exact (integers) and quick.

Every estimate below simulates NIGHTS nights with a fixed seed; it must agree with the count
within ±1 percentage point.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from bingo_hall.errors import KitError
from bingo_hall.odds import Need, estimate
from bingo_hall.seventyfive.cards import CENTRE, LINE_CELLS, Card
from bingo_hall.seventyfive.deck import generate_deck
from bingo_hall.seventyfive.patterns import FULL_CARD
from bingo_hall.variants import CARDS, STRIPS

BALLS = 75
NIGHTS = 40_000
TOLERANCE = 0.01  # ±1 percentage point

DECK = tuple(generate_deck(2, seed=b"odds exact", free_centre=True))


def _line_sets(card: Card) -> list[frozenset[int]]:
    """A card's 12 lines as sets of printed numbers (the FREE centre is no number)."""
    return [
        frozenset(n for r, c in cells if (r, c) != CENTRE and (n := card.number_at(r, c)))
        for cells in LINE_CELLS.values()
    ]


def _all_called(u: int, n: int) -> Fraction:
    """P(a given set of u numbers is all among the first n of 75 balls)."""
    return Fraction(comb(n, u), comb(BALLS, u)) if u <= n else Fraction(0)


def _mask(numbers: frozenset[int]) -> tuple[int, int]:
    bits = sum(1 << (b - 1) for b in numbers)
    return bits & (2**64 - 1), bits >> 64


def _families(sets: list[frozenset[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every family of `sets` (the empty one included): its union's bit mask (low, high
    words) and its size's parity."""
    lo = np.zeros(1, dtype=np.uint64)
    hi = np.zeros(1, dtype=np.uint64)
    odd = np.zeros(1, dtype=np.int64)
    for s in sets:
        m_lo, m_hi = _mask(s)
        lo = np.concatenate([lo, lo | np.uint64(m_lo)])
        hi = np.concatenate([hi, hi | np.uint64(m_hi)])
        odd = np.concatenate([odd, odd ^ 1])
    return lo, hi, odd


def _union_sizes(cards: list[list[frozenset[int]]]) -> dict[int, int]:
    """Signed count of the non-empty families of all the cards' lines by the size of their
    union: sum of (-1)^(|S|+1) for each family S whose union has u numbers."""
    fams = [_families(sets) for sets in cards]
    lo, hi, odd = fams[0]
    out: dict[int, int] = {}
    if len(fams) == 1:
        pairs = [(lo, hi, odd)]
    else:
        lo2, hi2, odd2 = fams[1]
        pairs = [
            (
                lo[i : i + 256, None] | lo2[None, :],
                hi[i : i + 256, None] | hi2[None, :],
                odd[i : i + 256, None] ^ odd2[None, :],
            )
            for i in range(0, len(lo), 256)
        ]
    for p_lo, p_hi, p_odd in pairs:
        size = (np.bitwise_count(p_lo) + np.bitwise_count(p_hi)).astype(np.int64).ravel()
        sign = np.where(p_odd.ravel() == 1, 1, -1)
        counts = np.bincount(size, weights=sign, minlength=BALLS + 1)
        for u, c in enumerate(counts):
            out[u] = out.get(u, 0) + int(c)
    # the empty family (size 0, even: sign -1) is not a prize won
    out[0] += 1
    return out


def exact_any_line(cards: list[Card], n: int) -> Fraction:
    counted = _union_sizes([_line_sets(c) for c in cards])
    return sum((c * _all_called(u, n) for u, c in counted.items() if c), Fraction(0))


def exact_full_house(cards: list[Card], n: int) -> Fraction:
    """P(A or B complete) = P(A) + P(B) - P(A and B complete), each a set of numbers."""
    sets = [c.numbers for c in cards]
    if len(sets) == 1:
        return _all_called(len(sets[0]), n)
    a, b = sets
    return _all_called(len(a), n) + _all_called(len(b), n) - _all_called(len(a | b), n)


def _estimate(cards: list[Card], pattern=None):
    plan = CARDS.plan("normal")
    needs = [CARDS.needs(c, plan, "bingo", pattern, True) for c in cards]
    return estimate(needs, BALLS, nights=NIGHTS, seed=37)


@pytest.mark.parametrize("n_cards", [1, 2])
@pytest.mark.parametrize("calls", [15, 25, 35, 45])
def test_one_line_within_n_calls_agrees_with_the_count(n_cards, calls):
    cards = list(DECK[:n_cards])
    exact = float(exact_any_line(cards, calls))
    got = _estimate(cards).chance_within(calls)
    assert abs(got - exact) <= TOLERANCE, (n_cards, calls, got, exact, NIGHTS)


@pytest.mark.parametrize("n_cards", [1, 2])
@pytest.mark.parametrize("calls", [60, 66, 70, 73])
def test_full_house_within_n_calls_agrees_with_the_count(n_cards, calls):
    cards = list(DECK[:n_cards])
    exact = float(exact_full_house(cards, calls))
    got = _estimate(cards, FULL_CARD).chance_within(calls)
    assert abs(got - exact) <= TOLERANCE, (n_cards, calls, got, exact, NIGHTS)


def test_expected_first_line_is_the_sum_of_the_chances_of_no_line_yet():
    """E[first call] = sum over n of P(no line within n calls), counted exactly."""
    cards = list(DECK[:1])
    exact = sum(1 - float(exact_any_line(cards, n)) for n in range(BALLS))
    assert abs(_estimate(cards).expected_call - exact) <= 0.3


def test_the_exact_count_itself_is_right_on_a_case_done_by_hand():
    """The counting helper: one line of 5 numbers within 5 calls is 1 / C(75, 5); a card's
    full house (24 numbers) within 24 calls is 1 / C(75, 24)."""
    card = DECK[0]
    assert exact_full_house([card], 24) == Fraction(1, comb(75, 24))
    one_row = [s for s in _line_sets(card) if len(s) == 5][:1]
    counted = _union_sizes([one_row])
    assert counted == {**{u: 0 for u in range(BALLS + 1)}, 5: 1}


def test_more_cards_win_sooner():
    few = _estimate(list(DECK[:1]))
    more = _estimate(list(DECK[:2]))
    assert more.expected_call < few.expected_call
    assert more.chance_within(20) > few.chance_within(20)


def test_a_ninety_ball_prize_reads_the_prize_rule():
    """Early Five (any 5 of a ticket's 15) is won on the 5th of its numbers called: with one
    ticket, within 15 calls is P(at least 5 of 15 among 15 of 90), counted here."""
    from bingo_hall.ninety.strips import generate_strips

    ticket = generate_strips(1, seed=b"odds 90")[0].tickets[0]
    plan = STRIPS.plan("tambola")
    needs = [STRIPS.needs(ticket, plan, "early-five", None, False)]
    got = estimate(needs, 90, nights=NIGHTS, seed=5).chance_within(15)
    exact = sum(comb(15, k) * comb(75, 15 - k) for k in range(5, 16)) / comb(90, 15)
    assert abs(got - exact) <= TOLERANCE


def test_no_cards_sold_is_said_in_words():
    with pytest.raises(KitError, match="no cards are sold"):
        estimate([], BALLS)


def test_need_count_zero_means_every_number():
    assert Need(frozenset({1, 2, 3})).needed == 3
    assert Need(frozenset({1, 2, 3}), 2).needed == 2
