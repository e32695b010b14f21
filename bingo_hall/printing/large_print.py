"""What a large-print template promises (cards and tickets for players who see poorly),
checked before anything is printed: the grid's numbers at least 36 pt, the margin totals at least
18 pt, and every colour at least 7:1 against what it is printed on (WCAG's enhanced contrast, the
ratio of black on a mid grey; black on white is 21:1). The strokes of a card at these sizes are
well over 1 pt (a cell is then at least 54 pt, its lines 2.5% of it) and the cut lines are drawn
at 1 pt.

A template that cannot keep the promise (a copy of large-2 with two rows, or a pale grey) is
refused in one line that says what it would print and how to fix it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .templates import Template, TemplateError

if TYPE_CHECKING:  # the layouts import this module's callers, not this module
    from .variants import Layout

NUMBER_PT = 36.0
TOTAL_PT = 18.0
LINE_PT = 1.0  # the cut lines between large-print cards
CONTRAST = 7.0
PAPER = "#FFFFFF"


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """Relative luminance of '#RRGGBB' (WCAG 2.x)."""
    r, g, b = (_channel(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _grounds(template: Template, key: str) -> list[str]:
    if key == "paper":
        return [PAPER]
    if key == "letters":
        return list(template.theme.letters)
    return [getattr(template.theme, key)]


def check_large_print(template: Template, layout: Layout, s: float, paper: str) -> None:
    """Refuse a large-print template whose print, with cells of `s` points on `paper`, would be
    smaller or paler than large print. A standard template passes as it is."""
    if not template.large_print:
        return
    number, total = layout.number * s, layout.total * s
    if number < NUMBER_PT - 0.01 or total < TOTAL_PT - 0.01:
        raise TemplateError(
            "template %(name)s would print numbers of %(number)s pt and margin totals of"
            " %(total)s pt on %(paper)s paper; large print needs at least %(need)s pt and"
            " %(need_total)s pt: put fewer on a page",
            name=template.name,
            number=int(number),
            total=int(total),
            paper=paper,
            need=int(NUMBER_PT),
            need_total=int(TOTAL_PT),
        )
    for ink, ground in layout.inks:
        colour = getattr(template.theme, ink)
        for behind in _grounds(template, ground):
            ratio = contrast(colour, behind)
            if ratio < CONTRAST:
                raise TemplateError(
                    "template %(name)s: theme.%(ink)s (%(colour)s) on %(ground)s (%(behind)s)"
                    " has a contrast of %(ratio)s:1; large print needs at least %(need)s:1",
                    name=template.name,
                    ink=ink,
                    colour=colour,
                    ground=ground if ground == "paper" else f"theme.{ground}",
                    behind=behind,
                    ratio=round(ratio, 1),
                    need=int(CONTRAST),
                )
