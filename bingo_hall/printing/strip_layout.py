"""Drawing 90-ball strips on a reportlab canvas: six tickets stacked, as clubs and halls sell them.

Each ticket (docs/printing.md, "90-ball strips"):

    +-------------------------------------------+  +--------+
    | deck name            Strip 4 · Ticket 19  |  |        |
    +---+---+---+---+---+---+---+---+---+  ---  |  |   QR   |
    | 3 |   | 21|   | 45|   | 62|   | 80|  211  |  |        |
    ...                                             +--------+

The header names the deck, the strip and the ticket's serial (big enough to type at the station);
the row totals stand in the margin at the end of each row, as on the 75-ball cards; the signed QR
code is the same as a card's (`/C/<deck>/<serial>/<sig>`), so the station's verify page finds it.
Blank cells are tinted so a dabber never lands on one by mistake.

As for cards, sizes are multiples of one grid cell `s`, what every ticket shares is one PDF form,
and each ticket's own ink is one literal block of PDF operators.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from ..ninety.tickets import COLUMNS, ROWS, TICKETS_PER_STRIP, Ticket
from .card_layout import (
    BOLD,
    REGULAR,
    GridBox,
    Ink,
    centred_op,
    fit_name,
    pdf_text,
    qr_op,
    rgb_fill,
    text_width,
)
from .qr import QrPath
from .templates import Theme

# In cells: the padding inside a ticket's frame, and the gap between the tickets of a strip.
PAD, GAP = 0.2, 0.12
QR_GAP = 0.2  # between the QR code and what stands beside it


@dataclass(frozen=True)
class TicketShape:
    """A ticket's geometry in cells and its text sizes as fractions of a cell.

    The standard ticket, stacked six to a strip, carries its QR code beside the grid, as tall as
    the header and the rows. The large-print ticket runs across a portrait page's
    width, so its QR code sits at the right end of a taller header band instead, and its numbers
    fill more of their cells.
    """

    header: float  # the header band's height
    totals: float  # the column of row totals
    qr_side: float
    qr_left: float  # the QR code's left edge, in cells from the grid's left edge
    number: float  # the grid's numbers
    total: float  # the row totals
    label: float  # "Strip", "Ticket"
    serial: float
    name_box: tuple[float, float]  # the deck name's room in the band: (width, largest size)
    rise: float  # the header text's baseline, above the grid's top

    @property
    def band(self) -> float:
        """The header band's width: over the grid and the totals, up to the QR code."""
        return min(COLUMNS + self.totals, self.qr_left - QR_GAP)

    @property
    def width(self) -> float:
        return PAD + max(COLUMNS + self.totals, self.qr_left + self.qr_side) + PAD

    @property
    def height(self) -> float:
        return PAD + self.header + ROWS + PAD


STANDARD = TicketShape(
    header=0.7,
    totals=0.85,
    qr_side=0.7 + ROWS,
    qr_left=COLUMNS + 0.85 + QR_GAP,
    number=0.5,
    total=0.36,
    label=0.3,
    serial=0.46,
    name_box=(4.2, 0.4),
    rise=0.2,
)
LARGE = TicketShape(
    header=1.15,
    totals=1.1,
    qr_side=1.15,
    qr_left=COLUMNS + 1.1 - 1.15,
    number=0.7,
    total=0.38,
    label=0.34,
    serial=0.56,
    name_box=(4.0, 0.46),
    rise=0.38,
)
STRIP_HEIGHT = TICKETS_PER_STRIP * STANDARD.height + (TICKETS_PER_STRIP - 1) * GAP


@dataclass(frozen=True)
class TicketBox(GridBox):
    """Where a 90-ball ticket sits (of either shape: both have the grid `PAD` in from the
    bottom-left corner)."""

    GRID_LEFT: ClassVar[float] = PAD
    GRID_TOP: ClassVar[float] = PAD + ROWS


def fit_strip(x: float, y: float, w: float, h: float) -> list[TicketBox]:
    """The six ticket boxes of the largest strip that fits the slot, centred, top to bottom."""
    width, height = STANDARD.width, STANDARD.height
    s = min(w / width, h / STRIP_HEIGHT)
    left = x + (w - width * s) / 2
    top = y + (h + STRIP_HEIGHT * s) / 2
    return [
        TicketBox(left, top - (i + 1) * height * s - i * GAP * s, s)
        for i in range(TICKETS_PER_STRIP)
    ]


def fit_large_ticket(x: float, y: float, w: float, h: float) -> list[TicketBox]:
    """The one large-print ticket of a slot, as large as it fits, centred."""
    width, height = LARGE.width, LARGE.height
    s = min(w / width, h / height)
    return [TicketBox(x + (w - width * s) / 2, y + (h - height * s) / 2, s)]


#: The deck name's room in a standard ticket's header band, in ticket units.
NAME_BOX = STANDARD.name_box


