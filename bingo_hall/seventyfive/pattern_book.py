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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from itertools import combinations
from typing import Any

from ..errors import KitError
from ..toml_table import Problem, Table
from .cards import CENTRE, LINE_CELLS, SIZE

Cell = tuple[int, int]
Form = frozenset[Cell]

ENTRY_KEYS = ("en", "es", "grid", "crazy", "pick", "lines", "hardway")
#: names a pattern may not take: the game settings already use them for something else
RESERVED = ("lines", "custom", "bingo", "points")
MAX_NAME = 60
_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


@dataclass(frozen=True)
class Origin:
    """How a form of a pattern was made from its book entry, so a verdict can name the form won:
    `grid` (which of the entry's grids) turned `turns` quarter turns clockwise, after a mirror
    when `mirrored`; for `pick = N`, the forms picked (`parts`, each with its `cells`); for
    `lines = N`, the lines."""

    grid: int = 0
    turns: int = 0
    mirrored: bool = False
    parts: tuple[Origin, ...] = ()
    lines: tuple[str, ...] = ()
    cells: Form = frozenset()  # a part's own squares (the form picked)


@dataclass(frozen=True)
class BookEntry:
    """One pattern of a book: its key, its names by language, its forms in book order and how
    each was made (`origins`, one per form)."""

    key: str
    names: Mapping[str, str]
    forms: tuple[Form, ...]
    origins: tuple[Origin, ...] = ()


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


def _unique_made(made: Iterable[tuple[Form, Origin]]) -> tuple[tuple[Form, Origin], ...]:
    """Forms with their origins, a form made twice kept once, with the first way it was made."""
    out: dict[Form, Origin] = {}
    for form, origin in made:
        out.setdefault(form, origin)
    return tuple(out.items())


def _line_made(count: int, hardway: bool) -> tuple[tuple[Form, Origin], ...]:
    lines = [(n, frozenset(c)) for n, c in LINE_CELLS.items() if not (hardway and CENTRE in c)]
    return _unique_made(
        (frozenset().union(*(c for _, c in combo)), Origin(lines=tuple(n for n, _ in combo)))
        for combo in combinations(lines, count)
    )


def line_forms(count: int, hardway: bool = False) -> tuple[Form, ...]:
    """Any `count` distinct lines together, in LINE_CELLS order; `hardway`: only the lines that
    miss the centre square."""
    return tuple(form for form, _ in _line_made(count, hardway))


def parse_book(
    text: str, source: str = "pattern book", taken: Iterable[str] = ()
) -> tuple[BookEntry, ...]:
    """The entries of a book file, checked. `taken`: keys another book already has (a host's
    file adds patterns; it does not redefine the kit's). KitError names the file and the key."""

    def problem(template: str, /, *path: str, **params: Any) -> KitError:
        return KitError(
            "%(source)s: %(problem)s", source=source, problem=KitError(template, **params)
        )

    try:
        data = Table.from_json(tomllib.loads(text), problem)
    except tomllib.TOMLDecodeError as exc:
        raise KitError("%(source)s: %(problem)s", source=source, problem=str(exc)) from None
    return book_entries(data, taken)


def book_entries(data: Table, taken: Iterable[str] = ()) -> tuple[BookEntry, ...]:
    """The entries of a book already read from TOML (a book file, or a program file's
    `[patterns]` table), checked as `parse_book` says; each problem is the table's, placed at
    the pattern's key and naming it."""
    taken = set(taken)
    out = []
    for key in data:
        bad = _of_pattern(data, key)
        if not is_key(key):
            raise bad("a pattern's key is lowercase letters, digits and _, and not a game word")
        if key in taken:
            raise bad("the pattern book already has this pattern; give yours another key")
        wrong = "a pattern is a table: [key] with en, es and grid or lines"
        entry = data.within(bad).table(key, wrong=wrong).within(bad)
        made = _forms(entry)
        out.append(
            BookEntry(key, _names(entry), tuple(f for f, _ in made), tuple(o for _, o in made))
        )
        taken.add(key)
    return tuple(out)


