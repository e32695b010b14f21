"""Reading a printed card back from the PDF's text positions alone: its grid, its serial and the
figures in its margins, found where a player would look for them (RULES-NOTES §1 in docs/)."""

from __future__ import annotations

from dataclasses import dataclass

from .pdfread import Word, page_words

FREE_WORDS = {"FREE", "LIBRE"}


SERIAL_LABELS = {"Nº", "No."}  # "Cartón Nº 36", "Card No. 36"


@dataclass
class PrintedCard:
    serial: int
    grid: list[list[int | None]]  # rows top to bottom, as printed
    row_totals: list[int]
    column_totals: list[int]
    d1: int  # at the bottom-right corner, where the top-left to bottom-right diagonal ends
    d2: int  # at the bottom-left corner
    totals: list[Word]  # the 12 printed figures: rows, columns, D1, D2
    grid_box: tuple[float, float, float, float]  # left, bottom, right, top of the 5x5 cells


def _slot(word: Word, size, columns: int, rows: int) -> int:
    w, h = size
    return int((h - word.cy) // (h / rows)) * columns + int(word.cx // (w / columns))


def read_cards(page, columns: int, rows: int) -> list[PrintedCard]:
    """Find each card's grid, serial and small figures purely from text positions."""
    size = page.get_size()
    words = page_words(page)
    serials = {}
    for label, number in zip(words, words[1:]):
        if label.text in SERIAL_LABELS:
            serials[id(number)] = int(number.text)
    cards = []
    for slot in range(columns * rows):
        mine = [w for w in words if _slot(w, size, columns, rows) == slot]
        serial = [serials[id(w)] for w in mine if id(w) in serials]
        if not serial:
            continue
        figures = [w for w in mine if w.text.isdigit() and id(w) not in serials]
        tallest = max(w.height for w in figures)
        big = [w for w in figures if w.height > 0.85 * tallest]
        small = [w for w in figures if w.height < 0.8 * tallest]
        big += [w for w in mine if w.text in FREE_WORDS]
        assert len(big) == 25, f"slot {slot}: {len(big)} grid entries"
        big.sort(key=lambda w: -w.cy)
        grid_words = [sorted(big[i : i + 5], key=lambda w: w.cx) for i in range(0, 25, 5)]
        grid = [[None if w.text in FREE_WORDS else int(w.text) for w in row] for row in grid_words]
        pitch = grid_words[0][1].cx - grid_words[0][0].cx
        right = max(w.x1 for w in big)
        left = min(w.x0 for w in big)
        bottom = min(w.y0 for w in grid_words[4])

        found: list[Word] = []
        row_totals = [
            one_word(
                found,
                [s for s in small if s.x0 > right and abs(s.cy - row[0].cy) < pitch / 3],
                f"card {serial[0]} row {r + 1}",
            )
            for r, row in enumerate(grid_words)
        ]
        below = [s for s in small if s.y1 < bottom]
        column_totals = [
            one_word(
                found,
                [s for s in below if abs(s.cx - grid_words[0][c].cx) < pitch / 3],
                f"card {serial[0]} column {c}",
            )
            for c in range(5)
        ]
        d1 = one_word(found, [s for s in below if s.x0 > right], "bottom-right corner")
        d2 = one_word(found, [s for s in below if s.x1 < left], "bottom-left corner")
        # The cells' edges, half a pitch out from the outer cell centres.
        top_left, bottom_right = grid_words[0][0], grid_words[4][4]
        grid_box = (
            top_left.cx - pitch / 2,
            bottom_right.cy - pitch / 2,
            bottom_right.cx + pitch / 2,
            top_left.cy + pitch / 2,
        )
        cards.append(
            PrintedCard(serial[0], grid, row_totals, column_totals, d1, d2, found, grid_box)
        )
    return cards


def one_word(found: list[Word], candidates: list[Word], what: str) -> int:
    """The single figure expected at a place on the card, added to `found`."""
    assert len(candidates) == 1, f"{what}: found {[w.text for w in candidates]}"
    found.append(candidates[0])
    return int(candidates[0].text)
