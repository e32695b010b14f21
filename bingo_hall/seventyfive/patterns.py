"""Pattern games for Bingo Normal: the pattern book's patterns and a pattern drawn by the Maestro.

The 1933 seed (bingo-normal-y-de-puntos) knows only lines. Halls also play patterns, so in Normal
mode a game may name one pattern instead; the verdict then reports that pattern instead of lines.
A pattern is one or more forms, each a set of (row, column) cells in the same coordinates as
`cards.LINE_CELLS`, so coverage, free centre and penalties work the same way for a form as for a
line; a card wins the pattern with any one form complete. The named patterns are the book's
(`pattern_book`, docs/patterns.md).

A custom pattern travels as 25 characters, row by row, '1' (or 'X') for a cell that must be
covered and '0' (or '.') for one that need not, optionally split by '/' every 5: the form the
caller page's 5x5 grid posts and the game record stores. A pattern of several forms travels as
its forms' masks joined by ';'.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cache

from ..errors import KitError
from ..values import JsonValue
from .cards import CENTRE, LINE_CELLS, SIZE
from .pattern_book import (
    FormName,
    Origin,
    form_names,
    grid_cells,
    is_key,
    kit_book,
    line_name,
)

Cell = tuple[int, int]


@dataclass(frozen=True)
class Pattern:
    """A figure to cover: any one of `forms`. `name` is a key of the book or 'custom'."""

    name: str
    forms: tuple[frozenset[Cell], ...]
    #: how each form was made from the book's entry (empty for a drawn pattern): what names the
    #: form a verdict reports (`form_name`)
    origins: tuple[Origin, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def of(cls, name: str, cells: Iterable[Cell]) -> Pattern:
        """A pattern of one form."""
        return cls(name, (frozenset(cells),))

    @property
    def cells(self) -> frozenset[Cell]:
        """Every square some form needs: the pattern's own squares when it has one form."""
        return frozenset().union(*self.forms)

    def form_name(self, index: int) -> FormName | None:
        """The words naming form `index` ("turned 90°", "row 1 and column B"); None for a
        pattern of one form."""
        return _form_names(self.forms, self.origins)[index]

    @property
    def central(self) -> bool:
        return CENTRE in self.cells

    @property
    def mask(self) -> str:
        """Each form's 25 characters row by row ('1' = must be covered), split by '/' per row,
        the forms joined by ';'."""
        return ";".join(
            "/".join("".join("1" if (r, c) in f else "0" for c in range(SIZE)) for r in range(SIZE))
            for f in self.forms
        )


FOUR_CORNERS = Pattern.of("four_corners", {(0, 0), (0, 4), (4, 0), (4, 4)})
X = Pattern.of("x", frozenset(LINE_CELLS["D1"]) | frozenset(LINE_CELLS["D2"]))
FULL_CARD = Pattern.of("full_card", ((r, c) for r in range(SIZE) for c in range(SIZE)))


class _Book(Mapping[str, Pattern]):
    """The kit's pattern book by key, read on first use: every command imports this module, and
    most never look a pattern up."""

    def _patterns(self) -> dict[str, Pattern]:
        return _book_patterns()

    def __getitem__(self, key: str) -> Pattern:
        return self._patterns()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._patterns())

    def __len__(self) -> int:
        return len(self._patterns())


@cache
def _book_patterns() -> dict[str, Pattern]:
    # the constants above are the book's own (a test checks it); one object each, so that `is`
    # holds for a pattern named in settings
    named = {p.name: p for p in (FOUR_CORNERS, X, FULL_CARD)}
    return {e.key: named.get(e.key) or Pattern(e.key, e.forms, e.origins) for e in kit_book()}


@cache
def _form_names(
    forms: tuple[frozenset[Cell], ...], origins: tuple[Origin, ...]
) -> tuple[FormName | None, ...]:
    return form_names(forms, origins)


#: every named pattern: the kit's book, in book order (four corners, the X, full card first)
BUILT_IN: Mapping[str, Pattern] = _Book()


