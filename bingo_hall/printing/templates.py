"""Card templates: page layouts kept as TOML data in `card_templates/`, so a host can copy one,
change the colours or the number of cards per page, and print with it without touching code.

A template names a grid of cards per page and a colour theme. A template with `game = 90` lays out
90-ball strips instead: `columns` x `rows` strips per page, each a column of six tickets; there
its `letters` are optional and unused, `accent` tints the ticket's header band and `free_fill`
its blank cells. The card itself (header, 5x5 grid,
margin totals, deck name, serial, QR) is always drawn the same way and scaled to fit its slot, so
every template works on A4 and Letter alike. `large_print = true` asks for the
variant's large-print layout and holds the print to it: numbers of at least 36 pt, margin totals
of at least 18 pt, and every colour at least 7:1 against what it is printed on
(`printing/large_print.py`). Loading validates every key and reports problems by
file and key name, because the person reading the message is editing a text file by hand.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import card_templates

from ..errors import KitError
from ..toml_table import Problem, Table
from ..variants import DEFAULT_BALLS, VARIANTS, variant_for

# the `card_templates` package, found where Python imports it from (a clone or site-packages)
TEMPLATE_DIR = Path(card_templates.__file__).resolve().parent
#: `--template large`: the game's own large-print template (`Variant.large_template`)
LARGE = "large"
_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")
_THEME_KEYS = (
    "letter_text",
    "numbers",
    "grid",
    "totals",
    "free_fill",
    "frame",
    "accent",
)


class TemplateError(KitError):
    """A card template is missing, unreadable or has a bad value."""


@dataclass(frozen=True)
class Theme:
    """Colours as '#RRGGBB'. `letters` are the five header boxes, B I N G O."""

    letters: tuple[str, str, str, str, str]
    letter_text: str
    numbers: str
    grid: str
    totals: str
    free_fill: str
    frame: str
    accent: str


@dataclass(frozen=True)
class Template:
    name: str
    description: str
    columns: int
    rows: int
    landscape: bool
    margin_mm: float
    gap_mm: float
    theme: Theme
    game: int = DEFAULT_BALLS
    large_print: bool = False

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def available_templates() -> list[str]:
    """Names usable with --template (files in card_templates/, without .toml)."""
    return sorted(p.stem for p in TEMPLATE_DIR.glob("*.toml"))


#: the keys of a template file, in the order an unknown key's message lists them
KEYS = (
    "columns",
    "description",
    "game",
    "gap_mm",
    "large_print",
    "margin_mm",
    "orientation",
    "rows",
    "theme",
)
_WHOLE = "%(where)s: %(what)s must be a whole number from %(low)g to %(high)g, not %(value)r"
_NUMBER = "%(where)s: %(what)s must be a number from %(low)g to %(high)g, not %(value)r"


def _colour(value: object, what: str, fail: Problem) -> str:
    if not isinstance(value, str) or not _COLOUR.match(value):
        raise fail('%(where)s: %(what)s must be a colour like "#1565C0", not %(value)r',
                   what=what, value=value)  # fmt: skip
    return value.upper()


def template_from_table(data: Table, name: str) -> Template:
    """The template a file's table describes, checked: its problems name the file (`where`)."""
    fail = data.fail
    data.only(KEYS, "%(where)s: unknown key %(key)r (known: %(known)s)")
    game = data.value("game", DEFAULT_BALLS)
    if game not in [v.balls for v in VARIANTS] or isinstance(game, bool):
        raise fail("%(where)s: game must be 75 or 90, not %(game)r", "game", game=game)
    large_print = data.boolean(
        "large_print", False, wrong="%(where)s: large_print must be true or false, not %(value)r"
    )
    description = data.value("description", "")
    if not isinstance(description, str):
        raise fail("%(where)s: description must be text", "description")
    columns = data.integer("columns", low=1, high=4, wrong=_WHOLE)
    rows = data.integer("rows", low=1, high=4, wrong=_WHOLE)
    orientation = data.value("orientation", "portrait")
    if orientation not in ("portrait", "landscape"):
        raise fail('%(where)s: orientation must be "portrait" or "landscape"', "orientation")
    margin = data.number("margin_mm", low=0, high=40, wrong=_NUMBER)
    gap = data.number("gap_mm", low=0, high=40, wrong=_NUMBER)
    theme = data.table("theme", wrong="%(where)s: the [theme] table is missing", prefix="theme.")
    theme.only((*_THEME_KEYS, "letters"), "%(where)s: unknown theme key %(key)r")
    letters = theme.value("letters")
    if not variant_for(game).has_letters and letters is None:  # no B I N G O to colour
        letters = [theme.value("accent")] * 5
    if not isinstance(letters, list) or len(letters) != 5:
        raise fail(
            "%(where)s: theme.letters must list 5 colours, one per letter B I N G O", "theme"
        )
    colours = {k: _colour(theme.value(k), theme.named(k), fail) for k in _THEME_KEYS}
    b, i, n, g, o = (_colour(c, theme.named("letters"), fail) for c in letters)
    return Template(
        name=name,
        description=description,
        columns=columns,
        rows=rows,
        landscape=orientation == "landscape",
        margin_mm=float(margin),
        gap_mm=float(gap),
        theme=Theme(
            letters=(b, i, n, g, o),
            **colours,
        ),
        game=game,
        large_print=large_print,
    )


def load_template(name_or_path: str) -> Template:
    """A template by name (`classic-4`) or by path to a .toml file a user made."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".toml" or "/" in name_or_path or "\\" in name_or_path:
        path = candidate
    else:
        path = TEMPLATE_DIR / f"{name_or_path}.toml"
        if not path.is_file():
            raise TemplateError(
                "unknown template %(name)r; choose one of: %(names)s",
                name=name_or_path,
                names=", ".join(available_templates()),
            )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TemplateError(
            "cannot read template %(path)s: %(reason)s", path=path, reason=exc
        ) from None

    def problem(template: str, /, *keys: str, **params: Any) -> TemplateError:
        return TemplateError(template, where=str(path), **params)

    try:
        data = Table.from_json(tomllib.loads(text), problem)
    except tomllib.TOMLDecodeError as exc:
        raise TemplateError(
            "%(path)s: not valid TOML (%(reason)s)", path=path, reason=exc
        ) from None
    return template_from_table(data, path.stem)
