"""Real Chromium: a phone's page marks and judges its own card (static/judge.js, the module card.js
judges with) exactly as the station's check does, over random games. The page has only what a
phone gets: the card's table as the station draws it (its numbers are read from it) and the
game's facts, the same for every card (`#card-state`, card_view.game_card_facts and
game_ticket_facts). The station's side is bingo_hall.seventyfive.claims.judge (75 balls) and
bingo_hall.ninety.prize_rules.judge_rule (90 balls)."""

from __future__ import annotations

import json
import random

import pytest

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.ninety.prize_rules import BUILT_IN, judge_rule
from bingo_hall.seventyfive import claims
from bingo_hall.seventyfive.cards import SIZE
from bingo_hall.seventyfive.patterns import BUILT_IN as PATTERNS
from bingo_hall.seventyfive.patterns import custom_pattern
from bingo_hall.station.verify import card_view
from bingo_hall.station.verify.card_pages import draw_table
from bingo_hall.station.verify.variants import claims_of

#: the page judges each case with the module card.js imports, from the table it is given
JUDGE_CARDS = """async (cases) => {
  const j = await import("/verify/static/judge.js");
  return cases.map((c) => {
    document.body.innerHTML = c.table;
    const card = j.cardFacts(c.game, j.cardNumbers(document.querySelector("table.vcard")));
    const v = j.judgeCard(card, c.calls, new Map(c.cleared));
    return {
      covered: v.covered.flatMap((yes, i) => (yes ? [i] : [])),
      complete: v.complete.map((f) => [f.name, f.total, f.central, f.byLast]),
      winning: v.winning.map((f) => f.name),
      bingo: v.bingo,
    };
  });
}"""

JUDGE_TICKETS = """async (cases) => {
  const j = await import("/verify/static/judge.js");
  return cases.map((c) => {
    document.body.innerHTML = c.table;
    const rows = j.ticketRows(document.querySelector("table.vcard")).map((r) => r.numbers);
    const called = new Set(c.calls);
    const held = Object.entries(c.game.rules).map(([k, r]) => [k, j.holds(r, rows, called)]);
    return Object.fromEntries(held);
  });
}"""


def _random_rules(rng: random.Random) -> claims.Rules:
    pattern = rng.choice(
        [None, None, *PATTERNS.values(), custom_pattern("10101/01010/00100/01010/10101")]
    )
    return claims.Rules(
        mode=claims.NORMAL if pattern is not None else rng.choice([claims.NORMAL, claims.PUNTOS]),
        free_centre=rng.random() < 0.5,
        completing_call_only=rng.random() < 0.5,
        pattern=pattern,
    )


def _random_penalties(rng: random.Random, calls: list[int]) -> tuple[claims.Penalty, ...]:
    """False claims' penalties: a few squares uncovered for the balls called before a count."""

    def cells() -> frozenset[tuple[int, int]]:
        some = {(rng.randrange(SIZE), rng.randrange(SIZE)) for _ in range(rng.randint(1, 5))}
        return frozenset(some | ({(2, 2)} if rng.random() < 0.3 else set()))  # the centre too

    return tuple(
        claims.Penalty("R1", cells(), rng.randint(0, len(calls)))
        for _ in range(rng.choice([0, 0, 1, 2]))
    )


@pytest.mark.browser
def test_a_phone_marks_and_judges_its_card_exactly_as_the_stations_check(app, live_server, page):
    rng = random.Random(51)
    deck = new_deck(150, seed="judged on the phone")
    kind = claims_of(deck.variant)
    cases, expected = [], []
    with app.test_request_context("/?lang=en"):
        for serial in range(1, 151):
            card = deck.card(serial)
            r = _random_rules(rng)
            calls = rng.sample(range(1, 76), rng.randint(0, 75))
            pens = _random_penalties(rng, calls)
            cleared: dict[int, int] = {}  # as the page's snapshot gives them (card_view)
            for p in pens:
                for row, col in p.cells:
                    i = row * SIZE + col
                    cleared[i] = max(cleared.get(i, 0), p.after_call)
            game = card_view.game_card_facts(1, 1, r).to_json()
            table = draw_table(kind, card)
            cases.append(
                {"table": table, "game": game, "calls": calls, "cleared": [*cleared.items()]}
            )
            v = claims.judge(card, calls, r, pens)
            expected.append(
                {
                    "covered": sorted(row * SIZE + col for row, col in v.covered),
                    "complete": [[f.name, f.total, f.central, f.by_last_call] for f in v.complete],
                    "winning": [f.name for f in v.winning],
                    "bingo": v.bingo,
                }
            )
    page.goto(live_server.url + "/verify/static/judge.js")
    got = page.evaluate(JUDGE_CARDS, json.loads(json.dumps(cases)))
    for case, mine, station in zip(cases, got, expected, strict=True):
        assert mine == station, (case["calls"], case["game"]["pattern"], case["cleared"])
    assert any(e["bingo"] for e in expected) and not all(e["bingo"] for e in expected)


@pytest.mark.browser
def test_a_phone_judges_every_prize_of_its_ticket_exactly_as_the_stations_check(
    app, live_server, page
):
    rng = random.Random(90)
    deck = new_strip_deck(10, "judged on the phone")  # 60 tickets
    kind = claims_of(deck.variant)
    cases, expected = [], []
    with app.test_request_context("/?lang=en"):
        for ticket in deck.cards:
            plan = rng.choice(list(BUILT_IN.values()))
            calls = rng.sample(range(1, 91), rng.randint(0, 90))
            game = card_view.game_ticket_facts(1, 1, plan, {}).to_json()
            cases.append({"table": draw_table(kind, ticket), "game": game, "calls": calls})
            expected.append(
                {p.key: judge_rule(p.rule, ticket, set(calls)).holds for p in plan.prizes}
            )
    page.goto(live_server.url + "/verify/static/judge.js")
    got = page.evaluate(JUDGE_TICKETS, json.loads(json.dumps(cases)))
    for case, mine, station in zip(cases, got, expected, strict=True):
        assert mine == station, (case["calls"], case["game"]["mode"])
    held = [h for e in expected for h in e.values()]
    assert any(held) and not all(held)
