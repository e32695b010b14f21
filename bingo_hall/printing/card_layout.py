"""Drawing one card on a reportlab canvas.

The card follows the 1933 Parker Brothers card (seed bingo-normal-y-de-puntos, docs/rules.md §1):
B I N G O over a 5x5 grid, and the "cifras pequeñas" in the margin: each row's total at its right
end, each column's total under it, and each diagonal's total at the corner where it ends (D1,
top-left to bottom-right, at the bottom-right corner; D2, top-right to bottom-left, at the
bottom-left corner). Below the grid: the deck name, the serial big enough to type, and the QR.

The totals are read across a table: bold, a third of a cell high, in the template's
dark `totals` colour. A diagonal total sits at a corner, where a column or row total could be
taken for it, so each diagonal carries an arrow at both of its ends, pointing along it: in from
the margin beside the header at the top, and out of the grid's corner into its total below.

All sizes are multiples of one grid cell `s`, so the same drawing fills a poster or a sixth of a
page. The type sizes are a `CardType`: the standard one, or the large-print one, whose
numbers fill more of their cell so that two cards a page still print them at 36 pt or more.
What is the same on every card of a deck (frame, header, grid, deck name) is drawn once into a
PDF form and reused: that is most of what keeps a 3003-card PDF small and fast.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import ClassVar

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from ..seventyfive.cards import CENTRE, LETTERS, SIZE, Card
from .qr import QrPath
from .templates import Theme

# Card geometry in cells: margins left/right of the grid, and the bands from top to bottom.
SIDE = 0.86
WIDTH = SIDE + SIZE + SIDE
PAD_TOP, HEADER, TOTALS, GAP, FOOTER, PAD_BOTTOM = 0.3, 0.95, 0.55, 0.2, 1.55, 0.3
HEIGHT = PAD_TOP + HEADER + SIZE + TOTALS + GAP + FOOTER + PAD_BOTTOM
TOTAL_SIZE = 0.34  # margin totals: bold, wide enough for "365" inside the side margin
# The diagonal arrows, in cells away from the grid's corner along the diagonal (the same on both
# axes): the top ones run in from the margin beside the header, the bottom ones out towards the
# total, stopping short of it. Then the head's length and half-width.
ARROW_IN, ARROW_OUT = (0.44, 0.07), (0.06, 0.34)
ARROW_HEAD, ARROW_HALF = 0.15, 0.08
DIAGONAL_DROP = 0.57  # a diagonal total's centre, below the grid's bottom line

BOLD, REGULAR = "Helvetica-Bold", "Helvetica"
CAP = 0.36  # half of Helvetica's digit height, as a fraction of the font size: centres numbers
UNICODE_BOLD = "DejaVuSans-Bold"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


@dataclass(frozen=True)
class CardType:
    """The sizes of a card's text, as fractions of a grid cell."""

    number: float = 0.5  # the grid's numbers
    total: float = TOTAL_SIZE  # the margin totals
    free: float = 0.24  # LIBRE / FREE in the centre
    serial_label: float = 0.32  # "Cartón Nº"
    serial: float = 0.62
    scan: float = 0.2  # "Scan to verify"


STANDARD = CardType()
#: Large print: the numbers two thirds of their cell (two-digit numbers still clear its sides),
#: everything read in words a size up.
LARGE = CardType(number=0.66, total=0.36, free=0.3, scan=0.26)


@dataclass(frozen=True)
class GridBox:
    """Where a card or ticket sits: its lower-left corner and cell size, in points. Subclasses
    say where the grid's top-left corner is, in cells from that corner."""

    x: float
    y: float
    s: float
    GRID_LEFT: ClassVar[float] = 0.0
    GRID_TOP: ClassVar[float] = 0.0

    @property
    def grid_left(self) -> float:
        return self.x + self.GRID_LEFT * self.s

    @property
    def grid_top(self) -> float:
        return self.y + self.GRID_TOP * self.s

    def cell_centre(self, row: int, col: int) -> tuple[float, float]:
        return (
            self.grid_left + (col + 0.5) * self.s,
            self.grid_top - (row + 0.5) * self.s,
        )


@dataclass(frozen=True)
class CardBox(GridBox):
    """Where a 75-ball card sits."""

    GRID_LEFT: ClassVar[float] = SIDE
    GRID_TOP: ClassVar[float] = HEIGHT - PAD_TOP - HEADER


