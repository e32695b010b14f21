"""The game variants (bingo_hall/variants.py): one class per kind of game answers what differs
between them, as data, and the deck file and the prizes ask it instead of testing the number of
balls. A variant the kit does not ship plugs in without a change to the manifest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bingo_hall.cards import Card
from bingo_hall.errors import DeckError, KitError
from bingo_hall.manifest import new_variant_deck, parse_deck
from bingo_hall.prize_rules import SPANISH, TAMBOLA, UK
from bingo_hall.tickets import Ticket
from bingo_hall.variants import (
    CARDS,
    STRIPS,
    VARIANTS,
    Cards75,
    PrizeOrder,
    PrizePlan,
    variant_for,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=lambda v: v.key)
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
    spanish, uk, tambola = STRIPS.plans
    assert (spanish.mode, spanish.prizes) == ("linea-bingo", ("linea", "bingo"))
    assert (uk.mode, uk.prizes) == ("lines-house", ("one-line", "two-lines", "full-house"))
    assert tambola.mode == "tambola" and len(tambola.prizes) == 6
    assert STRIPS.plan(None) == spanish
    assert [p.order for p in STRIPS.plans] == [
        PrizeOrder.SEQUENCE,
        PrizeOrder.SEQUENCE,
        PrizeOrder.OPEN,
    ]
    # one idea, not two copies: each plan carries the prize list that judges its prizes
    assert [p.prize_list for p in STRIPS.plans] == [SPANISH, UK, TAMBOLA]
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
    """A made-up third variant: the 1933 cards called from 76 balls (a spare ball in the cage)."""

    balls = 76
    deck_word = "76-ball deck"


def test_a_third_variant_plugs_into_the_deck_file_without_touching_the_manifest(monkeypatch):
    third = _WideCards()
    monkeypatch.setitem(VARIANTS, third.balls, third)
    deck = new_variant_deck(third, 3, seed="third", name="Tercera")
    text = deck.to_json()
    assert '"game":76' in text
    back = parse_deck(text)
    assert back.game == 76 and back.variant is third and back.cards == deck.cards


def test_only_the_variants_test_the_number_of_balls():
    """Issue 25: routes, printing, the manifest and the CLI ask the variant."""
    pattern = re.compile(r"[=!]=\s*90\b|is_ninety|equalto['\"]?\s*,\s*90\b")
    found = []
    for path in sorted((ROOT / "bingo_hall").rglob("*")):
        if not path.is_file() or path.suffix not in (".py", ".html", ".js"):
            continue
        if path.name == "variants.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
