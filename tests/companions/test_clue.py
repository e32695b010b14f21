"""Clue notebook deductions (`clue.es.txt`, docs/rules.md §3), with answers worked by hand."""

from __future__ import annotations

import pytest

from companions.clue import (
    CARDS,
    ENVELOPE,
    ROOMS,
    SUSPECTS,
    WEAPONS,
    Contradiction,
    Notebook,
    Suggestion,
    deal_sizes,
)
from companions.errors import EntryError

THREE = ["Ana", "Beto", "Caro"]
FOUR = ["Ana", "Beto", "Caro", "Dani"]


def test_cards_follow_the_seeds_glossary_in_both_languages():
    assert (len(SUSPECTS), len(WEAPONS), len(ROOMS)) == (6, 6, 9)
    labels = {c.id: (c.es, c.en) for c in CARDS}
    assert labels["green"] == ("Sr. Verde", "Mr. Green")
    assert labels["peacock"] == ("Sra. Pavorreal", "Mrs. Peacock")
    assert labels["candlestick"] == ("Candelero", "Candlestick")
    assert labels["lounge"] == ("Sala de holganza", "Lounge")
    assert labels["hall"] == ("Antecámara", "Hall")
    assert [c.en for c in WEAPONS] == [
        "Candlestick",
        "Knife",
        "Lead pipe",
        "Revolver",
        "Rope",
        "Wrench",
    ]


def test_eighteen_cards_dealt_one_by_one_give_uneven_hands():
    assert deal_sizes(3) == (6, 6, 6)
    assert deal_sizes(4) == (5, 5, 4, 4)
    assert deal_sizes(5) == (4, 4, 4, 3, 3)
    assert deal_sizes(6) == (3, 3, 3, 3, 3, 3)


def test_with_no_events_every_deal_that_fits_my_hand_counts():
    # Ana holds 1 suspect, 1 weapon, 3 rooms: the envelope has 5*5*6 choices and the other 13
    # cards split 5/4/4 among Beto, Caro and Dani: 13!/(5!4!4!) = 90090 ways.
    nb = Notebook(FOUR, "Ana", ["green", "knife", "hall", "lounge", "study"])
    assert nb.deals() == 5 * 5 * 6 * 90090
    p = nb.probabilities()
    assert p["green"]["Ana"] == 1
    assert p["plum"][ENVELOPE] == pytest.approx(1 / 5)
    # a room not mine: envelope 1/6, else one of the 13 free places: Beto holds 5 of them
    assert p["kitchen"][ENVELOPE] * 6 == 1
    assert p["kitchen"]["Beto"] * 13 * 6 == 5 * 5


def full_game() -> Notebook:
    """The story in the docstring of test_a_full_game_makes_the_envelope_certain."""
    nb = Notebook(
        THREE, "Ana", ["green", "mustard", "candlestick", "knife", "ballroom", "billiard_room"]
    )
    nb.suggest("Ana", "peacock", "lead_pipe", "conservatory", shown_by="Beto", card="peacock")  # 1
    nb.suggest("Beto", "scarlet", "revolver", "dining_room")  # 2: nobody refutes
    nb.suggest("Caro", "white", "wrench", "hall")  # 3: nobody refutes
    nb.suggest("Ana", "scarlet", "wrench", "study", shown_by="Beto", card="scarlet")  # 4
    nb.suggest("Ana", "white", "knife", "ballroom", shown_by="Caro", card="white")  # 5
    return nb


