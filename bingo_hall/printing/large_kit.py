"""The large-print Tabla Confrontadora and its tokens (`bingo-hall kit --large-print`),
for a Maestro who sees poorly: black on white, lines of 1 pt or more, numbers of at least 30 pt
(the standard board's are 19-20 pt).

The board is drawn from the variant's Tabla rows (`Variant.board`) as one table, a row of spots
per board row with its letter (if the game has letters) in a column before it: 5 rows of 15
under B I N G O, or 9 rows of 10. Fitting 15 large numbers across a page needs the page's long
side, so the board takes whichever orientation prints the larger numbers (landscape for 5 rows
of 15, portrait for 9 rows of 10); nothing here asks which game it is. A number takes at most
three quarters of its spot's width: packed tighter, "10 11 12" run together into one figure.
The tokens are cut from a page laid out as the board, each exactly the size of its spot, its
letter over its number, so the Maestro lays each on its own spot as on the standard board.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import black, white
from reportlab.lib.pagesizes import landscape, portrait
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..variants import BoardRow
from .card_layout import BOLD, CAP, REGULAR

MARGIN = 8 * mm
TITLE_PT, NOTE_PT = 26, 14
TITLE = TITLE_PT + NOTE_PT + 22  # the band the title and its note take at the top
LETTER_COLUMN = 0.8  # the letters' column, in spot widths
FILL = 0.75  # how much of a spot's width its widest number may take
LINE = 1.5  # the board's lines, in points


@dataclass(frozen=True)
class Board:
    """Where a large-print board's spots go on its page."""

    page: tuple[float, float]
    rows: tuple[BoardRow, ...]
    left: float  # the first spot's left edge (after the letters' column, if any)
    top: float
    spot_w: float
    spot_h: float
    letters: bool

    @property
    def number_pt(self) -> float:
        widest = max(stringWidth(str(n), BOLD, 1) for row in self.rows for n in row.balls)
        return min(FILL * self.spot_w / widest, 0.5 * self.spot_h)

    def spot(self, r: int, col: int) -> tuple[float, float]:
        """The centre of row r's spot col."""
        return self.left + (col + 0.5) * self.spot_w, self.top - (r + 0.5) * self.spot_h


def board_on(paper: tuple[float, float], rows: tuple[BoardRow, ...]) -> Board:
    """The board on `paper` turned the way that prints its numbers larger."""
    letters = any(row.letter for row in rows)
    across = max(len(row.balls) for row in rows) + (LETTER_COLUMN if letters else 0)

    def laid(page: tuple[float, float]) -> Board:
        w, h = page
        spot_w = (w - 2 * MARGIN) / across
        spot_h = (h - 2 * MARGIN - TITLE) / len(rows)
        left = MARGIN + (LETTER_COLUMN * spot_w if letters else 0)
        return Board(page, rows, left, h - MARGIN - TITLE, spot_w, spot_h, letters)

    return max((laid(portrait(paper)), laid(landscape(paper))), key=lambda b: b.number_pt)


def _title(c: Canvas, board: Board, title: str, note: str) -> None:
    w, h = board.page
    c.setFillColor(black)
    c.setFont(BOLD, TITLE_PT)
    c.drawCentredString(w / 2, h - MARGIN - TITLE_PT, title)
    c.setFont(REGULAR, NOTE_PT)
    c.drawCentredString(w / 2, h - MARGIN - TITLE_PT - NOTE_PT - 8, note)


def _centred(c: Canvas, text: str, x: float, y: float, size: float) -> None:
    c.setFont(BOLD, size)
    c.drawCentredString(x, y - CAP * size, text)


def draw_large_tabla(c: Canvas, board: Board, title: str, note: str) -> None:
    """The board as a table: a letter (if any) then the row's numbered spots."""
    c.setPageSize(board.page)
    _title(c, board, title, note)
    size = board.number_pt
    across = max(len(row.balls) for row in board.rows)
    right = board.left + across * board.spot_w
    outer = board.left - (LETTER_COLUMN * board.spot_w if board.letters else 0)
    bottom = board.top - len(board.rows) * board.spot_h
    c.setStrokeColor(black)
    c.setFillColor(white)
    c.setLineWidth(2 * LINE)
    c.rect(outer, bottom, right - outer, board.top - bottom, stroke=1, fill=1)
    c.setLineWidth(LINE)
    c.setFillColor(black)
    for r, row in enumerate(board.rows):
        y = board.top - r * board.spot_h
        if r:
            c.line(outer, y, right, y)
        if row.letter:
            x = (outer + board.left) / 2
            letter_pt = min(0.8 * board.spot_h, FILL * (board.left - outer) / 0.78)
            _centred(c, row.letter, x, y - board.spot_h / 2, letter_pt)
        for col, n in enumerate(row.balls):
            _centred(c, str(n), *board.spot(r, col), size)
    for col in range(across + (1 if board.letters else 0)):
        x = board.left + col * board.spot_w
        c.line(x, board.top, x, bottom)


def draw_large_tokens(c: Canvas, board: Board, title: str, note: str) -> None:
    """The tokens, one per spot of the board and the size of it, on dashed cut lines: the letter
    (if any) over the number."""
    c.setPageSize(board.page)
    _title(c, board, title, note)
    size = board.number_pt
    c.setFillColor(black)
    for r, row in enumerate(board.rows):
        for col, n in enumerate(row.balls):
            x, y = board.spot(r, col)
            if row.letter:
                _centred(c, row.letter, x, y + 0.24 * board.spot_h, 0.55 * size)
                _centred(c, str(n), x, y - 0.14 * board.spot_h, size)
            else:
                _centred(c, str(n), x, y, size)
    across = max(len(row.balls) for row in board.rows)
    right, bottom = board.left + across * board.spot_w, board.top - len(board.rows) * board.spot_h
    c.setStrokeColor(black)
    c.setLineWidth(1)
    c.setDash(4, 3)
    for r in range(len(board.rows) + 1):
        y = board.top - r * board.spot_h
        c.line(board.left, y, right, y)
    for col in range(across + 1):
        x = board.left + col * board.spot_w
        c.line(x, board.top, x, bottom)
    c.setDash()
