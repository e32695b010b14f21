"""Prizes as data (bingo_hall/ninety/prize_rules.py): Tambola's prizes, the Spanish and UK lists, a
host's own TOML list. The hand cases use one ticket worked out on paper; the properties recompute
each prize from the printed grid itself, not from the rule objects."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bingo_hall.ninety.prize_list_file import PrizeListError, parse_prize_list
from bingo_hall.ninety.prize_rules import (
    SAME_CALL,
    SPANISH,
    TAMBOLA,
    UK,
    WON_BEFORE,
    PrizeWon,
    check_prize_claim,
    completed_at,
    judge_rule,
)
from bingo_hall.ninety.strips import draw_strip
from bingo_hall.ninety.tickets import Ticket, check_ticket
from bingo_hall.rng import seed_bytes

_ = None
# Worked on paper: top row 3 15 34 52 71; middle 17 22 45 60 77; bottom 8 28 39 58 90.
PAPER = Ticket(
    serial=7,
    strip=2,
    grid=(
        (3, 15, _, 34, _, 52, _, 71, _),
        (_, 17, 22, _, 45, _, 60, 77, _),
        (8, _, 28, 39, _, 58, _, _, 90),
    ),
)
TOP = [3, 15, 34, 52, 71]
MIDDLE = [17, 22, 45, 60, 77]
BOTTOM = [8, 28, 39, 58, 90]


def test_the_paper_ticket_is_a_valid_90_ball_ticket():
    check_ticket(PAPER)


def held(prize_list, calls, awarded=()):
    return [p.key for p in prize_list.held(PAPER, set(calls), awarded)]


def test_early_five_needs_any_five_numbers_of_the_ticket():
    calls = [3, 17, 1, 90, 2, 45]  # 1 and 2 are not on the ticket
    verdict = check_prize_claim(TAMBOLA, PAPER, calls, "early-five")
    assert not verdict.valid and verdict.result.still_needed == 1
    verdict = check_prize_claim(TAMBOLA, PAPER, [*calls, 58], "early-five")
    assert verdict.valid and verdict.by_last_call
    assert verdict.result.marked == {3, 17, 90, 45, 58}


def test_top_middle_and_bottom_line_are_each_their_own_row():
    assert held(TAMBOLA, TOP) == ["early-five", "top-line"]
    assert held(TAMBOLA, MIDDLE) == ["early-five", "middle-line"]
    assert held(TAMBOLA, BOTTOM) == ["early-five", "bottom-line"]
    verdict = check_prize_claim(TAMBOLA, PAPER, TOP, "bottom-line")
    assert not verdict.valid and verdict.result.missing == (8, 28, 39, 58, 90)


def test_four_corners_are_the_first_and_last_numbers_of_the_top_and_bottom_rows():
    verdict = check_prize_claim(TAMBOLA, PAPER, [3, 71, 8], "four-corners")
    assert not verdict.valid and verdict.result.missing == (90,)
    verdict = check_prize_claim(TAMBOLA, PAPER, [3, 71, 8, 90], "four-corners")
    assert verdict.valid
    # the middle row's ends are not corners
    assert not check_prize_claim(TAMBOLA, PAPER, [3, 71, 17, 77], "four-corners").valid


def test_one_call_can_win_several_prizes_on_one_ticket():
    calls = [3, 15, 34, 52, 71]  # the fifth number is both the Early Five and the Top Line
    assert {"early-five", "top-line"} <= set(held(TAMBOLA, calls))
    for key in ("early-five", "top-line"):
        assert check_prize_claim(TAMBOLA, PAPER, calls, key).by_last_call


def test_full_house_needs_all_fifteen():
    calls = TOP + MIDDLE + BOTTOM[:-1]
    assert "full-house" not in held(TAMBOLA, calls)
    assert check_prize_claim(TAMBOLA, PAPER, calls, "full-house").result.missing == (90,)
    assert "full-house" in held(TAMBOLA, [*calls, 90])


def test_a_tambola_prize_closes_at_its_first_award_and_the_others_stay_open():
    open_keys = [p.key for p in TAMBOLA.open_prizes({"early-five"})]
    assert "early-five" not in open_keys and "top-line" in open_keys and "full-house" in open_keys
    verdict = check_prize_claim(TAMBOLA, PAPER, TOP, "early-five", awarded={"early-five"})
    assert verdict.result.holds and not verdict.open and not verdict.valid


def test_a_sequence_plays_one_prize_at_a_time():
    assert [p.key for p in UK.open_prizes(())] == ["one-line"]
    assert [p.key for p in UK.open_prizes({"one-line"})] == ["two-lines"]
    # two complete rows before the one-line prize is won claim only the one line
    assert held(UK, TOP + MIDDLE) == ["one-line"]
    assert not check_prize_claim(UK, PAPER, TOP + MIDDLE, "two-lines").valid
    assert check_prize_claim(UK, PAPER, TOP + MIDDLE, "two-lines", awarded={"one-line"}).valid
    assert UK.finished({"one-line", "two-lines", "full-house"})
    assert not SPANISH.finished({"linea"})


def test_the_nearest_line_is_what_the_verdict_names_missing():
    verdict = check_prize_claim(SPANISH, PAPER, [3, 15, 34, 17, 22, 45, 60], "linea")
    assert verdict.result.missing == (77,)  # the middle row lacks only 77


# --- properties, each prize recomputed from the printed grid -----------------------------------


def printed(ticket: Ticket) -> list[list[int]]:
    return [[n for n in row if n is not None] for row in ticket.grid]


tickets = st.builds(
    lambda seed, number, t: draw_strip(seed_bytes(seed), number).tickets[t],
    st.integers(0, 10**6),
    st.integers(1, 50),
    st.integers(0, 5),
)
call_orders = st.permutations(range(1, 91)).flatmap(
    lambda order: st.integers(0, 90).map(lambda k: order[:k])
)


@settings(max_examples=150, deadline=None)
@given(tickets, call_orders)
def test_every_tambola_prize_matches_the_grid(ticket, calls):
    called = set(calls)
    rows = printed(ticket)
    expected = {
        "early-five": sum(n in called for row in rows for n in row) >= 5,
        "top-line": set(rows[0]) <= called,
        "middle-line": set(rows[1]) <= called,
        "bottom-line": set(rows[2]) <= called,
        "four-corners": {rows[0][0], rows[0][-1], rows[2][0], rows[2][-1]} <= called,
        "full-house": all(set(row) <= called for row in rows),
    }
    got = {p.key: judge_rule(p.rule, ticket, called).holds for p in TAMBOLA.prizes}
    assert got == expected


@settings(max_examples=150, deadline=None)
@given(tickets, call_orders)
def test_the_spanish_and_uk_lists_agree_with_the_row_counts(ticket, calls):
    called = set(calls)
    full_rows = sum(set(row) <= called for row in printed(ticket))
    # the rows each prize needs, by the halls' rules: a line is one, bingo/full house all three
    rows_needed = {"linea": 1, "bingo": 3, "one-line": 1, "two-lines": 2, "full-house": 3}
    sequences = [(SPANISH, ["linea", "bingo"]), (UK, ["one-line", "two-lines", "full-house"])]
    for prize_list, sequence in sequences:
        for prize in prize_list.prizes:
            needed = rows_needed[prize.key]
            assert judge_rule(prize.rule, ticket, called).holds == (full_rows >= needed)
        assert [p.key for p in prize_list.prizes] == sequence


@settings(max_examples=100, deadline=None)
@given(tickets, call_orders)
def test_a_prize_won_by_the_last_call_was_not_held_before_it(ticket, calls):
    for prize in TAMBOLA.prizes:
        verdict = check_prize_claim(TAMBOLA, ticket, calls, prize.key)
        before = judge_rule(prize.rule, ticket, set(calls[:-1])).holds
        assert verdict.by_last_call == (verdict.result.holds and bool(calls) and not before)


# --- a host's own list ------------------------------------------------------------------------

HOST_FILE = """
name = "Diwali Tambola"
name_es = "Tambola de Diwali"