def fit_card(x: float, y: float, w: float, h: float) -> CardBox:
    """The largest card that fits the slot (x, y, w, h), centred in it."""
    s = min(w / WIDTH, h / HEIGHT)
    return CardBox(x + (w - WIDTH * s) / 2, y + (h - HEIGHT * s) / 2, s)


def _name_font(text: str) -> str:
    """Helvetica covers Western European names; others get DejaVu Sans, embedded, if installed."""
    try:
        text.encode("cp1252")
        return BOLD
    except UnicodeEncodeError:
        pass
    if UNICODE_BOLD not in pdfmetrics.getRegisteredFontNames():
        if not Path(DEJAVU_BOLD).is_file():
            return BOLD  # unknown characters print as boxes, but the card still prints
        pdfmetrics.registerFont(TTFont(UNICODE_BOLD, DEJAVU_BOLD))
    return UNICODE_BOLD


#: The deck name's room under a card's grid, in card units: (width, largest font size).
NAME_BOX = (SIZE - FOOTER - 0.15, 0.34)


#: The smallest size a long deck name shrinks to on a large card (a poster, one card a page), in
#: points: still read across a table. A small card never shrinks it below 2/3 of its size.
NAME_MIN_PT = 11.0


def fit_name(name: str, width: float, size: float) -> tuple[str, float, str]:
    """(font, size, text) for the deck name: shrunk (to 2/3 of its size, or to NAME_MIN_PT on a
    card large enough to have that room), then cut with '…'."""
    font = _name_font(name)
    natural = stringWidth(name, font, size)
    if natural > width:
        size = max(min(size * 2 / 3, NAME_MIN_PT), size * width / natural)
    while len(name) > 1 and stringWidth(name, font, size) > width:
        name = name[:-2].rstrip() + "…"
    return font, size, name


def _centred(c: Canvas, text: str, x: float, y: float, font: str, size: float) -> None:
    """Text centred on (x, y), using the cap height so numbers sit in the middle of a cell."""
    c.setFont(font, size)
    c.drawCentredString(x, y - CAP * size, text)


def diagonal_arrows(box: CardBox) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """(tail, tip) of the four arrows: D1 at the top-left and bottom-right corners, D2 at the
    top-right and bottom-left. Each lies on its diagonal's line, pointing the way it runs."""
    s, gl, gt = box.s, box.grid_left, box.grid_top
    gr, bottom = gl + SIZE * s, gt - SIZE * s
    (a, b), (c, d) = ((k * s for k in pair) for pair in (ARROW_IN, ARROW_OUT))
    return [
        ((gl - a, gt + a), (gl - b, gt + b)),  # D1 comes in at the top-left...
        ((gr + c, bottom - c), (gr + d, bottom - d)),  # ...and leaves towards its total
        ((gr + a, gt + a), (gr + b, gt + b)),  # D2 comes in at the top-right...
        ((gl - c, bottom - c), (gl - d, bottom - d)),  # ...and leaves towards its total
    ]


def _diagonal_arrows(c: Canvas, box: CardBox, theme: Theme) -> None:
    s = box.s
    c.setStrokeColor(HexColor(theme.totals))
    c.setFillColor(HexColor(theme.totals))
    c.setLineWidth(max(0.6, 0.045 * s))
    c.setLineCap(1)
    head, half = ARROW_HEAD * s / 2**0.5, ARROW_HALF * s / 2**0.5
    for (x0, y0), (x1, y1) in diagonal_arrows(box):
        dx, dy = (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)
        bx, by = x1 - dx * head, y1 - dy * head  # the middle of the head's base
        c.line(x0, y0, bx, by)
        path = c.beginPath()
        path.moveTo(x1, y1)
        path.lineTo(bx + dy * half, by - dx * half)
        path.lineTo(bx - dy * half, by + dx * half)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
    c.setLineCap(0)


