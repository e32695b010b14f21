"""Printing the full 3003-card deck, 4 cards per page (classic-4, A4), as issue 3 asks:

* wall time and cards per second with QR codes (the real print),
* the same pages without QR codes (the floor: layout and PDF writing only),
* with QR codes made in this one process only (what the worker pool saves),
* the PDF size, in total and per card.

Target: <= 8 s wall on a 2-core machine and <= 3 KB per card. Median of 3 runs each.

Run: .venv/bin/python benchmarks/print.py [--smoke]
"""

import os
import statistics
import time

from _smoke import smoke_only

from bingo_hall.manifest import new_deck
from bingo_hall.printing import deck_pdf, render_deck_pdf

BASE = "http://192.168.1.100:5000"


def timed(deck, runs: int = 3, **kwargs) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(runs):
        t = time.perf_counter()
        size = len(render_deck_pdf(deck, template="classic-4", base_url=BASE, **kwargs))
        times.append(time.perf_counter() - t)
    return statistics.median(times), size


if __name__ == "__main__":
    smoke = smoke_only(__doc__)
    runs = 1 if smoke else 3
    deck = new_deck(40 if smoke else 3003, seed="benchmark", name="Benchmark")
    n = len(deck.cards)
    print(f"{n} cards, classic-4 (4 per page, {-(-n // 4)} pages), {os.cpu_count()} cores")
    t, size = timed(deck, runs)
    print(
        f"with QR          median {t:6.2f} s  {n / t:7.0f} cards/s  {size / 1e6:5.2f} MB"
        f"  {size / n / 1024:4.2f} KB/card"
    )
    t0, size0 = timed(deck, runs, qr=False)
    print(
        f"no QR (floor)    median {t0:6.2f} s  {n / t0:7.0f} cards/s  {size0 / 1e6:5.2f} MB"
        f"  {size0 / n / 1024:4.2f} KB/card"
    )
    deck_pdf._PARALLEL_FROM = n + 1  # QR codes made in this process, no worker pool
    t1, _ = timed(deck, runs=1)
    print(f"QR, one process  single {t1:6.2f} s  {n / t1:7.0f} cards/s")
