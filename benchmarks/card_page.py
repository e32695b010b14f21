"""Benchmark: what a card (or ticket) QR page costs, done ahead of need (issues 24 and 32). Prints
figures; not a test.

    .venv/bin/python benchmarks/card_page.py [--cards 3003] [--pages 500] [--balls 75|90]
        [--runs 3] [--smoke]

1. In this process: a deck of `--cards` cards is loaded and its game started, as a host does (the
   CPU each takes), and every card's table filled in from its variant's cut in both languages,
   against the drawer's template for the same tables (per table), and what the kept shells take.
2. Over HTTP against the real server (`bingo-hall serve`, a process of its own, default
   settings): `--pages` distinct card pages of a game with 30 calls, each asked twice on a kept
   connection (the first ask may be built by Flask; the second is answered from what is kept),
   beside a static file of the same size from the same server. Median and p90 per page, and the
   station's CPU per page (from /proc). Medians of `--runs` runs.

A calibration line comes first (a fixed pure-Python loop, and a static file over HTTP), so a
reader can compare runs made on different machines.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.append(str(ROOT / "tests"))  # testkit; after benchmarks/ (tests/station is a package)

import calibrate  # noqa: E402
from _measure import percentile  # noqa: E402
from station import PIN, serving_pids, start_station, station_mode  # noqa: E402
from testkit import Caller  # noqa: E402

from bingo_hall.app import create_app  # noqa: E402
from bingo_hall.manifest import new_deck, new_strip_deck, save_deck  # noqa: E402
from bingo_hall.signing import card_path  # noqa: E402
from bingo_hall.station.verify import card_pages  # noqa: E402
from bingo_hall.station.verify.card_pages import CardPages, draw_table  # noqa: E402
from bingo_hall.station.verify.variants import claims_of  # noqa: E402
from bingo_hall.web.i18n import LANGUAGES  # noqa: E402

STATIC = ROOT / "bingo_hall" / "web" / "static"


def make_deck(balls: int, cards: int):
    if balls == 75:
        return new_deck(cards, seed="card-page bench")
    return new_strip_deck(-(-cards // 6), seed="card-page bench")


def load_and_fill(deck) -> dict[str, float]:
    """Load the deck and start its game in this process, as a host does (the thread ahead
    running, as `serve` starts it): the CPU each takes; then every card's table filled in from
    the variant's cut, both languages, against the drawer's template for the same tables."""
    folder = tempfile.mkdtemp(prefix="card-page-")
    app = create_app(
        {"DATABASE": f"{folder}/s.sqlite", "SECRET_KEY": "bench", "CALLER_PIN": PIN},
        instance_path=folder,
    )
    card_pages.start(app)
    try:
        client = app.test_client()
        small = Caller(client, new_deck(12, seed="before"))  # the app warmed up
        small.post("/api/games", {"deck_id": small.deck.deck_id})
        t0 = time.process_time()
        hall = Caller(client, deck)
        loaded = time.process_time() - t0
        t0 = time.process_time()
        r = hall.post("/api/games", {"deck_id": deck.deck_id})
        assert r.status_code == 201, r.get_json()
        started = time.process_time() - t0
        pages = CardPages.of(app)
        kind = claims_of(deck.variant)
        fill, draw = [], []
        for lang in LANGUAGES:
            with app.test_request_context(f"/?lang={lang}"):
                draw_table(kind, deck.cards[0])  # the cut made
                t0 = time.perf_counter()
                for card in deck.cards:
                    draw_table(kind, card)
                fill.append((time.perf_counter() - t0) / len(deck.cards))
                some = deck.cards[:200]
                t0 = time.perf_counter()
                for card in some:
                    kind.draw_bare(kind.table_text(card))
                draw.append((time.perf_counter() - t0) / len(some))
        assert pages.drawn == 0
        return {
            "load_cpu_s": loaded,
            "start_cpu_s": started,
            "fill_us": statistics.median(fill) * 1e6,
            "draw_us": statistics.median(draw) * 1e6,
            "kept_mb": card_pages.kept_size_mb(pages),
        }
    finally:
        card_pages.stop(app)


def cpu_s(pid: int) -> float:
    """The serving processes' user + system CPU so far (Linux /proc), in s: the station's, and
    its public side's when it has one (web/phones_process.py)."""
    total = 0.0
    for each in serving_pids(pid):
        with open(f"/proc/{each}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def over_http(deck, balls: int, pages_n: int, wait_s: float) -> dict[str, float]:
    """The real server: card pages against a static file of the same size."""
    import asyncio

    from station import Bench

    folder = Path(tempfile.mkdtemp(prefix="card-page-http-"))
    deck_path = save_deck(deck, folder / "bench.deck.json")
    proc, port = start_station(folder, deck_path)
    static = STATIC / f"bench-{os.getpid()}.txt"
    try:
        bench = Bench("127.0.0.1", port, 0, {}, deck, proc.pid)
        _, login = asyncio.run(bench.request("POST", "/api/login", {"pin": PIN}, auth=False))
        bench.headers = {"Authorization": f"Bearer {login['token']}"}
        _, game = asyncio.run(bench.request("POST", "/api/games", {"deck_id": deck.deck_id}))
        gid = game["game_id"]
        print(f"  station: {station_mode(proc.pid)}")
        for _ in range(30):
            asyncio.run(bench.request("POST", f"/api/games/{gid}/draw", {}))
        time.sleep(wait_s)  # the station reads its deck meanwhile
        serials = list(range(1, min(pages_n, len(deck.cards)) + 1))
        paths = [card_path(deck.secret, deck.deck_id, s) + "?lang=es" for s in serials]
        c0 = cpu_s(proc.pid)
        first = calibrate.timed_gets("127.0.0.1", port, paths)
        c1 = cpu_s(proc.pid)
        kept = calibrate.timed_gets("127.0.0.1", port, paths)
        c2 = cpu_s(proc.pid)
        size = len(calibrate_body(port, paths[0]))
        # the station's static files are a fixed set read at start-up (issue 38): the file of
        # the same size is written, then the same station (its database) started again
        static.write_bytes(b"x" * size)
        proc.terminate()
        proc.wait(10)
        proc, port = start_station(folder, deck_path)
        url = f"/web/static/{static.name}"
        calibrate.timed_gets("127.0.0.1", port, [url])  # read once
        c3 = cpu_s(proc.pid)
        files = calibrate.timed_gets("127.0.0.1", port, [url] * len(paths))
        c4 = cpu_s(proc.pid)
        n = len(paths)
        return {
            "size_kb": size / 1024,
            "first_ms": statistics.median(first) * 1000,
            "kept_ms": statistics.median(kept) * 1000,
            "kept_p90_ms": percentile(kept, 90) * 1000,
            "static_ms": statistics.median(files) * 1000,
            "first_cpu_ms": (c1 - c0) / n * 1000,
            "kept_cpu_ms": (c2 - c1) / n * 1000,
            "static_cpu_ms": (c4 - c3) / n * 1000,
        }
    finally:
        static.unlink(missing_ok=True)
        proc.terminate()
        proc.wait(10)


def calibrate_body(port: int, path: str) -> bytes:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    body = conn.getresponse().read()
    conn.close()
    return body


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=3003)
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--balls", type=int, choices=(75, 90), default=75)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--smoke", action="store_true", help="a few iterations, seconds")
    args = ap.parse_args()
    if args.smoke:
        args.cards, args.pages, args.runs = 30, 20, 1
    deck = make_deck(args.balls, args.cards)
    print(calibrate.line())
    print(
        f"{args.balls}-ball deck of {len(deck.cards)} cards; {os.cpu_count()} CPUs, "
        f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    ahead, http = [], []
    for run in range(args.runs):
        a = load_and_fill(deck)
        ahead.append(a)
        print(
            f"  run {run + 1}: the deck loaded in {a['load_cpu_s']:.2f} CPU-s, its game started "
            f"in {a['start_cpu_s']:.3f} CPU-s; a table filled in {a['fill_us']:.0f} us (the "
            f"drawer's template: {a['draw_us']:.0f} us); kept {a['kept_mb']:.2f} MB"
        )
        h = over_http(deck, args.balls, args.pages, 1.0)
        http.append(h)
        print(
            f"  run {run + 1}: over HTTP, {args.pages} distinct pages of {h['size_kb']:.1f} KB: "
            f"first ask {h['first_ms']:.2f} ms ({h['first_cpu_ms']:.2f} ms CPU), kept "
            f"{h['kept_ms']:.2f} ms (p90 {h['kept_p90_ms']:.2f}; {h['kept_cpu_ms']:.2f} ms CPU); "
            f"a static file of the same size {h['static_ms']:.2f} ms "
            f"({h['static_cpu_ms']:.2f} ms CPU)"
        )

    def med(rows: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in rows)

    print(
        f"medians of {args.runs}: game start {med(ahead, 'start_cpu_s'):.3f} CPU-s, a table "
        f"filled in {med(ahead, 'fill_us'):.0f} us (drawn {med(ahead, 'draw_us'):.0f} us), "
        f"{med(ahead, 'kept_mb'):.2f} MB kept; card page {med(http, 'kept_ms'):.2f} ms vs "
        f"static file {med(http, 'static_ms'):.2f} ms "
        f"(x{med(http, 'kept_ms') / med(http, 'static_ms'):.2f}); CPU per page "
        f"{med(http, 'kept_cpu_ms'):.2f} ms vs {med(http, 'static_cpu_ms'):.2f} ms"
    )


if __name__ == "__main__":
    main()
