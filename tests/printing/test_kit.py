"""The rest of the 1933 kit (docs/rules.md §1): the Tabla Confrontadora with 75 spots under
B I N G O, 75 tokens each with its letter and number, and the rules sheet in es and en."""

from __future__ import annotations

import pytest

from bingo_hall.errors import KitError
from bingo_hall.printing import render_kit_pdf

from .pdfread import open_pdf, page_words


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


def test_75_tokens_each_show_their_letter_above_their_number(kit):
    _, pdf = kit
    words = page_words(pdf[1])
    numbers = [w for w in words if w.text.isdigit()]
    letters = [w for w in words if w.text in ("B", "I", "N", "G", "O")]
    assert sorted(int(w.text) for w in numbers) == list(range(1, 76))
    assert len(letters) == 75
    for w in numbers:
        above = [x for x in letters if abs(x.cx - w.cx) < 3 and 0 < x.y0 - w.y1 < 20]
        assert [x.text for x in above] == [letter_for(int(w.text))], w.text


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


def test_kit_on_letter_paper_and_bad_options():
    pdf = open_pdf(render_kit_pdf(lang="en", paper="letter"))
    assert [round(v) for v in pdf[0].get_size()] == [612, 792]
    with pytest.raises(KitError):
        render_kit_pdf(paper="a3")
    with pytest.raises(KitError):
        render_kit_pdf(lang="fr")
