"""Large-print cards and tickets (issue 36 item 1), read back from the PDF as a player and a phone
would: pypdfium2 gives each character's size and colour and each drawn path's colour and width,
zxing-cpp decodes the QR codes. What a large print promises comes from the issue: numbers of at
least 36 pt, margin totals of at least 18 pt, every colour at least 7:1 against what it is printed
on, no stroke thinner than 1 pt, and the same serial, QR code and margin figures as the standard
card. Expected numbers and totals are worked out here from the deck file."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from bingo_hall.cli import main
from bingo_hall.errors import KitError
from bingo_hall.manifest import load_deck, new_deck, new_strip_deck
from bingo_hall.printing import render_deck_pdf
from bingo_hall.signing import signature_is_valid

from .cardread import read_cards
from .pdfread import PAYLOAD, Shape, Word, open_pdf, page_shapes, page_words, scan_qr_codes
from .test_print_cli import run_error

TEMPLATES = Path(__file__).resolve().parents[2] / "card_templates"
BASE = "http://192.168.1.20:5000"
NUMBER_PT, TOTAL_PT, CONTRAST, LINE_PT = 36, 18, 7.0, 1.0
CARDS = [("large-1", 1, 1), ("large-2", 2, 1)]  # template, cards across, cards down
WHITE = (255, 255, 255)


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance, written out from the definition."""
    linear = []
    for v in rgb:
        c = v / 255
        linear.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = linear
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_contrast_formula_gives_the_known_ratios():
    assert contrast((0, 0, 0), WHITE) == pytest.approx(21.0)
    assert contrast(WHITE, WHITE) == pytest.approx(1.0)
    assert contrast((0x59, 0x59, 0x59), WHITE) == pytest.approx(7.0, abs=0.05)  # WCAG's 7:1 grey


def line_sum(numbers) -> int:
    return sum(n for n in numbers if n is not None)


def background(shapes: list[Shape], word: Word) -> tuple[int, int, int]:
    """The colour under a word's centre: the last filled shape drawn there, or the white paper."""
    under = WHITE
    for shape in shapes:
        if shape.filled and any(
            a <= word.cx <= c and b <= word.cy <= d for a, b, c, d in shape.parts
        ):
            under = shape.fill
    return under


def check_ink_and_lines(page) -> None:
    """Every word at least 7:1 on what it is printed on; every stroke 1 pt or more and 7:1 on the
    paper."""
    shapes = page_shapes(page)
    for word in page_words(page):
        ratio = contrast(word.fill, background(shapes, word))
        assert ratio >= CONTRAST, (word, ratio)
    strokes = [s for s in shapes if s.stroked]
    assert strokes
    for shape in strokes:
        assert shape.width >= LINE_PT - 1e-6, shape
        assert contrast(shape.stroke, WHITE) >= CONTRAST, shape


