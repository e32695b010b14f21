"""Pattern games for Bingo Normal: four corners, X, cartón lleno and a pattern drawn by the Maestro.

The 1933 seed (bingo-normal-y-de-puntos) knows only lines. Halls also play patterns, so in Normal
mode a game may name one pattern instead; the verdict then reports that pattern instead of lines.
A pattern is a set of (row, column) cells, the same coordinates as `cards.LINE_CELLS`, so coverage,
free centre and penalties work the same way for a pattern as for a line.

A custom pattern travels as 25 characters, row by row, '1' (or 'X') for a cell that must be
covered and '0' (or '.') for one that need not, optionally split by '/' every 5: the form the
caller page's 5x5 grid posts and the game record stores.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CENTRE, LINE_CELLS, SIZE
from .errors import KitError

Cell = tuple[int, int]


@dataclass(frozen=True)
class Pattern:
    """A figure to cover. `name` is 'four_corners', 'x', 'full_card' or 'custom'."""

    name: str
    cells: frozenset[Cell]

    @property
    def central(self) -> bool:
        return CENTRE in self.cells

    @property
    def mask(self) -> str:
        """The 25-character row-by-row form ('1' = must be covered), split by '/' per row."""
        return "/".join(
            "".join("1" if (r, c) in self.cells else "0" for c in range(SIZE)) for r in range(SIZE)
        )


FOUR_CORNERS = Pattern("four_corners", frozenset({(0, 0), (0, 4), (4, 0), (4, 4)}))
X = Pattern("x", frozenset(LINE_CELLS["D1"]) | frozenset(LINE_CELLS["D2"]))
FULL_CARD = Pattern("full_card", frozenset((r, c) for r in range(SIZE) for c in range(SIZE)))

BUILT_IN: dict[str, Pattern] = {p.name: p for p in (FOUR_CORNERS, X, FULL_CARD)}


def custom_pattern(mask: str) -> Pattern:
    """Parse a drawn pattern. Raises KitError, worded for the Maestro, if it cannot be played."""
    if not isinstance(mask, str):
        raise KitError("a custom pattern is 25 cells of 1 and 0, row by row")
    flat = "".join(ch for ch in mask if ch not in "/ \n")
    if len(flat) != SIZE * SIZE or any(ch not in "10Xx." for ch in flat):
        raise KitError("a custom pattern is 25 cells of 1 and 0, row by row")
    cells = frozenset(divmod(i, SIZE) for i, ch in enumerate(flat) if ch in "1Xx")
    if not cells:
        raise KitError("the custom pattern is empty: click at least one square")
    if cells == {CENTRE}:
        raise KitError("the custom pattern cannot be the centre square alone")
    return Pattern("custom", cells)


def pattern_from_spec(name: str | None, mask: str | None = None) -> Pattern | None:
    """The pattern a game setting names: None or 'lines' for line play, a built-in, or 'custom'."""
    known = ", ".join(["lines", *BUILT_IN, "custom"])
    if name is not None and not isinstance(name, str):  # a list or an object from JSON
        raise KitError("a pattern is a name: lines, four_corners, x, full_card or custom")
    if name is None or name in ("", "lines"):
        return None
    if name == "custom":
        return custom_pattern(mask or "")
    try:
        return BUILT_IN[name]
    except KeyError:
        raise KitError(f"unknown pattern {name!r}; use one of {known}") from None
