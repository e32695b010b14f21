"""Templates are data (card_templates/*.toml) that a host can copy and edit: the set on offer,
validation with messages that name the bad key, and a user's own copy working from a path."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bingo_hall.cli import main
from bingo_hall.errors import KitError
from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.printing import render_deck_pdf
from bingo_hall.printing.templates import load_template

from .pdfread import open_pdf, page_words

TEMPLATES = Path(__file__).resolve().parents[2] / "card_templates"
FILES = sorted(TEMPLATES.glob("*.toml"))
MM = 72 / 25.4


def test_templates_offer_1_2_4_and_6_cards_per_page():
    per_page = set()
    for path in FILES:
        data = tomllib.loads(path.read_text())
        per_page.add(data["columns"] * data["rows"])
    assert {1, 2, 4, 6} <= per_page


def test_there_is_a_colour_theme_and_a_black_and_white_one():
    def colours(path):
        theme = tomllib.loads(path.read_text())["theme"]
        return {c.upper() for v in theme.values() for c in (v if isinstance(v, list) else [v])}

    kinds = [colours(p) <= {"#000000", "#FFFFFF"} for p in FILES]
    assert any(kinds) and not all(kinds)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_template_fills_its_page_with_cards_inside_the_margins(path, paper):
    data = tomllib.loads(path.read_text())
    per_page = data["columns"] * data["rows"]
    serials = None
    if data.get("game") == 90 and data.get("large_print"):  # a slot holds one ticket (issue 36)
        deck, label = new_strip_deck(1, seed="fit", name="Margen"), "Cartón"
        serials = list(range(1, per_page + 1))
    elif data.get("game") == 90:  # a slot holds a strip of 6 tickets
        deck = new_strip_deck(per_page, seed="fit", name="Margen")
        label, per_page = "Cartón", 6 * per_page
    else:
        deck, label = new_deck(per_page, seed="fit", name="Margen"), "Cartón"
    pdf = open_pdf(
        render_deck_pdf(deck, template=path.stem, paper=paper, base_url="http://h", serials=serials)
    )
    assert len(pdf) == 1
    page = pdf[0]
    w, h = page.get_size()
    words = page_words(page)
    assert sum(word.text == label for word in words) == per_page
    margin = 4 * MM  # most home printers cannot print closer than about 5 mm to the edge
    for word in words:
        assert margin < word.x0 and word.x1 < w - margin, word
        assert margin < word.y0 and word.y1 < h - margin, word


def write(tmp_path, text: str) -> str:
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return str(path)


BASE = (TEMPLATES / "classic-4.toml").read_text()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (("rows = 2 ", "rows = 9 "), "rows"),
        (("columns = 2 ", 'columns = "two" '), "columns"),
        (('numbers = "#111111"', 'numbers = "blue"'), "theme.numbers"),
        (("margin_mm = 8", "margin_mm = 8\npaper_colour = 1"), "paper_colour"),
        (("[theme]", '[theme]\nglow = "#FFFFFF"'), "glow"),
        (('"#6A1B9A"]', "]"), "theme.letters"),
        (('orientation = "portrait"', 'orientation = "sideways"'), "orientation"),
        (("[theme]", "[them]"), "them"),
        (("columns = 2 ", "columns = = 2 "), "TOML"),
    ],
)
def test_a_bad_template_is_refused_with_the_key_named(tmp_path, change, named):
    old, new = change
    assert old in BASE
    with pytest.raises(KitError) as exc:
        load_template(write(tmp_path, BASE.replace(old, new, 1)))
    assert named in str(exc.value)
    assert "mine.toml" in str(exc.value)


def test_a_copied_and_edited_template_prints_from_its_path(tmp_path):
    path = write(tmp_path, BASE.replace("rows = 2 ", "rows = 1 ").replace("#1565C0", "#000080"))
    deck = new_deck(4, seed="copy", name="Copia")
    pdf = open_pdf(render_deck_pdf(deck, template=path, base_url="http://h"))
    assert len(pdf) == 2  # 2 cards per page now


def test_cli_reports_a_bad_template_file_in_one_line(tmp_path, capsys):
    deck = tmp_path / "d.deck.json"
    main(["deck", "--cards", "2", "-o", str(deck)])
    path = write(tmp_path, BASE.replace("gap_mm = 6", "gap_mm = -1"))
    with pytest.raises(SystemExit) as exc:
        main(["print", str(deck), "-o", str(tmp_path / "x.pdf"), "--template", path])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "gap_mm" in err and err.count("\n") == 1
