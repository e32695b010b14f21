"""200 halls play one linked game: each sells random cards of its own deck, calls the committed
order and sends the result of its first valid claim, made and signed by the real code. Among
them are the faults a tally meets: forged signatures, a wrong call count, a key no hall
registered, a claim before the card completes (and one after it did), two halls tied, late
results, a hall that sends nothing, two different results from one hall, a book head signed by
another key, a result of another game. The tally must award
exactly what this test's brute force gives over the same halls, and refuse each bad result with
its reason in one line.

The brute force knows nothing of the kit's judging: a card completes its full house on the first
call by which every number printed on it has been called (the order is the fairness document's,
re-derived by the test), and the prizes are split to the cent with the odd cents to the halls
listed first."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import pytest
from station.helpers import order_from_document

from bingo_hall.audit import StationKey
from bingo_hall.linked.game import LinkedGame
from bingo_hall.linked.keys import Signer
from bingo_hall.linked.result import HallResult, make_result
from bingo_hall.linked.tally import State, Submission, read_tally, tally, verify_tally
from bingo_hall.manifest import new_deck, new_strip_deck
from linked.hall import after_the_window, during, organise, signed_head, station_keys

HALLS = 200
REGIONS = ["North", "Midlands", "South", "Wales", "Scotland"]


def full_house_at(numbers: frozenset[int], order: list[int]) -> int:
    """The brute force: the first call by which every printed number has been called."""
    return max(order.index(n) for n in numbers) + 1


@dataclass
class Hall:
    """A simulated hall: what it sold, what it sends, and what the test expects of it."""

    index: int
    key: StationKey
    expect: State
    count: int | None = None
    reason: str | None = None  # the words its refusal must hold


@dataclass
class Night:
    org: Any
    halls: list[Hall]
    submissions: list[Submission]
    stray: list[tuple[str, str]]  # (source, words) of refused files that name no hall


def _make_result(
    game: LinkedGame, hall: Hall, order: list[int], calls: int, at: datetime, deck: Any, ticket: Any
) -> HallResult:
    return make_result(
        game,
        f"Hall {hall.index + 1}",
        Signer.of_station(hall.key),
        signed_head(hall.key),
        order[:calls],
        at,
        None if ticket is None else deck.deck_id,
        ticket,
    )


def play(balls: int, seed: int) -> Night:
    rng = random.Random(seed)
    keys = station_keys(HALLS)
    org = organise(keys, REGIONS, balls=balls)
    game = org.game
    order = order_from_document(org.seed, "", balls)
    make = new_deck if balls == 75 else new_strip_deck
    decks = [make(300 if balls == 75 else 50, seed=f"hall-deck-{i}") for i in range(4)]
    halls = [Hall(i, k, State.WON) for i, k in enumerate(keys)]
    subs: list[Submission] = []
    stray: list[tuple[str, str]] = []
    done = {(d.deck_id, c.serial): full_house_at(c.numbers, order) for d in decks for c in d.cards}
    # the card that completes earliest in any deck: two halls of one region (4 and 9) sell it,
    # and only they hold a card that completes so early
    best_deck, best = min(
        ((d, c) for d in decks for c in d.cards), key=lambda dc: done[dc[0].deck_id, dc[1].serial]
    )
    first = done[best_deck.deck_id, best.serial]
    tied = {3, 3 + len(REGIONS)}
    later = {d.deck_id: [c for c in d.cards if done[d.deck_id, c.serial] > first] for d in decks}
    faults = [
        "forged",
        "count",
        "early",
        "late",
        "missing",
        "twice",
        "no-winner",
        "head",
        "sleeper",
    ]
    faulty = {i: faults[(i // 7) % len(faults)] for i in range(20, HALLS, 7)}
    for hall in halls:
        # the tied halls sell the earliest card and others of its own deck (cards of another
        # deck would be judged by the serials of this one)
        deck = best_deck if hall.index in tied else decks[hall.index % len(decks)]
        sold = rng.sample(later[deck.deck_id], rng.randint(10, 60))
        if hall.index in tied:
            sold = [*sold[:5], best]
        winner = min(sold, key=lambda c: done[deck.deck_id, c.serial])
        at = done[deck.deck_id, winner.serial]
        when = during(rng.randint(10, 80))
        fault = faulty.get(hall.index)
        source = f"hall-{hall.index + 1:03}.json"
        good = _make_result(game, hall, order, at, when, deck, winner)
        if fault is None:
            hall.count = at
            subs.append(Submission(source, good.text()))
        elif fault == "forged":  # a lower count written into a signed result
            data = json.loads(good.text())
            data["count"], data["calls"] = at - 10, data["calls"][: at - 10]
            subs.append(Submission(source, json.dumps(data)))
            hall.expect, hall.reason = State.REFUSED, "signature does not hold"
        elif fault == "count":  # signed, but the count is not the number of calls it lists
            wrong = replace(good, count=at - 2).signed(Signer.of_station(hall.key))
            subs.append(Submission(source, wrong.text()))
            hall.expect, hall.reason = State.REFUSED, f"claims at call {at - 2} but lists {at}"
        elif fault == "early":  # the claim made three calls before the card completes
            early = _make_result(game, hall, order, at - 3, when, deck, winner)
            subs.append(Submission(source, early.text()))
            hall.expect, hall.reason = State.REFUSED, f"does not hold the {game.pattern} at call"
        elif fault == "sleeper":  # claimed two calls after the card completed
            slept = _make_result(game, hall, order, at + 2, when, deck, winner)
            subs.append(Submission(source, slept.text()))
            hall.expect = State.REFUSED
            hall.reason = f"held the {game.pattern} at call {at}, before the claim at call {at + 2}"
        elif fault == "late":
            late = _make_result(game, hall, order, at, after_the_window(), deck, winner)
            subs.append(Submission(source, late.text()))
            hall.expect, hall.count = State.LATE, at
        elif fault == "missing":
            hall.expect = State.MISSING
        elif fault == "twice":  # the hall's result, then a better one on a card it did not sell
            other = _make_result(game, hall, order, at, when, deck, winner)
            other = replace(other, at=good.at[:-3] + "59Z").signed(Signer.of_station(hall.key))
            subs += [Submission(source, good.text()), Submission("again-" + source, other.text())]
            hall.expect, hall.reason = State.REFUSED, "different results"
        elif fault == "no-winner":  # the window closed before any card of the hall completed
            closed = _make_result(game, hall, order, at - 1, when, deck, None)
            subs.append(Submission(source, closed.text()))
            hall.expect = State.NO_WINNER
        elif fault == "head":  # the book's head signed by another station
            other_head = replace(good, book=signed_head(StationKey.new()))
            subs.append(Submission(source, other_head.signed(Signer.of_station(hall.key)).text()))
            hall.expect, hall.reason = State.REFUSED, "book's head is not signed"
    # a forged copy in hall 1's name beside its real result: the real one stands
    data = json.loads(subs[0].text)
    data["count"], data["calls"] = 1, data["calls"][:1]
    subs.append(Submission("zz-forged-hall-1.json", json.dumps(data)))
    # a key no hall registered, and a result of another game
    outsider = Hall(-1, StationKey.new(), State.REFUSED)
    deck = decks[0]
    lowest = min(deck.cards, key=lambda c: full_house_at(c.numbers, order))
    at = full_house_at(lowest.numbers, order)
    subs.append(
        Submission(
            "outsider.json",
            _make_result(game, outsider, order, at, during(5), deck, lowest).text(),
        )
    )
    stray.append(("outsider.json", "which no hall of this game registered"))
    elsewhere = organise(keys[:1], REGIONS, balls=balls)
    subs.append(
        Submission(
            "other-game.json",
            _make_result(elsewhere.game, halls[0], order, at, during(5), deck, lowest).text(),
        )
    )
    stray.append(("other-game.json", "a result of another game"))
    rng.shuffle(subs)
    return Night(org, halls, subs, stray)


def brute_force_awards(night: Night) -> list[tuple[str, str | None, int, list[str], list[int]]]:
    """(tier, region, count, winners, shares) from the test's own view of each hall."""
    tiers = night.org.game.tiers
    won = [h for h in night.halls if h.expect == State.WON]

    def lowest(tier: str, region: str | None, among: list[Hall], cents: int):
        if not among:
            return None
        low = min(h.count for h in among)
        names = [f"Hall {h.index + 1}" for h in among if h.count == low]
        shares = [
            cents // len(names) + (1 if i < cents % len(names) else 0) for i in range(len(names))
        ]
        return (tier, region, low, names, shares)

    out = [lowest("national", None, won, tiers.national)]
    out += [
        lowest(
            "regional", r, [h for h in won if REGIONS[h.index % len(REGIONS)] == r], tiers.regional
        )
        for r in REGIONS
    ]
    return [a for a in out if a is not None]


