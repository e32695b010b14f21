"""A program's games play the pattern book's patterns and the program's own, and `program check`
counts the odds of a one-card pattern exactly (the count worked out in test_pattern_odds)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from test_pattern_odds import by_inclusion_exclusion, form_numbers

from bingo_hall.manifest import load_deck
from bingo_hall.money.program import ProgramError
from bingo_hall.money.program_file import parse_game, parse_program
from bingo_hall.money.program_words import figure_name
from bingo_hall.seventyfive.patterns import BUILT_IN

NIGHT = """\
name = "Pattern night"
currency = "GBP"

[patterns.top_and_bottom]
en = "Top and bottom"
es = "Arriba y abajo"
grid = "XXXXX/...../...../...../XXXXX"

[[game]]
name = "Kites"
pattern = "crazy_kite"
price = "1.00"
prizes = { bingo = "20" }

[[game]]
name = "Stamps"
pattern = "postage_stamp"
prizes = { bingo = { amount = "20", jackpot = "50", within = 30 } }

[[game]]
name = "Rails"
pattern = "top_and_bottom"
prizes = { bingo = "10" }
"""


def test_a_program_game_plays_any_pattern_of_the_book_by_its_key():
    kites, stamps, _ = parse_program(NIGHT, "night.toml").games
    assert kites.pattern is BUILT_IN["crazy_kite"] and stamps.pattern is BUILT_IN["postage_stamp"]
    assert kites.options == {"pattern": "crazy_kite"}
    assert figure_name(kites, "en") == "Crazy kite"
    assert figure_name(kites, "es") == "Cometa loca"


def test_a_programs_own_pattern_is_played_with_its_forms_and_named_in_both_languages():
    rails = parse_program(NIGHT, "night.toml").games[2]
    rows = {(r, c) for r in (0, 4) for c in range(5)}
    assert rails.pattern is not None and rails.pattern.forms == (frozenset(rows),)
    assert figure_name(rails, "en") == "Top and bottom"
    assert figure_name(rails, "es") == "Arriba y abajo"
    # the station starts the game from its options, and reads its settings back without the
    # program's [patterns] table: the forms and the names travel with the key
    assert rails.options == {
        "pattern": "top_and_bottom",
        "mask": "11111/00000/00000/00000/11111",
        "pattern_names": {"top_and_bottom": {"en": "Top and bottom", "es": "Arriba y abajo"}},
    }
    back = parse_game(rails.spec, 3)
    assert back.pattern == rails.pattern
    assert figure_name(back, "es") == "Arriba y abajo"


@pytest.mark.parametrize(
    "change, words",
    [
        ('grid = "XXXXX/...../...../...../XXXXX"', 'grid = "XXXXX/XXXX"'),
        ("[patterns.top_and_bottom]", "[patterns.kite]"),
    ],
)
def test_a_programs_own_pattern_that_cannot_be_played_is_refused_at_its_line(change, words):
    text = NIGHT.replace(change, words)
    with pytest.raises(ProgramError) as exc:
        parse_program(text, "night.toml")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("[patterns."))
    message = str(exc.value)
    assert message.startswith(f"night.toml:{line}: pattern ") and "\n" not in message


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "bingo_hall", *args], capture_output=True, text=True
    )


@pytest.mark.process
@pytest.mark.parametrize("lang, said", [("en", "counted exactly"), ("es", "cuenta exacta")])
def test_program_check_counts_the_odds_of_a_one_card_postage_stamp_exactly(tmp_path, lang, said):
    deck_path = tmp_path / "one.deck.json"
    assert run("deck", "-n", "3", "--seed", "stamp", "-o", str(deck_path)).returncode == 0
    path = tmp_path / "night.toml"
    path.write_text(NIGHT, encoding="utf-8")
    r = run("program", "check", str(path), "--deck", str(deck_path), "--sold", "1", "--lang", lang)
    assert r.returncode == 0, r.stderr
    stamps = r.stdout.splitlines()[4]  # game 2's odds line
    deck = load_deck(deck_path)
    card = deck.cards[0]
    sets = [form_numbers(card, f, deck.free_centre) for f in BUILT_IN["postage_stamp"].forms]
    chance = 100 * float(by_inclusion_exclusion(sets, 30))
    shown = f"{chance:.2f}" if lang == "en" else f"{chance:.2f}".replace(".", ",")
    assert f"({shown} %)" in stamps and f"({said})" in stamps, stamps
    assert re.search(r"1 (night in|noche de cada) \d+", stamps)
