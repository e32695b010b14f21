"""The margin figures (docs/rules.md §1: "cifras pequeñas impresas en la extremidad de cada hilera")
read back from the PDF's text with positions: each row's total at its right end, each column's
under it, each diagonal's at the corner where it ends; and they equal the sums of the numbers
printed in those lines."""

from __future__ import annotations

import pytest

from bingo_hall.manifest import Deck, new_deck
from bingo_hall.printing import render_deck_pdf
from bingo_hall.seventyfive.cards import Card

from .cardread import PrintedCard, read_cards
from .pdfread import open_pdf, page_words

BASE = "http://10.0.0.2:5000"


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
