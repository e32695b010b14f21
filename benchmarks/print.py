"""Printing the full 3003-card deck, 4 cards per page (classic-4, A4), as issue 3 asks
(`--template large-2`: the same deck in large print, two cards a page, issue 36):

* wall time and cards per second with QR codes (the real print),
* the same pages without QR codes (the floor: layout and PDF writing only),
* with QR codes made in this one process only (what the worker pool saves),
* the PDF size, in total and per card.

Target: <= 8 s wall on a 2-core machine and <= 3 KB per card. Median of 3 runs each.

Run: .venv/bin/python benchmarks/print.py [--template NAME] [--smoke]
"""

import argparse
import os
import statistics
import time

from _smoke import add_smoke
from calibrate import python_loop_ms

from bingo_hall.manifest import new_deck
from bingo_hall.printing import deck_pdf, render_deck_pdf
from bingo_hall.printing.templates import load_template

BASE = "http://192.168.1.100:5000"


def timed(deck, template: str, runs: int = 3, **kwargs) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(runs):
        t = time.perf_counter()
        size = len(render_deck_pdf(deck, template=template, base_url=BASE, **kwargs))
        times.append(time.perf_counter() - t)
    return statistics.median(times), size


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--template", default="classic-4", help="a 75-ball card template")
    args = add_smoke(parser).parse_args()
    smoke, template = args.smoke, args.template
    runs = 1 if smoke else 3
    deck = new_deck(40 if smoke else 3003, seed="benchmark", name="Benchmark")
    n = len(deck.cards)
    per = load_template(template).per_page
    print(f"{n} cards, {template} ({per} per page, {-(-n // per)} pages), {os.cpu_count()} cores")
    print(f"calibration: python loop {python_loop_ms():.0f} ms (median of 3)")
    t, size = timed(deck, template, runs)
    print(
        f"with QR          median {t:6.2f} s  {n / t:7.0f} cards/s  {size / 1e6:5.2f} MB"
        f"  {size / n / 1024:4.2f} KB/card"
    )
    t0, size0 = timed(deck, template, runs, qr=False)
    print(
        f"no QR (floor)    median {t0:6.2f} s  {n / t0:7.0f} cards/s  {size0 / 1e6:5.2f} MB"
        f"  {size0 / n / 1024:4.2f} KB/card"
    )
    deck_pdf._PARALLEL_FROM = n + 1  # QR codes made in this process, no worker pool
    t1, _ = timed(deck, template, runs=1)
    print(f"QR, one process  single {t1:6.2f} s  {n / t1:7.0f} cards/s")