@pytest.mark.parametrize(("template", "columns", "rows"), CARDS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_large_print_cards_have_36_pt_numbers_18_pt_totals_that_add_up_and_qr_codes_that_scan(
    template, columns, rows, paper
):
    per_page = columns * rows
    deck = new_deck(per_page, seed=f"large {template}", name="Club de Jubilados")
    pdf = open_pdf(render_deck_pdf(deck, template=template, paper=paper, base_url=BASE))
    assert len(pdf) == 1
    page = pdf[0]
    printed = read_cards(page, columns, rows)
    assert sorted(card.serial for card in printed) == list(range(1, per_page + 1))
    words = page_words(page)
    codes = scan_qr_codes(page, dpi=100)
    assert len(codes) == per_page
    for card in printed:
        g = [list(row) for row in deck.card(card.serial).rows]  # the deck's card, row by row
        assert card.grid == g
        assert card.row_totals == [line_sum(row) for row in g]
        assert card.column_totals == [line_sum(g[r][c] for r in range(5)) for c in range(5)]
        assert card.d1 == line_sum(g[i][i] for i in range(5))
        assert card.d2 == line_sum(g[i][4 - i] for i in range(5))
        left, bottom, right, top = card.grid_box
        numbers = [w for w in words if left < w.cx < right and bottom < w.cy < top]
        assert len(numbers) == 25
        assert min(size for w in numbers for size in w.sizes) >= NUMBER_PT
        assert min(size for w in card.totals for size in w.sizes) >= TOTAL_PT
        # The QR code on the card (its centre within the card's width) names this card.
        (code,) = [c for c in codes if left - 100 < c.x < right + 100 and c.y < bottom]
        match = PAYLOAD.match(code.text)
        assert match and int(match["serial"]) == card.serial
        assert match["deck"] == deck.deck_id
        assert signature_is_valid(deck.secret, deck.deck_id, card.serial, match["sig"])
    check_ink_and_lines(page)


@pytest.mark.parametrize("free_centre", [False, True], ids=["numbers", "free-centre"])
def test_a_large_print_card_carries_the_same_serial_qr_and_margin_figures_as_the_standard_one(
    free_centre,
):
    deck = new_deck(4, seed="same card", name="Mismo", free_centre=free_centre)
    standard = open_pdf(render_deck_pdf(deck, template="classic-4", base_url=BASE))[0]
    large = open_pdf(render_deck_pdf(deck, template="large-2", base_url=BASE, serials=[3, 4]))[0]
    small = {c.serial: c for c in read_cards(standard, 2, 2)}
    big = read_cards(large, 2, 1)
    assert [c.serial for c in big] == [3, 4]
    for card in big:
        twin = small[card.serial]
        assert card.grid == twin.grid
        assert (card.row_totals, card.column_totals) == (twin.row_totals, twin.column_totals)
        assert (card.d1, card.d2) == (twin.d1, twin.d2)
        assert (card.grid[2][2] is None) == free_centre
    codes = {c.text for c in scan_qr_codes(standard)}
    assert {c.text for c in scan_qr_codes(large)} <= codes
    assert len({PAYLOAD.match(c)["serial"] for c in codes}) == 4


def ticket_bands(page) -> list[list[list[Word]]]:
    """The page's tickets top to bottom, each as its lines of words (top to bottom, each left to
    right): three tickets a page, each in its third of the page."""
    _, height = page.get_size()
    bands: list[list[Word]] = [[], [], []]
    for w in page_words(page):
        bands[min(2, int((height - w.cy) // (height / 3)))].append(w)
    tickets = []
    for band in bands:
        lines: list[list[Word]] = []
        for w in sorted(band, key=lambda w: -w.cy):
            if lines and abs(lines[-1][0].cy - w.cy) < 12:
                lines[-1].append(w)
            else:
                lines.append([w])
        tickets.append([sorted(line, key=lambda w: w.x0) for line in lines])
    return tickets


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_large_print_tickets_run_across_the_page_three_a_page_with_their_rows_totals_and_qr(
    paper, lang
):
    deck = new_strip_deck(1, seed="large tickets", name="Sala Gran Vía")
    rows = {t["serial"]: t["rows"] for t in json.loads(deck.to_json())["cards"]}  # the deck file
    strip_word, ticket_word = {"es": ("Tira", "Cartón"), "en": ("Strip", "Ticket")}[lang]
    pdf = open_pdf(
        render_deck_pdf(deck, template="large-tickets", paper=paper, lang=lang, base_url=BASE)
    )
    assert len(pdf) == 2  # a strip's six tickets, three a page
    seen = []
    for p in range(2):
        page = pdf[p]
        width, height = page.get_size()
        assert width < height  # portrait: each ticket runs across the page's width
        codes = scan_qr_codes(page, dpi=100)
        assert len(codes) == 3
        for band, ticket in enumerate(ticket_bands(page)):
            header, *grid = ticket
            texts = [w.text for w in header]
            strip = int(texts[texts.index(strip_word) + 1])
            serial = int(texts[texts.index(ticket_word) + 1])
            assert serial == 3 * p + band + 1 and strip == 1
            assert len(grid) == 3
            numbers = [w for line in grid for w in line[:-1]]
            assert max(w.x1 for w in numbers) - min(w.x0 for w in numbers) > 0.6 * width
            for line, stored in zip(grid, rows[serial]):
                *printed, total = line
                assert [int(w.text) for w in printed] == [n for n in stored if n is not None]
                assert int(total.text) == line_sum(stored)
                assert total.x0 > max(w.x1 for w in printed)  # in the margin at the row's end
                assert min(s for w in printed for s in w.sizes) >= NUMBER_PT
                assert min(total.sizes) >= TOTAL_PT
            (code,) = [c for c in codes if int((height - c.y) // (height / 3)) == band]
            match = PAYLOAD.match(code.text)
            assert match and int(match["serial"]) == serial
            assert signature_is_valid(deck.secret, deck.deck_id, serial, match["sig"])
            seen.append(serial)
        check_ink_and_lines(page)
    assert seen == [1, 2, 3, 4, 5, 6]


def copy_of(tmp_path, name: str, old: str, new: str) -> str:
    text = (TEMPLATES / f"{name}.toml").read_text()
    assert old in text
    path = tmp_path / "mine.toml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


def test_a_large_print_template_that_would_print_small_numbers_is_refused_saying_why(tmp_path):
    # Four large cards a page leave cells of about 40 pt: numbers of about 26 pt.
    path = copy_of(tmp_path, "large-2", "rows = 1", "rows = 2")
    deck = new_deck(4, seed="small", name="Pequeño")
    with pytest.raises(KitError, match=r"large print needs at least 36 pt and 18 pt"):
        render_deck_pdf(deck, template=path, base_url=BASE)
    # The same copy without large_print prints, as any template does.
    plain = tmp_path / "plain.toml"
    plain.write_text(Path(path).read_text().replace("large_print = true", "large_print = false"))
    assert len(open_pdf(render_deck_pdf(deck, template=str(plain), base_url=BASE))) == 1


@pytest.mark.parametrize(
    ("name", "old", "new", "named"),
    [
        ("large-1", 'numbers = "#000000"', 'numbers = "#767676"', "theme.numbers"),
        ("large-1", 'free_fill = "#FFFFFF"', 'free_fill = "#595959"', "theme.free_fill"),
        ("large-tickets", 'accent = "#000000"', 'accent = "#1565C0"', "theme.accent"),
    ],
)
def test_a_large_print_template_with_pale_colours_is_refused_naming_the_colour(
    tmp_path, name, old, new, named
):
    path = copy_of(tmp_path, name, old, new)
    deck = new_deck(1, seed="pale") if name != "large-tickets" else new_strip_deck(1, seed="pale")
    with pytest.raises(KitError, match=r"large print needs at least 7:1") as caught:
        render_deck_pdf(deck, template=path, base_url=BASE)
    assert named in str(caught.value)


def test_large_print_must_be_true_or_false(tmp_path, capsys):
    path = copy_of(tmp_path, "large-1", "large_print = true", 'large_print = "yes"')
    out = tmp_path / "x.pdf"
    err = run_error(capsys, ["generate", "-n", "2", "-o", str(out), "--template", path])
    assert "large_print" in err
    assert not out.exists() and not (tmp_path / "x.deck.json").exists()


def test_generate_refuses_a_large_print_template_that_does_not_fit_before_writing_the_deck(
    tmp_path, capsys
):
    path = copy_of(tmp_path, "large-1", "columns = 1", "columns = 3")
    out = tmp_path / "big.pdf"
    err = run_error(capsys, ["generate", "-n", "3", "-o", str(out), "--template", path])
    assert "36 pt" in err
    assert not (tmp_path / "big.deck.json").exists()


@pytest.mark.parametrize(
    ("args", "pages", "portrait", "tickets"),
    [
        (["-n", "4"], 2, False, 4),  # two large cards a landscape page
        (["--game", "90", "--strips", "1"], 2, True, 6),  # three large tickets a portrait page
    ],
)
def test_generate_template_large_prints_the_games_large_print(
    tmp_path, args, pages, portrait, tickets
):
    out = tmp_path / "grande.pdf"
    main(["generate", *args, "-o", str(out), "--template", "large", "--base-url", BASE])
    deck = load_deck(tmp_path / "grande.deck.json")
    assert len(deck.cards) == tickets
    pdf = open_pdf(out.read_bytes())
    assert len(pdf) == pages
    width, height = pdf[0].get_size()
    assert (width < height) == portrait
    serials = sorted(int(PAYLOAD.match(c.text)["serial"]) for p in pdf for c in scan_qr_codes(p))
    assert serials == list(range(1, tickets + 1))
    sizes = [s for w in page_words(pdf[0]) if w.text.isdigit() for s in w.sizes]
    assert max(sizes) >= NUMBER_PT


def test_the_large_print_templates_are_black_on_white():
    for name in ("large-1", "large-2", "large-tickets"):
        data = tomllib.loads((TEMPLATES / f"{name}.toml").read_text())
        assert data["large_print"] is True
        colours = {
            c.upper() for v in data["theme"].values() for c in (v if isinstance(v, list) else [v])
        }
        assert colours <= {"#000000", "#FFFFFF"}, name
