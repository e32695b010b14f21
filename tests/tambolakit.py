"""What the Tambola tests read off a deck's printed tickets (issue 28): a ticket's numbers, rows
and corners from its grid, and calls on which two tickets win two prizes at once. Worked out
from the grid here, never taken from the code under test."""

from __future__ import annotations

from bingo_hall.manifest import Deck


def numbers(deck: Deck, serial: int) -> list[int]:
    """A ticket's 15 numbers, row by row, read off its printed grid."""
    return [n for row in deck.cards[serial - 1].grid for n in row if n is not None]


def row(deck: Deck, serial: int, r: int) -> list[int]:
    """Row r (0 = top) of a ticket: the cells that are not blank."""
    return [n for n in deck.cards[serial - 1].grid[r] if n is not None]


def corners(deck: Deck, serial: int) -> list[int]:
    """First and last number of the top row and of the bottom row."""
    top, bottom = row(deck, serial, 0), row(deck, serial, 2)
    return [top[0], top[-1], bottom[0], bottom[-1]]


def same_call_plan(deck: Deck) -> tuple[int, int, list[int]]:
    """Two tickets of different strips and calls whose LAST call gives ticket A its fifth number
    (Early Five) and completes ticket B's top row (Top Line), with neither holding a prize
    before it. Tickets of one strip share no number, so A is the strip-1 ticket holding x."""
    b = 7  # the first ticket of strip 2
    top = row(deck, b, 0)
    x = top[-1]
    a = next(s for s in range(1, 7) if x in numbers(deck, s))
    before = top[:-1]  # B's top row but x: four of B's numbers
    on_b = set(numbers(deck, b))
    a_called = [n for n in numbers(deck, a) if n in before]
    # A's numbers row by row in turn (first of each row, then second...), so that its five
    # complete no row of A: Early Five is all A wins on the last call
    rows = [row(deck, a, r) for r in range(3)]
    spread = [rows[r][i] for i in range(5) for r in range(3)]
    extra = [n for n in spread if n != x and n not in before and n not in on_b]
    before += extra[: 4 - len(a_called)]
    # worked out by hand: A holds 4 numbers and B holds 4 before the last call, 5 after it
    assert len([n for n in numbers(deck, a) if n in before]) == 4
    assert len([n for n in numbers(deck, b) if n in before]) == 4
    assert all(any(n not in [*before, x] for n in rows[r]) for r in range(3))
    return a, b, [*before, x]
