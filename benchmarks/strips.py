"""90-ball strips (issue 17, "Measured"), median of several runs each:

* `generate_strips(1000)` (6000 tickets, no row repeated): target <= 0.5 s;
* printing those 1000 strips with signed QR codes (strips-2, A4): target <= 8 s;
* how often a drawn strip clashes with the deck so far (it is then drawn again, at most
  `ATTEMPTS` times), by deck size up to the `MAX_STRIPS` limit;
* 3000 tickets end to end (new process, make, print with QR, write the PDF), and with
  `--compare PATH` the same for JuliBu/BingoTicketGen (reportlab, no QR) from a local checkout at
  PATH, run in its own process as its README shows, with the ratio. Its code is not part of this
  repository.

Run: .venv/bin/python benchmarks/strips.py [--compare /work/thirdparty/BingoTicketGen]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _smoke import add_smoke

from bingo_hall.manifest import new_strip_deck
from bingo_hall.ninety.strips import ATTEMPTS, MAX_STRIPS, draw_strip, generate_strips
from bingo_hall.printing import render_deck_pdf
from bingo_hall.rng import seed_bytes

BASE = "http://192.168.1.100:5000"
OURS = """
import sys
from bingo_hall.manifest import new_strip_deck
from bingo_hall.printing import render_deck_pdf
deck = new_strip_deck({strips}, seed="compare", name="Benchmark")
open(sys.argv[1], "wb").write(render_deck_pdf(deck, base_url="{base}"))
"""
THEIRS = (
    "import sys; from command.gen_print_version import save_bingo_tickets_to_pdf; "
    "from bingo_ticket.gen_ticket import generate_multiple_tickets; "
    "save_bingo_tickets_to_pdf(generate_multiple_tickets(3000), sys.argv[1])"
)


def median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def clash_rates(limit: int, step: int = 500) -> list[tuple[int, float]]:
    """Share of draws that repeated a row already in the deck, per band of `step` strips."""
    key = seed_bytes("clashes")
    seen: set[frozenset[int]] = set()
    out, draws, clashes = [], 0, 0
    for number in range(1, limit + 1):
        for attempt in range(ATTEMPTS):
            strip = draw_strip(key, number, attempt)
            draws += 1
            if seen.isdisjoint(strip.rows):
                break
            clashes += 1
        seen.update(strip.rows)
        if number % step == 0:
            out.append((number, clashes / draws))
            draws = clashes = 0
    return out


def process_time(args: list[str], cwd: str | None, runs: int) -> float:
    env = dict(os.environ)
    if cwd is not None:
        env["PYTHONPATH"] = cwd
    return median_time(lambda: subprocess.run(args, cwd=cwd, env=env, check=True), runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compare", type=Path, help="a local checkout of BingoTicketGen")
    parser.add_argument("--runs", type=int, default=3)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.runs = 1
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}")

    n = 20 if args.smoke else 1000
    t = median_time(lambda: generate_strips(n, seed="benchmark"), 1 if args.smoke else 5)
    print(f"generate_strips({n})   median {t:6.3f} s   ({6 * n} tickets; target <= 0.5 s)")

    deck = new_strip_deck(n, seed="benchmark", name="Benchmark")
    size = 0

    def print_all() -> None:
        nonlocal size
        size = len(render_deck_pdf(deck, base_url=BASE))

    t = median_time(print_all, args.runs)
    print(
        f"print {n} strips + QR  median {t:6.2f} s   ({6 * n / t:5.0f} tickets/s, "
        f"{size / 1e6:.2f} MB; target <= 8 s)"
    )

    for strips, rate in clash_rates(500 if args.smoke else MAX_STRIPS):
        print(f"draws that clashed, strips {strips - 499:4}-{strips:4}: {100 * rate:5.1f} %")

    with tempfile.TemporaryDirectory() as tmp:
        ours = process_time(
            [sys.executable, "-c", OURS.format(base=BASE, strips=n // 2), f"{tmp}/ours.pdf"],
            None,
            args.runs,
        )
        print(f"{3 * n} tickets with QR, new process: ours   median {ours:6.2f} s")
        if args.compare is None:
            return
        src = args.compare / "src"
        theirs = process_time(
            [sys.executable, "-c", THEIRS, f"{tmp}/theirs.pdf"], str(src), args.runs
        )
        print(f"3000 tickets, no QR, new process: BingoTicketGen median {theirs:6.2f} s")
        print(f"ratio: BingoTicketGen / ours = {theirs / ours:.2f}")


if __name__ == "__main__":
    main()