def test_a_full_game_makes_the_envelope_certain():
    """Ana holds green, mustard, candlestick, knife, ballroom, billiard room.

    After 5 the suspects green, mustard (mine), peacock, scarlet (Beto), white (Caro) are
    placed, so plum is in the envelope. 6 puts the lead pipe with Beto; 7 nobody refutes plum,
    rope, billiard room, so the rope (not mine) is in the envelope, and then 2 puts the revolver
    with Beto and 3 the wrench with Caro. Beto's hand then is peacock, scarlet, lead pipe,
    revolver + 2, Caro's is white, wrench + 4: all rooms. 8 and 11 fill Beto's hand with
    conservatory and lounge, so by 2 the dining room is in the envelope, and by 3 the hall is
    Caro's; Caro's four rooms are then hall, kitchen, library and study.
    """
    nb = full_game()
    assert nb.envelope() == {"suspect": "plum", "weapon": None, "room": None}
    nb.suggest("Ana", "plum", "lead_pipe", "billiard_room", shown_by="Beto", card="lead_pipe")  # 6
    assert nb.envelope()["weapon"] is None
    nb.suggest("Ana", "plum", "rope", "billiard_room")  # 7: nobody refutes
    assert nb.envelope() == {"suspect": "plum", "weapon": "rope", "room": None}
    assert nb.status("revolver").to_json()["holder"] == "Beto"
    assert nb.status("wrench").to_json()["holder"] == "Caro"
    nb.suggest("Ana", "plum", "rope", "conservatory", shown_by="Beto", card="conservatory")  # 8
    nb.suggest("Ana", "plum", "rope", "kitchen", shown_by="Caro", card="kitchen")  # 9
    nb.suggest("Ana", "plum", "rope", "library", shown_by="Caro", card="library")  # 10
    assert nb.envelope()["room"] is None
    nb.suggest("Ana", "plum", "rope", "lounge", shown_by="Beto", card="lounge")  # 11
    assert nb.envelope() == {"suspect": "plum", "weapon": "rope", "room": "dining_room"}
    assert nb.status("hall").to_json() == {"holder": "Caro", "excluded": ["Ana", "Beto", ENVELOPE]}
    assert nb.status("study").to_json()["holder"] == "Caro"
    assert nb.deals() == 1
    chain = nb.why("dining_room", ENVELOPE)
    assert {2, 8, 11} <= set(chain)  # Beto's suggestion and the two rooms that fill his hand


def test_no_refutation_leaves_each_card_with_the_suggester_or_in_the_envelope():
    nb = full_game()
    for card in ("scarlet", "revolver", "dining_room"):  # Beto's unrefuted suggestion (#2)
        assert {"Ana", "Caro"} <= set(nb.status(card).to_json()["excluded"])
    assert nb.why("revolver", "Caro") == [2]


def test_a_pass_means_the_player_lacks_all_three():
    nb = Notebook(FOUR, "Ana", ["green", "mustard", "candlestick", "knife", "ballroom"])
    n = nb.suggest("Ana", "plum", "rope", "hall", shown_by="Dani")  # Beto and Caro passed
    for card in ("plum", "rope", "hall"):
        assert {"Ana", "Beto", "Caro"} <= set(nb.status(card).to_json()["excluded"])
        assert nb.why(card, "Caro") == [n]
    event = nb.events[0]
    assert isinstance(event, Suggestion) and event.passed == ("Beto", "Caro")


def hand_size_game(sizes=None) -> Notebook:
    """Dani (4 cards) shows me 3 cards (I name my own cards beside them, as the seed advises),
    then shows others one card of {white, wrench, hall} and one of {white, rope, kitchen}: her
    one free slot must hold a card in both sets."""
    nb = Notebook(FOUR, "Ana", ["green", "mustard", "candlestick", "knife", "ballroom"], sizes)
    nb.suggest("Ana", "peacock", "candlestick", "ballroom", shown_by="Dani", card="peacock")
    nb.suggest("Ana", "green", "revolver", "ballroom", shown_by="Dani", card="revolver")
    nb.suggest("Ana", "green", "knife", "dining_room", shown_by="Dani", card="dining_room")
    nb.suggest("Beto", "white", "wrench", "hall", shown_by="Dani")
    nb.suggest("Caro", "white", "rope", "kitchen", shown_by="Dani")
    return nb


def test_only_the_hand_size_argument_puts_white_with_dani():
    nb = hand_size_game()
    assert nb.status("white").to_json()["holder"] == "Dani"
    assert nb.why("white", "Dani") == [1, 2, 3, 4, 5]
    for card in ("wrench", "hall", "rope", "kitchen"):
        assert "Dani" in nb.status(card).to_json()["excluded"]
    # the same events with a fifth card for Dani prove nothing about white
    assert nb.status("white").to_json()["holder"] == "Dani"
    loose = hand_size_game(sizes=[5, 4, 4, 5])
    assert loose.status("white").to_json()["holder"] == "unknown"


def test_a_typo_is_reported_as_a_contradiction_naming_the_events():
    nb = hand_size_game()
    with pytest.raises(Contradiction) as caught:
        nb.suggest("Caro", "peacock", "rope", "hall", shown_by="Beto")  # Dani passed: but see #1
    assert caught.value.events == (1, 6)
    assert "#1, #6" in str(caught.value)
    assert len(nb.events) == 5  # never silently accepted


