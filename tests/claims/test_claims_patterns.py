"""Pattern games (beyond the seed): four corners, X, cartón lleno and a drawn pattern, in Normal.

Cards and totals are the hand-made CARD of test_claims_rules (corners 5, 70, 4, 64)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bingo_hall.errors import KitError
from bingo_hall.seventyfive.cards import LINE_CELLS
from bingo_hall.seventyfive.claims import NORMAL, Claim, Rules, judge, penalty_for, settle
from bingo_hall.seventyfive.deck import generate_deck
from bingo_hall.seventyfive.patterns import (
    FOUR_CORNERS,
    FULL_CARD,
    X,
    custom_pattern,
    pattern_from_spec,
)

from .test_claims_rules import CARD, OTHER


def test_four_corners_needs_the_four_corner_numbers_only():
    rules = Rules(mode=NORMAL, pattern=FOUR_CORNERS)
    assert not judge(CARD, [5, 70, 4], rules).bingo
    v = judge(CARD, [5, 70, 4, 64], rules)
    assert v.kind == "pattern" and v.bingo
    (fig,) = v.winning
    assert fig.name == "four_corners" and fig.total == 5 + 70 + 4 + 64 and fig.by_last_call


def test_a_pattern_game_reports_the_pattern_not_the_lines():
    # R1 complete, but the game is four corners: no line is reported.
    v = judge(CARD, [5, 20, 34, 51, 70], Rules(mode=NORMAL, pattern=FOUR_CORNERS))
    assert not v.bingo and v.complete == ()


def test_x_uses_both_diagonals_and_the_free_centre():
    diagonals = [5, 16, 48, 64, 70, 46, 18, 4]  # D1 and D2 without the centre 38
    assert not judge(CARD, diagonals, Rules(mode=NORMAL, pattern=X)).bingo
    assert judge(CARD, diagonals, Rules(mode=NORMAL, pattern=X, free_centre=True)).bingo


def test_full_card_needs_all_25_numbers():
    every = [n for col in CARD.columns for n in col]
    rules = Rules(mode=NORMAL, pattern=FULL_CARD)
    assert not judge(CARD, every[:-1], rules).bingo
    v = judge(CARD, every, rules)
    assert v.bingo and v.winning[0].total == 15 + 90 + 190 + 241 + 320


def test_drawn_pattern_parses_row_by_row():
    # A plus sign: the middle row and the middle column.
    plus = custom_pattern("00100/00100/11111/00100/00100")
    assert plus.cells == set(LINE_CELLS["R3"]) | set(LINE_CELLS["N"])
    assert plus.mask == "00100/00100/11111/00100/00100"
    v = judge(CARD, [2, 17, 38, 47, 62, 34, 36, 40, 42], Rules(mode=NORMAL, pattern=plus))
    assert v.bingo


@pytest.mark.parametrize(
    "mask", ["", "0" * 25, "1" * 24, "00000/00000/00100/00000/00000", "1" * 24 + "2"]
)
def test_drawn_pattern_refuses_what_cannot_be_played(mask):
    with pytest.raises(KitError):
        custom_pattern(mask)


def test_pattern_names_from_settings():
    assert pattern_from_spec("lines") is None and pattern_from_spec(None) is None
    assert pattern_from_spec("x") is X
    with pytest.raises(KitError):
        pattern_from_spec("star")


def test_simultaneous_pattern_claims_go_to_the_highest_pattern_total():
    # Corners: CARD 5+70+4+64 = 143, OTHER 6+71+10+75 = 162, both completed by 75.
    rules = Rules(mode=NORMAL, pattern=FOUR_CORNERS)
    calls = [5, 70, 4, 64, 6, 71, 10, 75]
    a = Claim(1, 1, None, judge(CARD, calls, rules))
    b = Claim(2, 2, None, judge(OTHER, calls, rules))
    assert a.verdict.bingo and b.verdict.bingo
    assert settle([a, b]) is b


def test_false_pattern_claim_clears_the_pattern():
    rules = Rules(mode=NORMAL, pattern=FOUR_CORNERS)
    penalty = penalty_for(CARD, [5, 70, 4], rules)
    assert penalty.cells == FOUR_CORNERS.cells
    assert not judge(CARD, [5, 70, 4, 64], rules, [penalty]).bingo


DECK = generate_deck(20, seed="claims property")


@settings(max_examples=150, deadline=None)
@given(
    serial=st.integers(1, 20),
    calls=st.lists(st.integers(1, 75), unique=True, min_size=0, max_size=40),
)
def test_a_card_has_bingo_exactly_when_a_whole_line_was_called(serial, calls):
    card = DECK[serial - 1]
    called = set(calls)
    expected = {line.name for line in card.lines() if set(line.numbers) <= called}
    v = judge(card, calls, Rules(mode=NORMAL))
    assert {f.name for f in v.complete} == expected
    assert v.bingo == bool(expected)