def draw_ticket_form(
    c: Canvas, name: str, s: float, theme: Theme, deck_name: str, shape: TicketShape = STANDARD
) -> None:
    """Define the form `name`: frame, header band, grid lines, deck name, at a ticket's origin."""
    c.beginForm(name, 0, 0, shape.width * s, shape.height * s)
    box = TicketBox(0, 0, s)
    gl, gt = box.grid_left, box.grid_top
    c.setStrokeColor(HexColor(theme.frame))
    c.setLineWidth(max(0.6, 0.03 * s))
    c.roundRect(0.06 * s, 0.06 * s, (shape.width - 0.12) * s, (shape.height - 0.12) * s, 0.15 * s)
    c.setFillColor(HexColor(theme.accent))
    c.rect(gl, gt, shape.band * s, shape.header * s, stroke=0, fill=1)
    c.setFillColor(HexColor(theme.letter_text))
    font, size, shown = fit_name(deck_name, shape.name_box[0] * s, shape.name_box[1] * s)
    c.setFont(font, size)
    c.drawString(gl + 0.15 * s, gt + shape.rise * s, shown)
    c.setStrokeColor(HexColor(theme.grid))
    c.setLineWidth(max(0.5, 0.025 * s))
    for i in range(COLUMNS + 1):
        c.line(gl + i * s, gt, gl + i * s, gt - ROWS * s)
    for i in range(ROWS + 1):
        c.line(gl, gt - i * s, gl + COLUMNS * s, gt - i * s)
    c.endForm()


class TicketInk(Ink):
    """Writes each ticket's own content (blank tints, numbers, row totals, serial, strip, QR) as
    raw PDF operators, like `card_layout.CardInk`."""

    def __init__(
        self, c: Canvas, theme: Theme, labels: dict[str, str], shape: TicketShape = STANDARD
    ) -> None:
        super().__init__(c, theme, shape.number)
        self.shape = shape
        self.blank = rgb_fill(theme.free_fill)
        self.header = rgb_fill(theme.letter_text)
        self.strip_label = f"{labels['strip']} "
        self.ticket_label = f"  {labels['ticket']} "

    def blanks_op(self, box: TicketBox, ticket: Ticket) -> str:
        """The tint of the blank cells, drawn under the form's grid lines."""
        s = box.s
        rects = [
            f"{box.grid_left + col * s:.2f} {box.grid_top - (row + 1) * s:.2f} {s:.2f} {s:.2f} re"
            for row in range(ROWS)
            for col in range(COLUMNS)
            if ticket.grid[row][col] is None
        ]
        return f"q {self.blank} {' '.join(rects)} f Q"

    def ticket_op(self, box: TicketBox, ticket: Ticket, qr: QrPath | None) -> str:
        s, shape = box.s, self.shape
        ops = ["q BT", self.numbers]
        cells = (
            (row, col, n)
            for row, line in enumerate(ticket.grid)
            for col, n in enumerate(line)
            if n is not None
        )
        ops += self.numbers_ops(box, cells)
        ops.append(self.totals)
        right = box.grid_left + (COLUMNS + shape.totals / 2) * s
        for row, total in enumerate(ticket.row_totals()):
            y = box.cell_centre(row, 0)[1]
            ops.append(centred_op(BOLD, self.bold, shape.total * s, str(total), right, y))

        # Header, right-aligned: "Strip 4  Ticket 19", the serial in bold.
        ops.append(self.header)
        label, big = shape.label * s, shape.serial * s
        parts = [
            (REGULAR, self.regular, label, self.strip_label),
            (BOLD, self.bold, label, str(ticket.strip)),
            (REGULAR, self.regular, label, self.ticket_label),
            (BOLD, self.bold, big, str(ticket.serial)),
        ]
        x = box.grid_left + (shape.band - 0.15) * s
        x -= sum(text_width(text, font, sz) for font, _, sz, text in parts)
        y = box.grid_top + shape.rise * s
        for font, ref, sz, text in parts:
            ops.append(f"{ref} {sz:.2f} Tf 1 0 0 1 {x:.2f} {y:.2f} Tm ({pdf_text(text)}) Tj")
            x += text_width(text, font, sz)
        ops.append("ET")
        if qr is not None:
            left = box.grid_left + shape.qr_left * s
            ops.append(qr_op(qr, left, box.grid_top + shape.header * s, shape.qr_side * s))
        ops.append("Q")
        return "\n".join(ops)


def draw_ticket(
    c: Canvas, form: str, box: TicketBox, ink: TicketInk, ticket: Ticket, qr: QrPath | None
) -> None:
    """One ticket: its blank tints, the shared form, then its own numbers, totals and QR code."""
    c.addLiteral(ink.blanks_op(box, ticket))
    c.saveState()
    c.translate(box.x, box.y)
    c.doForm(form)
    c.restoreState()
    c.addLiteral(ink.ticket_op(box, ticket, qr))
