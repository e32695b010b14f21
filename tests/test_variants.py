"""The game variants (bingo_hall/variants.py): one class per kind of game answers what differs
between them, as data, and the deck file and the prizes ask it instead of testing the number of
balls. A variant the kit does not ship plugs in without a change to the manifest."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from bingo_hall.errors import DeckError, KitError
from bingo_hall.manifest import new_variant_deck, parse_deck
from bingo_hall.ninety.prize_rules import HOUSE, SPANISH, TAMBOLA, TOMBOLA, UK
from bingo_hall.ninety.tickets import Ticket
from bingo_hall.prize_plan import PrizeOrder, PrizePlan
from bingo_hall.seventyfive.cards import Card
from bingo_hall.variants import (
    CARDS,
    STRIPS,
    VARIANTS,
    ByVariant,
    Cards75,
    variant_for,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("variant", list(VARIANTS), ids=lambda v: v.key)
def test_every_variant_reads_back_the_tickets_it_writes(variant):
    deck = new_variant_deck(variant, 2, seed="round trip", name="Vuelta")
    back = parse_deck(deck.to_json())
    assert back.variant is variant
    assert back.cards == deck.cards
    assert all(isinstance(t, variant.ticket_type) for t in back.cards)


def test_the_deck_and_the_game_choose_their_variant_by_balls():
    assert variant_for(75) is CARDS and CARDS.ticket_type is Card
    assert variant_for(90) is STRIPS and STRIPS.ticket_type is Ticket


@pytest.mark.parametrize("balls", [80, "90", True, None, 90.0])
def test_a_game_the_kit_does_not_play_is_refused_naming_the_games_it_does(balls):
    with pytest.raises(DeckError, match=r"game must be 75 or 90, not "):
        variant_for(balls)


def test_the_ninety_ball_prizes_are_the_spanish_and_uk_sequences_and_tambola_open_at_once():
    spanish, uk, house, tambola, tombola = STRIPS.plans
    assert (house.mode, house.prizes) == ("house", ("full-house",))
    assert (spanish.mode, spanish.prizes) == ("linea-bingo", ("linea", "bingo"))
    assert (uk.mode, uk.prizes) == ("lines-house", ("one-line", "two-lines", "full-house"))
    assert tambola.mode == "tambola" and len(tambola.prizes) == 6
    assert STRIPS.plan(None) == spanish
    assert [p.order for p in STRIPS.plans] == [
        PrizeOrder.SEQUENCE,
        PrizeOrder.SEQUENCE,
        PrizeOrder.SEQUENCE,
        PrizeOrder.OPEN,
        PrizeOrder.SEQUENCE,
    ]
    assert tombola.prizes == ("ambo", "terno", "quaterna", "cinquina", "tombola")
    # one idea, not two copies: each plan carries the prize list that judges its prizes
    assert [p.prize_list for p in STRIPS.plans] == [SPANISH, UK, HOUSE, TAMBOLA, TOMBOLA]
    assert tambola.open_prizes([]) == tambola.prizes


def test_a_seventy_five_ball_round_plays_one_bingo_in_normal_and_in_puntos():
    assert [(p.mode, p.prizes) for p in CARDS.plans] == [
        ("normal", ("bingo",)),
        ("points", ("bingo",)),
    ]
    with pytest.raises(KitError, match="75-ball game.s mode"):
        CARDS.plan("linea-bingo")


def test_a_sequence_opens_its_prizes_one_after_another():
    plan = PrizePlan("uk", ("one-line", "two-lines", "full-house"))
    assert plan.open_prizes([]) == ("one-line",)
    assert plan.next_prize(["one-line"]) == "two-lines"
    assert plan.open_prizes(["one-line", "two-lines", "full-house"]) == ()
    assert plan.next_prize(["one-line", "two-lines", "full-house"]) is None


def test_an_open_set_keeps_every_prize_not_yet_won_open_in_any_order():
    """Tambola (issue 28): Early Five, the lines and Full House are open at once."""
    plan = PrizePlan(
        "tambola",
        ("early-five", "top-line", "middle-line", "bottom-line", "full-house"),
        PrizeOrder.OPEN,
    )
    assert plan.open_prizes([]) == plan.prizes
    assert plan.open_prizes(["middle-line", "early-five"]) == (
        "top-line",
        "bottom-line",
        "full-house",
    )


class _WideCards(Cards75):
    """A made-up third variant: the 1933 cards called from 76 balls (a spare ball in the cage).
    A class of its own, so every adapter's table must be given an entry for it."""

    key = "wide"
    balls = 76
    deck_word = "76-ball deck"