def test_an_event_that_clashes_with_my_own_hand_names_only_that_event():
    nb = hand_size_game()
    with pytest.raises(Contradiction) as caught:  # nobody refutes, yet I hold the candlestick
        nb.suggest("Beto", "plum", "candlestick", "hall")
    assert caught.value.events == (6,)
    assert "your cards and the hand sizes" in str(caught.value)


def test_an_edit_that_contradicts_is_refused_and_the_old_event_kept():
    nb = hand_size_game()
    old = nb.events[3]
    bad = nb.make_suggestion(
        "Beto", "peacock", "wrench", "hall"
    )  # nobody refutes: Dani lacks peacock
    with pytest.raises(Contradiction) as caught:
        nb.edit(4, bad)
    assert caught.value.events == (1, 4)
    assert nb.events[3] == old
    nb.undo(5)
    assert nb.status("white").to_json()["holder"] == "unknown"  # the hand-size chain lost a link


def test_a_failed_accusation_rules_out_exactly_that_triple():
    nb = full_game()  # plum is in the envelope (see the full game)
    nb.suggest("Ana", "plum", "rope", "billiard_room")  # rope in the envelope too
    assert nb.status("kitchen").to_json()["holder"] == "unknown"
    assert ENVELOPE not in nb.status("kitchen").to_json()["excluded"]
    n = nb.failed_accusation("Caro", "plum", "rope", "kitchen")
    assert ENVELOPE in nb.status("kitchen").to_json()["excluded"]
    assert n in nb.why("kitchen", ENVELOPE)
    with pytest.raises(EntryError, match="already made an accusation"):
        nb.failed_accusation("Caro", "plum", "rope", "lounge")
    with pytest.raises(EntryError, match="takes no more turns"):
        nb.suggest("Caro", "plum", "rope", "lounge")
    nb.suggest(
        "Ana", "plum", "rope", "lounge", shown_by="Caro", card="lounge"
    )  # Caro still refutes
    assert nb.status("lounge").to_json()["holder"] == "Caro"


def test_a_card_seen_by_accident_is_a_holding():
    nb = Notebook(FOUR, "Ana", ["green", "mustard", "candlestick", "knife", "ballroom"])
    n = nb.seen("Caro", "rope")
    assert nb.status("rope").to_json() == {
        "holder": "Caro",
        "excluded": ["Ana", "Beto", "Dani", ENVELOPE],
    }
    assert nb.why("rope", "Caro") == [n]
    assert nb.why("rope", "Dani") == [n]
    assert nb.why("green", "Ana") == []  # my own hand needs no event


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda nb: nb.suggest("Zoe", "plum", "rope", "hall"), "Unknown player"),
        (lambda nb: nb.suggest("Ana", "rope", "plum", "hall"), "Choose a suspect"),
        (
            lambda nb: nb.suggest("Ana", "plum", "rope", "hall", shown_by="Caro", card="knife"),
            "one of the three",
        ),
        (
            lambda nb: nb.suggest("Beto", "plum", "rope", "hall", shown_by="Caro", card="rope"),
            "Only the suggester",
        ),
        (
            lambda nb: nb.suggest("Ana", "plum", "rope", "hall", passed=["Dani"], shown_by="Caro"),
            "not asked",
        ),
        (lambda nb: nb.suggest("Ana", "plum", "rope", "hall", shown_by="Ana"), "own suggestion"),
        (lambda nb: nb.undo(3), "no event #3"),
    ],
)
def test_bad_entries_are_refused_with_a_readable_message(call, message):
    nb = Notebook(FOUR, "Ana", ["green", "mustard", "candlestick", "knife", "ballroom"])
    with pytest.raises(EntryError, match=message):
        call(nb)
    assert nb.events == []


def test_bad_setups_are_refused():
    with pytest.raises(EntryError, match="add up to 18"):
        Notebook(FOUR, "Ana", [c.id for c in CARDS[:5]], hand_sizes=[5, 5, 5, 5])
    with pytest.raises(EntryError, match="You hold 5 cards"):
        Notebook(FOUR, "Ana", ["green", "mustard"])
    with pytest.raises(EntryError, match="3 to 6 players"):
        Notebook(["Ana", "Beto"], "Ana", ["green"] * 9)
    with pytest.raises(EntryError, match="different name"):
        Notebook(["Ana", "Ana", "Caro"], "Ana", [c.id for c in CARDS[:6]])
    # all six suspects in my hand leave none for the envelope
    with pytest.raises(EntryError, match="do not fit"):
        Notebook(THREE, "Ana", [c.id for c in SUSPECTS])
