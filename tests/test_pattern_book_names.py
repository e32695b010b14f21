"""The pattern book's names in the reader's language (`pattern_book_names()` in templates: the
card page's line labels, the caller page's choice of pattern). They are made once per language
and shared by every request, so a page in one language must never get another's."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bingo_hall.web.i18n import pattern_book_names

BOOK_FILE = (
    Path(__file__).resolve().parent.parent / "bingo_hall" / "seventyfive" / "pattern_book.toml"
)
BOOK = tomllib.loads(BOOK_FILE.read_text())


@pytest.mark.parametrize("order", [("es", "en", "es"), ("en", "es", "en")])
def test_the_pattern_books_names_are_in_the_readers_language_whichever_language_asked_first(
    app, order
):
    for lang in order:
        with app.test_request_context(f"/?lang={lang}"):
            names = pattern_book_names()
            assert dict(names) == {key: entry[lang] for key, entry in BOOK.items()}
            assert list(names) == list(BOOK)  # in the book's order


def test_the_shared_names_cannot_be_changed_by_a_page(app):
    with app.test_request_context("/?lang=es"):
        names = pattern_book_names()
        with pytest.raises(TypeError):
            names["four_corners"] = "Esquinas"  # type: ignore[index]
        assert pattern_book_names()["four_corners"] == BOOK["four_corners"]["es"]
