"""The rest of the 1933 kit (docs/rules.md §1): the Tabla Confrontadora with 75 spots under
B I N G O, 75 tokens each with its letter and number, and the rules sheet in es and en."""

from __future__ import annotations

import pypdfium2.raw as pdfium_c
import pytest

from bingo_hall.errors import KitError
from bingo_hall.printing import render_kit_pdf

from .pdfread import open_pdf, page_shapes, page_words


def letter_for(n: int) -> str:
    # The 1933 ranges, written out: B 1-15, I 16-30, N 31-45, G 46-60, O 61-75.
    for letter, top in (("B", 15), ("I", 30), ("N", 45), ("G", 60), ("O", 75)):
        if n <= top:
            return letter
    raise AssertionError(n)


@pytest.fixture(scope="module", params=["es", "en"])
def kit(request):
    return request.param, open_pdf(render_kit_pdf(lang=request.param, paper="a4"))


def page_text(page) -> str:
    return page.get_textpage().get_text_range()


def test_tabla_confrontadora_has_75_spots_under_their_letters(kit):
    _, pdf = kit
    page = pdf[0]
    assert "Tabla Confrontadora" in page_text(page)
    words = page_words(page)
    headers = {w.text: w for w in words if w.text in ("B", "I", "N", "G", "O")}
    assert len(headers) == 5
    numbers = [w for w in words if w.text.isdigit()]
    assert sorted(int(w.text) for w in numbers) == list(range(1, 76))
    for w in numbers:
        under = min(headers.values(), key=lambda h: abs(h.cx - w.cx))
        assert under.text == letter_for(int(w.text)), w.text
        assert w.cy < under.y0
    for letter in headers:
        column = [w for w in numbers if letter_for(int(w.text)) == letter]
        assert [int(w.text) for w in sorted(column, key=lambda w: -w.cy)] == sorted(
            int(w.text) for w in column
        )


def test_75_tokens_each_read_letter_then_number_as_the_maestro_calls_them(kit):
    _, pdf = kit
    words = page_words(pdf[1])
    numbers = [w for w in words if w.text.isdigit()]
    letters = [w for w in words if w.text in ("B", "I", "N", "G", "O")]
    assert sorted(int(w.text) for w in numbers) == list(range(1, 76))
    assert len(letters) == 75
    for w in numbers:
        before = [x for x in letters if abs(x.cy - w.cy) < 3 and 0 < w.x0 - x.x1 < w.height * 2]
        assert [x.text for x in before] == [letter_for(int(w.text))], w.text


def _boxes(shapes) -> list[tuple[float, float, float, float]]:
    boxes = []
    for shape in shapes:
        xs, ys = [x for x, _ in shape.points], [y for _, y in shape.points]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tokens_are_the_size_of_the_board_spots_and_fill_the_page(paper):
    pdf = open_pdf(render_kit_pdf(lang="es", paper=paper))
    # The board's spots: the white boxes each holding one number (RULES-NOTES §1: the Maestro
    # lays each drawn token on its spot).
    numbers = [w for w in page_words(pdf[0]) if w.text.isdigit()]
    spots = []
    for box in _boxes(s for s in page_shapes(pdf[0]) if s.filled):
        inside = [w for w in numbers if box[0] < w.cx < box[2] and box[1] < w.cy < box[3]]
        if len(inside) == 1:
            spots.append(box)
    assert len(spots) == 75
    spot_w, spot_h = spots[0][2] - spots[0][0], spots[0][3] - spots[0][1]
    assert all(abs(b[2] - b[0] - spot_w) < 0.3 and abs(b[3] - b[1] - spot_h) < 0.3 for b in spots)
    # The tokens: cells between the dashed cut lines.
    lines = _boxes(s for s in page_shapes(pdf[1]) if not s.filled and len(s.points) == 2)
    xs = sorted({round(b[0], 1) for b in lines if b[0] == b[2]})
    ys = sorted({round(b[1], 1) for b in lines if b[1] == b[3]})
    assert (len(xs) - 1) * (len(ys) - 1) >= 75
    assert all(abs(b - a - spot_w) < 0.3 for a, b in zip(xs, xs[1:]))
    assert all(abs(b - a - spot_h) < 0.3 for a, b in zip(ys, ys[1:]))
    # ...and together they cover most of the page, not a strip at its top.
    page_w, page_h = pdf[1].get_size()
    assert xs[-1] - xs[0] > 2 / 3 * page_w
    assert ys[-1] - ys[0] > 2 / 3 * page_h


@pytest.mark.parametrize(
    ("lang", "phrases"),
    [
        ("es", ["Reglas", "Bingo Normal", "Bingo de Puntos", "1000 puntos", "Bingo Doble Central"]),
        ("en", ["rules", "Bingo Normal", "Bingo de Puntos", "1000 points", "Bingo Doble Central"]),
    ],
)
def test_rules_sheet_is_in_the_chosen_language(lang, phrases):
    pdf = open_pdf(render_kit_pdf(lang=lang))
    text = " ".join(page_text(pdf[i]) for i in range(2, len(pdf)))
    text = " ".join(text.split())
    for phrase in phrases:
        assert phrase in text, phrase
    # The worked example of docs/rules.md §1: 180·2 + 190·4 + 100 = 1220.
    assert "1220" in text
    assert "<b>" not in text and "Maestro" in text and "Tabla Confrontadora" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_rules_sheet_is_set_for_reading_at_the_table_on_at_most_two_pages(lang, paper):
    pdf = open_pdf(render_kit_pdf(lang=lang, paper=paper))
    rules = [pdf[i] for i in range(2, len(pdf))]
    assert 1 <= len(rules) <= 2
    sizes = []
    for page in rules:
        tp = page.get_textpage()
        sizes += [
            pdfium_c.FPDFText_GetFontSize(tp.raw, i)
            for i in range(tp.count_chars())
            if not tp.get_text_range(i, 1).isspace()
        ]
    assert len(sizes) > 2000  # the whole sheet, not a stub
    assert min(sizes) >= 11  # body text; headings are larger still


def test_kit_on_letter_paper_and_bad_options():
    pdf = open_pdf(render_kit_pdf(lang="en", paper="letter"))
    assert [round(v) for v in pdf[0].get_size()] == [612, 792]
    with pytest.raises(KitError):
        render_kit_pdf(paper="a3")
    with pytest.raises(KitError):
        render_kit_pdf(lang="fr")
