"""The players' program of the night, in Spanish or English: for each game its number,
its name, the figure to cover drawn as a little card (or ticket), the price and the prizes, and
the interval after it. A4, as many pages as the night needs.

The little figure is the variant's own drawing (`FIGURES`, keyed by the variant's class): a 5x5
card with the pattern's squares (or a line) shaded, a pattern of a few forms as that many
smaller cards, with words for what is not drawn ("in any orientation", "any 2 lines"); a 3x9
ticket with the prize's rows shaded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from ..money.program import Program, ProgramGame
from ..money.program_words import figure_name, price_text, prize_name, prize_text, words
from ..ninety.prize_rules import CellsRule, CountRule, RowCountRule, RowsRule
from ..ninety.tickets import COLUMNS, ROWS
from ..seventyfive.cards import LETTERS, SIZE
from ..seventyfive.patterns import Cell, Pattern, PatternShape
from ..seventyfive.specials import rule_lines
from ..variants import ByVariant, Cards75, Strips90
from .large_print import TOTAL_PT
from .pdfutil import pdf_bytes

INK = HexColor("#111111")
GREY = HexColor("#555555")
SHADE = HexColor("#1f5fa8")
BOLD, REGULAR = "Helvetica-Bold", "Helvetica"


@dataclass(frozen=True)
class Style:
    """The sizes of one form of the program: the standard one, and the large print one that
    keeps the cards' large-print promise (text at least `large_print.TOTAL_PT`, 18 pt)."""

    margin: float
    block: float  # the least height of a game's block
    figure: float  # the little card's width
    text: float  # pt: each game's details, readable at arm's length
    name: float  # pt: the game's name
    number: float  # pt: "Game 3"
    title: float  # pt: the night's name
    subtitle: float  # pt: "Tonight's programme"
    letters: float  # pt: B I N G O over the little card
    grid: float  # pt: the little card's lines

    def scaled(self, k: float) -> Style:
        """Every size times `k` (the lines and margin kept): a short night's program fills its
        page instead of leaving half of it empty."""
        return replace(
            self,
            block=self.block * k,
            figure=self.figure * k,
            **{
                f: getattr(self, f) * k
                for f in ("text", "name", "number", "title", "subtitle", "letters")
            },
        )


STANDARD = Style(16 * mm, 44 * mm, 34 * mm, 15, 20, 14, 26, 16, 10, 0.6)
LARGE = Style(14 * mm, 70 * mm, 56 * mm, TOTAL_PT, 28, TOTAL_PT, 34, 22, TOTAL_PT, 1.2)

TITLE = {"en": "Tonight's programme", "es": "Programa de la noche"}

Line = tuple[str, float, str]  # font, size, text
Figure = Callable[[Canvas | None, float, float, ProgramGame, Style, str], float]


def _grid(
    c: Canvas,
    x: float,
    top: float,
    size: tuple[int, int],
    cell: float,
    shaded: set[tuple[int, int]],
    style: Style,
) -> None:
    rows, cols = size
    for r in range(rows):
        for col in range(cols):
            y = top - (r + 1) * cell
            c.setFillColor(SHADE if (r, col) in shaded else HexColor("#ffffff"))
            c.setStrokeColor(INK)
            c.setLineWidth(style.grid)
            c.rect(x + col * cell, y, cell, cell, stroke=1, fill=1)


#: how the little card says which forms win, where they are not all drawn (or are drawn but
#: not all there is to it): {kind: {lang: words}}
ALTERNATIVES = {
    "any_of_these": {"en": "any one of these", "es": "cualquiera de estas"},
    "any_orientation": {"en": "in any orientation", "es": "en cualquier orientación"},
    "any_line": {"en": "any line", "es": "una hilera cualquiera"},
    "any_lines": {"en": "any %(n)s lines", "es": "%(n)s hileras cualesquiera"},
    "off_centre": {"en": "not through the centre", "es": "sin pasar por el centro"},
    "together": {"en": "any %(n)s of these together", "es": "%(n)s de estas a la vez"},
    "any_of_n": {"en": "any of its %(n)s forms", "es": "cualquiera de sus %(n)s formas"},
}
#: the most forms the little card draws side by side (more: the first, and words)
FEW = 4


def _alternatives(pattern: Pattern, lang: str) -> tuple[list[frozenset[Cell]], str]:
    """The forms the little card draws, and the words under them: every form where few (a
    postage stamp's four corners), the forms a pick picks from (a double stamp: two of these
    four), else the first with "in any orientation" or "any 2 lines"."""
    shape = PatternShape.of(pattern)

    def said(kind: str, **n: int) -> str:
        return ALTERNATIVES[kind][lang] % n

    if shape.lines:
        words = said("any_line") if shape.lines == 1 else said("any_lines", n=shape.lines)
        if shape.hardway:
            words += ", " + said("off_centre")
        return [pattern.forms[0]], words
    if shape.count == 1:
        return [pattern.forms[0]], ""
    base = [frozenset(divmod(i, SIZE) for i, ch in enumerate(m.replace("/", "")) if ch == "1")
            for m in shape.forms]  # fmt: skip
    if shape.pick and len(base) <= FEW:
        return base, said("together", n=shape.pick)
    if shape.count <= FEW:
        return list(pattern.forms), said("any_of_these")
    if any(o.turns or o.mirrored for o in pattern.origins):
        return [pattern.forms[0]], said("any_orientation")
    return [pattern.forms[0]], said("any_of_n", n=shape.count)