#: every module that keeps a table of its own part of each variant (`ByVariant`)
ADAPTERS = (
    "bingo_hall.cli.deck",
    "bingo_hall.printing.variants",
    "bingo_hall.printing.kit",
    "bingo_hall.printing.program_pdf",
    "bingo_hall.station.variants",
    "bingo_hall.station.verify.variants",
    "bingo_hall.linked.figure",
)


def _tables() -> list[ByVariant]:
    for name in ADAPTERS:
        importlib.import_module(name)
    return list(ByVariant.tables)


def test_every_adapter_table_covers_every_variant():
    tables = _tables()
    assert {t.name for t in tables} == {
        "deck_cli.COUNTS",
        "printing.variants.LAYOUTS",
        "printing.kit.BOARDS",
        "printing.program_pdf.FIGURES",
        "station.variants.PLAY",
        "station.verify.variants.CLAIMS",
        "linked.figure.FIGURES",
        "linked.pages.HALL_GAMES",
    }
    missing = [(t.name, v.key) for t in tables for v in VARIANTS if not t.covers(v)]
    assert missing == []


def test_the_tables_are_keyed_by_the_variants_class_not_by_a_name():
    """Issue 34: a variant that only shares another's name finds no entry of it."""
    (layouts,) = [t for t in _tables() if t.name == "printing.variants.LAYOUTS"]
    with pytest.raises(KitError, match=r"printing.variants.LAYOUTS has no entry for the 76-ball"):
        layouts[_WideCards()]


@pytest.fixture
def third(monkeypatch):
    """The third variant, plugged in as a host would: registered in `VARIANTS`, and one entry in
    every adapter's table (it plays as the 1933 cards do)."""
    variant = _WideCards()
    for table in _tables():
        monkeypatch.setitem(table.entries, _WideCards, table.entries[Cards75])
    VARIANTS.append(variant)
    try:
        yield variant
    finally:
        VARIANTS.remove(variant)


def test_a_third_variant_plugs_into_the_deck_file_without_touching_the_manifest(third):
    deck = new_variant_deck(third, 3, seed="third", name="Tercera")
    text = deck.to_json()
    assert '"game":76' in text
    back = parse_deck(text)
    assert back.game == 76 and back.variant is third and back.cards == deck.cards


def test_a_third_variant_goes_through_every_adapter_table(third):
    from bingo_hall.cli.deck import COUNTS, check_counts
    from bingo_hall.printing.kit import BOARDS
    from bingo_hall.printing.variants import layout_for
    from bingo_hall.station.variants import PLAY, kind_of
    from bingo_hall.station.verify.variants import CLAIMS, claims_of

    assert all(t.covers(third) for t in _tables())
    assert check_counts("76", 3, None, False) == 3  # COUNTS: it is counted in --cards
    assert COUNTS[third] is COUNTS[CARDS]
    assert layout_for(third) is layout_for(CARDS)
    assert BOARDS[third] is BOARDS[CARDS]
    assert kind_of(third) is PLAY[CARDS] and claims_of(third) is CLAIMS[CARDS]
    assert variant_for(76) is third


def test_a_variant_answers_its_facts_itself():
    """Issue 34: the Tabla's rows, the call's label and words, the layout and the CLI's option
    are the variant's, worked out here from the rules (B 1-15 ... O 61-75; 9 rows of 10)."""
    assert [(r.letter, r.balls) for r in CARDS.board] == [
        ("B", range(1, 16)),
        ("I", range(16, 31)),
        ("N", range(31, 46)),
        ("G", range(46, 61)),
        ("O", range(61, 76)),
    ]
    assert [(r.letter, r.balls[0], r.balls[-1]) for r in STRIPS.board] == [
        ("", 10 * k + 1, 10 * k + 10) for k in range(9)
    ]
    for v in VARIANTS:  # every ball once
        assert sorted(n for r in v.board for n in r.balls) == list(range(1, v.balls + 1))
    assert (CARDS.call_label(31), STRIPS.call_label(87)) == ("N 31", "87")
    assert CARDS.said(31, "treinta y uno") == "N... treinta y uno"
    assert STRIPS.said(87, "ochenta y siete") == "ochenta y siete"
    assert (CARDS.layout, STRIPS.layout) == ("card", "ticket")
    assert (CARDS.count_option, STRIPS.count_option) == ("--cards", "--strips")
    assert (CARDS.default_template, STRIPS.default_template) == ("classic-4", "strips-2")


# -- the guard: nothing outside the seam branches on the variant ------------------------------

