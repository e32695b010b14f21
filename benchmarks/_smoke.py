"""What the benchmarks share: the `--smoke` flag, a tiny run (a few iterations, seconds) that
checks a benchmark still runs. tests/test_benchmarks.py runs every benchmark so. Not a benchmark
itself (the leading underscore keeps it out of that list)."""

from __future__ import annotations

import argparse

HELP = "a tiny run (a few iterations, seconds) that checks the benchmark still runs"


def add_smoke(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--smoke", action="store_true", help=HELP)
    return parser


def smoke_only(doc: str | None) -> bool:
    """For a benchmark with no other option: whether `--smoke` was given."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    return bool(add_smoke(parser).parse_args().smoke)