def draw_card_form(
    c: Canvas,
    name: str,
    s: float,
    theme: Theme,
    deck_name: str,
    labels: dict[str, str],
    free: bool,
    kind: CardType = STANDARD,
) -> None:
    """Define the form `name`: everything a deck's cards share, drawn at a card's origin."""
    c.beginForm(name, 0, 0, WIDTH * s, HEIGHT * s)
    box = CardBox(0, 0, s)
    gl, gt = box.grid_left, box.grid_top
    c.setStrokeColor(HexColor(theme.frame))
    c.setLineWidth(max(0.6, 0.03 * s))
    c.roundRect(0.08 * s, 0.08 * s, (WIDTH - 0.16) * s, (HEIGHT - 0.16) * s, 0.2 * s)

    c.setLineWidth(max(0.5, 0.025 * s))
    c.setStrokeColor(HexColor(theme.grid))
    for col, letter in enumerate(LETTERS):
        c.setFillColor(HexColor(theme.letters[col]))
        c.rect(gl + col * s, gt, s, HEADER * s, stroke=1, fill=1)
        c.setFillColor(HexColor(theme.letter_text))
        _centred(c, letter, gl + (col + 0.5) * s, gt + HEADER * s / 2, BOLD, 0.72 * s)
    if free:
        c.setFillColor(HexColor(theme.free_fill))
        c.rect(gl + CENTRE[1] * s, gt - (CENTRE[0] + 1) * s, s, s, stroke=0, fill=1)
        c.setFillColor(HexColor(theme.numbers))
        x, y = box.cell_centre(*CENTRE)
        _centred(c, labels["free"], x, y, BOLD, kind.free * s)
    for i in range(SIZE + 1):
        c.line(gl + i * s, gt, gl + i * s, gt - SIZE * s)
        c.line(gl, gt - i * s, gl + SIZE * s, gt - i * s)

    _diagonal_arrows(c, box, theme)

    footer_top = box.y + (PAD_BOTTOM + FOOTER) * s
    c.setFillColor(HexColor(theme.accent))
    font, size, shown = fit_name(deck_name, NAME_BOX[0] * s, NAME_BOX[1] * s)
    c.setFont(font, size)
    c.drawString(gl, footer_top - 0.42 * s, shown)
    c.setFillColor(HexColor(theme.totals))
    c.setFont(REGULAR, kind.scan * s)
    c.drawString(gl, box.y + PAD_BOTTOM * s + 0.05 * s, labels["scan"] + " \u2192")
    c.endForm()


def _pdf_text(text: str) -> str:
    """`text` as the inside of a PDF string for a standard font (WinAnsi, i.e. cp1252), so a
    raw operator can print "Cartón Nº": bytes past ASCII and the delimiters are escaped."""
    return "".join(
        chr(b) if 32 <= b < 127 and b not in b"()\\" else f"\\{b:03o}"
        for b in text.encode("cp1252")
    )


