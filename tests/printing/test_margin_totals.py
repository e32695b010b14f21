"""The margin figures (docs/rules.md §1: "cifras pequeñas impresas en la extremidad de cada hilera")
read back from the PDF's text with positions: each row's total at its right end, each column's
under it, each diagonal's at the corner where it ends; and they equal the sums of the numbers
printed in those lines."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bingo_hall.cards import Card
from bingo_hall.manifest import Deck, new_deck
from bingo_hall.printing import render_deck_pdf

from .pdfread import Word, open_pdf, page_words

BASE = "http://10.0.0.2:5000"
FREE_WORDS = {"FREE", "LIBRE"}


@dataclass
class PrintedCard:
    serial: int
    grid: list[list[int | None]]  # rows top to bottom, as printed
    row_totals: list[int]
    column_totals: list[int]
    d1: int  # at the bottom-right corner, where the top-left to bottom-right diagonal ends
    d2: int  # at the bottom-left corner


def _slot(word: Word, size, columns: int, rows: int) -> int:
    w, h = size
    return int((h - word.cy) // (h / rows)) * columns + int(word.cx // (w / columns))


def read_cards(page, columns: int, rows: int) -> list[PrintedCard]:
    """Find each card's grid, serial and small figures purely from text positions."""
    size = page.get_size()
    words = page_words(page)
    serials = {}
    for label, number in zip(words, words[1:]):
        if label.text in ("Card", "Tarjeta"):
            serials[id(number)] = int(number.text)
    cards = []
    for slot in range(columns * rows):
        mine = [w for w in words if _slot(w, size, columns, rows) == slot]
        serial = [serials[id(w)] for w in mine if id(w) in serials]
        if not serial:
            continue
        figures = [w for w in mine if w.text.isdigit() and id(w) not in serials]
        tallest = max(w.height for w in figures)
        big = [w for w in figures if w.height > 0.7 * tallest]
        small = [w for w in figures if w.height < 0.6 * tallest]
        big += [w for w in mine if w.text in FREE_WORDS]
        assert len(big) == 25, f"slot {slot}: {len(big)} grid entries"
        big.sort(key=lambda w: -w.cy)
        grid_words = [sorted(big[i : i + 5], key=lambda w: w.cx) for i in range(0, 25, 5)]
        grid = [[None if w.text in FREE_WORDS else int(w.text) for w in row] for row in grid_words]
        pitch = grid_words[0][1].cx - grid_words[0][0].cx
        right = max(w.x1 for w in big)
        left = min(w.x0 for w in big)
        bottom = min(w.y0 for w in grid_words[4])

        row_totals = [
            one(
                [s for s in small if s.x0 > right and abs(s.cy - row[0].cy) < pitch / 3],
                f"card {serial[0]} row {r + 1}",
            )
            for r, row in enumerate(grid_words)
        ]
        below = [s for s in small if s.y1 < bottom]
        column_totals = [
            one(
                [s for s in below if abs(s.cx - grid_words[0][c].cx) < pitch / 3],
                f"card {serial[0]} column {c}",
            )
            for c in range(5)
        ]
        d1 = one([s for s in below if s.x0 > right], "bottom-right corner")
        d2 = one([s for s in below if s.x1 < left], "bottom-left corner")
        cards.append(PrintedCard(serial[0], grid, row_totals, column_totals, d1, d2))
    return cards


def one(found: list[Word], what: str) -> int:
    """The single figure expected at a place on the card."""
    assert len(found) == 1, f"{what}: found {[w.text for w in found]}"
    return int(found[0].text)


def line_sum(numbers) -> int:
    return sum(n for n in numbers if n is not None)


def check_margins(card: PrintedCard) -> None:
    g = card.grid
    assert card.row_totals == [line_sum(row) for row in g]
    assert card.column_totals == [line_sum(g[r][c] for r in range(5)) for c in range(5)]
    assert card.d1 == line_sum(g[i][i] for i in range(5))
    assert card.d2 == line_sum(g[i][4 - i] for i in range(5))


def test_worked_example_prints_each_total_where_rules_notes_puts_it():
    # Columns (top to bottom) chosen by hand so that every total differs from its neighbours:
    # rows 1+16+31+46+61=155, 160, 165, 170, 5+20+35+50+75=185; columns B 15, I 90, N 165,
    # G 240, O 61+62+63+64+75=325; D1 1+17+33+49+75=175; D2 61+47+33+19+5=165.
    card = Card(
        serial=1,
        columns=(
            (1, 2, 3, 4, 5),
            (16, 17, 18, 19, 20),
            (31, 32, 33, 34, 35),
            (46, 47, 48, 49, 50),
            (61, 62, 63, 64, 75),
        ),
    )
    deck = Deck("HANDMADE", "Ejemplo", "2026-01-01T00:00:00", None, False, "ab" * 32, (card,))
    pdf = open_pdf(render_deck_pdf(deck, template="classic-1", base_url=BASE))
    (printed,) = read_cards(pdf[0], 1, 1)
    assert printed.serial == 1
    assert printed.grid[0] == [1, 16, 31, 46, 61]
    assert printed.row_totals == [155, 160, 165, 170, 185]
    assert printed.column_totals == [15, 90, 165, 240, 325]
    assert (printed.d1, printed.d2) == (175, 165)


@pytest.mark.parametrize(
    ("template", "columns", "rows", "paper"),
    [
        ("classic-4", 2, 2, "a4"),
        ("classic-6", 2, 3, "letter"),
        ("plain-6", 2, 3, "a4"),
        ("classic-2", 2, 1, "a4"),
    ],
)
def test_printed_totals_equal_the_sums_of_the_printed_lines(template, columns, rows, paper):
    deck = new_deck(12, seed=f"margins {template}", name="Totales")
    pdf = open_pdf(render_deck_pdf(deck, template=template, paper=paper, base_url=BASE))
    serials = []
    for p in range(len(pdf)):
        for printed in read_cards(pdf[p], columns, rows):
            check_margins(printed)
            # ...and the card printed is the deck's card of that serial
            assert printed.grid == [list(r) for r in deck.card(printed.serial).rows]
            serials.append(printed.serial)
    assert serials == list(range(1, 13))


def test_free_centre_prints_free_and_leaves_it_out_of_the_four_central_lines():
    deck = new_deck(4, seed="free margins", name="Libre", free_centre=True)
    for lang, word in (("es", "LIBRE"), ("en", "FREE")):
        pdf = open_pdf(render_deck_pdf(deck, template="classic-4", lang=lang, base_url=BASE))
        page = pdf[0]
        assert sum(1 for w in page_words(page) if w.text == word) == 4
        for printed in read_cards(page, 2, 2):
            assert printed.grid[2][2] is None
            assert sum(n is not None for row in printed.grid for n in row) == 24
            check_margins(printed)