@pytest.mark.parametrize(("balls", "seed"), [(75, 1), (90, 2)])
def test_the_tally_of_200_halls_awards_exactly_what_a_brute_force_gives(balls, seed):
    night = play(balls, seed)
    made = tally(night.org.game, night.org.code, night.submissions, during(200), night.org.key)
    got = [(str(a.tier), a.region, a.count, list(a.winners), list(a.shares)) for a in made.awards]
    assert got == brute_force_awards(night)
    national = made.awards[0]
    assert national.winners == ("Hall 4", "Hall 9")  # the two halls tied on the lowest count
    assert sum(national.shares) == night.org.game.tiers.national


@pytest.mark.parametrize(("balls", "seed"), [(75, 3), (90, 4)])
def test_each_hall_has_its_state_and_each_refused_result_its_reason_in_one_line(balls, seed):
    night = play(balls, seed)
    made = tally(night.org.game, night.org.code, night.submissions, during(200), night.org.key)
    states = {s.hall.name: s for s in made.standings}
    for hall in night.halls:
        s = states[f"Hall {hall.index + 1}"]
        assert s.state == hall.expect, (hall.index, s)
        if hall.expect in (State.WON, State.LATE):
            assert s.count == hall.count
        if hall.reason is not None:
            assert hall.reason in (s.reason or ""), (hall.index, s.reason)
    assert states["Hall 1"].state == State.WON  # the forged copy did not unseat it
    for source, words in night.stray:
        (refused,) = [r for r in made.refused if r.source == source]
        assert words in refused.reason and refused.hall is None
    for r in made.refused:
        assert "\n" not in r.line() and r.line().startswith(f"{r.source}: refused: ")
    kinds = {h.expect for h in night.halls}
    assert kinds == {State.WON, State.REFUSED, State.LATE, State.MISSING, State.NO_WINNER}


def test_any_hall_verifies_the_200_hall_tally_against_the_results():
    night = play(90, 5)
    made = tally(night.org.game, night.org.code, night.submissions, during(200), night.org.key)
    found = read_tally(made.text())
    assert verify_tally(night.org.game, found, night.submissions) == []
    # without one hall's result, its state no longer follows from the results
    mine = next(h for h in night.halls[1:] if h.expect == State.WON)
    fewer = [s for s in night.submissions if s.source != f"hall-{mine.index + 1:03}.json"]
    said = verify_tally(night.org.game, found, fewer)
    assert said == [
        f"Hall {mine.index + 1}: the results give missing, the tally says won at call {mine.count}"
    ]