def _of_pattern(data: Table, key: str) -> Problem:
    """A pattern's problem: the book's, placed at the pattern's key (its settings' own lines
    are not looked for: another pattern may write the same setting first)."""

    def problem(template: str, /, *path: str, **params: Any) -> KitError:
        inner = KitError(template, **params)
        return data.fail("pattern %(key)s: %(problem)s", key, key=key, problem=inner)

    return problem


def _names(raw: Table) -> Mapping[str, str]:
    raw.only(ENTRY_KEYS)
    wrong = "%(what)s is the pattern's name, 1 to %(n)s characters"
    return {lang: raw.text(lang, most=MAX_NAME, wrong=wrong, long=wrong) for lang in ("en", "es")}


def _forms(raw: Table) -> tuple[tuple[Form, Origin], ...]:
    """The entry's forms in book order, each with how it was made."""
    bad = raw.fail
    count = "%(what)s is a whole number up to %(high)s"
    lines = raw.integer("lines", 0, low=0, high=len(LINE_CELLS), wrong=count)
    switch = "crazy and hardway are true or false"
    hardway = raw.boolean("hardway", False, wrong=switch)
    crazy = raw.boolean("crazy", False, wrong=switch)
    grids = raw.value("grid")
    if (grids is None) == (lines == 0):
        raise bad("give a grid (or a list of grids) or a number of lines, one of the two")
    made: tuple[tuple[Form, Origin], ...]
    if lines:
        if hardway and lines > 8:
            raise bad("a hardway pattern has at most 8 lines (the ones off the centre)")
        made = _line_made(lines, hardway)
    else:
        if hardway:
            raise bad("hardway goes with lines")
        if isinstance(grids, str):
            grids = [grids]
        if not isinstance(grids, list) or not grids:
            raise bad("a grid is 5 rows of 5 squares, X to cover and . not")
        made = ()
        for i, grid in enumerate(grids):
            cells = grid_cells(grid) if isinstance(grid, str) else None
            if cells is None:
                raise bad("a grid is 5 rows of 5 squares, X to cover and . not")
            if not cells or cells == {CENTRE}:
                raise bad("a form needs a square to cover besides the centre")
            made += ((cells, Origin(grid=i)),)
    if crazy:  # symmetries' order: four quarter turns, then the mirror's four
        made = tuple(
            (image, replace(origin, turns=k % 4, mirrored=k >= 4))
            for form, origin in made
            for k, image in enumerate(symmetries(form))
        )
    made = _unique_made(made)
    pick = raw.integer("pick", 0, low=0, high=len(made), wrong=count)
    if pick > 1:
        made = _unique_made(
            (
                frozenset().union(*(f for f, _ in combo)),
                Origin(parts=tuple(replace(o, cells=f) for f, o in combo)),
            )
            for combo in combinations(made, pick)
        )
    return made


@cache
def kit_book() -> tuple[BookEntry, ...]:
    """The book shipped with the kit (bingo_hall/seventyfive/pattern_book.toml)."""
    text = (
        resources.files("bingo_hall.seventyfive").joinpath("pattern_book.toml").read_text("utf-8")
    )
    return parse_book(text, "pattern_book.toml")


@dataclass(frozen=True)
class FormName:
    """The words naming one form of a pattern, in both of the kit's languages: a verdict is
    made once and shown at once on screens and phones in either (as spoken.spoken_both)."""

    en: str
    es: str

    def in_lang(self, lang: str) -> str:
        return self.es if lang == "es" else self.en


_CORNERS = {
    ("top", "left"): FormName("top left corner", "esquina superior izquierda"),
    ("top", "right"): FormName("top right corner", "esquina superior derecha"),
    ("bottom", "left"): FormName("bottom left corner", "esquina inferior izquierda"),
    ("bottom", "right"): FormName("bottom right corner", "esquina inferior derecha"),
}
_DEGREES = {1: 90, 2: 180, 3: 270}


def _join(names: Iterable[FormName]) -> FormName:
    """ "a, b and c" / "a, b y c"."""
    names = list(names)
    if len(names) == 1:
        return names[0]

    def joined(words: list[str], last: str) -> str:
        return ", ".join(words[:-1]) + f" {last} " + words[-1]

    return FormName(joined([n.en for n in names], "and"), joined([n.es for n in names], "y"))


