"""The printed programme draws a pattern of a few forms as that many little cards and says in
words what is not drawn: the forms of a postage stamp are all there, a six-pack is "in any
orientation", a triple bingo "any 3 lines", a hardway line "not through the centre". Read back
from the PDF with pypdfium2, in both languages; the blue squares are counted on the page as
rendered."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from printing.pdfread import page_words

from bingo_hall.money.program_file import parse_program
from bingo_hall.printing.program_pdf import render_program_pdf


def night(*keys: str) -> str:
    games = [
        f'[[game]]\nname = "Game {i}"\npattern = "{k}"\nprice = "1.00"\n'
        'prizes = { bingo = "20" }\n'
        for i, k in enumerate(keys, 1)
    ]
    return 'name = "Pattern night"\ncurrency = "GBP"\n\n' + "\n".join(games)


def printed(keys: tuple[str, ...], lang: str) -> str:
    doc = pdfium.PdfDocument(render_program_pdf(parse_program(night(*keys)), lang))
    return " ".join(w.text for i in range(len(doc)) for w in page_words(doc[i]))


@pytest.mark.parametrize(
    ("key", "lang", "said"),
    [
        ("postage_stamp", "en", "any one of these"),
        ("postage_stamp", "es", "cualquiera de estas"),
        ("double_postage_stamp", "en", "any 2 of these together"),
        ("double_postage_stamp", "es", "2 de estas a la vez"),
        ("six_pack", "en", "in any orientation"),
        ("six_pack", "es", "en cualquier orientación"),
        ("triple_bingo", "en", "any 3 lines"),
        ("triple_bingo", "es", "3 hileras cualesquiera"),
        ("hardway", "en", "any line, not through the centre"),
        ("hardway", "es", "una hilera cualquiera, sin pasar por el centro"),
    ],
)
def test_the_programme_says_which_forms_win_where_it_does_not_draw_one(key, lang, said):
    assert said in printed((key,), lang)


def test_a_pattern_of_one_form_needs_no_words():
    text = printed(("kite",), "en")
    assert "any" not in text and "orientation" not in text


def shaded_squares(key: str) -> int:
    """The blue squares of the page's little card(s), counted on the page as rendered: each
    square is a patch of blue pixels, its neighbours kept apart by the grid's black lines."""
    doc = pdfium.PdfDocument(render_program_pdf(parse_program(night(key)), "en"))
    image = doc[0].render(scale=2).to_pil().convert("RGB")
    width, height = image.size
    pixels = image.load()
    left = width // 3  # the little cards stand in the left third of the page
    blue = {
        (x, y)
        for y in range(height)
        for x in range(left)
        if (p := pixels[x, y])[2] > 150 and p[0] < 80
    }
    patches = 0
    while blue:
        patches += 1
        todo = [blue.pop()]
        while todo:
            x, y = todo.pop()
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in blue:
                    blue.remove(near)
                    todo.append(near)
    return patches


def test_the_four_stamps_are_all_drawn_and_a_kite_once():
    assert shaded_squares("postage_stamp") == 4 * 4  # four corners of four squares each
    assert shaded_squares("kite") == 7
    assert shaded_squares("crazy_kite") == 4 * 7  # its four orientations