def _card(
    c: Canvas | None, x: float, top: float, game: ProgramGame, style: Style, lang: str
) -> float:
    """A 5x5 card under B I N G O: the pattern's squares, or the middle row for a line; a
    pattern of a few forms as that many smaller cards, two a row, and the words that say which
    forms win under them ("in any orientation"). Its height; drawn unless `c` is None (the
    page's layout measures first)."""
    cell = style.figure / SIZE
    head = style.letters * 0.45 * mm
    forms, words = (
        _alternatives(game.pattern, lang)
        if game.pattern
        else ([frozenset((2, col) for col in range(SIZE))], "")
    )
    if game.specials.odd_even is not None:  # a full card of the odd (even) numbers: all of it
        forms, words = [frozenset((r, col) for r in range(SIZE) for col in range(SIZE))], ""
    gap = 2 * mm
    if len(forms) > 1:  # two a row, the pair as wide as the one card
        cell = (style.figure - gap) / (2 * SIZE)
        rows = (len(forms) + 1) // 2
        drawing = rows * SIZE * cell + (rows - 1) * gap
    else:
        drawing = SIZE * cell
    said = simpleSplit(words, REGULAR, style.letters, style.figure) if words else []
    height = head + drawing + len(said) * _step(style.letters)
    if c is None:
        return height
    c.setFont(BOLD, style.letters)
    c.setFillColor(INK)
    for column in range(2 if len(forms) > 1 else 1):  # B I N G O over each column of cards
        left = x + column * (SIZE * cell + gap)
        for i, letter in enumerate(LETTERS):
            c.drawCentredString(left + (i + 0.5) * cell, top - style.letters * 0.3 * mm, letter)
    for i, form in enumerate(forms):
        row, column = divmod(i, 2)
        left = x + column * (SIZE * cell + gap)
        _grid(c, left, top - head - row * (SIZE * cell + gap), (SIZE, SIZE), cell, set(form), style)
    c.setFont(REGULAR, style.letters)
    c.setFillColor(INK)  # the grid left its white
    y = top - head - drawing
    for line in said:
        y -= _step(style.letters)
        c.drawString(x, y + 0.25 * _step(style.letters), line)
    return height


def _shaded(rule: object) -> set[tuple[int, int]]:
    """The cells of a 3x9 ticket a prize's rule is drawn with."""
    if isinstance(rule, RowsRule):
        return {(r, col) for r in rule.rows[: rule.needed] for col in range(COLUMNS)}
    if isinstance(rule, CellsRule):
        return {(r, 0 if p == 0 else COLUMNS - 1) for r, p in rule.cells}
    if isinstance(rule, RowCountRule):  # ambo, terno...: so many on one row
        return {(0, 2 * i) for i in range(rule.count)}
    if isinstance(rule, CountRule):
        return {(i % ROWS, (2 * i) % COLUMNS) for i in range(rule.count)}
    return set()  # pragma: no cover - every rule kind is drawn above


def _ticket(
    c: Canvas | None, x: float, top: float, game: ProgramGame, style: Style, lang: str
) -> float:
    """A 3x9 ticket for each prize the game pays, under its name (Early Five: five numbers;
    a line: its row; the full house: all three), one under another. Its height; drawn unless
    `c` is None."""
    cell = (style.figure + 6 * mm) / COLUMNS  # wider than the card, short of the text
    paid = [k for k in game.plan.prizes if k in game.prizes] or [game.main_prize]
    size = max(style.letters, 0.75 * style.text)  # the prize's name over its ticket
    label = size * 0.45 * mm
    each = label + ROWS * cell + 2 * mm
    if c is None:
        return each * len(paid)
    y = top
    for key in paid:
        c.setFont(REGULAR, size)
        c.setFillColor(INK)
        short = prize_name(game, key, lang).split(" (")[0]  # "Cinquina", not its gloss
        c.drawString(x, y - size * 0.33 * mm, short)
        _grid(c, x, y - label, (ROWS, COLUMNS), cell, _shaded(game.plan.prize(key).rule), style)
        y -= each
    return each * len(paid)


#: the little figure of each variant
FIGURES: ByVariant[Figure] = ByVariant(
    "printing.program_pdf.FIGURES", {Cards75: _card, Strips90: _ticket}
)


