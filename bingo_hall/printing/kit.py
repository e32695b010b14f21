"""The rest of the 1933 kit (seed bingo-normal-y-de-puntos, docs/rules.md §1): the Tabla
Confrontadora (the Maestro's checking board, 75 spots under B I N G O), the 75 tokens ("fichas")
to cut out, and the rules sheet. For 90-ball nights: a board of 9 rows of 10 (1-90), 90 tokens
and the 90-ball rules (línea and bingo, or one line, two lines and full house).

Tokens are exactly the size of the board's spots, so the Maestro can lay each drawn token on its
number as the rules describe. Fifteen spots must fit down a page, which caps their height; so
spots and tokens are wide tiles, as wide as the board's columns allow, and the token page is laid
out like the board (one column per letter), filling the page with tokens big enough to hold up to
the room. The colours of the letters are those of the classic card template, so board, tokens and
cards match. The rules sheet is set at 12 pt for reading at the table, over two pages if need be.
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, Paragraph

from ..errors import KitError
from ..variants import (
    CARDS,
    DEFAULT_BALLS,
    STRIPS,
    BoardRow,
    ByVariant,
    Cards75,
    Strips90,
    variant_for,
)
from .card_layout import BOLD, REGULAR
from .deck_pdf import PAPERS
from .large_kit import board_on, draw_large_tabla, draw_large_tokens
from .pdfutil import pdf_bytes
from .rules_text import rules_blocks
from .templates import load_template
from .words import words

MARGIN = 12 * mm
TITLE = 22 * mm  # band at the top of the board and token pages
INK = HexColor("#111111")
GREY = HexColor("#757575")
SPOT_INSET = 8  # points between a board column's edge and its spots
BODY_PT = 12  # the rules sheet's text, read at arm's length on the table
LARGE_BODY_PT = 18  # the large-print rules sheet's


def _title(c: Canvas, page: tuple[float, float], title: str, note: str) -> None:
    w, h = page
    c.setFillColor(INK)
    c.setFont(BOLD, 20)
    c.drawCentredString(w / 2, h - MARGIN - 14, title)
    c.setFillColor(GREY)
    c.setFont(REGULAR, 9.5)
    c.drawCentredString(w / 2, h - MARGIN - 30, note)


def spot_size(page: tuple[float, float]) -> tuple[float, float]:
    """(width, height) of a board spot and of a token: 15 rows and a header fit under the title,
    five columns across."""
    w, h = page
    pitch = min((h - 2 * MARGIN - TITLE) / 16.2, (w - 2 * MARGIN) / 5 / 1.8)
    return (w - 2 * MARGIN) / 5 - 2 * SPOT_INSET, 0.92 * pitch


def _column_width(page: tuple[float, float]) -> float:
    return (page[0] - 2 * MARGIN) / 5


def draw_tabla(
    c: Canvas,
    page: tuple[float, float],
    lang: str,
    letters: tuple[str, ...],
    board: tuple[BoardRow, ...],
) -> None:
    """Five tinted columns under coloured letters, each with its 15 numbered spots: the
    variant's Tabla rows (`Variant.board`), one column each."""
    w, h = page
    sw, sh = spot_size(page)
    t = sh / 0.92  # the row pitch
    labels = words(lang)
    _title(c, page, labels["tabla_title"], labels["tabla_note"])
    col_w = _column_width(page)
    top = h - MARGIN - TITLE
    for col, row in enumerate(board):
        letter = row.letter
        x = MARGIN + col * col_w
        colour = HexColor(letters[col])
        c.setFillColor(colour.clone(alpha=0.12))
        c.setStrokeColor(colour)
        c.setLineWidth(1)
        c.roundRect(x + 3, top - 16.1 * t, col_w - 6, 16.1 * t, 6, stroke=1, fill=1)
        c.setFillColor(colour)
        c.roundRect(x + 3, top - 1.05 * t, col_w - 6, 1.05 * t, 6, stroke=0, fill=1)
        c.setFillColor(white)
        c.setFont(BOLD, 0.8 * t)
        c.drawCentredString(x + col_w / 2, top - 0.82 * t, letter)
        for i, n in enumerate(row.balls):
            _spot(c, x + col_w / 2, top - (1.55 + i) * t, sw, sh, colour, n)


def _spot(c: Canvas, cx: float, cy: float, sw: float, sh: float, colour: Color, n: int) -> None:
    """One numbered spot of a board, centred on (cx, cy): the size of its token."""
    c.setFillColor(white)
    c.setStrokeColor(colour)
    c.setLineWidth(0.8)
    c.roundRect(cx - sw / 2, cy - sh / 2, sw, sh, 3, stroke=1, fill=1)
    c.setFillColor(INK)
    c.setFont(BOLD, 0.5 * sh)
    c.drawCentredString(cx, cy - 0.18 * sh, str(n))


