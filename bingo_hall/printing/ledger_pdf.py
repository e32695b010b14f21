"""The night's summary on one page, in Spanish or English: for each game and round the
cards sold, the money taken and the prizes with their winners; the totals and what is left for
the cause; then each round's commitment and revealed seed for auditors. A long night is set
smaller so it stays one page for the treasurer.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from ..money.night import Night
from ..money.night_text import (
    amounts,
    cash_lines,
    game_heading,
    payout_text,
    raffle_heading,
    raffle_lines,
    stock_lines,
    totals,
    unit_words,
    words,
)
from .card_layout import DEJAVU_BOLD
from .pdfutil import pdf_bytes

MARGIN = 16 * mm
INK = HexColor("#111111")
GREY = HexColor("#555555")
BOLD, REGULAR, MONO = "Helvetica-Bold", "Helvetica", "Courier"

# (style, text) lines: "h" a game, "r" a round, "p" a payout, "t" a total, "T" the cause,
# "s" a section title, "m" an audit line (monospaced), "" a gap
Line = tuple[str, str]


def _lines(night: Night, lang: str) -> list[Line]:
    w, m = words(lang), amounts(night, lang)
    out: list[Line] = []
    for g in night.games:
        out.append(("h", game_heading(g, lang)))
        u = unit_words(lang, g.balls)
        for r in g.rounds:
            out.append(
                (
                    "r",
                    f"{w['round']} {r.round} — {u['cards']}: {r.cards} · "
                    f"{w['taken']}: {m(r.taken)}",
                )
            )
            if not r.payouts:
                out.append(("p", w["no_prizes"]))
            out += [("p", payout_text(p, night, lang, g.balls)) for p in r.payouts]
        out += [("r" if i == 0 else "p", line) for i, line in enumerate(stock_lines(g, lang))]
        out.append(("", ""))
    for raffle in night.raffles:
        out.append(("h", raffle_heading(raffle, night, lang)))
        out += [("p", line) for line in raffle_lines(raffle, lang)]
        out.append(("", ""))
    out.append(("s", w["totals"]))
    rows = totals(night, lang)
    for label, value in rows:
        out.append(("T" if label == w["left"] else "t", f"{label}: {value}" if label else value))
    cash = cash_lines(night, lang)
    if cash:
        out += [("", ""), ("s", w["cash"])]
        out += [("t", f"{label}: {value}" if label else value) for label, value in cash]
    out += [("", ""), ("s", w["audit"])]
    for g in night.games:
        for r in g.rounds:
            out.append(
                (
                    "m",
                    f"{w['game']} {g.game_id} {w['round']} {r.round} "
                    f"{w['commitment']}: {r.commitment}",
                )
            )
            out.append(
                (
                    "m",
                    f"{' ' * len(str(g.game_id) + str(r.round))}  {w['seed']}: "
                    f"{r.seed or w['not_revealed']}",
                )
            )
    for raffle in night.raffles:
        out.append(
            ("m", f"{w['raffle']} {raffle.raffle_id} {w['commitment']}: {raffle.commitment}")
        )
        out.append(
            ("m", f"{' ' * len(w['raffle'])}   {w['seed']}: {raffle.seed or w['not_revealed']}")
        )
    return out


#: DejaVu Sans, embedded, for names Helvetica cannot print (Łukasz, 李): as card_layout does
_UNICODE = {
    BOLD: ("DejaVuSans-Bold", DEJAVU_BOLD),
    REGULAR: ("DejaVuSans", DEJAVU_BOLD.replace("-Bold", "")),
}


def _font(text: str, font: str) -> str:
    """`font` when Helvetica (cp1252) covers the text, else DejaVu Sans if it is installed."""
    try:
        text.encode("cp1252")
        return font
    except UnicodeEncodeError:
        pass
    name, path = _UNICODE.get(font, (None, ""))
    if name is None or not Path(path).is_file():
        return font  # unknown characters print as boxes, but the summary still prints
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, path))
    return name


_STYLE = {
    "h": (BOLD, 1.15, 0, INK),
    "r": (BOLD, 0.95, 8, INK),
    "p": (REGULAR, 0.95, 20, INK),
    "s": (BOLD, 1.15, 0, INK),
    "t": (REGULAR, 1.0, 8, INK),
    "T": (BOLD, 1.25, 8, INK),
    "m": (MONO, 0.72, 0, GREY),
    "": (REGULAR, 1.0, 0, INK),
}


def render_summary_pdf(night: Night, lang: str = "en") -> bytes:
    """The summary as a one-page A4 PDF."""
    w = words(lang)
    lines = _lines(night, lang)
    page_w, page_h = A4
    top = page_h - MARGIN - 34
    leading = min(15.0, (top - MARGIN) / max(1, len(lines)))
    size = leading * 0.72

    def draw(c: Canvas) -> None:
        c.setFillColor(INK)
        c.setFont(BOLD, 20)
        c.drawString(MARGIN, page_h - MARGIN - 18, f"{w['title']} {night.date}".rstrip())
        c.setFont(REGULAR, 9)
        c.setFillColor(GREY)
        c.drawRightString(page_w - MARGIN, page_h - MARGIN - 18, night.currency)
        y = top
        for style, text in lines:
            font, scale, indent, colour = _STYLE[style]
            y -= leading
            if not text:
                continue
            c.setFont(_font(text, font), size * scale)
            c.setFillColor(colour)
            c.drawString(MARGIN + indent, y, text)
        if night.book_head:  # the signed head at the foot: a printed copy fixes the book
            c.setFont(REGULAR, 8)
            c.setFillColor(GREY)
            c.drawString(MARGIN, MARGIN / 2, f"{w['book head']}: {night.book_head}")
        c.showPage()

    return pdf_bytes(A4, w["title"], draw)