def _lines(program: Program, game: ProgramGame, lang: str, style: Style) -> list[Line]:
    currency = program.currency or "EUR"
    w = words(lang)
    out: list[Line] = [
        (BOLD, style.number, f"{w['game']} {game.number}"),
        (BOLD, style.name, game.name(lang)),
        (
            REGULAR,
            style.text,
            f"{figure_name(game, lang)} · {price_text(game, currency, lang)}".strip(" ·"),
        ),
    ]
    # each special game in words ("Wild number: the first ball's last digit — ...")
    out += [(BOLD, style.text, line.words(lang)) for line in rule_lines(game.specials)]
    for key in game.plan.prizes:
        rule = game.prizes.get(key)
        if rule is not None:
            out.append(
                (
                    REGULAR,
                    style.text,
                    f"{prize_name(game, key, lang)}: {prize_text(rule, currency, lang)}",
                )
            )
    if game.interval:
        out.append((BOLD, style.text, w["interval"] % {"n": game.interval}))
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


def _pages(blocks: list[float], room: float) -> list[list[int]]:
    """The games' blocks (their heights) laid out on pages of `room` points: as few pages as
    the greedy fill needs, the games then shared out evenly among them, so that no page is left
    with one game while the one before it is full."""
    pages: list[list[int]] = [[]]
    used = 0.0
    for i, b in enumerate(blocks):
        if pages[-1] and used + b > room:
            pages.append([])
            used = 0.0
        pages[-1].append(i)
        used += b
    if len(pages) < 2:
        return pages
    even: list[list[int]] = []
    left = list(range(len(blocks)))
    for n in range(len(pages), 0, -1):
        share = -(-len(left) // n)  # the ceiling: the first pages take the odd ones
        take: list[int] = []
        used = 0.0
        while left and len(take) < share and (not take or used + blocks[left[0]] <= room):
            used += blocks[left[0]]
            take.append(left.pop(0))
        even.append(take)
    if left:  # the even share did not fit (blocks of very different heights): the greedy fill
        return pages
    return even


#: how much larger than its form a program may print, to fill the pages it needs
GROW = (1.5, 1.4, 1.3, 1.2, 1.1)


def _head(style: Style) -> float:
    """The height of a page's heading (the night's name and "Tonight's programme")."""
    return (style.title + style.subtitle) * 0.42 * mm + 8 * mm


def render_program_pdf(program: Program, lang: str = "es", large: bool = False) -> bytes:
    """The players' program; `large`: the large-print form (every text at least 18 pt, a bigger
    figure). Either form prints larger where the night leaves room: as large as it can on the
    number of pages its own sizes need."""
    words(lang)  # an unknown language is refused before a page is drawn
    width, height = A4
    base = LARGE if large else STANDARD

    def laid_out(style: Style) -> tuple[list[tuple[ProgramGame, list[Line]]], list[float], float]:
        text_width = width - 2 * style.margin - style.figure - 10 * mm
        games = [(g, _wrapped(_lines(program, g, lang, style), text_width)) for g in program.games]
        blocks = [
            max(
                style.block,
                sum(_step(size) for _, size, _ in lines) + 8 * mm,
                FIGURES[g.variant](None, 0, 0, g, style, lang) + 8 * mm,
            )
            for g, lines in games
        ]
        room = height - style.margin - _head(style) - style.margin
        return games, blocks, room

    games, blocks, room = laid_out(base)
    style = base
    pages = len(_pages(blocks, room))
    for k in GROW:
        bigger = base.scaled(k)
        g2, b2, r2 = laid_out(bigger)
        if len(_pages(b2, r2)) <= pages:
            style, games, blocks, room = bigger, g2, b2, r2
            break
    margin, figure = style.margin, style.figure

    def draw(c: Canvas) -> None:
        def heading() -> float:
            c.setFillColor(INK)
            c.setFont(BOLD, style.title)
            c.drawString(margin, height - margin - style.title * 0.3 * mm, program.name(lang))
            c.setFont(REGULAR, style.subtitle)
            c.setFillColor(GREY)
            below = (style.title + style.subtitle) * 0.42 * mm
            c.drawString(margin, height - margin - below, TITLE[lang])
            return height - margin - _head(style)

        for number, page in enumerate(_pages(blocks, room)):
            if number:
                c.showPage()
            y = heading()
            for i in page:
                game, lines = games[i]
                FIGURES[game.variant](c, margin, y, game, style, lang)
                ty = y - style.number * 0.3 * mm
                for font, size, text in lines:
                    c.setFont(font, size)
                    c.setFillColor(INK)
                    c.drawString(margin + figure + 10 * mm, ty, text)
                    ty -= _step(size)
                c.setStrokeColor(GREY)
                c.setLineWidth(0.3)
                c.line(margin, y - blocks[i] + 3 * mm, width - margin, y - blocks[i] + 3 * mm)
                y -= blocks[i]

    return pdf_bytes(A4, f"{program.name(lang)} — {TITLE[lang]}", draw)