def draw_tokens(
    c: Canvas,
    page: tuple[float, float],
    lang: str,
    letters: tuple[str, ...],
    board: tuple[BoardRow, ...],
) -> None:
    """The 75 fichas as the board lays them out, one column per letter, on dashed cut lines.

    Each token reads as it is called, letter then number ("N 31"), large enough for the Maestro
    to hold it up to the room.
    """
    w, h = page
    tw, th = spot_size(page)
    labels = words(lang)
    _title(c, page, labels["tokens_title"], labels["tokens_note"])
    x0 = (w - 5 * tw) / 2
    top = h - MARGIN - TITLE - 4 * mm
    for col, row in enumerate(board):
        letter = row.letter
        x = x0 + col * tw
        for i, n in enumerate(row.balls):
            y = top - (i + 1) * th
            c.setFillColor(HexColor(letters[col]))
            c.setFont(BOLD, 0.62 * th)
            c.drawCentredString(x + 0.3 * tw, y + 0.28 * th, letter)
            c.setFillColor(INK)
            c.drawCentredString(x + 0.64 * tw, y + 0.28 * th, str(n))
    c.setStrokeColor(GREY)
    c.setLineWidth(0.5)
    c.setDash(3, 2)
    for r in range(16):
        c.line(x0, top - r * th, x0 + 5 * tw, top - r * th)
    for col in range(6):
        c.line(x0 + col * tw, top, x0 + col * tw, top - 15 * th)
    c.setDash()