def rgb_fill(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return f"{r:.3f} {g:.3f} {b:.3f} rg"


@lru_cache(maxsize=4096)
def text_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


def pdf_text(text: str) -> str:
    """`text` as a PDF literal string for the standard fonts (WinAnsi): brackets and backslash
    escaped, and accented letters ("Cartón") as octal codes rather than raw UTF-8 bytes."""
    if text.isascii() and not any(ch in text for ch in "()\\"):
        return text
    out = []
    for ch in text:
        if ch in "()\\":
            out.append("\\" + ch)
        elif ord(ch) < 128:
            out.append(ch)
        else:
            out.append(f"\\{ch.encode('cp1252', 'replace')[0]:03o}")
    return "".join(out)


def centred_op(font: str, ref: str, size: float, text: str, x: float, y: float) -> str:
    """PDF text operators (inside BT/ET) for `text` centred on (x, y), as `_centred` draws it."""
    w = text_width(text, font, size)
    return (
        f"{ref} {size:.2f} Tf 1 0 0 1 {x - w / 2:.2f} {y - CAP * size:.2f} Tm ({pdf_text(text)}) Tj"
    )


def qr_op(qr: QrPath, left: float, top: float, side: float) -> str:
    """A QR code filling the square (left, top, side), with a one-module white border inside it.

    The path is in module units, y downwards, so every run is "col row len 1 re" in small
    integers; the caller wraps it in q/Q.
    """
    modules, path = qr
    m = side / (modules + 2)
    return f"0 g {m:.4f} 0 0 {-m:.4f} {left + m:.2f} {top - m:.2f} cm\n{path}\nf"


class Ink:
    """The fonts and colours that the per-card (or per-ticket) PDF operators use."""

    def __init__(self, c: Canvas, theme: Theme, number: float = STANDARD.number) -> None:
        c.setFont(BOLD, 10)  # registers both fonts in the document
        c.setFont(REGULAR, 10)
        doc = c._doc  # type: ignore[attr-defined]  # reportlab's one way to a font's PDF name
        self.bold = doc.getInternalFontName(BOLD)
        self.regular = doc.getInternalFontName(REGULAR)
        self.numbers = rgb_fill(theme.numbers)
        self.totals = rgb_fill(theme.totals)
        self.number = number  # the numbers' size, as a fraction of a cell

    def numbers_ops(self, box: GridBox, cells: Iterable[tuple[int, int, int]]) -> list[str]:
        """The big numbers, each centred in its (row, column) cell of the grid."""
        size = self.number * box.s
        return [
            centred_op(BOLD, self.bold, size, str(n), *box.cell_centre(row, col))
            for row, col, n in cells
        ]


class CardInk(Ink):
    """Writes the per-card content as raw PDF operators.

    reportlab's drawing calls format every coordinate through a pure-Python float formatter;
    for ~40 strings and ~200 QR runs per card that was most of the time of a 3003-card print.
    Here each card becomes one literal block in its own q/Q, so it cannot disturb the canvas's
    own graphics state.
    """

    def __init__(
        self, c: Canvas, theme: Theme, labels: dict[str, str], kind: CardType = STANDARD
    ) -> None:
        super().__init__(c, theme, kind.number)
        self.kind = kind
        self.label = labels["card_no"] + " "
        self.label_pdf = _pdf_text(self.label)

    def _centred(
        self, ops: list[str], font: str, ref: str, size: float, text: str, x: float, y: float
    ) -> None:
        ops.append(centred_op(font, ref, size, text, x, y))

    def card_ops(self, box: CardBox, card: Card, qr: QrPath | None) -> str:
        """The numbers, the margin totals, the serial and the QR code of one card."""
        s = box.s
        ops = ["q BT", self.numbers]
        cells = (
            (row, col, n)
            for col, column in enumerate(card.columns)
            for row, n in enumerate(column)
            if n is not None
        )
        ops += self.numbers_ops(box, cells)

        totals = card.totals()
        ops.append(self.totals)
        small = self.kind.total * s
        bottom = box.grid_top - SIZE * s
        right = box.grid_left + (SIZE + SIDE / 2) * s
        for row, total in enumerate(totals["rows"]):
            y = box.cell_centre(row, 0)[1]
            self._centred(ops, BOLD, self.bold, small, str(total), right, y)
        below = bottom - (TOTALS / 2 + 0.02) * s
        for col, total in enumerate(totals["columns"]):
            x = box.cell_centre(0, col)[0]
            self._centred(ops, BOLD, self.bold, small, str(total), x, below)
        d1, d2 = totals["diagonals"]
        corner_y = bottom - DIAGONAL_DROP * s
        self._centred(ops, BOLD, self.bold, small, str(d1), right, corner_y)
        left = box.grid_left - SIDE * s / 2
        self._centred(ops, BOLD, self.bold, small, str(d2), left, corner_y)

        footer_top = box.y + (PAD_BOTTOM + FOOTER) * s
        ops.append(self.numbers)
        label_size, serial_size = self.kind.serial_label * s, self.kind.serial * s
        x, y = box.grid_left, footer_top - 1.1 * s
        ops.append(
            f"{self.bold} {label_size:.2f} Tf 1 0 0 1 {x:.2f} {y:.2f} Tm ({self.label_pdf}) Tj"
        )
        x += text_width(self.label, BOLD, label_size)
        ops.append(
            f"{self.bold} {serial_size:.2f} Tf 1 0 0 1 {x:.2f} {y:.2f} Tm ({card.serial}) Tj"
        )
        ops.append("ET")

        if qr is not None:
            side = FOOTER * s
            ops.append(qr_op(qr, box.grid_left + SIZE * s - side, footer_top, side))
        ops.append("Q")
        return "\n".join(ops)


def draw_card(
    c: Canvas, form: str, box: CardBox, ink: CardInk, card: Card, qr: QrPath | None
) -> None:
    """One card: the shared form, then its own numbers, totals, serial and QR code."""
    c.saveState()
    c.translate(box.x, box.y)
    c.doForm(form)
    c.restoreState()
    c.addLiteral(ink.card_ops(box, card, qr))
