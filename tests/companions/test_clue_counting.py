"""Exact probabilities and completeness of the Clue notebook, checked by independent means:
brute-force enumeration of deals, and the SAT solver against the deal counter."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import combinations, product

import pytest

from companions.clue import CARDS, ENVELOPE, ROOMS, SUSPECTS, WEAPONS, Notebook

MINE = ["green", "mustard", "candlestick", "knife", "ballroom", "billiard_room"]


def brute_force(checks) -> tuple[int, dict[tuple[str, str], int]]:
    """Every deal of the 15 cards that are not Ana's: one envelope card per category, then 6
    for Beto and 6 for Caro; keep those that pass every check(envelope, beto, caro)."""
    total, cells = 0, {}
    free = [c.id for c in CARDS if c.id not in MINE]
    for env in product(
        *[[c.id for c in group if c.id not in MINE] for group in (SUSPECTS, WEAPONS, ROOMS)]
    ):
        rest = [c for c in free if c not in env]
        for beto in combinations(rest, 6):
            beto = set(beto)
            caro = set(rest) - beto
            env_set = set(env)
            if all(check(env_set, beto, caro) for check in checks):
                total += 1
                for place, cards in (("Beto", beto), ("Caro", caro), (ENVELOPE, env_set)):
                    for card in cards:
                        cells[(card, place)] = cells.get((card, place), 0) + 1
    return total, cells


def test_exact_probabilities_match_brute_force_enumeration():
    nb = Notebook(["Ana", "Beto", "Caro"], "Ana", MINE)
    # Beto suggests; Caro shows him a card I do not see: Caro holds at least one of the three
    nb.suggest("Beto", "plum", "rope", "hall", shown_by="Caro")
    # I suggest; Beto passes (none of the three), Caro shows me the wrench
    nb.suggest("Ana", "white", "wrench", "kitchen", shown_by="Caro", card="wrench")
    # Caro suggests; Ana passes, Beto shows Caro something
    nb.suggest("Caro", "scarlet", "lead_pipe", "study", shown_by="Beto")
    nb.failed_accusation("Beto", "plum", "rope", "library")
    checks = [
        lambda env, beto, caro: bool({"plum", "rope", "hall"} & caro),
        lambda env, beto, caro: not {"white", "wrench", "kitchen"} & beto and "wrench" in caro,
        lambda env, beto, caro: bool({"scarlet", "lead_pipe", "study"} & beto),
        lambda env, beto, caro: env != {"plum", "rope", "library"},
    ]
    total, cells = brute_force(checks)
    assert nb.deals() == total
    probs = nb.probabilities()
    for card in (c.id for c in CARDS if c.id not in MINE):
        for place in ("Beto", "Caro", ENVELOPE):
            assert probs[card][place] == Fraction(cells.get((card, place), 0), total), (card, place)
        assert probs[card]["Ana"] == 0


def simulated_notes(seed: int, n_players: int, suggestions: int) -> Notebook:
    """A truthful game from a random deal, noted by the first player."""
    return simulated_game(seed, n_players, suggestions)[0]


def simulated_game(seed: int, n_players: int, suggestions: int) -> tuple[Notebook, dict]:
    """The notes of a truthful game, and where each card really is."""
    rnd = random.Random(seed)
    players = ["P1", "P2", "P3", "P4", "P5", "P6"][:n_players]
    env = {rnd.choice(SUSPECTS).id, rnd.choice(WEAPONS).id, rnd.choice(ROOMS).id}
    rest = [c.id for c in CARDS if c.id not in env]
    rnd.shuffle(rest)
    hands = {p: set(rest[k::n_players]) for k, p in enumerate(players)}
    nb = Notebook(players, "P1", sorted(hands["P1"]))
    for turn in range(suggestions):
        who = players[turn % n_players]
        three = [rnd.choice(SUSPECTS).id, rnd.choice(WEAPONS).id, rnd.choice(ROOMS).id]
        k = players.index(who)
        shown_by = next((p for p in players[k + 1 :] + players[:k] if hands[p] & set(three)), None)
        card = None
        if shown_by and "P1" in (who, shown_by):
            card = rnd.choice(sorted(hands[shown_by] & set(three)))
        nb.suggest(who, *three, shown_by=shown_by, card=card)
    truth = {card: p for p, hand in hands.items() for card in hand} | dict.fromkeys(env, ENVELOPE)
    return nb, truth


@pytest.mark.slow
@pytest.mark.cpu
def test_the_real_deal_always_fits_and_every_mark_is_true():
    """Soundness on truthful games: nothing marked contradicts the real deal, and the real
    place of every card keeps a positive chance."""
    for seed in range(6):
        nb, truth = simulated_game(seed, 3 + seed % 4, 6 + 3 * seed)
        probs = nb.probabilities()
        for card in CARDS:
            status = nb.status(card.id).to_json()
            assert status["holder"] in ("unknown", truth[card.id])
            assert truth[card.id] not in status["excluded"]
            assert probs[card.id][truth[card.id]] > 0


@pytest.mark.slow
@pytest.mark.cpu
def test_the_deal_counter_marks_exactly_what_the_sat_solver_proves():
    """Completeness, two ways: a cell is certain in the count iff the SAT solver cannot find a
    deal with it the other way round."""
    for seed, n_players, suggestions in [(1, 3, 8), (3, 5, 12), (5, 6, 20)]:
        nb = simulated_notes(seed, n_players, suggestions)
        assert nb.known() == nb._problem().known_by_sat(), seed


def test_every_probability_row_sums_to_one_and_the_envelope_to_three():
    nb = simulated_notes(7, 5, 10)
    probs = nb.probabilities()
    for card in CARDS:
        assert sum(probs[card.id].values()) == 1
    assert sum(row[ENVELOPE] for row in probs.values()) == 3


def test_advice_never_values_a_suggestion_nobody_can_answer():
    nb = Notebook(["Ana", "Beto", "Caro"], "Ana", MINE)
    nb.suggest("Ana", "plum", "rope", "hall", shown_by="Beto")
    advice = nb.advice(room="ballroom")
    assert {a.room for a in advice} == {"ballroom"}
    by_triple = {(a.suspect, a.weapon, a.room): a.bits for a in advice}
    assert by_triple[("green", "knife", "ballroom")] == 0  # all three are mine
    assert advice[0].bits > 1
    assert advice == nb.advice(room="ballroom")  # same notes, same advice


def test_advice_scores_a_suggestion_by_what_its_answer_can_tell():
    """With my knife and ballroom beside one unknown card, the answer only says where that card
    is: Beto shows it, Caro shows it, or nobody can (envelope). Its information is then the
    entropy of those three exact chances; a card known to be Beto's tells nothing."""
    nb = Notebook(["Ana", "Beto", "Caro"], "Ana", MINE)
    nb.seen("Beto", "plum")
    nb.suggest("Caro", "scarlet", "rope", "hall", shown_by="Beto")
    advice = {(a.suspect, a.weapon, a.room): a.bits for a in nb.advice(samples=400)}
    assert advice[("plum", "knife", "ballroom")] == 0
    p = nb.probabilities()["scarlet"]
    exact = -sum(x * math.log2(x) for x in map(float, (p["Beto"], p["Caro"], p[ENVELOPE])) if x)
    assert advice[("scarlet", "knife", "ballroom")] == pytest.approx(exact, abs=0.1)
