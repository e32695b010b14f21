"""The room is told the pattern played and, at the award, the form the card completed, in the
hall's language: the words the display shows and its voice says (station/spoken.py)."""

from __future__ import annotations

from bingo_hall.seventyfive.claims import NORMAL, Rules, judge
from bingo_hall.seventyfive.deck import generate_deck
from bingo_hall.seventyfive.patterns import BUILT_IN
from bingo_hall.station.spoken import spoken_pattern, spoken_pattern_won, spoken_pattern_won_both


def test_the_pattern_played_is_announced_by_its_name_in_each_language():
    assert spoken_pattern("crazy_kite", "es") == "Se juega por la figura: Cometa loca"
    assert spoken_pattern("crazy_kite", "en") == "Playing for the pattern: Crazy kite"


def test_a_programs_own_pattern_is_announced_by_the_name_the_program_gives_it():
    names = {"top_and_bottom": {"en": "Top and bottom", "es": "Arriba y abajo"}}
    assert spoken_pattern("top_and_bottom", "es", names) == "Se juega por la figura: Arriba y abajo"


def test_the_award_names_the_form_the_winning_card_completed():
    card = generate_deck(1, seed="spoken form", free_centre=True)[0]
    top_right = [(0, 3), (0, 4), (1, 3), (1, 4)]
    calls = [card.number_at(r, c) for r, c in top_right]
    (won,) = judge(card, calls, Rules(mode=NORMAL, pattern=BUILT_IN["postage_stamp"])).winning
    form = won.to_json()["form_name"]
    assert spoken_pattern_won_both("postage_stamp", form) == {
        "es": "¡Bingo! Estampilla (en cualquier esquina), esquina superior derecha",
        "en": "Bingo! Postage stamp (any corner), top right corner",
    }


def test_a_pattern_of_one_form_is_announced_by_its_name_alone():
    assert spoken_pattern_won("kite", None, "es") == "¡Bingo! Cometa"
