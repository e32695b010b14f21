"""The special games of docs/patterns.md ("Special games"), from its worked examples: the card,
the calls and the outcomes below are the document's, written there first."""

from __future__ import annotations

import pytest

from bingo_hall.errors import KitError
from bingo_hall.seventyfive import claims
from bingo_hall.seventyfive.cards import Card
from bingo_hall.seventyfive.patterns import BUILT_IN
from bingo_hall.seventyfive.specials import (
    MoneyBallPay,
    MoneyBallRule,
    Parity,
    Specials,
    drawn_money_ball,
    judge_book,
    rule_lines,
    wild_digit,
    wild_numbers,
)

ROWS = (
    (3, 17, 33, 48, 61),
    (9, 22, 41, 55, 70),
    (12, 28, None, 49, 63),
    (1, 16, 39, 58, 73),
    (13, 30, 44, 53, 68),
)
CARD = Card(1, tuple(tuple(row[c] for row in ROWS) for c in range(5)))


def test_the_first_balls_last_digit_is_wild_and_ten_makes_zero_wild() -> None:
    assert wild_digit([43, 17]) == 3
    assert wild_numbers([43]) == {3, 13, 23, 33, 43, 53, 63, 73}
    assert wild_numbers([10]) == {10, 20, 30, 40, 50, 60, 70}
    assert wild_numbers([]) == frozenset()


def test_a_wild_number_game_wins_row_one_on_the_fourth_ball_with_3_and_33_never_called() -> None:
    rules = claims.Rules(wild_number=True)
    v = claims.judge(CARD, [43, 17, 48, 61], rules)
    assert v.bingo and [f.name for f in v.winning] == ["R1"]
    assert v.winning[0].by_last_call
    assert {3, 33, 13, 53, 63, 73} <= v.marked
    plain = claims.judge(CARD, [43, 17, 48, 61], claims.Rules())
    assert not plain.bingo


def test_a_wild_number_called_later_completes_nothing() -> None:
    rules = claims.Rules(wild_number=True, completing_call_only=True)
    assert claims.judge(CARD, [43, 17, 48, 61], rules).bingo
    # 33 drawn fifth: it was covered since 43, so row 1 was complete before it
    late = claims.judge(CARD, [43, 17, 48, 61, 33], rules)
    assert late.complete and not late.complete[0].by_last_call
    assert not late.bingo


def test_the_first_ball_of_a_wild_game_is_a_normal_call() -> None:
    v = claims.judge(CARD, [61], claims.Rules(wild_number=True))
    assert 61 in v.marked  # the first ball covers its own square, and 1 (its digit) counts too
    assert (0, 4) in v.covered and (3, 0) in v.covered


def test_four_corners_on_the_money_ball_pays_double_or_the_bonus() -> None:
    rules = claims.Rules(pattern=BUILT_IN["four_corners"], money_ball=61)
    on_it = claims.judge(CARD, [3, 13, 68, 61], rules)
    assert on_it.bingo and on_it.money_ball
    assert MoneyBallRule(MoneyBallPay.DOUBLE).extra(2000) + 2000 == 4000
    assert MoneyBallRule(MoneyBallPay.BONUS, 500).extra(2000) + 2000 == 2500
    off_it = claims.judge(CARD, [3, 61, 13, 68], rules)
    assert off_it.bingo and not off_it.money_ball


def test_a_money_ball_rule_pays_double_or_a_positive_bonus_and_keeps_its_word() -> None:
    with pytest.raises(KitError):
        MoneyBallRule(MoneyBallPay.BONUS, 0)
    for rule in (MoneyBallRule(MoneyBallPay.DOUBLE), MoneyBallRule(MoneyBallPay.BONUS, 500)):
        assert MoneyBallRule.from_word(rule.word) == rule
    with pytest.raises(KitError):
        MoneyBallRule.from_word("triple")


def test_a_drawn_money_ball_is_fixed_by_the_rounds_seed() -> None:
    seed = bytes(range(32))
    assert drawn_money_ball(seed) == drawn_money_ball(seed)
    assert 1 <= drawn_money_ball(seed) <= 75
    balls = {drawn_money_ball(bytes([i]) * 32) for i in range(40)}
    assert len(balls) > 10  # the seed decides it


