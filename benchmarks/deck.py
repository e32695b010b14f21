"""Wall time of generate_deck for n = 100, 1000, 3003 (and 1365 FREE). Median of 7 runs.

Run: .venv/bin/python benchmarks/deck.py [--smoke]
"""

import statistics
import time

from _smoke import smoke_only

from bingo_hall.seventyfive.deck import generate_deck


def median_time(n: int, free: bool, runs: int = 7) -> float:
    times = []
    for i in range(runs):
        t = time.perf_counter()
        generate_deck(n, seed=f"bench{i}", free_centre=free)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


if __name__ == "__main__":
    smoke = smoke_only(__doc__)
    sizes = [(100, False)] if smoke else [(100, False), (1000, False), (3003, False), (1365, True)]
    for n, free in sizes:
        t = median_time(n, free, runs=1 if smoke else 7)
        label = f"n={n}{' FREE' if free else ''}"
        print(f"{label:12s} median {t * 1000:7.1f} ms   {n / t:9.0f} cards/s")
