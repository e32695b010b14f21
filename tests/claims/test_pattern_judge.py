"""The judge over a pattern's forms agrees with a brute force written here: for every pattern of
the book, on random cards (FREE printed or a number in the centre) and random calls, with and
without the free-centre option, a card wins when some form has every square covered."""

import random

import pytest

from bingo_hall.seventyfive.claims import NORMAL, Rules, judge, penalty_for
from bingo_hall.seventyfive.deck import generate_deck
from bingo_hall.seventyfive.patterns import BUILT_IN

NUMBERED = generate_deck(12, seed="pattern brute force")
PRINTED_FREE = generate_deck(12, seed="pattern brute force, free", free_centre=True)
TRIALS = 60


def covered_by_hand(card, calls, free_centre):
    """Every square whose number was called, and the centre when FREE is printed or played."""
    called = set(calls)
    out = set()
    for r in range(5):
        for c in range(5):
            n = card.columns[c][r]
            if (r, c) == (2, 2) and (n is None or free_centre):
                out.add((r, c))
            elif n is not None and n in called:
                out.add((r, c))
    return out


def complete_forms(pattern, covered):
    """Brute force: every cell of every form looked at one by one."""
    found = []
    for i, form in enumerate(pattern.forms):
        if all(cell in covered for cell in form):
            found.append(i)
    return found


def random_night(rng):
    """A card and calls leaning towards its numbers, so that both outcomes come up."""
    card = rng.choice(NUMBERED + PRINTED_FREE)
    mine = sorted(card.numbers)
    lean = rng.random() ** 0.25
    calls = [n for n in mine if rng.random() < lean]
    calls += rng.sample(sorted(set(range(1, 76)) - card.numbers), rng.randint(0, 20))
    rng.shuffle(calls)
    return card, calls


@pytest.mark.parametrize("key", list(BUILT_IN))
def test_the_judge_agrees_with_every_form_checked_by_hand(key):
    pattern = BUILT_IN[key]
    rng = random.Random(f"brute force {key}")
    outcomes = set()
    for _ in range(TRIALS):
        card, calls = random_night(rng)
        for free_centre in (False, True):
            rules = Rules(mode=NORMAL, pattern=pattern, free_centre=free_centre)
            now = complete_forms(pattern, covered_by_hand(card, calls, free_centre))
            before = complete_forms(pattern, covered_by_hand(card, calls[:-1], free_centre))
            v = judge(card, calls, rules)
            assert v.bingo == bool(now), (key, card.serial, calls, free_centre)
            outcomes.add(v.bingo)
            if now:
                (fig,) = v.winning
                assert fig.name == key and fig.form in now
                form = pattern.forms[fig.form]
                assert sorted(fig.numbers) == sorted(
                    n for r, c in form if (n := card.columns[c][r]) is not None
                )
                fresh = [i for i in now if i not in before]
                assert fig.by_last_call == bool(fresh)
            only_fresh = judge(
                card, calls, Rules(NORMAL, free_centre, completing_call_only=True, pattern=pattern)
            )
            assert only_fresh.bingo == any(i not in before for i in now)
    assert outcomes == {True, False}, f"{key}: the random nights never tried both outcomes"


def test_a_hardway_line_does_not_count_the_free_centre():
    card = PRINTED_FREE[0]
    column_n = [card.columns[2][r] for r in (0, 1, 3, 4)]  # N without its FREE square
    rules = Rules(mode=NORMAL, pattern=BUILT_IN["hardway"])
    assert not judge(card, column_n, rules).bingo
    row_1 = [card.columns[c][0] for c in range(5)]
    v = judge(card, column_n + row_1, rules)
    assert v.bingo and sorted(v.winning[0].numbers) == sorted(row_1)


def test_a_double_hardway_needs_two_lines_off_the_centre():
    card = PRINTED_FREE[1]
    rules = Rules(mode=NORMAL, pattern=BUILT_IN["double_hardway"], free_centre=True)
    row_3 = [n for c in range(5) if (n := card.columns[c][2]) is not None]
    row_1 = [card.columns[c][0] for c in range(5)]
    column_b = [card.columns[0][r] for r in range(5)]
    assert not judge(card, row_3 + row_1, rules).bingo  # R3 runs through the FREE square
    v = judge(card, row_3 + row_1 + column_b, rules)
    assert v.bingo and set(v.winning[0].numbers) == set(row_1) | set(column_b)


def test_a_false_claim_on_a_postage_stamp_clears_the_stamp_nearest_complete():
    card = NUMBERED[0]
    stamp = BUILT_IN["postage_stamp"]
    bottom_right = [card.columns[c][r] for r in (3, 4) for c in (3, 4)]
    calls = bottom_right[:3] + [card.columns[0][0]]
    penalty = penalty_for(card, calls, Rules(mode=NORMAL, pattern=stamp))
    assert penalty.cells == {(3, 3), (3, 4), (4, 3), (4, 4)}
