"""Cards and their lines, as in the 1933 Parker Brothers Bingo (seed bingo-normal-y-de-puntos).

A card is 5x5 under the letters B I N G O; column j holds numbers 15j+1 .. 15j+15. Each card has
12 lines: 5 rows (R1..R5, top to bottom), 5 columns (B I N G O) and 2 diagonals (D1 from top-left
to bottom-right, D2 from top-right to bottom-left). A line's total is the "cifra pequeña" printed
in the margin: the points of that line in Bingo de Puntos and the tie-breaker in Bingo Normal.

In the 1933 kit the centre is a number. A card printed with FREE in the centre ("espacio franco")
stores None there; the lines through the centre then have 4 numbers and their totals leave it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import DeckError

LETTERS = "BINGO"
#: the balls of a 75-ball game, 1 to 75
BALLS = 75
SIZE = 5
CENTRE = (2, 2)
ROW_NAMES = tuple(f"R{i}" for i in range(1, 6))
COLUMN_NAMES = tuple(LETTERS)
DIAGONAL_NAMES = ("D1", "D2")
LINE_NAMES = ROW_NAMES + COLUMN_NAMES + DIAGONAL_NAMES


def column_range(col: int) -> range:
    """The numbers allowed in column `col` (0 = B ... 4 = O)."""
    return range(15 * col + 1, 15 * col + 16)


def letter_of(ball: int) -> str:
    """The letter a ball is called with: 'N' for 31 ("N31" in the seed)."""
    if not 1 <= ball <= BALLS:
        raise ValueError(f"ball {ball} is outside 1-{BALLS}")
    return LETTERS[(ball - 1) // 15]


def call_name(ball: int) -> str:
    """The call as the Maestro says it: letter then number, e.g. 'N 31'."""
    return f"{letter_of(ball)} {ball}"


def _line_cells() -> dict[str, tuple[tuple[int, int], ...]]:
    cells: dict[str, tuple[tuple[int, int], ...]] = {}
    for r, name in enumerate(ROW_NAMES):
        cells[name] = tuple((r, c) for c in range(SIZE))
    for c, name in enumerate(COLUMN_NAMES):
        cells[name] = tuple((r, c) for r in range(SIZE))
    cells["D1"] = tuple((i, i) for i in range(SIZE))
    cells["D2"] = tuple((i, SIZE - 1 - i) for i in range(SIZE))
    return cells


#: (row, column) cells of each line, by line name. Shared by cards, claims and patterns.
LINE_CELLS: dict[str, tuple[tuple[int, int], ...]] = _line_cells()


@dataclass(frozen=True)
class Line:
    """One of a card's 12 lines."""

    name: str
    numbers: tuple[int, ...]  # the printed numbers, in line order, FREE left out
    total: int
    central: bool  # crosses the centre square: R3, N, D1 or D2 ("Bingo Central")

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        return LINE_CELLS[self.name]


@dataclass(frozen=True)
class Card:
    """A printed card. `columns` is column-major (B first), top to bottom; None marks FREE."""

    serial: int
    columns: tuple[tuple[int | None, ...], ...]

    @property
    def free_centre(self) -> bool:
        return self.columns[2][2] is None

    def number_at(self, row: int, col: int) -> int | None:
        return self.columns[col][row]

    @property
    def rows(self) -> tuple[tuple[int | None, ...], ...]:
        return tuple(tuple(self.columns[c][r] for c in range(SIZE)) for r in range(SIZE))

    @cached_property
    def numbers(self) -> frozenset[int]:
        return frozenset(n for col in self.columns for n in col if n is not None)

    def line(self, name: str) -> Line:
        return self.lines_by_name[name]

    @cached_property
    def lines_by_name(self) -> dict[str, Line]:
        out = {}
        for name, cells in LINE_CELLS.items():
            nums = tuple(n for r, c in cells if (n := self.columns[c][r]) is not None)
            out[name] = Line(name, nums, sum(nums), CENTRE in cells)
        return out

    def lines(self) -> tuple[Line, ...]:
        """The 12 lines: rows R1..R5, columns B..O, diagonals D1, D2."""
        return tuple(self.lines_by_name.values())

    def totals(self) -> dict[str, list[int]]:
        """The margin figures, in the manifest's shape."""
        by = self.lines_by_name
        return {
            "rows": [by[n].total for n in ROW_NAMES],
            "columns": [by[n].total for n in COLUMN_NAMES],
            "diagonals": [by[n].total for n in DIAGONAL_NAMES],
        }

    def to_json(self) -> dict[str, Any]:
        """The card as the deck file holds it."""
        return {
            "serial": self.serial,
            "columns": [list(col) for col in self.columns],
            "totals": self.totals(),
        }


def check_card(card: Card) -> None:
    """Raise DeckError unless the card has the 1933 shape: ranges, 5x5, no repeats."""
    serial = card.serial
    if len(card.columns) != SIZE or any(len(col) != SIZE for col in card.columns):
        raise DeckError("card %(serial)s: a card needs 5 columns of 5 numbers", serial=serial)
    seen: set[int] = set()
    for c, col in enumerate(card.columns):
        for r, n in enumerate(col):
            if n is None:
                if (r, c) != CENTRE:
                    raise DeckError(
                        "card %(serial)s: only the centre square may be FREE", serial=serial
                    )
                continue
            if isinstance(n, bool) or not isinstance(n, int):
                raise DeckError(
                    "card %(serial)s: column %(letter)s holds %(n)r, not a number",
                    serial=serial,
                    letter=LETTERS[c],
                    n=n,
                )
            rng = column_range(c)
            if n not in rng:
                raise DeckError(
                    "card %(serial)s: column %(letter)s has %(n)s, outside %(low)s-%(high)s",
                    serial=serial,
                    letter=LETTERS[c],
                    n=n,
                    low=rng.start,
                    high=rng.stop - 1,
                )
            if n in seen:
                raise DeckError("card %(serial)s: number %(n)s appears twice", serial=serial, n=n)
            seen.add(n)
