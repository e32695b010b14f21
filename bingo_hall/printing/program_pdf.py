"""The players' program of the night (issue 37), in Spanish or English: for each game its number,
its name, the figure to cover drawn as a little card (or ticket), the price and the prizes, and
the interval after it. A4, as many pages as the night needs.

The little figure is the variant's own drawing (`FIGURES`, keyed by the variant's class): a 5x5
card with the pattern's squares (or a line) shaded, a 3x9 ticket with the prize's rows shaded.
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from ..cards import LETTERS, SIZE
from ..money.program import (
    Program,
    ProgramGame,
    figure_name,
    price_text,
    prize_name,
    prize_text,
    words,
)
from ..ninety.prize_rules import CellsRule, CountRule, RowCountRule, RowsRule
from ..ninety.tickets import COLUMNS, ROWS
from ..variants import ByVariant, Cards75, Strips90
from .pdfutil import pdf_bytes

MARGIN = 16 * mm
BLOCK = 44 * mm
FIGURE = 34 * mm
INK = HexColor("#111111")
GREY = HexColor("#555555")
SHADE = HexColor("#1f5fa8")
BOLD, REGULAR = "Helvetica-Bold", "Helvetica"
TEXT = 15  # pt: each game's details, readable at arm's length

TITLE = {"en": "Tonight's programme", "es": "Programa de la noche"}

Figure = Callable[[Canvas, float, float, ProgramGame], None]


def _grid(
    c: Canvas, x: float, top: float, rows: int, cols: int, cell: float, shaded: set[tuple[int, int]]
) -> None:
    for r in range(rows):
        for col in range(cols):
            y = top - (r + 1) * cell
            c.setFillColor(SHADE if (r, col) in shaded else HexColor("#ffffff"))
            c.setStrokeColor(INK)
            c.setLineWidth(0.6)
            c.rect(x + col * cell, y, cell, cell, stroke=1, fill=1)


def _card(c: Canvas, x: float, top: float, game: ProgramGame) -> None:
    """A 5x5 card under B I N G O: the pattern's squares, or the middle row for a line."""
    cell = FIGURE / SIZE
    c.setFont(BOLD, 10)
    c.setFillColor(INK)
    for i, letter in enumerate(LETTERS):
        c.drawCentredString(x + (i + 0.5) * cell, top - 2.5 * mm, letter)
    shaded = set(game.pattern.cells) if game.pattern else {(2, col) for col in range(SIZE)}
    _grid(c, x, top - 4 * mm, SIZE, SIZE, cell, shaded)


def _ticket(c: Canvas, x: float, top: float, game: ProgramGame) -> None:
    """A 3x9 ticket: the main prize's rows (the full house: all three), cells or first five."""
    cell = (FIGURE + 6 * mm) / COLUMNS  # wider than the card, short of the text
    rule = game.plan.prize(game.main_prize).rule
    shaded: set[tuple[int, int]]
    if isinstance(rule, RowsRule):
        shaded = {(r, col) for r in rule.rows[: rule.needed] for col in range(COLUMNS)}
    elif isinstance(rule, CellsRule):
        shaded = {(r, 0 if p == 0 else COLUMNS - 1) for r, p in rule.cells}
    elif isinstance(rule, RowCountRule):  # ambo, terno...: so many on one row
        shaded = {(0, 2 * i) for i in range(rule.count)}
    elif isinstance(rule, CountRule):
        shaded = {(i % ROWS, (2 * i) % COLUMNS) for i in range(rule.count)}
    else:  # pragma: no cover - every rule kind is drawn above
        shaded = set()
    _grid(c, x, top - 4 * mm, ROWS, COLUMNS, cell, shaded)


#: the little figure of each variant
FIGURES: ByVariant[Figure] = ByVariant(
    "printing.program_pdf.FIGURES", {Cards75: _card, Strips90: _ticket}
)


def _lines(program: Program, game: ProgramGame, lang: str) -> list[tuple[str, float, str]]:
    currency = program.currency or "EUR"
    w = words(lang)
    out: list[tuple[str, float, str]] = [
        (BOLD, 14, f"{w['game']} {game.number}"),
        (BOLD, 20, game.name(lang)),
        (
            REGULAR,
            TEXT,
            f"{figure_name(game, lang)} · {price_text(game, currency, lang)}".strip(" ·"),
        ),
    ]
    for key in game.plan.prizes:
        rule = game.prizes.get(key)
        if rule is not None:
            out.append(
                (
                    REGULAR,
                    TEXT,
                    f"{prize_name(game, key, lang)}: {prize_text(rule, currency, lang)}",
                )
            )
    if game.interval:
        out.append((BOLD, TEXT, w["interval"] % {"n": game.interval}))
    return out


def _wrapped(lines: list[tuple[str, float, str]], width: float) -> list[tuple[str, float, str]]:
    """Each line split to the text column's width (a long prize line goes on two lines)."""
    return [
        (font, size, part)
        for font, size, text in lines
        for part in simpleSplit(text, font, size, width) or [""]
    ]


def _step(size: float) -> float:
    return size * 0.45 * mm + 1.6 * mm


def render_program_pdf(program: Program, lang: str = "es") -> bytes:
    words(lang)  # an unknown language is refused before a page is drawn
    width, height = A4

    def draw(c: Canvas) -> None:
        y = height - MARGIN

        def heading() -> float:
            c.setFillColor(INK)
            c.setFont(BOLD, 26)
            c.drawString(MARGIN, height - MARGIN - 8 * mm, program.name(lang))
            c.setFont(REGULAR, 16)
            c.setFillColor(GREY)
            c.drawString(MARGIN, height - MARGIN - 16 * mm, TITLE[lang])
            return height - MARGIN - 24 * mm

        text_width = width - 2 * MARGIN - FIGURE - 10 * mm
        y = heading()
        for game in program.games:
            lines = _wrapped(_lines(program, game, lang), text_width)
            block = max(BLOCK, sum(_step(size) for _, size, _ in lines) + 8 * mm)
            if y - block < MARGIN:
                c.showPage()
                y = heading()
            FIGURES[game.variant](c, MARGIN, y, game)
            ty = y - 4 * mm
            for font, size, text in lines:
                c.setFont(font, size)
                c.setFillColor(INK)
                c.drawString(MARGIN + FIGURE + 10 * mm, ty, text)
                ty -= _step(size)
            c.setStrokeColor(GREY)
            c.setLineWidth(0.3)
            c.line(MARGIN, y - block + 3 * mm, width - MARGIN, y - block + 3 * mm)
            y -= block

    return pdf_bytes(A4, f"{program.name(lang)} — {TITLE[lang]}", draw)
