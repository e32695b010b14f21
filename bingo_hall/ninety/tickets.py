"""90-ball tickets (cartones), as Spanish halls and UK clubs play them (docs/decks.md, "90 balls").

A ticket is 3 rows x 9 columns. Column 1 holds 1-9, columns 2-8 hold 10-19 ... 70-79 and column 9
holds 80-90; each row has exactly 5 numbers and 4 blanks; numbers go down each column in
ascending order; every column of a ticket has at least one number. Six tickets make a strip
(tira) that holds every number 1-90 exactly once.

The rows are this game's lines: a "línea" / "one line" is a complete row, two lines are two
complete rows of one ticket, and "bingo" / "full house" is all 15 numbers. A row's total (the sum
of its numbers) is printed in the margin, as the 75-ball cards print their line totals.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import DeckError

ROWS = 3
COLUMNS = 9
PER_ROW = 5
BALLS = 90
TICKETS_PER_STRIP = 6
ROW_NAMES = ("L1", "L2", "L3")  # top to bottom


def column_range_90(col: int) -> range:
    """The numbers allowed in column `col` (0-based): 1-9, 10-19, ..., 70-79, 80-90."""
    if col == 0:
        return range(1, 10)
    if col == COLUMNS - 1:
        return range(80, 91)
    return range(10 * col, 10 * col + 10)


def column_of_90(ball: int) -> int:
    """The column (0-based) a ball is printed in: 9 -> 0, 10 -> 1, 89 and 90 -> 8."""
    if not 1 <= ball <= BALLS:
        raise ValueError(f"ball {ball} is outside 1-90")
    return min(ball // 10, COLUMNS - 1)


@dataclass(frozen=True)
class Ticket:
    """A printed 90-ball ticket. `grid` is row-major, top row first; None marks a blank.

    `serial` counts tickets through the deck (1..6n) and is what the QR code signs; `strip` is
    the number of the strip (1..n) the ticket belongs to, printed on it so a lost strip can be
    made whole again.
    """

    serial: int
    strip: int
    grid: tuple[tuple[int | None, ...], ...]

    def number_at(self, row: int, col: int) -> int | None:
        return self.grid[row][col]

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The numbers of each row, left to right: the ticket's three lines."""
        return tuple(tuple(n for n in row if n is not None) for row in self.grid)

    @cached_property
    def numbers(self) -> frozenset[int]:
        return frozenset(n for row in self.rows for n in row)

    def row_totals(self) -> tuple[int, ...]:
        """The margin figures: the sum of each row, top to bottom."""
        return tuple(sum(row) for row in self.rows)

    def totals(self) -> dict[str, list[int]]:
        """The margin figures, in the manifest's shape."""
        return {"rows": list(self.row_totals())}

    def to_json(self) -> dict[str, Any]:
        """The ticket as the deck file holds it."""
        return {
            "serial": self.serial,
            "strip": self.strip,
            "rows": [list(row) for row in self.grid],
            "totals": self.totals(),
        }


def check_ticket(ticket: Ticket) -> None:
    """Raise DeckError unless the ticket has the 90-ball shape (every rule of the docstring)."""
    serial = ticket.serial
    grid = ticket.grid
    if len(grid) != ROWS or any(len(row) != COLUMNS for row in grid):
        raise DeckError("ticket %(serial)s: a ticket needs 3 rows of 9 cells", serial=serial)
    for r, row in enumerate(grid, start=1):
        for c, n in enumerate(row):
            if n is None:
                continue
            if isinstance(n, bool) or not isinstance(n, int):
                raise DeckError(
                    "ticket %(serial)s: row %(r)s holds %(n)r, not a number",
                    serial=serial,
                    r=r,
                    n=n,
                )
            rng = column_range_90(c)
            if n not in rng:
                raise DeckError(
                    "ticket %(serial)s: column %(column)s has %(n)s, outside %(start)s-%(stop)s",
                    serial=serial,
                    column=c + 1,
                    n=n,
                    start=rng.start,
                    stop=rng.stop - 1,
                )
        if sum(n is not None for n in row) != PER_ROW:
            raise DeckError(
                "ticket %(serial)s: row %(r)s must have exactly 5 numbers", serial=serial, r=r
            )
    for c in range(COLUMNS):
        column = [n for r in range(ROWS) if (n := grid[r][c]) is not None]
        if not column:
            raise DeckError(
                "ticket %(serial)s: column %(column)s is empty", serial=serial, column=c + 1
            )
        if any(a >= b for a, b in zip(column, column[1:])):
            raise DeckError(
                "ticket %(serial)s: column %(column)s must go down in ascending order",
                serial=serial,
                column=c + 1,
            )
