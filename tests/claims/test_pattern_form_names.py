"""A verdict on a pattern of several forms names the form the card completed, from how the book
made it: a crazy kite's turn, a postage stamp's corner, a double bingo's two lines. The forms
are drawn here by hand, turned by hand, and covered on a real card."""

import pytest

from bingo_hall.seventyfive.claims import NORMAL, Rules, judge
from bingo_hall.seventyfive.deck import generate_deck
from bingo_hall.seventyfive.patterns import BUILT_IN

CARD = generate_deck(1, seed="form names", free_centre=True)[0]

KITE = {(0, 0), (0, 1), (1, 0), (1, 1), (2, 2), (3, 3), (4, 4)}  # the book's kite, drawn here


def quarter_turn(cells):
    """A quarter turn clockwise: the top row becomes the right-hand column."""
    return {(c, 4 - r) for r, c in cells}


def mirror(cells):
    return {(r, 4 - c) for r, c in cells}


def calls_covering(cells):
    return [n for r, c in sorted(cells) if (n := CARD.columns[c][r]) is not None]


def won_form(key, cells):
    v = judge(CARD, calls_covering(cells), Rules(mode=NORMAL, pattern=BUILT_IN[key]))
    assert v.bingo, key
    (figure,) = v.winning
    return figure


@pytest.mark.parametrize(
    ("turns", "en", "es"),
    [(0, "as drawn", "como en el dibujo"), (1, "turned 90°", "con giro de 90°"),
     (2, "turned 180°", "con giro de 180°"), (3, "turned 270°", "con giro de 270°")],
)  # fmt: skip
def test_a_crazy_kite_won_turned_is_named_by_its_turn(turns, en, es):
    cells = KITE
    for _ in range(turns):
        cells = quarter_turn(cells)
    figure = won_form("crazy_kite", cells)
    assert (figure.form_name.en, figure.form_name.es) == (en, es)
    assert figure.to_json()["form_name"] == {"en": en, "es": es}


def test_a_postage_stamp_is_named_by_its_corner():
    bottom_left = {(3, 0), (3, 1), (4, 0), (4, 1)}
    figure = won_form("postage_stamp", bottom_left)
    assert figure.form_name.en == "bottom left corner"
    assert figure.form_name.es == "esquina inferior izquierda"


def test_a_double_postage_stamp_names_both_corners():
    top_right = {(0, 3), (0, 4), (1, 3), (1, 4)}
    bottom_right = {(3, 3), (3, 4), (4, 3), (4, 4)}
    figure = won_form("double_postage_stamp", top_right | bottom_right)
    assert figure.form_name.en == "top right corner and bottom right corner"
    assert figure.form_name.es == "esquina superior derecha y esquina inferior derecha"


def test_a_six_pack_in_a_corner_says_which_way_it_lies():
    upright_bottom_right = {(r, c) for r in (2, 3, 4) for c in (3, 4)}
    figure = won_form("six_pack", upright_bottom_right)
    assert figure.form_name.en == "bottom right corner, upright"
    assert figure.form_name.es == "esquina inferior derecha, vertical"


def test_a_double_bingo_names_its_two_lines():
    row_1 = {(0, c) for c in range(5)}
    column_b = {(r, 0) for r in range(5)}
    figure = won_form("double_bingo", row_1 | column_b)
    assert figure.form_name.en == "row 1 and column B"
    assert figure.form_name.es == "fila 1 y columna B"


def test_a_crazy_l_won_mirrored_is_named_by_its_turn_not_as_drawn():
    ell = {(r, 0) for r in range(5)} | {(4, c) for c in range(5)}
    mirrored = mirror(ell)  # the L's foot to the left: the book's L turned a quarter
    figure = won_form("crazy_l", mirrored)
    assert figure.form_name.en == "turned 270°"


def test_a_pattern_of_one_form_is_named_by_the_pattern_alone():
    figure = won_form("kite", KITE)
    assert figure.form_name is None
    assert "form_name" not in figure.to_json()
