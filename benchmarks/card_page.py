"""The server's CPU cost of one card (or ticket) QR page: N distinct pages through Flask's test
client, median per page (issue 24's join storm: a thousand phones each open their own card).

    .venv/bin/python benchmarks/card_page.py [--pages 200] [--balls 75|90] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from testkit import Caller  # noqa: E402

from bingo_hall.app import create_app  # noqa: E402
from bingo_hall.manifest import new_deck, new_strip_deck  # noqa: E402
from bingo_hall.signing import card_path  # noqa: E402

PIN = "2468"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=200)
    ap.add_argument("--balls", type=int, choices=(75, 90), default=75)
    ap.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    ap.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run (a few iterations, seconds) that checks the benchmark still runs",
    )
    args = ap.parse_args()
    if args.smoke:
        args.pages = 5
    folder = tempfile.mkdtemp(prefix="card-page-")
    app = create_app(
        {"DATABASE": f"{folder}/s.sqlite", "SECRET_KEY": "bench", "CALLER_PIN": PIN},
        instance_path=folder,
    )
    client = app.test_client()
    n = args.pages
    deck = new_deck(n, seed="bench") if args.balls == 75 else new_strip_deck(n // 6 + 1, seed="b")
    hall = Caller(client, deck)
    gid = hall.new_game("normal", "manual") if args.balls == 75 else hall.new_game(draw="manual")
    hall.call(gid, *range(1, 31, 2))
    paths = [card_path(deck.secret, deck.deck_id, s) for s in range(1, n + 1)]
    client.get(paths[0])  # the deck parsed, the templates compiled
    prof = cProfile.Profile() if args.profile else None
    times, cpu = [], []
    for p in paths:
        t, c = time.perf_counter(), time.process_time()
        if prof:
            prof.enable()
        r = client.get(p)
        if prof:
            prof.disable()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        assert r.status_code == 200, (p, r.status_code)
    print(
        f"{n} distinct {args.balls}-ball pages: median {statistics.median(times) * 1000:.2f} ms,"
        f" p90 {sorted(times)[int(n * 0.9)] * 1000:.2f} ms per page;"
        f" CPU median {statistics.median(cpu) * 1000:.2f} ms, total {sum(cpu):.2f} s"
    )
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)


if __name__ == "__main__":
    main()
