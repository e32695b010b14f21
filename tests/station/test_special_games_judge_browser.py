"""Real Chromium: a phone marks and judges its card in a wild-number or an odd-even game exactly
as the station's check does (static/judge.js against seventyfive.claims.judge), over random
games, penalties included: the page has only its card's table and the game's facts."""

from __future__ import annotations

import json
import random

import pytest
from claims.test_card_judge_browser import JUDGE_CARDS, _random_penalties

from bingo_hall.manifest import new_deck
from bingo_hall.seventyfive import claims
from bingo_hall.seventyfive.cards import SIZE
from bingo_hall.seventyfive.patterns import BUILT_IN as PATTERNS
from bingo_hall.seventyfive.specials import Parity
from bingo_hall.station.verify import card_view
from bingo_hall.station.verify.card_pages import draw_table
from bingo_hall.station.verify.variants import claims_of


def _special_rules(rng: random.Random) -> claims.Rules:
    odd_even = rng.choice([None, Parity.ODD, Parity.EVEN])
    pattern = None if odd_even else rng.choice([None, PATTERNS["four_corners"], PATTERNS["x"]])
    return claims.Rules(
        free_centre=rng.random() < 0.5,
        completing_call_only=rng.random() < 0.5,
        pattern=pattern,
        wild_number=odd_even is None or rng.random() < 0.5,
        odd_even=odd_even,
    )


@pytest.mark.browser
def test_a_phone_judges_a_wild_number_or_odd_even_card_as_the_stations_check(
    app, live_server, page
):
    rng = random.Random(52)
    deck = new_deck(120, seed="special games on the phone")
    kind = claims_of(deck.variant)
    cases, expected = [], []
    with app.test_request_context("/?lang=en"):
        for card in deck.cards:
            r = _special_rules(rng)
            calls = rng.sample(range(1, 76), rng.randint(0, 60))
            pens = _random_penalties(rng, calls)
            cleared: dict[int, int] = {}
            for p in pens:
                for row, col in p.cells:
                    i = row * SIZE + col
                    cleared[i] = max(cleared.get(i, 0), p.after_call)
            game = card_view.game_card_facts(1, 1, r).to_json()
            cases.append(
                {
                    "table": draw_table(kind, card),
                    "game": game,
                    "calls": calls,
                    "cleared": [*cleared.items()],
                }
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
        assert mine == station, (case["calls"], case["game"], case["cleared"])
    assert any(e["bingo"] for e in expected) and not all(e["bingo"] for e in expected)
