"""What checking a request body costs (issue 19): the byte scan for nesting depth and the
whole `parse_json` (scan, UTF-8, json.loads, the walk for surrogates and big integers), on a
3003-card deck manifest (the largest body a station takes) and on 2 MB hostile bodies built to
make a naive scanner backtrack. Prints the median of several runs, in milliseconds.

Run: .venv/bin/python benchmarks/inputs.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import time

from _smoke import add_smoke

from bingo_hall.manifest import new_deck
from bingo_hall.web.config import HallConfig
from bingo_hall.web.errors import RequestError
from bingo_hall.web.inputs import nesting_depth, parse_json

#: the app's default limit on a JSON body (the `MAX_JSON_BYTES` setting)
MAX_JSON_BYTES = HallConfig.__dataclass_fields__["max_json_bytes"].default


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def refused(raw: bytes) -> None:
    try:
        parse_json(raw)
    except RequestError:
        return
    raise AssertionError("a hostile body was accepted")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    add_smoke(parser)
    args = parser.parse_args()
    runs = 1 if args.smoke else args.runs
    deck = new_deck(100 if args.smoke else 3003, seed="bench", name="Bench").to_json().encode()
    print(f"deck manifest, 3003 cards: {len(deck) / 1e6:.2f} MB")
    print(f"  nesting scan   {median_ms(lambda: nesting_depth(deck), runs):8.1f} ms")
    print(f"  parse_json     {median_ms(lambda: parse_json(deck), runs):8.1f} ms")
    hostile = {
        "50,000-deep [": b"[" * 50_000 + b"]" * 50_000,
        '2 MB of "\\ pairs (unterminated strings)': b'"\\' * (MAX_JSON_BYTES // 2),
        "2 MB of [ (deep)": b"[" * MAX_JSON_BYTES,
    }
    for name, raw in hostile.items():
        print(f"{name}: refused in {median_ms(lambda raw=raw: refused(raw), runs):.1f} ms")


if __name__ == "__main__":
    main()
