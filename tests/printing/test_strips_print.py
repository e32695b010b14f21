"""Printed 90-ball strips (issue 17), read back as a person and a phone would: pypdfium2 renders the
pages and gives text positions, zxing-cpp decodes every ticket's QR code. Expectations come from
the deck file's numbers, never from the drawing code."""

from __future__ import annotations

import json

import pytest

from bingo_hall.cli import main
from bingo_hall.manifest import load_deck, new_strip_deck, save_deck
from bingo_hall.printing import render_deck_pdf, render_kit_pdf
from bingo_hall.signing import signature_is_valid

from .pdfread import PAYLOAD, Scan, Word, open_pdf, page_words, scan_qr_codes
from .test_print_cli import run_error

BASE = "http://192.168.1.50:5000"
LABELS = {"es": ("Tira", "Cartón"), "en": ("Strip", "Ticket")}


@pytest.fixture(scope="module")
def deck():
    return new_strip_deck(7, seed="sala", name="Sala Gran Vía")


def ticket_lines(words: list[Word], scan: Scan) -> list[list[Word]]:
    """The text of the ticket whose QR is `scan`, as lines top to bottom, each left to right.

    The ticket's text sits left of its QR code and within its height (the QR spans the header
    and the three rows)."""
    side = 2 * (scan.x - scan.left)
    mine = [
        w
        for w in words
        if w.x1 <= scan.left and w.x0 > scan.left - 3.4 * side and abs(w.cy - scan.y) < side / 2
    ]
    lines: list[list[Word]] = []
    for w in sorted(mine, key=lambda w: -w.cy):
        if lines and abs(lines[-1][0].cy - w.cy) < side / 10:
            lines[-1].append(w)
        else:
            lines.append([w])
    return [sorted(line, key=lambda w: w.x0) for line in lines]


def printed_tickets(pdf, lang: str = "es", dpi: float = 100):
    """(serial from QR, payload match, strip label, serial label, rows of words) for each ticket."""
    strip_word, ticket_word = LABELS[lang]
    out = []
    for p in range(len(pdf)):
        page = pdf[p]
        words = page_words(page)
        for scan in scan_qr_codes(page, dpi=dpi):
            match = PAYLOAD.match(scan.text)
            assert match, scan.text
            header, *rows = ticket_lines(words, scan)
            texts = [w.text for w in header]
            strip = int(texts[texts.index(strip_word) + 1])
            serial = int(texts[texts.index(ticket_word) + 1])
            out.append((p, match, strip, serial, rows, scan))
    return out


