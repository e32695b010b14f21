"""The odds of a prize (issue 37 item 2): the estimate for a hall of 300 cards, target <= 1 s.

For 300 cards of a 75-ball deck (FREE centre), `odds.estimate` with its default number of nights,
for one line and for the full house (the needs are built first and not timed: the station
builds them once per sale), and for 300 90-ball tickets' full house. Median of three runs each,
with the machine's calibration figure (benchmarks/calibrate.py) beside them.

Run: .venv/bin/python benchmarks/odds.py [--smoke]
"""

from __future__ import annotations

import statistics
import time

from _smoke import smoke_only
from calibrate import python_loop_ms

from bingo_hall.ninety.strips import generate_strips
from bingo_hall.odds import DEFAULT_NIGHTS, estimate
from bingo_hall.seventyfive.deck import generate_deck
from bingo_hall.seventyfive.patterns import FULL_CARD
from bingo_hall.variants import CARDS, STRIPS


def median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    smoke = smoke_only(__doc__)
    n = 20 if smoke else 300
    nights = 200 if smoke else DEFAULT_NIGHTS
    runs = 1 if smoke else 3
    cards = generate_deck(n, seed=b"odds benchmark", free_centre=True)
    plan = CARDS.plan("normal")
    tickets = [t for s in generate_strips(n // 6, seed=b"odds benchmark") for t in s.tickets]
    plan90 = STRIPS.plan("linea-bingo")
    cases = {
        "75 balls, one line": ([CARDS.needs(c, plan, "bingo", None, True) for c in cards], 75),
        "75 balls, full house": (
            [CARDS.needs(c, plan, "bingo", FULL_CARD, True) for c in cards],
            75,
        ),
        "90 balls, full house": (
            [STRIPS.needs(t, plan90, "bingo", None, False) for t in tickets],
            90,
        ),
    }
    print(f"calibration: python loop {python_loop_ms():.0f} ms (benchmarks/calibrate.py)")
    for name, (needs, balls) in cases.items():
        last = estimate(needs, balls, nights=nights, seed=1)
        took = median_time(
            lambda needs=needs, balls=balls: estimate(needs, balls, nights=nights), runs
        )
        print(
            f"{name}: {len(needs)} cards, {nights} nights: median {took:.3f} s of {runs} "
            f"(first win expected near call {last.expected_call:.1f})"
        )


if __name__ == "__main__":
    main()