def custom_pattern(mask: str) -> Pattern:
    """Parse a drawn pattern (forms joined by ';'). Raises KitError, worded for the Maestro, if
    it cannot be played."""
    if not isinstance(mask, str):
        raise KitError("a custom pattern is 25 cells of 1 and 0, row by row")
    forms = []
    for part in mask.split(";"):
        cells = grid_cells(part)
        if cells is None:
            raise KitError("a custom pattern is 25 cells of 1 and 0, row by row")
        if not cells:
            raise KitError("the custom pattern is empty: click at least one square")
        if cells == {CENTRE}:
            raise KitError("the custom pattern cannot be the centre square alone")
        forms.append(cells)
    return Pattern("custom", tuple(dict.fromkeys(forms)))


def pattern_from_spec(
    name: str | None, mask: str | None = None, extra: Mapping[str, Pattern] | None = None
) -> Pattern | None:
    """The pattern a game setting names: None or 'lines' for line play, a pattern of the book
    (or of `extra`, a host's own book), or 'custom'. Another name with a mask is a host's own
    pattern as the game's settings and record keep it: its key and its forms."""
    extra = extra or {}
    if name is not None and not isinstance(name, str):  # a list or an object from JSON
        raise KitError("a pattern is a name: lines, four_corners, x, full_card or custom")
    if name is None or name in ("", "lines"):
        return None
    if name == "custom":
        return custom_pattern(mask or "")
    found = BUILT_IN.get(name) or extra.get(name)
    if found is None and mask and is_key(name):
        return Pattern(name, custom_pattern(mask).forms)
    if found is None:  # the book is long: name the nearest keys, or its first ones
        keys = [*BUILT_IN, *extra]
        near = get_close_matches(name, keys, n=3) or keys[:3]
        raise KitError(
            "unknown pattern %(name)r; use lines, custom or a pattern of the book "
            "(docs/patterns.md), such as %(near)s",
            name=name,
            near=", ".join(near),
        )
    return found


def _grid_mask(form: frozenset[Cell]) -> str:
    return "/".join(
        "".join("1" if (r, c) in form else "0" for c in range(SIZE)) for r in range(SIZE)
    )


@dataclass(frozen=True)
class PatternShape(JsonValue):
    """A pattern as the screens draw it and the phones judge it: its forms, or, where the book
    makes them by a rule (`lines = N`, `pick = N`), the rule and the forms it picks from, which
    static/pattern.js expands in the book's order (a triple bingo's 220 forms are 3 words, not
    20 KB). `names`: each form's words (`Pattern.form_name`), for the forms sent; `count`: how
    many forms the pattern has."""

    name: str
    forms: tuple[str, ...]  # masks, rows split by '/'
    names: tuple[FormName | None, ...]
    count: int
    pick: int = 0
    lines: int = 0
    hardway: bool = False

    @classmethod
    def of(cls, pattern: Pattern) -> PatternShape:
        origins = pattern.origins
        count = len(pattern.forms)
        if origins and all(o.lines for o in origins):
            hardway = not any(CENTRE in f for f in pattern.forms)
            return cls(pattern.name, (), (), count, lines=len(origins[0].lines), hardway=hardway)
        if origins and all(o.parts for o in origins):
            parts = tuple(dict.fromkeys(p for o in origins for p in o.parts))
            base = tuple(p.cells for p in parts)
            # each named as a pick names it: among the forms it is picked from
            names = _form_names(base, parts)
            masks = tuple(_grid_mask(f) for f in base)
            return cls(pattern.name, masks, names, count, pick=len(origins[0].parts))
        names = tuple(pattern.form_name(i) for i in range(count))
        return cls(pattern.name, tuple(_grid_mask(f) for f in pattern.forms), names, count)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "name": self.name,
            "forms": list(self.forms),
            "names": [None if n is None else {"en": n.en, "es": n.es} for n in self.names],
            "count": self.count,
            "pick": self.pick,
            "lines": self.lines,
            "hardway": self.hardway,
        }
        if self.lines or self.pick:  # the words static/pattern.js names a made form with
            lines = {n: line_name(n) for n in LINE_CELLS} if self.lines else {}
            out["words"] = {
                "and": {"en": "and", "es": "y"},
                "lines": {k: {"en": n.en, "es": n.es} for k, n in lines.items()},
            }
        return out