@pytest.mark.parametrize(
    ("template", "paper", "per_page", "dpi"),
    [("strips-2", "a4", 2, 100), ("strips-3", "letter", 3, 150), ("strips-3", "a4", 3, 150)],
)
def test_every_ticket_carries_a_valid_signed_qr_its_serial_and_its_strip(
    deck, template, paper, per_page, dpi
):
    pdf = open_pdf(render_deck_pdf(deck, template=template, paper=paper, base_url=BASE))
    assert len(pdf) == -(-7 // per_page)
    seen = []
    for page, match, strip, serial, _, _ in printed_tickets(pdf, dpi=dpi):
        assert match["base"] == BASE.upper() and match["deck"] == deck.deck_id
        assert int(match["serial"]) == serial  # the printed serial is on the QR's ticket
        assert signature_is_valid(deck.secret, deck.deck_id, serial, match["sig"])
        assert not signature_is_valid(deck.secret, deck.deck_id, serial + 6, match["sig"])
        assert strip == (serial - 1) // 6 + 1  # six tickets a strip, in order
        assert (strip - 1) // per_page == page
        seen.append(serial)
    assert sorted(seen) == list(range(1, 43))


def test_each_row_is_printed_as_in_the_deck_file_with_its_total_in_the_margin(deck, tmp_path):
    data = json.loads(deck.to_json())  # the deck file, as the station reads it
    grids = {t["serial"]: t["rows"] for t in data["cards"]}
    pdf = open_pdf(render_deck_pdf(deck, template="strips-2", lang="en", base_url=BASE))
    checked = 0
    for _, _, _, serial, rows, _ in printed_tickets(pdf, lang="en"):
        assert len(rows) == 3
        for printed, stored in zip(rows, grids[serial]):
            numbers = [int(w.text) for w in printed[:-1]]
            assert numbers == [n for n in stored if n is not None]
            total = printed[-1]
            assert int(total.text) == sum(numbers)
            assert total.x0 > max(w.x1 for w in printed[:-1])  # at the end of the row
            assert total.height < printed[0].height  # small, like the 75-ball margin figures
            checked += 1
    assert checked == 42 * 3


def test_printing_only_some_serials_prints_those_tickets_in_order(deck):
    strip_3 = list(range(13, 19))
    pdf = open_pdf(render_deck_pdf(deck, base_url=BASE, serials=[*strip_3, 40]))
    assert len(pdf) == 1
    width, _ = pdf[0].get_size()
    # Slots are strips left to right, each a column of tickets top to bottom.
    found = sorted(printed_tickets(pdf), key=lambda t: (t[5].x > width / 2, -t[5].y))
    assert [t[3] for t in found] == [*strip_3, 40]


def _rows_of(words: list[Word]) -> list[list[int]]:
    rows: list[list[Word]] = []
    for w in sorted(words, key=lambda w: -w.cy):
        if rows and abs(rows[-1][0].cy - w.cy) < 3:
            rows[-1].append(w)
        else:
            rows.append([w])
    return [[int(w.text) for w in sorted(r, key=lambda w: w.x0)] for r in rows]


def test_the_90_ball_tabla_is_1_to_90_in_9_rows_of_10_and_there_are_90_tokens():
    pdf = open_pdf(render_kit_pdf(lang="en", paper="letter", game=90))
    numbers = [w for w in page_words(pdf[0]) if w.text.isdigit()]
    assert sorted(int(w.text) for w in numbers) == list(range(1, 91))
    assert _rows_of(numbers) == [list(range(10 * r + 1, 10 * r + 11)) for r in range(9)]
    _, height = pdf[1].get_size()
    below_title = [w for w in page_words(pdf[1]) if w.cy < height - 80]  # the note says "90"
    tokens = [w for w in below_title if w.text.isdigit()]
    assert sorted(int(w.text) for w in tokens) == list(range(1, 91))
    rules = " ".join(w.text for p in range(2, len(pdf)) for w in page_words(pdf[p]))
    assert "full house" in rules and "Línea" in rules


def test_generate_game_90_writes_the_deck_and_its_strips(tmp_path):
    out = tmp_path / "sala.pdf"
    main(["generate", "--game", "90", "--strips", "4", "-o", str(out), "--base-url", BASE])
    deck = load_deck(tmp_path / "sala.deck.json")
    assert deck.game == 90 and len(deck.cards) == 24
    pdf = open_pdf(out.read_bytes())
    assert len(pdf) == 2  # strips-2: two strips a page
    assert sorted(t[3] for t in printed_tickets(pdf)) == list(range(1, 25))


def test_games_and_templates_that_do_not_match_are_one_line_errors(tmp_path, capsys, deck):
    strips = save_deck(deck, tmp_path / "sala.deck.json")
    out = str(tmp_path / "x.pdf")
    err = run_error(capsys, ["print", str(strips), "-o", out, "--game", "75", "--base-url", BASE])
    assert "90-ball" in err
    err = run_error(capsys, ["print", str(strips), "-o", out, "--template", "classic-4"])
    assert "strips-2" in err
    run_error(capsys, ["generate", "--game", "90", "--strips", "2", "-o", out, "-n", "5"])
    run_error(
        capsys, ["generate", "--game", "90", "--strips", "2", "-o", out, "--template", "plain-6"]
    )
    run_error(capsys, ["generate", "--game", "90", "--strips", "2", "-o", out, "--serials", "13"])
    run_error(capsys, ["kit", "-o", out, "--game", "80"])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_90_tokens_are_laid_out_as_the_board_ten_to_a_row(paper):
    """The Maestro cuts the tokens and lays them on the board: they come 1-10, 11-20... as the
    board's rows do, not 11 to a row."""
    pdf = open_pdf(render_kit_pdf(lang="en", paper=paper, game=90))
    _, height = pdf[1].get_size()
    tokens = [w for w in page_words(pdf[1]) if w.cy < height - 80 and w.text.isdigit()]
    assert _rows_of(tokens) == [list(range(10 * r + 1, 10 * r + 11)) for r in range(9)]


def test_the_english_rules_of_90_balls_give_the_uk_prizes_first_the_spanish_the_linea():
    for lang, first, second in (
        ("en", "One line", "Línea, then"),
        ("es", "Línea y bingo", "Una línea"),
    ):
        pdf = open_pdf(render_kit_pdf(lang=lang, game=90))
        rules = " ".join(w.text for p in range(2, len(pdf)) for w in page_words(pdf[p]))
        assert first in rules and second in rules, rules
        assert rules.index(first) < rules.index(second), lang
