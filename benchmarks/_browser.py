"""Which Chromium the browser tests (tests/conftest.py) and the benchmarks launch, and with which
arguments: one place for both. Not a benchmark itself (the leading underscore keeps it out of
tests/test_benchmarks.py's list).

Debian's Chromium as its headless shell (the package chromium-headless-shell, which `make test`
installs): the same engine and version as the full browser /usr/bin/chromium, and what
Playwright itself runs for headless Chromium. The full browser in its headless mode makes a
whole browser profile for every new context, and costs a browser test about three times the
CPU (benchmarks/browser_tests.py); the suite is CPU-bound on two cores.
BINGO_HALL_CHROMIUM=/usr/bin/chromium runs the tests and the benchmarks on the full browser.
"""

from __future__ import annotations

import os

HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
FULL = "/usr/bin/chromium"
CHROMIUM = os.environ.get("BINGO_HALL_CHROMIUM", HEADLESS_SHELL)
#: no sandbox (root in CI), no GPU, and nothing that reaches for the internet
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