def test_an_even_game_wins_on_the_tenth_ball_with_no_odd_number_called() -> None:
    calls = [12, 22, 28, 16, 30, 44, 48, 58, 70]
    even = claims.Rules(odd_even=Parity.EVEN)
    assert not claims.judge(CARD, calls, even).bingo
    v = claims.judge(CARD, [*calls, 68], even)
    assert v.bingo and v.kind == claims.VerdictKind.PATTERN
    assert v.winning[0].by_last_call and v.winning[0].name == "even_numbers"
    assert not claims.judge(CARD, [*calls, 68], claims.Rules(odd_even=Parity.ODD)).bingo


def test_an_odd_game_needs_the_cards_14_odd_numbers_and_free_counts() -> None:
    odds = [3, 9, 1, 13, 17, 33, 41, 39, 55, 49, 53, 61, 63, 73]
    rules = claims.Rules(odd_even=Parity.ODD)
    assert not claims.judge(CARD, odds[:-1], rules).bingo
    v = claims.judge(CARD, odds, rules)
    assert v.bingo and (2, 2) in v.covered
    assert len(v.winning[0].numbers) == 14


def test_a_false_odd_even_claim_clears_the_parity_squares() -> None:
    rules = claims.Rules(odd_even=Parity.EVEN)
    penalty = claims.penalty_for(CARD, [12, 22], rules)
    assert (0, 0) not in penalty.cells and (2, 0) in penalty.cells  # 3 stays, 12 goes


def test_special_games_are_bingo_normal_and_odd_even_takes_no_pattern() -> None:
    with pytest.raises(KitError):
        claims.Rules(mode=claims.PUNTOS, wild_number=True)
    with pytest.raises(KitError):
        claims.Rules(odd_even=Parity.ODD, pattern=BUILT_IN["x"])
    with pytest.raises(KitError):
        claims.Rules(cards_needed=0)


def test_a_book_wins_with_the_pattern_on_two_of_its_cards_and_names_them() -> None:
    book = range(13, 19)
    two = judge_book(book, {14: True, 17: True}, needed=2)
    assert two.bingo and two.complete == (14, 17)
    one = judge_book(book, {14: True}, needed=2)
    assert not one.bingo and one.complete == (14,)


def test_each_special_game_has_one_line_in_english_and_spanish() -> None:
    lines = rule_lines(
        Specials(
            wild_number=True,
            odd_even=Parity.EVEN,
            money_ball=61,
            money_ball_rule=MoneyBallRule(MoneyBallPay.BONUS, 500),
            cards_needed=2,
        ),
        [43],
    )
    assert [line.key for line in lines] == ["wild_number", "money_ball", "odd_even", "cards_needed"]
    text = {line.key: line.text for line in lines}
    assert text["wild_number"]["es"] == (
        "Número comodín: 3 — todo número terminado en 3 cuenta como cantado"
    )
    assert "61" in text["money_ball"]["en"] and "5,00" in text["money_ball"]["es"]
    assert all(line.text["en"] != line.text["es"] for line in lines)


def _stamp_card(serial: int, top_left: tuple[int, int, int, int]) -> Card:
    """A card of the book whose top-left postage stamp is the four numbers given (B1 I1 B2 I2);
    the rest differs from card to card so only the stamps matter."""
    b1, i1, b2, i2 = top_left
    return Card(
        serial,
        (
            (b1, b2, 11, 12, 13),
            (i1, i2, 26, 27, 28),
            (31, 32, None, 34, 35),
            (46, 47, 48, 49, 50),
            (61, 62, 63, 64, 65),
        ),
    )


def test_a_claim_on_any_card_of_the_book_wins_with_the_stamp_on_two_and_names_them() -> None:
    book = [_stamp_card(s, (1 + s - 13, 16 + s - 13, 7, 22)) for s in range(13, 19)]
    rules = claims.Rules(pattern=BUILT_IN["postage_stamp"], cards_needed=2)
    # cards 14 and 17: B1 I1 are 2, 17 and 5, 20; the shared B2 I2 are 7 and 22
    calls = [2, 17, 7, 22, 5, 20]
    v = claims.judge_book(book, 13, calls, rules)  # named by card 13, which has no stamp
    assert v.book is not None and v.book.complete == (14, 17)
    assert v.bingo and v.kind == claims.VerdictKind.PATTERN
    one = claims.judge_book(book, 14, calls[:4], rules)
    assert one.book is not None and one.book.complete == (14,) and not one.bingo
    assert one.to_json()["book"] == {"serials": [13, 18], "complete": [14], "needed": 2}
