"""The machine's calibration figures, printed beside a benchmark's results so that runs made on
different machines (or on one machine at a busy moment) can be compared (issue 32):

* `python_loop_ms()`: a fixed pure-Python loop (the median of three), in ms;
* `static_file_ms(host, port, path)`: a static file answered by the station over HTTP on a kept
  connection (the median of `n` requests), in ms.

Run alone, it prints the loop's figure three times (`--smoke`: once).
"""

from __future__ import annotations

import http.client
import statistics
import time

LOOP = 2_000_000


def python_loop_ms() -> float:
    """A fixed loop of additions and a modulo: the interpreter's speed at this moment."""
    runs = []
    for _ in range(3):
        t = time.perf_counter()
        total = 0
        for i in range(LOOP):
            total += i % 7
        runs.append(time.perf_counter() - t)
    assert total > 0
    return statistics.median(runs) * 1000


def timed_gets(host: str, port: int, paths: list[str]) -> list[float]:
    """Each GET's time (s) on one kept-alive connection; every answer must be a 200."""
    conn = http.client.HTTPConnection(host, port, timeout=30)
    times = []
    try:
        for path in paths:
            t = time.perf_counter()
            conn.request("GET", path)
            r = conn.getresponse()
            r.read()
            times.append(time.perf_counter() - t)
            assert r.status == 200, (path, r.status)
    finally:
        conn.close()
    return times


def static_file_ms(host: str, port: int, path: str, n: int = 200) -> float:
    return statistics.median(timed_gets(host, port, [path] * n)) * 1000


def line(host: str | None = None, port: int | None = None, path: str | None = None) -> str:
    """The calibration line a benchmark prints first."""
    text = f"calibration: pure-Python loop {python_loop_ms():.0f} ms"
    if host and port and path:
        text += f", static file {path} over HTTP {static_file_ms(host, port, path):.2f} ms"
    return text


if __name__ == "__main__":  # the machine's figure alone: `python benchmarks/calibrate.py`
    import sys

    runs = 1 if "--smoke" in sys.argv[1:] else 3
    for _ in range(runs):
        print(line())
