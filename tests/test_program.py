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

from bingo_hall.money import JackpotMode, Price, PrizeKind
from bingo_hall.money.program import ProgramError
from bingo_hall.money.program_file import parse_program
from bingo_hall.money.program_words import headline
from bingo_hall.printing.program_pdf import render_program_pdf
from bingo_hall.seventyfive.patterns import FOUR_CORNERS, X

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
    from bingo_hall.money.program_words import price_text

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


def _night_of(n: int) -> str:
    """A night of `n` games: Four Corners, then 90-ball lines and house, in turn."""
    corners = '[[game]]\nname = "Corners {i}"\npattern = "four_corners"\nprice = "1.00"\n'
    corners += 'prizes = {{ bingo = "20" }}\n'
    lines = '[[game]]\nname = "Lines {i}"\nballs = 90\nprize_list = "lines-house"\nprice = "3"\n'
    lines += 'interval = 10\n[game.prizes]\none-line = "5"\nfull-house = {{ percent = 50 }}\n'
    games = [(corners if i % 2 else lines).format(i=i) for i in range(1, n + 1)]
    return 'name = "Big night"\ncurrency = "GBP"\n\n' + "\n".join(games)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("games", [2, 7])
def test_the_large_print_programme_prints_every_word_at_18_pt_or_more(lang, games):
    """`program print --large` keeps the large-print cards' promise: every word on every page,
    the card's B I N G O over the figure included, at 18 pt or more, inside the page."""
    data = render_program_pdf(parse_program(_night_of(games)), lang, large=True)
    doc = pdfium.PdfDocument(data)
    seen = set()
    for page in doc:
        words = page_words(page)
        small = [(w.text, round(w.size, 1)) for w in words if w.size < 18 - 0.01]
        assert small == [], small
        assert all(0 <= w.x0 and w.x1 <= page.get_width() for w in words)
        seen |= {w.text for w in words}
    assert {f"{g}" for g in range(1, games + 1)} <= seen  # every game's number is printed
    assert {"B", "I", "N", "G", "O"} <= seen


def test_a_programme_over_two_pages_shares_its_games_out_and_leaves_no_game_alone():
    """A night that needs two pages puts its games half and half, not all but one on the first
    page and the last game alone on the second."""
    for games in range(5, 10):
        doc = pdfium.PdfDocument(render_program_pdf(parse_program(_night_of(games)), "en"))
        per_page = [
            sum(1 for w in page_words(page) if w.text in ("Corners", "Lines")) for page in doc
        ]
        assert sum(per_page) == games
        if len(per_page) > 1:
            assert max(per_page) - min(per_page) <= 1, (games, per_page)


def test_a_short_nights_programme_prints_larger_to_fill_its_page():
    """Two games on a page print larger than their least sizes: the sheet is not half empty."""
    doc = pdfium.PdfDocument(render_program_pdf(parse_program(_night_of(2)), "en"))
    assert len(doc) == 1
    words = page_words(doc[0])
    details = [w for w in words if w.text in ("Bingo:", "Interval:")]
    assert details and min(w.size for w in details) > 15, details
    lowest = min(w.y0 for w in words)
    assert lowest < doc[0].get_height() / 2  # the games reach the lower half of the page


def test_a_full_house_only_game_needs_no_prize_file_and_prints_as_what_it_plays():
    """A snowball or jackpot game plays the full house alone: the kit has the plan (`house`),
    and the programme names it, not "one line, two lines, full house"."""
    text = (
        GOOD.replace('prize_list = "lines-house"', 'prize_list = "house"')
        .replace('one-line = "5"\n', "")
        .replace("two-lines = { percent = 20 }\n", "")
    )
    game = parse_program(text).games[1]
    assert game.plan.prizes == ("full-house",)
    page = pdfium.PdfDocument(render_program_pdf(parse_program(text), "en"))[0]
    printed = page.get_textpage().get_text_range()
    assert "Full house only" in printed and "two lines" not in printed


def test_an_unknown_prize_list_names_the_way_to_a_hosts_own_list(tmp_path):
    path = tmp_path / "night.toml"
    path.write_text(GOOD.replace('"lines-house"', '"snowball"'), encoding="utf-8")
    r = run("program", "check", str(path))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "'snowball'" in r.stderr and "--prizes FOLDER" in r.stderr


def test_a_90_ball_game_draws_each_prize_it_pays_under_its_name():
    """Early Five is drawn as five numbers, a line as its row, the full house as all three:
    not one all-blue ticket for every game."""
    text = GOOD.replace('prize_list = "lines-house"', 'prize_list = "tambola"').replace(
        'one-line = "5"\ntwo-lines = { percent = 20 }\n', 'early-five = "5"\ntop-line = "5"\n'
    )
    page = pdfium.PdfDocument(render_program_pdf(parse_program(text), "en"))[0]
    words = page_words(page)
    figure_edge = min(w.x0 for w in words if w.text == "Game")  # the text column's left
    labels = [w.text for w in words if w.x1 < figure_edge]
    assert {"Early", "Top", "Full"} <= set(labels), labels


def test_the_display_line_leaves_the_jackpot_to_the_ledgers_line_and_names_the_interval():
    """The big screen said "£30.00, plus a £100.00 jackpot within 45 calls" in its header while
    the ledger's line below said the pot (rolled over from the games before) was more: one sum,
    one wording, the pot's. The interval after a game is on the screen too."""
    game = parse_program(GOOD).games[1]
    line = headline(game, 4, "GBP", "en")
    assert line == "Game 2 of 4 · Lines · £30.00 · then a 10 min interval"
    assert "pozo" not in headline(game, 4, "GBP", "es").lower()


def test_program_print_speaks_the_halls_language_the_file_names_and_says_which(tmp_path):
    """A UK club's night printed in Spanish from `program print` without --lang: the file can
    name the hall's language, which the command then uses and names; --lang still wins."""
    import os

    path = tmp_path / "night.toml"
    path.write_text('lang = "en"\n' + GOOD, encoding="utf-8")
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    out = tmp_path / "p.pdf"
    done = subprocess.run(
        [sys.executable, "-m", "bingo_hall", "program", "print", str(path), "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "(English)" in done.stdout
    assert "programme" in pdfium.PdfDocument(out)[0].get_textpage().get_text_range()
    r = run("program", "print", str(path), "-o", str(out), "--lang", "es")
    assert r.returncode == 0 and "(español)" in r.stdout
    path.write_text('lang = "fr"\n' + GOOD, encoding="utf-8")
    bad = run("program", "check", str(path))
    assert bad.returncode == 2 and "es or en" in bad.stderr and bad.stderr.count("\n") == 1