#: each form a branch on the variant takes, in Python, Jinja or JavaScript
_BRANCHES = re.compile(
    "|".join(
        (
            r"\bballs\s*[!=]==?",  # balls == 75, balls != BALLS
            r"[!=]==?\s*['\"]?(?:75|90)\b",  # == 90, === "90"
            r"\b(?:75|90)['\"]?\s*[!=]==?",  # 90 == balls
            r"\bin\s*[(\[]\s*['\"]?(?:75|90)\b",  # balls in (75, 90), not in ["75", "90"]
            r"[(\[]\s*['\"]?75['\"]?\s*,\s*['\"]?90\b",  # GAMES = (75, 90), Choice(["75", "90"])
            r"isinstance\([^)]*,\s*\(?\s*(?:Card|Ticket|Strip)\b",  # isinstance(t, Ticket)
            r"\blayout\s*[!=]==?",  # layout == "ticket", s.layout === "ticket"
            r"\blayout['\"]?\s*[:=]\s*['\"](?:card|ticket)\b",  # "layout": "card", named by hand
            r"[!=]==?\s*['\"](?:card|ticket|cards|strips)['\"]",  # == 'strips'
            r"equalto['\"]?\s*,\s*['\"]?(?:75|90|card|ticket|cards|strips)\b",  # equalto 90
            r"\bis_ninety\b",
        )
    )
)

#: the one module that defines the variants
_SEAM = ROOT / "bingo_hall" / "variants.py"

#: lines that name the balls without branching, each with its reason
_ALLOWED = {
    # migration 2 as it was run: a past migration's text is what every existing database ran,
    # so it is never edited; a new variant adds a migration of its own
    "bingo_hall/station/schema.py": ("CHECK (balls IN (75, 90))",),
    # ?view=card is the phone's own card page (a card's or a ticket's), not a variant's layout
    "bingo_hall/station/api.py": ('request.args.get("view") == "card"',),
}


def _branches_on_the_variant(path: Path, text: str) -> list[str]:
    allowed = _ALLOWED.get(path.relative_to(ROOT).as_posix(), ())
    return [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        if _BRANCHES.search(line) and not any(a in line for a in allowed)
    ]


@pytest.mark.parametrize(
    "line",
    [
        "    return call_name(ball) if balls == 75 else str(ball)",
        "        name = call_name(b) if balls == BALLS else str(b)",
        'const game = chosen.dataset.game === "90" ? "90" : "75";',
        "if 90 == game.balls:",
        'if balls not in ("75", "90"):',
        "GAMES = (75, 90)",
        '    type=click.Choice(["75", "90"]),',
        "tickets = [t for t in self.cards if isinstance(t, Ticket)]",
        "if isinstance(ticket, (Card, Ticket)):",
        'const view = s.layout === "ticket" ? ticketView(s) : cardView(s);',
        '(d.layout === "ticket" ? drawTicket : draw)(d.verdict);',
        "{% if follow.layout == 'card' %}",
        "{% if decks | selectattr('kind', 'equalto', 'strips') | list %}",
        "{% if games | selectattr('balls', 'equalto', 90) | list %}",
        "{% if d.kind == 'strips' %}",
        "if game.is_ninety:",
        '        "layout": "card",  # the variant\'s layout, named by hand',
        '    layout = "ticket"',
        "    ALTER TABLE games ADD COLUMN balls INTEGER CHECK (balls IN (75, 90, 80));",
    ],
)
def test_the_guard_finds_each_form_of_a_branch_on_the_variant(line):
    found = _branches_on_the_variant(ROOT / "bingo_hall" / "x.py", line)
    assert found == [f"{Path('bingo_hall', 'x.py')}:1: {line.strip()}"]


@pytest.mark.parametrize(
    "line",
    [
        "return variant_for(balls).call_label(ball)",
        "const view = VIEWS[s.layout](s, w, target);",
        "{{ counted[d.layout] }}",
        "if len(called) == count:",
        "balls: int = 75",
    ],
)
def test_the_guard_passes_asking_the_variant(line):
    assert _branches_on_the_variant(ROOT / "bingo_hall" / "x.py", line) == []


def test_only_the_variants_module_branches_on_the_variant():
    """Issues 25 and 34: routes, printing, the manifest, the CLI, the station's templates and
    scripts ask the variant; files named variants.py (the adapters' tables) included."""
    found = []
    for path in sorted((ROOT / "bingo_hall").rglob("*")):
        if not path.is_file() or path.suffix not in (".py", ".html", ".js") or path == _SEAM:
            continue
        found += _branches_on_the_variant(path, path.read_text(encoding="utf-8"))
    assert found == []


def test_only_bingo_normal_may_be_played_for_a_pattern_and_each_plan_names_its_figure():
    by_mode = {plan.mode: plan for plan in (*CARDS.plans, *STRIPS.plans)}
    assert [m for m, plan in by_mode.items() if plan.plays_patterns] == ["normal"]
    assert by_mode["normal"].figure == "lines" and by_mode["points"].figure == "points"
