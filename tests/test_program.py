"""A night's program file (issue 37 item 1): parsed and checked whole, each problem one line
that names the line of the file; `bingo-hall program check` and `program print` as real
processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from printing.pdfread import page_words

from bingo_hall.money.ledger import JackpotMode, Price, PrizeKind
from bingo_hall.money.program import ProgramError, headline, parse_program
from bingo_hall.patterns import FOUR_CORNERS, X
from bingo_hall.printing.program_pdf import render_program_pdf

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "night.toml"

GOOD = """\
name = "Test night"
currency = "GBP"

[[game]]
name = "Corners"
pattern = "four_corners"
price = "1.00"
prizes = { bingo = "20" }

[[game]]
name = "Lines"
balls = 90
prize_list = "lines-house"
price = "3"
book = 6
interval = 10
[game.prizes]
one-line = "5"
two-lines = { percent = 20 }
full-house = { amount = "30", jackpot = "100", within = 45, mode = "on-top" }
"""


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "bingo_hall", *args], capture_output=True, text=True, cwd=cwd
    )


def test_a_program_gives_each_game_everything_the_station_needs():
    prog = parse_program(GOOD, "night.toml")
    one, two = prog.games
    assert prog.currency == "GBP" and prog.name("en") == "Test night"
    assert one.balls == 75 and one.plan.mode == "normal" and one.pattern == FOUR_CORNERS
    assert one.prices == (Price(100),) and one.prizes["bingo"].cents == 2000
    assert one.options == {"pattern": "four_corners"}
    assert two.balls == 90 and two.plan.mode == "lines-house" and two.pattern is None
    assert two.prices == (Price(300, 6),) and two.interval == 10
    house = two.prizes["full-house"]
    assert house.kind == PrizeKind.JACKPOT and house.within == 45 and house.jackpot == 10000
    assert house.cents == 3000 and house.mode == JackpotMode.ON_TOP
    assert two.prizes["two-lines"].percent == 20


def test_a_game_may_have_a_price_list_as_the_door_sells():
    text = GOOD.replace(
        'price = "1.00"',
        'prices = [{ label = "Single", amount = "1" }, { label = "Book of 6", amount = "5", '
        "book = 6 }]",
    )
    game = parse_program(text).games[0]
    assert game.prices == (Price(100, 1, "Single"), Price(500, 6, "Book of 6"))
    from bingo_hall.money.program import price_text

    assert price_text(game, "GBP", "en") == "Single: £1.00 a card, Book of 6: £5.00 a book of 6"


def test_the_display_line_names_the_game_its_place_and_its_prize():
    prog = parse_program(GOOD)
    assert headline(prog.games[0], 12, "GBP", "en") == "Game 1 of 12 · Corners · £20.00"
    assert headline(prog.games[0], 12, "EUR", "es") == "Partida 1 de 12 · Corners · 20,00\xa0€"


def test_the_example_in_the_docs_is_a_good_program():
    prog = parse_program(EXAMPLE.read_text(encoding="utf-8"), EXAMPLE.name)
    assert [g.pattern for g in prog.games[:2]] == [FOUR_CORNERS, X]


def _line_of(text: str, needle: str) -> int:
    """The 1-based line of the file holding `needle`: what the error must name."""
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


BAD = {
    "an unknown pattern": (
        GOOD.replace('"four_corners"', '"star"'),
        'pattern = "star"',
        "unknown pattern 'star'",
    ),
    "a price that is not money": (
        GOOD.replace('price = "3"', 'price = "three pounds"'),
        'price = "three pounds"',
        "at most two decimals",
    ),
    "a price with three decimals": (
        GOOD.replace('price = "1.00"', 'price = "1,005"'),
        'price = "1,005"',
        "at most two decimals",
    ),
    "a jackpot without N": (
        GOOD.replace(", within = 45", ""),
        "full-house = {",
        "a jackpot needs its calls",
    ),
    "a game with no prizes": (
        GOOD.replace('prizes = { bingo = "20" }\n', ""),
        'name = "Corners"',
        "no prizes",
    ),
    "an unknown prize list": (
        GOOD.replace('"lines-house"', '"lotto"'),
        'prize_list = "lotto"',
        "'lotto'",
    ),
    "a prize the game does not play": (
        GOOD.replace('one-line = "5"', 'corners = "5"'),
        'corners = "5"',
        "not corners",
    ),
    "a pattern in a 90-ball game": (
        GOOD.replace('prize_list = "lines-house"', 'prize_list = "lines-house"\npattern = "x"'),
        'pattern = "x"',
        "a pattern is played in a Bingo Normal game",
    ),
    "a jackpot on the first prize": (
        GOOD.replace('one-line = "5"', 'one-line = { jackpot = "5", within = 10 }'),
        'one-line = { jackpot = "5", within = 10 }',
        "a jackpot is played on the last prize",
    ),
    "a jackpot's calls out of range": (
        GOOD.replace("within = 45", "within = 400"),
        "within = 400",
        "within 1 to 90 calls",
    ),
    "a float for money": (
        GOOD.replace('price = "1.00"', "price = 1.10"),
        "price = 1.10",
        "as text",
    ),
    "an unknown setting in a game": (
        GOOD.replace('name = "Lines"', 'name = "Lines"\ncolour = "red"'),
        'colour = "red"',
        "unknown setting 'colour'",
    ),
    "balls that are no game": (
        GOOD.replace("balls = 90", "balls = 80"),
        "balls = 80",
        "75 or 90",
    ),
    "percentages above 100": (
        GOOD.replace("percent = 20", "percent = 120"),
        "percent = 120",
        "at most 100",
    ),
    "not TOML at all": (
        GOOD.replace('name = "Corners"', "name = Corners"),
        "name = Corners",
        "not a TOML file",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_program_is_refused_naming_its_line(case):
    text, needle, words = BAD[case]
    with pytest.raises(ProgramError) as caught:
        parse_program(text, "night.toml")
    message = str(caught.value)
    assert message.startswith(f"night.toml:{_line_of(text, needle)}: "), message
    assert words in message
    assert "\n" not in message


@pytest.mark.process
@pytest.mark.parametrize(
    "case",
    [
        "an unknown pattern",
        "a price that is not money",
        "a jackpot without N",
        "a game with no prizes",
    ],
)
def test_program_check_refuses_a_bad_file_with_one_line_and_exit_2(tmp_path, case):
    text, needle, words = BAD[case]
    path = tmp_path / "night.toml"
    path.write_text(text, encoding="utf-8")
    r = run("program", "check", str(path))
    assert r.returncode == 2, r.stdout
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert f"night.toml:{_line_of(text, needle)}: " in r.stderr and words in r.stderr


@pytest.mark.process
def test_program_check_says_what_each_game_plays_and_the_odds_with_the_deck(tmp_path):
    deck = tmp_path / "fiesta.deck.json"
    assert run("deck", "-n", "60", "--seed", "p", "-o", str(deck)).returncode == 0
    path = tmp_path / "night.toml"
    path.write_text(
        GOOD.replace(
            'prizes = { bingo = "20" }',
            'prizes = { bingo = { amount = "20", jackpot = "50", within = 30 } }',
        ),
        encoding="utf-8",
    )
    r = run("program", "check", str(path), "--deck", str(deck), "--sold", "40")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "night.toml: OK, 2 games (Test night)"
    assert "1. Corners: 75 balls; Four corners; £1.00 a card" in lines[1]
    assert "with 40 cards sold, a bingo within 30 calls about 1 night in" in lines[2]
    assert "the first bingo is expected near call" in lines[2]
    assert "with 40 tickets (a deck made for the estimate)" in lines[4]


@pytest.mark.process
def test_program_print_writes_a_pdf_in_each_language(tmp_path):
    for lang, words in (("en", "Tonight's programme"), ("es", "Programa de la noche")):
        out = tmp_path / f"program-{lang}.pdf"
        r = run("program", "print", str(EXAMPLE), "-o", str(out), "--lang", lang)
        assert r.returncode == 0, r.stderr
        text = pdfium.PdfDocument(out)[0].get_textpage().get_text_range()
        assert words in text and "Friday night at the club" in text or "Viernes" in text
        assert ("Game 3" if lang == "en" else "Partida 3") in text


@pytest.mark.process
def test_program_check_of_a_missing_file_is_one_line(tmp_path):
    r = run("program", "check", str(tmp_path / "none.toml"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_an_italian_tombola_game_takes_its_prizes_in_order():
    text = GOOD.replace('prize_list = "lines-house"', 'prize_list = "tombola"').replace(
        'one-line = "5"\ntwo-lines = { percent = 20 }\nfull-house = ',
        'ambo = "1"\nterno = "2"\nquaterna = "3"\ncinquina = "4"\ntombola = ',
    )
    game = parse_program(text).games[1]
    assert game.plan.prizes == ("ambo", "terno", "quaterna", "cinquina", "tombola")
    assert game.prizes["tombola"].kind == PrizeKind.JACKPOT
    with pytest.raises(ProgramError, match="not full-house"):
        parse_program(text.replace("tombola = {", "full-house = {"))


def test_the_printed_programme_is_readable_at_arms_length_and_stays_on_the_page():
    """Every game's details print at 14 pt or more (an elderly player holds the sheet at arm's
    length), and a long line wraps inside the right margin instead of running off the page."""
    name = "Gran bingo de Navidad, el tejado nuevo"  # near the 40 characters allowed
    program = parse_program(GOOD.replace('name = "Lines"', f'name = "{name}"'))
    page = pdfium.PdfDocument(render_program_pdf(program, "es"))[0]
    words = page_words(page)
    details = [w for w in words if w.text in ("Bingo:", "Línea:", "Descanso:", "pozo")]
    assert len(details) >= 3 and all(w.size >= 14 for w in details), details
    right_margin = page.get_width() - 40  # A4 is 595 pt wide; the margin is 16 mm (45 pt)
    assert all(w.x1 <= right_margin for w in words), [w for w in words if w.x1 > right_margin]
    # the jackpot's line, the longest, is printed whole: its last words too
    assert {"tejado", "nuevo", "45", "bolas"} <= {w.text for w in words}