[[prize]]
key = "early-five"
name = "Jaldi Five"
numbers = 5
amount = "101"

[[prize]]
key = "top-and-bottom"
name = "Top and Bottom"
rows = ["top", 3]

[[prize]]
key = "star"
name = "Star"
cells = [
  ["top", "first"], ["top", "last"], ["middle", "middle"], ["bottom", "first"], ["bottom", 5],
]

[[prize]]
key = "full-house"
name = "Full House"
lines = 3
amount = "1100.50"

[[prize]]
key = "second-house"
name = "Second Full House"
lines = 3
after = "full-house"
"""


def test_a_hosts_prize_file_is_played_as_written():
    plan = parse_prize_list(HOST_FILE, "instance/diwali.toml")
    assert plan.key == "diwali" and plan.open_at_once and plan.name("es") == "Tambola de Diwali"
    assert plan.prize("early-five").amount_cents == 10100
    assert plan.prize("full-house").amount_cents == 110050
    # the star: the corners and the middle row's third number (45 on the paper ticket)
    assert not check_prize_claim(plan, PAPER, [3, 71, 8, 90], "star").valid
    assert check_prize_claim(plan, PAPER, [3, 71, 8, 90, 45], "star").valid
    # both named rows, not either of them
    assert not check_prize_claim(plan, PAPER, TOP, "top-and-bottom").valid
    assert check_prize_claim(plan, PAPER, TOP + BOTTOM, "top-and-bottom").valid
    # the second full house waits for the first
    assert "second-house" not in [p.key for p in plan.open_prizes(())]
    assert "second-house" in [p.key for p in plan.open_prizes({"full-house"})]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name = 'x'\n[[prize]\n", "not a TOML file"),
        ("name = 'x'\n", "no prizes"),
        ("[[prize]]\nkey = 'a'\n", "has no rule"),
        ("[[prize]]\nkey = 'a'\nrows = [4]\n", "a row (top, middle, bottom or 1-3)"),
        ("[[prize]]\nkey = 'a'\nnumbers = 16\n", "numbers must be a whole number from 1 to 15"),
        ("[[prize]]\nkey = 'a'\nnumbers = 5\ncells = [['top', 'first']]\n", "cannot be combined"),
        ("[[prize]]\nkey = 'a'\nlines = 1\nafter = 'b'\n", "'b', which is not in the list"),
        ("[[prize]]\nkey = 'a'\nlines = 1\n[[prize]]\nkey = 'a'\nlines = 2\n", "two prizes have"),
        (
            "[[prize]]\nkey = 'a'\nlines = 1\nafter = 'b'\n"
            "[[prize]]\nkey = 'b'\nlines = 2\nafter = 'a'\n",
            "waits for itself",
        ),
        ("[[prize]]\nkey = 'a'\nlines = 1\namount = 1.5\n", "amount must be written as text"),
        ("[[prize]]\nkey = 'a'\nlines = 1\namount = '-3'\n", "zero or more"),
        ("[[prize]]\nkey = 'a'\ncells = [['top', 'sixth']]\n", "a cell's position"),
        ("[[prize]]\nkey = 'a b'\nlines = 1\n", "may hold only letters"),
        ("colour = 'red'\n[[prize]]\nkey = 'a'\nlines = 1\n", "unknown setting 'colour'"),
    ],
)
def test_a_broken_prize_file_is_refused_with_the_file_and_the_problem(text, words):
    with pytest.raises(PrizeListError) as caught:
        parse_prize_list(text, "hall/prizes.toml")
    message = str(caught.value)
    assert message.startswith("hall/prizes.toml: ") and words in message
    assert "\n" not in message


# ---- a second Full House goes to another ticket (issue 33, item 3) -----------------------

OTHER = Ticket(  # a ticket of another strip sharing 90 with PAPER (written out on paper too)
    serial=8,
    strip=3,
    grid=(
        (1, 12, _, 33, _, 51, _, 70, _),
        (_, 16, 21, _, 44, _, 61, 76, _),
        (9, _, 29, 38, _, 57, _, _, 90),
    ),
)
OTHER_ALL = [1, 12, 33, 51, 70, 16, 21, 44, 61, 76, 9, 29, 38, 57]  # all but its 90


def test_a_second_full_house_never_goes_to_the_ticket_that_won_the_first():
    plan = parse_prize_list(HOST_FILE, "instance/diwali.toml")
    calls = TOP + MIDDLE + BOTTOM  # PAPER's full house on call 15
    first = {"full-house": PrizeWon("full-house", 15, frozenset({PAPER.serial}))}
    later = [*calls, 1, 2]
    verdict = check_prize_claim(plan, PAPER, later, "second-house", {"full-house"}, first)
    assert verdict.result.holds and not verdict.valid and verdict.barred == WON_BEFORE
    assert "second-house" not in [p.key for p in plan.held(PAPER, later, {"full-house"}, first)]


def test_a_ticket_completing_on_the_first_full_houses_call_shares_it_not_the_second():
    plan = parse_prize_list(HOST_FILE, "instance/diwali.toml")
    # OTHER's 14 numbers, then PAPER's 15 with 90 last: 90 completes both tickets on one call
    calls = OTHER_ALL + [n for n in TOP + MIDDLE + BOTTOM if n != 90] + [90]
    at = len(calls)
    first = {"full-house": PrizeWon("full-house", at, frozenset({PAPER.serial}))}
    verdict = check_prize_claim(plan, OTHER, [*calls, 2], "second-house", {"full-house"}, first)
    assert verdict.result.holds and not verdict.valid and verdict.barred == SAME_CALL


def test_the_second_full_house_is_the_next_ticket_to_complete_on_a_later_call():
    plan = parse_prize_list(HOST_FILE, "instance/diwali.toml")
    calls = TOP + MIDDLE + BOTTOM  # PAPER wins the first on call 15; 90 is already called
    first = {"full-house": PrizeWon("full-house", len(calls), frozenset({PAPER.serial}))}
    before = [*calls, *OTHER_ALL[:-1]]
    assert not check_prize_claim(plan, OTHER, before, "second-house", {"full-house"}, first).valid
    done = [*before, OTHER_ALL[-1]]  # OTHER completes on a later call
    verdict = check_prize_claim(plan, OTHER, done, "second-house", {"full-house"}, first)
    assert verdict.valid and verdict.barred is None
    assert completed_at(plan.prize("second-house").rule, OTHER, done) == len(done)