def _tokens_page(
    c: Canvas,
    page: tuple[float, float],
    title: str,
    note: str,
    numbers: list[int],
    spot: float,
    per_row: int,
) -> None:
    """Numbered tokens (the 90-ball fichas) on a grid of dashed cut lines, `per_row` to a row
    as on the board (1-10 on the first row, as the Maestro lays them out)."""
    w, h = page
    t = min(spot * 0.92, (w - 2 * MARGIN) / per_row)  # the size of the spot's inner square
    _title(c, page, title, note)
    count = len(numbers)
    rows = -(-count // per_row)
    x0 = (w - per_row * t) / 2
    top = h - MARGIN - TITLE - 4 * mm
    for i, n in enumerate(numbers):
        r, col = divmod(i, per_row)
        x, y = x0 + col * t, top - (r + 1) * t
        c.setFillColor(INK)
        c.setFont(BOLD, 0.45 * t)
        c.drawCentredString(x + t / 2, y + 0.34 * t, str(n))
    c.setStrokeColor(GREY)
    c.setLineWidth(0.5)
    c.setDash(3, 2)

    def in_row(k: int) -> int:
        return min(per_row, count - k * per_row) if 0 <= k < rows else 0

    def in_column(col: int) -> int:
        return sum(1 for k in range(rows) if 0 <= col < per_row and k * per_row + col < count)

    for r in range(rows + 1):
        y = top - r * t
        c.line(x0, y, x0 + max(in_row(r - 1), in_row(r)) * t, y)
    for col in range(per_row + 1):
        x = x0 + col * t
        c.line(x, top, x, top - max(in_column(col - 1), in_column(col)) * t)
    c.setDash()


def spot_size_90(page: tuple[float, float]) -> float:
    """The side of a 90-ball board spot and token: 9 rows of 10 fit under the title."""
    w, h = page
    return min((h - 2 * MARGIN - TITLE) / 9 / 1.15, (w - 2 * MARGIN) / 10 / 1.1)


def draw_tabla_90(
    c: Canvas, page: tuple[float, float], lang: str, colour: str, board: tuple[BoardRow, ...]
) -> None:
    """The 90-ball Tabla Confrontadora: 9 rows of 10 spots, 1-10 on top to 81-90 at the bottom
    (the variant's Tabla rows, `Variant.board`)."""
    w, h = page
    t = spot_size_90(page)
    labels = words(lang)
    _title(c, page, labels["tabla_title"], labels["tabla_90_note"])
    ink = HexColor(colour)
    pitch_x, pitch_y = 1.1 * t, 1.15 * t
    x0 = (w - 10 * pitch_x) / 2
    top = h - MARGIN - TITLE
    c.setFillColor(ink.clone(alpha=0.1))
    c.setStrokeColor(ink)
    c.roundRect(
        x0 - 0.1 * t,
        top - 9 * pitch_y - 0.1 * t,
        10 * pitch_x + 0.2 * t,
        9 * pitch_y + 0.2 * t,
        6,
        stroke=1,
        fill=1,
    )
    for r, row in enumerate(board):
        for col, n in enumerate(row.balls):
            x, y = x0 + (col + 0.5) * pitch_x, top - (r + 0.5) * pitch_y
            _spot(c, x, y, 0.92 * t, 0.92 * t, ink, n)


def draw_rules(
    c: Canvas,
    page: tuple[float, float],
    lang: str,
    game: int = DEFAULT_BALLS,
    body: float = BODY_PT,
) -> None:
    """The rules sheet, flowing over as many pages as it needs, its text at `body` points (the
    headings and spacing in proportion)."""
    w, h = page
    k = body / BODY_PT
    base = ParagraphStyle("p", fontName=REGULAR, fontSize=body, leading=1.32 * body, spaceAfter=5)
    styles = {
        "h1": ParagraphStyle(
            "h1", base, fontName=BOLD, fontSize=20 * k, leading=25 * k, spaceAfter=4 * k
        ),
        "h2": ParagraphStyle(
            "h2",
            base,
            fontName=BOLD,
            fontSize=14 * k,
            leading=18 * k,
            spaceBefore=8 * k,
            spaceAfter=4 * k,
        ),
        "p": base,
        "li": ParagraphStyle(
            "li", base, leftIndent=14 * k, bulletIndent=2 * k, bulletFontSize=body, spaceAfter=3.5
        ),
    }
    story: list[Flowable] = [
        Paragraph(text, styles[kind], bulletText="\u2022" if kind == "li" else None)
        for kind, text in rules_blocks(lang, game)
    ]
    while story:
        frame = Frame(MARGIN, MARGIN, w - 2 * MARGIN, h - 2 * MARGIN, showBoundary=0)
        frame.addFromList(story, c)
        c.showPage()


def _boards_75(c: Canvas, page: tuple[float, float], lang: str) -> None:
    """The Tabla Confrontadora under B I N G O and the 75 tokens, in the classic card colours."""
    letters = load_template(CARDS.default_template).theme.letters
    draw_tabla(c, page, lang, letters, CARDS.board)
    c.showPage()
    draw_tokens(c, page, lang, letters, CARDS.board)


def _boards_90(c: Canvas, page: tuple[float, float], lang: str) -> None:
    """The 90-ball board (9 rows of 10) and the 90 tokens, in the strips' accent colour."""
    labels = words(lang)
    draw_tabla_90(c, page, lang, load_template(STRIPS.default_template).theme.accent, STRIPS.board)
    c.showPage()
    note = labels["tokens_90_note"]
    balls = [n for row in STRIPS.board for n in row.balls]
    per_row = len(STRIPS.board[0].balls)
    _tokens_page(c, page, labels["tokens_title"], note, balls, spot_size_90(page), per_row)


#: the board and token pages of each variant, by the variant's class
BOARDS: ByVariant[Callable[[Canvas, tuple[float, float], str], None]] = ByVariant(
    "printing.kit.BOARDS", {Cards75: _boards_75, Strips90: _boards_90}
)


def _large_boards(c: Canvas, page: tuple[float, float], lang: str, game: int) -> None:
    """The large-print board and tokens (`large_kit`), each on the page turned its way."""
    labels = words(lang)
    variant = variant_for(game)
    board = board_on(page, variant.board)
    draw_large_tabla(c, board, labels["tabla_title"], labels["large_tabla_note"])
    c.showPage()
    draw_large_tokens(c, board, labels["tokens_title"], labels["large_tokens_note"])
    c.showPage()
    c.setPageSize(page)


def render_kit_pdf(
    *, lang: str = "es", paper: str = "a4", game: int = DEFAULT_BALLS, large_print: bool = False
) -> bytes:
    """The Tabla Confrontadora (1 page), the tokens (1 page) and the rules sheet (two pages), in
    one PDF. `game=90` gives the 90-ball board (9 rows of 10), 90 tokens and the 90-ball rules.
    `large_print` gives them in large print: the board and the tokens with numbers of
    30 pt or more, black on white, and the rules at 18 pt (over more pages).
    """
    labels = words(lang)  # validates lang
    if paper not in PAPERS:
        raise KitError("unknown paper %(paper)r; use a4 or letter", paper=paper)
    variant = variant_for(game)  # "game must be 75 or 90, not ..."
    page = PAPERS[paper]

    def draw(c: Canvas) -> None:
        if large_print:
            _large_boards(c, page, lang, game)
            draw_rules(c, page, lang, game, LARGE_BODY_PT)
            return
        BOARDS[variant](c, page, lang)
        c.showPage()
        draw_rules(c, page, lang, game)

    return pdf_bytes(page, f"Bingo: {labels['tabla_title']}", draw)