def line_name(name: str) -> FormName:
    """A line as a verdict names it: row 1, column B, a diagonal (the card's own arrows)."""
    if name.startswith("R"):
        return FormName(f"row {name[1:]}", f"fila {name[1:]}")
    if name in ("D1", "D2"):
        arrow = "↘" if name == "D1" else "↙"
        return FormName(f"diagonal {arrow}", f"diagonal {arrow}")
    return FormName(f"column {name}", f"columna {name}")


def _corner(form: Form) -> tuple[str, str] | None:
    """The corner a form sits in: it touches one horizontal edge and one vertical edge, and
    neither of the edges facing them."""
    rows = {r for r, _ in form}
    cols = {c for _, c in form}
    last = SIZE - 1
    side = {(True, False): "top", (False, True): "bottom"}.get((0 in rows, last in rows))
    end = {(True, False): "left", (False, True): "right"}.get((0 in cols, last in cols))
    return (side, end) if side and end else None


def _turned(origin: Origin) -> FormName:
    if not origin.turns:
        return (
            FormName("mirrored", "en espejo")
            if origin.mirrored
            else FormName("as drawn", "como en el dibujo")
        )
    deg = _DEGREES[origin.turns]
    # Spanish words without a gender: the pattern's name may be a kite (cometa) or a plane (avión)
    turned = FormName(f"turned {deg}°", f"con giro de {deg}°")
    if origin.mirrored:
        return FormName(f"mirrored and {turned.en}", f"en espejo y {turned.es}")
    return turned


def _single_name(form: Form, origin: Origin, singles: Mapping[Form, Origin]) -> FormName | None:
    corner = _corner(form)
    if corner is not None:
        shared = [f for f in singles if _corner(f) == corner]
        if len(shared) == 1:  # the corner says which form: "postage stamp, top left corner"
            return _CORNERS[corner]
        height = len({r for r, _ in form})
        width = len({c for _, c in form})
        upright = {f for f in shared if len({r for r, _ in f}) > len({c for _, c in f})}
        flat = {f for f in shared if len({r for r, _ in f}) < len({c for _, c in f})}
        if len(upright) <= 1 and len(flat) <= 1 and height != width:  # a six-pack's two ways
            way = (
                FormName("upright", "vertical")
                if height > width
                else FormName("on its side", "horizontal")
            )
            name = _CORNERS[corner]
            return FormName(f"{name.en}, {way.en}", f"{name.es}, {way.es}")
    grids = {o.grid for o in singles.values()}
    words = []
    if len(grids) > 1:
        words.append(FormName(f"form {origin.grid + 1}", f"forma {origin.grid + 1}"))
    if any(o.turns or o.mirrored for o in singles.values()):
        words.append(_turned(origin))
    if not words:
        return None
    return FormName(", ".join(w.en for w in words), ", ".join(w.es for w in words))


def form_names(
    forms: tuple[Form, ...], origins: tuple[Origin, ...] = ()
) -> tuple[FormName | None, ...]:
    """The name of each form of a pattern, from how it was made: its lines ("row 1 and column
    B"), the forms picked ("top left corner and bottom right corner"), the corner it sits in
    when no other form shares it ("top left corner"), else its turn and mirror ("turned 90°").
    A pattern without origins (drawn by the Maestro, read back from a game's record) has its
    forms named as separate grids. None: a pattern of one form, whose name says it all."""
    if len(forms) < 2:
        return tuple(None for _ in forms)
    if len(origins) != len(forms):
        origins = tuple(Origin(grid=i) for i in range(len(forms)))
    singles: dict[Form, Origin] = {}
    for form, origin in zip(forms, origins, strict=True):
        if not origin.parts and not origin.lines:
            singles[form] = origin
    if any(o.parts for o in origins):  # a pick's forms are named as the forms it picks from
        singles = {p.cells: p for o in origins for p in o.parts}

    def name(form: Form, origin: Origin) -> FormName | None:
        if origin.lines:
            return _join(line_name(n) for n in origin.lines)
        if origin.parts:
            named = [_single_name(p.cells, p, singles) for p in origin.parts]
            if all(n is not None for n in named):
                return _join(n for n in named if n is not None)
            return None
        return _single_name(form, origin, singles)

    return tuple(name(f, o) for f, o in zip(forms, origins, strict=True))
