"""Real Chromium: a phone says how many more squares its card needs for the nearest form of the
game's pattern ("you need 2 more", static/judge.js nearestNeed), and the number is the one a
brute force written here finds: every form of the pattern looked at, each square of it checked
against the calls by hand, the fewest missing kept. Random games over every pattern of the book,
with and without the free centre, with false claims' penalties uncovering squares. The phone
has only what it gets: the card's table and the game's facts (a rule-made pattern as its rule)."""

from __future__ import annotations

import json
import random

import pytest

from bingo_hall.manifest import new_deck
from bingo_hall.seventyfive import claims
from bingo_hall.seventyfive.cards import SIZE
from bingo_hall.seventyfive.patterns import BUILT_IN as PATTERNS
from bingo_hall.station.verify import card_view
from bingo_hall.station.verify.card_pages import draw_table
from bingo_hall.station.verify.variants import claims_of

NEED = """async (cases) => {
  const j = await import("/verify/static/judge.js");
  return cases.map((c) => {
    document.body.innerHTML = c.table;
    const card = j.cardFacts(c.game, j.cardNumbers(document.querySelector("table.vcard")));
    const near = j.nearestNeed(card, c.calls, new Map(c.cleared));
    return near === null ? null : near.need;
  });
}"""


def need_by_hand(card, calls, free_centre, cleared, pattern) -> int:
    """The fewest squares any form lacks: a square is covered when its number was called after
    the penalty that cleared it (if any), or it is the centre, FREE or played free, uncleared."""
    at = {ball: i for i, ball in enumerate(calls)}

    def covered(r: int, c: int) -> bool:
        n = card.columns[c][r]
        i = r * SIZE + c
        if (r, c) == (2, 2) and (n is None or free_centre) and i not in cleared:
            return True
        return n is not None and n in at and at[n] >= cleared.get(i, 0)

    best = None
    for form in pattern.forms:
        missing = 0
        for r, c in form:
            if not covered(r, c):
                missing += 1
        best = missing if best is None else min(best, missing)
    return best


@pytest.mark.browser
def test_the_phone_says_how_many_more_the_nearest_form_needs_as_counted_by_hand(
    app, live_server, page
):
    rng = random.Random(52)
    deck = new_deck(60, seed="need on the phone")
    kind = claims_of(deck.variant)
    cases, expected = [], []
    with app.test_request_context("/?lang=en"):
        for pattern in PATTERNS.values():
            for _ in range(4):
                card = deck.card(rng.randint(1, 60))
                free_centre = rng.random() < 0.5
                r = claims.Rules(mode=claims.NORMAL, free_centre=free_centre, pattern=pattern)
                mine = sorted(card.numbers)
                calls = [n for n in mine if rng.random() < rng.random()]
                calls += rng.sample(sorted(set(range(1, 76)) - card.numbers), rng.randint(0, 15))
                rng.shuffle(calls)
                cleared = {}
                if rng.random() < 0.3:  # a false claim uncovered a few squares
                    for _ in range(rng.randint(1, 4)):
                        cleared[rng.randrange(25)] = rng.randint(0, len(calls))
                game = card_view.game_card_facts(1, 1, r).to_json()
                cases.append(
                    {"table": draw_table(kind, card), "game": game, "calls": calls,
                     "cleared": [*cleared.items()]}
                )  # fmt: skip
                expected.append(need_by_hand(card, calls, free_centre, cleared, pattern))
    page.goto(live_server.url + "/verify/static/judge.js")
    got = page.evaluate(NEED, json.loads(json.dumps(cases)))
    for case, mine, by_hand in zip(cases, got, expected, strict=True):
        assert mine == by_hand, (case["game"]["pattern"], case["calls"], case["cleared"])
    assert 0 in expected and len(set(expected)) > 5  # complete cards and far ones both came up


def test_a_triple_bingo_reaches_the_phone_as_its_rule_not_its_220_forms(app):
    with app.test_request_context("/?lang=en"):
        r = claims.Rules(mode=claims.NORMAL, pattern=PATTERNS["triple_bingo"])
        facts = card_view.game_card_facts(1, 1, r).to_json()
    assert facts["figures"] == []
    assert facts["shape"]["lines"] == 3 and facts["shape"]["count"] == 220
    assert len(json.dumps(facts)) < 3000  # the 12 lines and the rule, not 20 KB of forms
