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

from ..tickets import COLUMNS, ROWS, TICKETS_PER_STRIP, Ticket
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

# Ticket geometry in cells: padding, header band, the totals column, and the QR square to the right.
PAD, HEADER, TOTALS, QR_GAP = 0.2, 0.7, 0.85, 0.2
QR_SIDE = HEADER + ROWS
WIDTH = PAD + COLUMNS + TOTALS + QR_GAP + QR_SIDE + PAD
HEIGHT = PAD + HEADER + ROWS + PAD
GAP = 0.12  # between the tickets of a strip
STRIP_HEIGHT = TICKETS_PER_STRIP * HEIGHT + (TICKETS_PER_STRIP - 1) * GAP


@dataclass(frozen=True)
class TicketBox(GridBox):
    """Where a 90-ball ticket sits."""

    GRID_LEFT: ClassVar[float] = PAD
    GRID_TOP: ClassVar[float] = PAD + ROWS


def fit_strip(x: float, y: float, w: float, h: float) -> list[TicketBox]:
    """The six ticket boxes of the largest strip that fits the slot, centred, top to bottom."""
    s = min(w / WIDTH, h / STRIP_HEIGHT)
    left = x + (w - WIDTH * s) / 2
    top = y + (h + STRIP_HEIGHT * s) / 2
    return [
        TicketBox(left, top - (i + 1) * HEIGHT * s - i * GAP * s, s)
        for i in range(TICKETS_PER_STRIP)
    ]


#: The deck name's room in a ticket's header band, in ticket units: (width, largest font size).
NAME_BOX = (4.2, 0.4)


def draw_ticket_form(c: Canvas, name: str, s: float, theme: Theme, deck_name: str) -> None:
    """Define the form `name`: frame, header band, grid lines, deck name, at a ticket's origin."""
    c.beginForm(name, 0, 0, WIDTH * s, HEIGHT * s)
    box = TicketBox(0, 0, s)
    gl, gt = box.grid_left, box.grid_top
    band = (COLUMNS + TOTALS) * s
    c.setStrokeColor(HexColor(theme.frame))
    c.setLineWidth(max(0.6, 0.03 * s))
    c.roundRect(0.06 * s, 0.06 * s, (WIDTH - 0.12) * s, (HEIGHT - 0.12) * s, 0.15 * s)
    c.setFillColor(HexColor(theme.accent))
    c.rect(gl, gt, band, HEADER * s, stroke=0, fill=1)
    c.setFillColor(HexColor(theme.letter_text))
    font, size, shown = fit_name(deck_name, NAME_BOX[0] * s, NAME_BOX[1] * s)
    c.setFont(font, size)
    c.drawString(gl + 0.15 * s, gt + 0.22 * s, shown)
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

    def __init__(self, c: Canvas, theme: Theme, labels: dict) -> None:
        super().__init__(c, theme)
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
        s = box.s
        ops = ["q BT", self.numbers]
        cells = (
            (row, col, n)
            for row, line in enumerate(ticket.grid)
            for col, n in enumerate(line)
            if n is not None
        )
        ops += self.numbers_ops(box, cells)
        ops.append(self.totals)
        right = box.grid_left + (COLUMNS + TOTALS / 2) * s
        for row, total in enumerate(ticket.row_totals()):
            y = box.cell_centre(row, 0)[1]
            ops.append(centred_op(BOLD, self.bold, 0.36 * s, str(total), right, y))

        # Header, right-aligned: "Strip 4  Ticket 19", the serial in bold.
        ops.append(self.header)
        label, big = 0.3 * s, 0.46 * s
        parts = [
            (REGULAR, self.regular, label, self.strip_label),
            (BOLD, self.bold, label, str(ticket.strip)),
            (REGULAR, self.regular, label, self.ticket_label),
            (BOLD, self.bold, big, str(ticket.serial)),
        ]
        x = box.grid_left + (COLUMNS + TOTALS) * s - 0.15 * s
        x -= sum(text_width(text, font, sz) for font, _, sz, text in parts)
        y = box.grid_top + 0.2 * s
        for font, ref, sz, text in parts:
            ops.append(f"{ref} {sz:.2f} Tf 1 0 0 1 {x:.2f} {y:.2f} Tm ({pdf_text(text)}) Tj")
            x += text_width(text, font, sz)
        ops.append("ET")
        if qr is not None:
            left = box.grid_left + (COLUMNS + TOTALS + QR_GAP) * s
            ops.append(qr_op(qr, left, box.grid_top + HEADER * s, QR_SIDE * s))
        ops.append("Q")
        return "\n".join(ops)


def draw_ticket(c: Canvas, form: str, box: TicketBox, ink: TicketInk, ticket: Ticket, qr) -> None:
    """One ticket: its blank tints, the shared form, then its own numbers, totals and QR code."""
    c.addLiteral(ink.blanks_op(box, ticket))
    c.saveState()
    c.translate(box.x, box.y)
    c.doForm(form)
    c.restoreState()
    c.addLiteral(ink.ticket_op(box, ticket, qr))
