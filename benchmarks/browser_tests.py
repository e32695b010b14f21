"""Benchmark: what a browser test costs in Chromium's CPU, by browser and by how the test gets its
page (issue 32: `make test`'s time). Prints figures; not a test.

    .venv/bin/python benchmarks/browser_tests.py [--tests 8] [--rounds 3] [--smoke]

It starts `bingo-hall serve` with a deck and one game, and for each Chromium that is installed
(Debian's headless shell, which the suite runs, and the full browser /usr/bin/chromium in its
headless mode: benchmarks/_browser.py) runs `--tests` imitations of a browser test. Each opens
the phone's join page and then a card's page, two ways:

* "new context": a browser context of its own per test, as pytest-playwright's `page` gives;
* "one page": one kept page, only navigated (the floor: the two pages' own cost).

The figure is the CPU the whole machine spent per test (user, nice, system and interrupts
from /proc/stat; steal left out): Chromium runs in several processes that come and go, so only
the machine's count holds them all. Run it on a quiet machine: the calibration line
(calibrate.py) and the CPU of a second of the machine doing nothing come first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import calibrate  # noqa: E402
from _browser import ARGS, CHROMIUM, FULL, HEADLESS_SHELL  # noqa: E402
from _smoke import add_smoke  # noqa: E402
from station import PIN, start_station  # noqa: E402

from bingo_hall.manifest import new_deck, save_deck  # noqa: E402
from bingo_hall.signing import card_path  # noqa: E402

SETTLE_S = 1.0  # after a round: what Chromium still does for it (a closed context's clean-up)


def busy_s() -> float:
    """The machine's CPU seconds spent so far (steal left out: another guest's, not ours)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, irq, softirq = v[0], v[1], v[2], v[5], v[6]
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def api(port: int, path: str, body: dict, token: str | None = None) -> dict:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="POST")
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, json.dumps(body).encode()) as resp:
        return json.loads(resp.read())


def measure(pw, executable: str, pages: list[str], tests: int, rounds: int) -> dict[str, list]:
    """Per way, the machine's CPU seconds per test in each round."""
    browser = pw.chromium.launch(executable_path=executable, args=ARGS)
    kept = browser.new_context().new_page()

    def new_context() -> None:
        context = browser.new_context()
        page = context.new_page()
        for url in pages:
            page.goto(url)
        context.close()

    def one_page() -> None:
        kept.goto("about:blank")
        for url in pages:
            kept.goto(url)

    ways = {"new context": new_context, "one page": one_page}
    for way in ways.values():  # warm: the station's first answers, Chromium's caches
        way()
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(rounds):  # the ways alternate, so a busy moment hits both
        for name, way in ways.items():
            before = busy_s()
            for _ in range(tests):
                way()
            time.sleep(SETTLE_S)
            cpu[name].append((busy_s() - before) / tests)
    browser.close()
    return cpu


def run(args) -> None:
    from playwright.sync_api import sync_playwright

    tests = 2 if args.smoke else args.tests
    rounds = 1 if args.smoke else args.rounds
    browsers = [b for b in (HEADLESS_SHELL, FULL) if os.path.exists(b)]
    if args.smoke:  # the suite's browser only
        browsers = [CHROMIUM]
    if not browsers:
        raise SystemExit(f"no Chromium here: neither {HEADLESS_SHELL} nor {FULL}")
    print(calibrate.line())
    before = busy_s()
    time.sleep(SETTLE_S)
    print(f"the machine doing nothing: {1000 * (busy_s() - before):.0f} ms CPU per s")
    found: dict[str, dict[str, list]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        deck = new_deck(30, seed="browser tests bench", name="Browsers")
        proc, port = start_station(Path(tmp), save_deck(deck, Path(tmp) / "deck.json"))
        try:
            token = api(port, "/api/login", {"pin": PIN})["token"]
            api(port, "/api/games", {"deck_id": deck.deck_id}, token)
            base = f"http://127.0.0.1:{port}"
            pages = [base + "/join", base + card_path(deck.secret, deck.deck_id, 7)]
            with sync_playwright() as pw:
                for executable in browsers:
                    found[executable] = measure(pw, executable, pages, tests, rounds)
        finally:
            proc.terminate()
            proc.wait(30)
    print(f"{tests} tests per way and round, {rounds} rounds, {os.cpu_count()} CPUs")
    print("the machine's CPU per test (/join, then a card's page), median of the rounds:")
    least = min(statistics.median(cpu["new context"]) for cpu in found.values())
    for executable, cpu in found.items():
        for way, runs in cpu.items():
            each = ", ".join(f"{1000 * r:.0f}" for r in runs)
            med = statistics.median(runs)
            ratio = f"{med / least:4.1f}x" if way == "new context" else "     "
            print(f"  {executable:32} {way:12} {1000 * med:6.0f} ms {ratio}  ({each})")
    if len(found) < 2 and not args.smoke:
        print(f"  ({FULL if HEADLESS_SHELL in found else HEADLESS_SHELL} is not installed)")


def main() -> None:
    ap = add_smoke(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--tests", type=int, default=8, help="imitated tests per way and round")
    ap.add_argument("--rounds", type=int, default=3)
    run(ap.parse_args())


if __name__ == "__main__":
    main()
