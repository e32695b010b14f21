"""The night's summary PDF read back with pypdfium2: one page however long the night, in English
too, and names Helvetica cannot print (Łukasz) printed in an embedded font."""

from __future__ import annotations

import pypdfium2 as pdfium

from bingo_hall.money.night import GameLine, Night, Payout, RoundLine
from bingo_hall.printing.ledger_pdf import render_summary_pdf


def text_of(pdf: bytes) -> tuple[int, str]:
    doc = pdfium.PdfDocument(pdf)
    return len(doc), doc[0].get_textpage().get_text_range().replace("\xa0", " ")


def payout(serial: int, player: str | None, cents: int) -> Payout:
    return Payout("full-house", serial, player, 50, cents, False, True)


def test_a_long_night_stays_one_page_in_english_with_every_name():
    rounds = tuple(
        RoundLine(n, 40, 6000, "c" * 64, "5" * 64, (payout(n, "Łukasz", 1500),))
        for n in range(1, 13)
    )
    night = Night("GBP", (GameLine(1, "Club", 90, rounds), GameLine(2, "Club", 90, rounds)), 0, 0)
    pages, text = text_of(render_summary_pdf(night, "en"))
    assert pages == 1
    assert text.count("Full house: £15.00 · ticket ") == 24 and "(Łukasz)" in text
    # 24 rounds of 60.00 taken, 24 prizes of 15.00: 1,440.00 - 360.00 = 1,080.00 left
    assert "Money taken: £1,440.00" in text and "Left for the cause: £1,080.00" in text
