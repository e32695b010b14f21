"""Benchmark: a card the Maestro checks, until the hall screen shows it (issue 25: the card is
drawn in one place). Prints figures; not a test.

    .venv/bin/python benchmarks/shown_card.py [--checks 40] [--station-root DIR]

It starts `bingo-hall serve` as a real process with its default settings (from `--station-root`,
this checkout unless given: a checkout from before measures "before"), loads a deck, starts a
game drawn by hand with a few calls, and opens the hall screen (/display) in Debian's Chromium.
Then, for each check, the Maestro shows a card to the room as the caller page's Check button does
(POST /api/games/<id>/check/<serial>) and the time runs until the screen shows that card's table
(its 25 squares in the page). The screen draws the words from the `verdict` event; since issue 25
it asks the station once for the card's table (GET /api/games/<id>/shown/<key>, the card pages'
own drawer), where before it drew the table itself from the event. Then the time until a screen
reloaded while the card is up shows it again (before issue 25 it did not: "never").

The machine's load (`os.getloadavg`) is printed with the figures.
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
sys.path.insert(0, str(ROOT / "benchmarks"))

import station  # noqa: E402
from _browser import CHROMIUM  # noqa: E402
from _measure import load, percentile  # noqa: E402
from _smoke import add_smoke  # noqa: E402
from station import PIN, start_station  # noqa: E402

from bingo_hall.manifest import new_deck, save_deck  # noqa: E402

SHOWN = """(serial) => {
  const box = document.getElementById("claim-show");
  return !box.hidden && box.dataset.serial === String(serial)
    && box.querySelectorAll("table.vcard td.sq").length === 25;
}"""


def api(port: int, method: str, path: str, token: str | None, body: dict | None = None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    data = json.dumps(body or {}).encode() if method == "POST" else None
    with urllib.request.urlopen(req, data) as resp:
        return json.loads(resp.read() or b"null")


def run(args) -> None:
    from playwright.sync_api import sync_playwright

    root = Path(args.station_root or ROOT).resolve()
    station.ROOT = root  # serve from the checkout being measured
    with tempfile.TemporaryDirectory() as tmp:
        deck = new_deck(100, seed="shown bench", name="Bench")
        deck_path = save_deck(deck, Path(tmp) / "bench.deck.json")
        proc, port = start_station(Path(tmp), deck_path)
        try:
            token = api(port, "POST", "/api/login", None, {"pin": PIN})["token"]
            game = api(
                port, "POST", "/api/games", token, {"deck_id": deck.deck_id, "draw": "manual"}
            )
            gid = game["game_id"]
            for ball in (5, 20, 34, 51, 70, 12, 44):
                api(port, "POST", f"/api/games/{gid}/calls", token, {"ball": ball})
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(f"http://127.0.0.1:{port}/display/{gid}")
                page.wait_for_selector('#station[data-live="yes"]')
                times = []
                for i in range(args.checks + 3):
                    serial = 1 + i % 100
                    t0 = time.perf_counter()
                    api(port, "POST", f"/api/games/{gid}/check/{serial}", token)
                    page.wait_for_function(SHOWN, arg=serial, polling="raf", timeout=30_000)
                    if i >= 3:  # the first few warm the station and the page
                        times.append((time.perf_counter() - t0) * 1000)
                reload_ms = []
                for _ in range(args.reloads):
                    page.reload()
                    t0 = time.perf_counter()
                    page.wait_for_selector('#station[data-live="yes"]')
                    try:
                        page.wait_for_function(SHOWN, arg=serial, polling="raf", timeout=5_000)
                        reload_ms.append((time.perf_counter() - t0) * 1000)
                    except Exception:  # noqa: BLE001 - playwright's TimeoutError
                        reload_ms.append(float("inf"))
                browser.close()
        finally:
            proc.terminate()
            proc.wait()
    print(f"station from {root} on :{port} (default serve settings); {os.cpu_count()} CPUs")
    print(f"check shown on /display, {len(times)} checks (ms from the POST to the card's table):")
    print(f"  median {statistics.median(times):7.1f}   p90 {percentile(times, 90):7.1f}")
    shown = [t for t in reload_ms if t != float("inf")]
    print(
        f"reloaded screen shows the card on show: {len(shown)} of {len(reload_ms)}"
        + (f", median {statistics.median(shown):.1f} ms after the stream is live" if shown else "")
    )
    print(f"load average after: {load()}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--checks", type=int, default=40)
    p.add_argument("--reloads", type=int, default=5)
    p.add_argument("--station-root", default=None, help="the checkout whose station is served")
    add_smoke(p)
    args = p.parse_args()
    if args.smoke:
        args.checks, args.reloads = 2, 1
    print(f"load average before: {load()}")
    run(args)


if __name__ == "__main__":
    main()
