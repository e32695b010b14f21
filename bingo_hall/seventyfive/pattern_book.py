"""The pattern book: every pattern a 75-ball hall calls, as data (pattern_book.toml).

A hall calls more than lines: letters, picture frames, a postage stamp in any corner, a kite, two
lines at once. Each pattern is a set of forms (the alternatives): a card wins the pattern when it
covers every square of any one form. The book writes a pattern the way a caller's chart draws it,
a 5x5 grid of X and ., and says how more forms follow from it:

* `crazy`: every rotation and reflection of the grids (the eight symmetries of the square), a
  form that two symmetries give counted once. A crazy kite is the kite in any orientation.
* `pick = N`: any N distinct forms together (a double postage stamp is two of the four stamps).
* `lines = N`: any N distinct lines of the 12 together (double and triple bingo); with `hardway`
  only the 8 lines that miss the centre square (a hardway bingo wins without the FREE square).

A host's own file is written the same way (`parse_book`), and may add patterns, not change the
kit's. Pure: tomllib and the card's geometry; `patterns` turns the entries into `Pattern`s.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations

from ..errors import KitError
from .cards import CENTRE, LINE_CELLS, SIZE

Cell = tuple[int, int]
Form = frozenset[Cell]

ENTRY_KEYS = ("en", "es", "grid", "crazy", "pick", "lines", "hardway")
#: names a pattern may not take: the game settings already use them for something else
RESERVED = ("lines", "custom", "bingo", "points")
MAX_NAME = 60
_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


@dataclass(frozen=True)
class BookEntry:
    """One pattern of a book: its key, its names by language, and its forms in book order."""

    key: str
    names: Mapping[str, str]
    forms: tuple[Form, ...]


def is_key(key: str) -> bool:
    """A word a pattern can be kept by: lowercase letters, digits and _, not a game word."""
    return bool(_KEY.fullmatch(key)) and key not in RESERVED


def grid_cells(text: str) -> Form | None:
    """The squares a grid marks: 25 characters row by row, X or 1 for a square to cover, . or 0
    for one not, rows split by '/' or new lines. None when it is not such a grid."""
    flat = "".join(ch for ch in text if ch not in "/ \n\r\t")
    if len(flat) != SIZE * SIZE or any(ch not in "10Xx." for ch in flat):
        return None
    return frozenset(divmod(i, SIZE) for i, ch in enumerate(flat) if ch in "1Xx")


def symmetries(form: Form) -> tuple[Form, ...]:
    """The form turned a quarter at a time, then mirrored and turned: 8 images, repeats left in
    (the caller deduplicates, keeping the first)."""
    last = SIZE - 1

    def turn(f: Form) -> Form:  # a quarter turn clockwise
        return frozenset((c, last - r) for r, c in f)

    out = []
    for start in (form, frozenset((r, last - c) for r, c in form)):
        f = start
        for _ in range(4):
            out.append(f)
            f = turn(f)
    return tuple(out)


def _unique(forms: Iterable[Form]) -> tuple[Form, ...]:
    return tuple(dict.fromkeys(forms))


def line_forms(count: int, hardway: bool = False) -> tuple[Form, ...]:
    """Any `count` distinct lines together, in LINE_CELLS order; `hardway`: only the lines that
    miss the centre square."""
    lines = [frozenset(c) for c in LINE_CELLS.values() if not (hardway and CENTRE in c)]
    return _unique(frozenset().union(*combo) for combo in combinations(lines, count))


def parse_book(
    text: str, source: str = "pattern book", taken: Iterable[str] = ()
) -> tuple[BookEntry, ...]:
    """The entries of a book file, checked. `taken`: keys another book already has (a host's
    file adds patterns; it does not redefine the kit's). KitError names the file and the key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise KitError("%(source)s: %(problem)s", source=source, problem=str(exc)) from None
    return book_entries(data, source, taken)


def book_entries(
    data: Mapping[str, object], source: str, taken: Iterable[str] = ()
) -> tuple[BookEntry, ...]:
    """The entries of a book already read from TOML (a book file, or a program file's
    `[patterns]` table), checked as `parse_book` says."""
    taken = set(taken)
    out = []
    for key, raw in data.items():

        def bad(template: str, /, name: str = key, **params: object) -> KitError:
            return KitError(
                "%(source)s: pattern %(key)s: %(problem)s",
                source=source,
                key=name,
                problem=KitError(template, **params),
            )

        if not is_key(key):
            raise bad("a pattern's key is lowercase letters, digits and _, and not a game word")
        if key in taken:
            raise bad("the pattern book already has this pattern; give yours another key")
        if not isinstance(raw, dict):
            raise bad("a pattern is a table: [key] with en, es and grid or lines")
        out.append(BookEntry(key, _names(raw, bad), _forms(raw, bad)))
        taken.add(key)
    return tuple(out)


def _names(raw: Mapping[str, object], bad: Callable[..., KitError]) -> Mapping[str, str]:
    unknown = sorted(set(raw) - set(ENTRY_KEYS))
    if unknown:
        raise bad("unknown setting %(key)r (known: %(known)s)", key=unknown[0],
                  known=", ".join(ENTRY_KEYS))  # fmt: skip
    names = {}
    for lang in ("en", "es"):
        name = raw.get(lang)
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise bad("%(lang)s is the pattern's name, 1 to %(most)s characters", lang=lang,
                      most=MAX_NAME)  # fmt: skip
        names[lang] = name.strip()
    return names


def _count(raw: Mapping[str, object], key: str, most: int, bad: Callable[..., KitError]) -> int:
    n = raw.get(key, 0)
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= most:
        raise bad("%(setting)s is a whole number up to %(most)s", setting=key, most=most)
    return n


def _forms(raw: Mapping[str, object], bad: Callable[..., KitError]) -> tuple[Form, ...]:
    lines = _count(raw, "lines", len(LINE_CELLS), bad)
    hardway = raw.get("hardway", False)
    crazy = raw.get("crazy", False)
    if not isinstance(hardway, bool) or not isinstance(crazy, bool):
        raise bad("crazy and hardway are true or false")
    grids = raw.get("grid")
    if (grids is None) == (lines == 0):
        raise bad("give a grid (or a list of grids) or a number of lines, one of the two")
    if lines:
        if hardway and lines > 8:
            raise bad("a hardway pattern has at most 8 lines (the ones off the centre)")
        forms = line_forms(lines, hardway)
    else:
        if hardway:
            raise bad("hardway goes with lines")
        if isinstance(grids, str):
            grids = [grids]
        if not isinstance(grids, list) or not grids:
            raise bad("a grid is 5 rows of 5 squares, X to cover and . not")
        forms = ()
        for grid in grids:
            cells = grid_cells(grid) if isinstance(grid, str) else None
            if cells is None:
                raise bad("a grid is 5 rows of 5 squares, X to cover and . not")
            if not cells or cells == {CENTRE}:
                raise bad("a form needs a square to cover besides the centre")
            forms += (cells,)
    if crazy:
        forms = tuple(image for f in forms for image in symmetries(f))
    forms = _unique(forms)
    pick = _count(raw, "pick", len(forms), bad)
    if pick > 1:
        forms = _unique(frozenset().union(*combo) for combo in combinations(forms, pick))
    return forms


@cache
def kit_book() -> tuple[BookEntry, ...]:
    """The book shipped with the kit (bingo_hall/seventyfive/pattern_book.toml)."""
    text = (
        resources.files("bingo_hall.seventyfive").joinpath("pattern_book.toml").read_text("utf-8")
    )
    return parse_book(text, "pattern_book.toml")
