"""90-ball strips (issue 17): every rule of the ticket, the strip and the deck, checked on the grids
themselves (not through the module's own checks), for many seeds and sizes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bingo_hall.errors import DeckError
from bingo_hall.ninety.strips import MAX_STRIPS, Strip, check_strips, generate_strips
from bingo_hall.ninety.tickets import Ticket

seeds = st.one_of(st.text(max_size=12), st.integers(min_value=0, max_value=10**9))
decks = st.tuples(st.integers(min_value=1, max_value=6), seeds)


def tickets_of(strips):
    return [t for s in strips for t in s.tickets]


def expected_column(col: int) -> set[int]:
    """By hand from the rules: 1-9, then 10-19 ... 70-79, then 80-90."""
    low = 1 if col == 0 else 10 * col
    high = 90 if col == 8 else 10 * col + 9
    return set(range(low, high + 1))


@settings(max_examples=40, deadline=None)
@given(decks)
def test_a_ticket_is_3_rows_of_9_columns_with_5_numbers_in_each_row(deck):
    for ticket in tickets_of(generate_strips(*deck)):
        assert len(ticket.grid) == 3
        for row in ticket.grid:
            assert len(row) == 9
            assert sum(cell is not None for cell in row) == 5


@settings(max_examples=40, deadline=None)
@given(decks)
def test_each_column_holds_only_its_own_numbers(deck):
    for ticket in tickets_of(generate_strips(*deck)):
        for row in ticket.grid:
            for col, cell in enumerate(row):
                if cell is not None:
                    assert cell in expected_column(col), (ticket.serial, col, cell)


@settings(max_examples=40, deadline=None)
@given(decks)
def test_numbers_go_down_each_column_in_ascending_order(deck):
    for ticket in tickets_of(generate_strips(*deck)):
        for col in range(9):
            down = [ticket.grid[r][col] for r in range(3) if ticket.grid[r][col] is not None]
            assert down == sorted(down) and len(set(down)) == len(down)


@settings(max_examples=40, deadline=None)
@given(decks)
def test_every_column_of_a_ticket_has_at_least_one_number(deck):
    for ticket in tickets_of(generate_strips(*deck)):
        for col in range(9):
            assert any(ticket.grid[r][col] is not None for r in range(3)), (ticket.serial, col)


@settings(max_examples=40, deadline=None)
@given(decks)
def test_a_strip_of_6_tickets_holds_every_number_1_to_90_exactly_once(deck):
    for strip in generate_strips(*deck):
        assert len(strip.tickets) == 6
        held = [cell for t in strip.tickets for row in t.grid for cell in row if cell is not None]
        assert sorted(held) == list(range(1, 91))


@settings(max_examples=40, deadline=None)
@given(decks)
def test_serials_count_through_the_deck_and_each_ticket_names_its_strip(deck):
    strips = generate_strips(*deck)
    assert [t.serial for t in tickets_of(strips)] == list(range(1, 6 * deck[0] + 1))
    for number, strip in enumerate(strips, start=1):
        assert strip.number == number
        assert {t.strip for t in strip.tickets} == {number}


def all_rows(strips) -> list[frozenset[int]]:
    return [
        frozenset(cell for cell in row if cell is not None)
        for t in tickets_of(strips)
        for row in t.grid
    ]


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=2, max_value=60), seeds)
def test_no_two_rows_are_equal_anywhere_in_the_deck(count, seed):
    rows = all_rows(generate_strips(count, seed))
    assert len(set(rows)) == len(rows) == 18 * count


@pytest.mark.slow
@pytest.mark.cpu
def test_no_two_rows_are_equal_in_a_deck_of_1500_strips():
    """Large enough that drawing strips independently would repeat rows: the deck must not."""
    rows = all_rows(generate_strips(1500, seed="big night"))
    assert len(set(rows)) == len(rows) == 27000


@settings(max_examples=15, deadline=None)
@given(seeds)
def test_the_same_seed_gives_the_same_strips_and_a_larger_deck_extends_a_smaller_one(seed):
    small, large = generate_strips(4, seed), generate_strips(7, seed)
    assert generate_strips(4, seed) == small
    assert large[:4] == small


def test_the_same_seed_gives_the_same_strips_in_another_process_with_other_hashing():
    """Same seed, same strips on any machine: nothing may depend on hash order or the process."""
    code = (
        "from bingo_hall.ninety.strips import generate_strips;"
        "print([t.grid for s in generate_strips(5, 'hall') for t in s.tickets])"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hashseed},
        ).stdout
        for hashseed in ("1", "2")
    }
    here = str([t.grid for s in generate_strips(5, "hall") for t in s.tickets])
    assert outputs == {here + "\n"}


def test_different_seeds_give_different_strips():
    assert generate_strips(3, "a") != generate_strips(3, "b")


@pytest.mark.parametrize("bad", [0, -1, MAX_STRIPS + 1, True, 2.5])
def test_a_deck_outside_1_to_the_limit_is_refused_naming_the_limit(bad):
    with pytest.raises(DeckError, match=str(MAX_STRIPS)):
        generate_strips(bad, seed="x")


def renumbered(strip: Strip, number: int) -> Strip:
    first = 6 * (number - 1) + 1
    return Strip(
        number,
        tuple(Ticket(first + i, number, t.grid) for i, t in enumerate(strip.tickets)),
    )


def test_check_refuses_a_deck_whose_second_strip_repeats_the_rows_of_the_first():
    one = generate_strips(1, seed="copy")[0]
    with pytest.raises(DeckError, match="ticket 7 row 1 repeats ticket 1 row 1"):
        check_strips([one, renumbered(one, 2)])


def test_check_refuses_a_strip_that_does_not_hold_1_to_90_once_each():
    strip = generate_strips(1, seed="one")[0]
    stranger = generate_strips(1, seed="other")[0].tickets[5]
    assert stranger.numbers != strip.tickets[5].numbers  # else the test proves nothing
    mixed = Strip(1, (*strip.tickets[:5], stranger))
    with pytest.raises(DeckError, match="every number 1-90"):
        check_strips([mixed])


def test_check_accepts_what_generate_makes():
    check_strips(generate_strips(50, seed="ok"))
