"""What several benchmarks measure with: a percentile of their timings, the machine's load
while they ran, and a free port for a station they start. Not a benchmark itself (the leading
underscore keeps it out of tests/test_benchmarks.py's list)."""

from __future__ import annotations

import os
import socket


def percentile(values: list[float], p: float) -> float:
    """The `p`th percentile of `values`, interpolated between the two nearest ranks (numpy's
    default, "linear"); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def load() -> str:
    """The machine's load averages (1, 5, 15 min), as `uptime` prints them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def free_port() -> int:
    """A TCP port free on every interface (so free on loopback too) at the time of asking."""
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        port: int = s.getsockname()[1]
        return port
