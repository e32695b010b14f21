"""90-ball claims (issue 17): a row is complete when its 5 numbers are called; línea / one line,
two lines, and bingo / full house; and which rows the last call completed. Judged by the one
90-ball prize model, `prize_rules` (issue 34 retired the older `ticket_claims`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bingo_hall.ninety.prize_rules import (
    SPANISH,
    UK,
    check_prize_claim,
    complete_rows,
    rows_completed_by_last_call,
)
from bingo_hall.ninety.strips import generate_strips
from bingo_hall.ninety.tickets import Ticket

LISTS = {p.key: prize_list for prize_list in (SPANISH, UK) for p in prize_list.prizes}


class Prize:
    """The prizes of the Spanish and UK sequences, by their keys."""

    LINEA = "linea"
    BINGO = "bingo"
    ONE_LINE = "one-line"
    TWO_LINES = "two-lines"
    FULL_HOUSE = "full-house"


class PrizeMode:
    SPANISH = SPANISH
    UK = UK


class _Verdict:
    """A claim of `prize` judged by `prize_rules`, read as the Maestro does: valid or not, the
    complete rows, the rows the last call completed, each row's numbers not called yet."""

    def __init__(self, ticket: Ticket, calls: list[int], prize: str) -> None:
        verdict = check_prize_claim(LISTS[prize], ticket, calls, prize)
        self.valid = verdict.result.holds  # the prize's rule, whichever prize is open now
        self.complete_rows = complete_rows(ticket, set(calls))
        self.last_call_rows = rows_completed_by_last_call(ticket, calls)
        self.missing = tuple(tuple(n for n in row if n not in calls) for row in ticket.rows)


def check_ticket_claim(ticket: Ticket, calls: list[int], prize: str) -> _Verdict:
    return _Verdict(ticket, list(calls), prize)


def prizes_satisfied(ticket: Ticket, called: set[int], mode) -> tuple[str, ...]:
    return tuple(
        p.key for p in mode.prizes if check_ticket_claim(ticket, list(called), p.key).valid
    )


def next_prize(mode, awarded: list[str]) -> str | None:
    left = mode.open_prizes(awarded)
    return left[0].key if left else None


# Written by hand: every rule of a ticket holds (columns 1-9, 10-19 ... 80-90, 5 a row).
HAND = Ticket(
    serial=19,
    strip=4,
    grid=(
        (3, None, 21, None, 45, None, 62, None, 80),
        (None, 14, 25, 33, None, 51, None, 77, None),
        (8, 17, None, 38, 49, None, 66, None, None),
    ),
)


def test_linea_is_one_complete_row_and_the_last_call_names_it():
    calls = [21, 45, 3, 62, 14, 80]  # the whole top row (and 14), 80 last
    verdict = check_ticket_claim(HAND, calls, Prize.LINEA)
    assert verdict.valid
    assert verdict.complete_rows == (0,)
    assert verdict.last_call_rows == (0,)
    assert verdict.missing[1] == (25, 33, 51, 77)


def test_a_row_missing_one_number_is_not_a_line():
    calls = [3, 21, 45, 62]
    verdict = check_ticket_claim(HAND, calls, Prize.ONE_LINE)
    assert not verdict.valid and verdict.complete_rows == ()
    assert verdict.missing[0] == (80,)


def test_a_line_completed_earlier_still_wins_but_the_last_call_did_not_complete_it():
    calls = [3, 21, 45, 62, 80, 90]
    verdict = check_ticket_claim(HAND, calls, Prize.LINEA)
    assert verdict.valid and verdict.complete_rows == (0,)
    assert verdict.last_call_rows == ()


def test_two_lines_need_two_complete_rows_of_the_same_ticket():
    calls = [3, 21, 45, 62, 80, 8, 17, 38, 49, 66]
    assert check_ticket_claim(HAND, calls, Prize.TWO_LINES).valid
    assert not check_ticket_claim(HAND, calls, Prize.FULL_HOUSE).valid
    assert prizes_satisfied(HAND, set(calls), PrizeMode.UK) == (Prize.ONE_LINE, Prize.TWO_LINES)
    assert prizes_satisfied(HAND, set(calls), PrizeMode.SPANISH) == (Prize.LINEA,)


def test_bingo_and_full_house_need_all_15_numbers():
    calls = [3, 21, 45, 62, 80, 8, 17, 38, 49, 66, 14, 25, 33, 51, 77]
    for prize in (Prize.BINGO, Prize.FULL_HOUSE):
        assert check_ticket_claim(HAND, calls, prize).valid
    assert check_ticket_claim(HAND, calls, Prize.BINGO).last_call_rows == (1,)
    assert not check_ticket_claim(HAND, calls[:-1], Prize.BINGO).valid


def test_the_prize_sequence_moves_on_when_a_prize_is_awarded():
    assert next_prize(PrizeMode.SPANISH, []) == Prize.LINEA
    assert next_prize(PrizeMode.SPANISH, [Prize.LINEA]) == Prize.BINGO
    assert next_prize(PrizeMode.SPANISH, [Prize.LINEA, Prize.BINGO]) is None
    uk = [Prize.ONE_LINE, Prize.TWO_LINES, Prize.FULL_HOUSE]
    assert [next_prize(PrizeMode.UK, uk[:i]) for i in range(4)] == [*uk, None]


TICKETS = [t for s in generate_strips(3, seed="claims") for t in s.tickets]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(TICKETS),
    st.permutations(range(1, 91)),
    st.integers(min_value=0, max_value=90),
)
@pytest.mark.slow
@pytest.mark.cpu
def test_complete_rows_and_prizes_follow_from_the_grid(ticket, order, n):
    calls = list(order[:n])
    called = set(calls)
    rows = [[cell for cell in row if cell is not None] for row in ticket.grid]
    expected = tuple(r for r in range(3) if set(rows[r]) <= called)
    assert complete_rows(ticket, called) == expected
    last = (
        tuple(r for r in expected if calls[-1] in rows[r]) if calls else ()
    )  # the rows that became complete with the newest ball
    assert rows_completed_by_last_call(ticket, calls) == last
    all_called = all(cell in called for row in rows for cell in row)
    assert check_ticket_claim(ticket, calls, Prize.BINGO).valid == all_called
    assert check_ticket_claim(ticket, calls, Prize.FULL_HOUSE).valid == all_called
    assert check_ticket_claim(ticket, calls, Prize.LINEA).valid == (len(expected) >= 1)
    assert check_ticket_claim(ticket, calls, Prize.TWO_LINES).valid == (len(expected) >= 2)
