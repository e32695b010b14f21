"""Benchmark: what the night's book costs (issue 35). Prints figures; not a test.

    .venv/bin/python benchmarks/book.py [--draws 75] [--games 12] [--smoke]

1. The Maestro's draw with the book and without it: the same station (the app in-process, its
   JSON API through Flask's test client, SQLite with synchronous=FULL as `serve` runs it),
   `--draws` draws of a 75-ball game drawn by the station, timed one by one. "Without" is the
   same run with the book's `append` replaced by one that writes nothing (only here). The arms
   alternate, three runs each; p50 and p99 are the medians of the three. Target: p99 with the
   book <= 1.1 x without it. On a busy machine give the ratio, not the milliseconds.
2. The book's size for a long night: `--games` 90-ball games (a price list, prizes in money,
   sales, a correction, every ball to the full house, claims, awards, payouts, marks paid), the
   book exported as `book export` writes it, in bytes and gzipped.

The calibration figure (benchmarks/calibrate.py: a fixed pure-Python loop) is printed first.
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _smoke import add_smoke  # noqa: E402
from calibrate import python_loop_ms  # noqa: E402

from bingo_hall.app import create_app  # noqa: E402
from bingo_hall.manifest import new_deck, new_strip_deck  # noqa: E402
from bingo_hall.web import book_store as store  # noqa: E402

PIN = "424242"


def station(folder: Path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "b.sqlite"),
            "SECRET_KEY": "b",
            "CALLER_PIN": PIN,
        },
        instance_path=str(folder),
    )
    client = app.test_client()
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    return app, client, {"Authorization": "Bearer " + token}


def draw_times(draws: int, with_book: bool) -> list[float]:
    real = store.append
    if not with_book:
        store.append = lambda *a, **k: None  # type: ignore[assignment]  # the arm without a book
    try:
        with tempfile.TemporaryDirectory() as d:
            _app, client, h = station(Path(d))
            deck = new_deck(12, seed="bench", name="Bench")
            client.post(
                "/api/decks", data=deck.to_json(), headers=h, content_type="application/json"
            )
            times = []
            for _ in range(max(1, draws // 75) + (draws % 75 > 0)):
                gid = client.post(
                    "/api/games", json={"deck_id": deck.deck_id, "draw": "auto"}, headers=h
                ).get_json()["game_id"]
                for _ in range(min(75, draws - len(times))):
                    t = time.perf_counter()
                    r = client.post(f"/api/games/{gid}/draw", headers=h)
                    times.append(time.perf_counter() - t)
                    assert r.status_code == 200, r.get_json()
            return times
    finally:
        store.append = real  # type: ignore[assignment]


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def long_night(games: int) -> tuple[int, int, int]:
    """(entries, bytes, gzipped bytes) of the exported book of `games` 90-ball games."""
    deck = new_strip_deck(3, seed="bench-night", name="Noche")
    tickets = {t.serial: [{n for n in r if n is not None} for r in t.grid] for t in deck.cards}
    rng = random.Random(35)
    with tempfile.TemporaryDirectory() as d:
        app, client, h = station(Path(d))
        client.post("/api/decks", data=deck.to_json(), headers=h, content_type="application/json")
        for _ in range(games):
            gid = client.post(
                "/api/games", json={"deck_id": deck.deck_id, "draw": "manual"}, headers=h
            ).get_json()["game_id"]
            client.post(f"/api/games/{gid}/ledger/price", json={"cents": 150}, headers=h)
            prizes = {
                "linea": {"kind": "percent", "percent": 20},
                "bingo": {"kind": "percent", "percent": 50},
            }
            client.post(f"/api/games/{gid}/ledger/prizes", json={"prizes": prizes}, headers=h)
            for first in range(1, 19, 3):
                client.post(
                    f"/api/games/{gid}/ledger/sales",
                    json={"serials": f"{first}-{first + 2}", "round": "all"},
                    headers=h,
                )
            order = list(range(1, 91))
            rng.shuffle(order)
            called: set[int] = set()
            balls = iter(order)
            for prize in ("linea", "bingo"):

                def holds(rows, prize=prize, called=called) -> bool:
                    full = [r <= called for r in rows]
                    return any(full) if prize == "linea" else all(full)

                while not any(holds(rows) for rows in tickets.values()):
                    ball = next(balls)
                    client.post(f"/api/games/{gid}/calls", json={"ball": ball}, headers=h)
                    called.add(ball)
                for serial, rows in tickets.items():
                    if holds(rows):
                        client.post(
                            f"/api/games/{gid}/claims",
                            json={"serial": serial, "prize": prize, "player": "Ana"},
                            headers=h,
                        )
                client.post(f"/api/games/{gid}/award", json={"prize": prize}, headers=h)
            for p in client.get(f"/api/games/{gid}/ledger", headers=h).get_json()["payouts"]:
                client.post(f"/api/ledger/payouts/{p['payout_id']}/paid", headers=h)
            client.post(f"/api/games/{gid}/end", headers=h)
        from bingo_hall.audit import export_lines

        with app.app_context():
            conn = store.keeper(app)
            anchor, found = store.entries(conn)
            head = store.exported_head(conn, store.station_key(app), found)
        text = ("\n".join(export_lines(anchor, found, head, None, False)) + "\n").encode()
        return len(found), len(text), len(gzip.compress(text))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--draws", type=int, default=75)
    p.add_argument("--games", type=int, default=12)
    add_smoke(p)
    args = p.parse_args()
    draws, games, runs = (5, 1, 1) if args.smoke else (args.draws, args.games, 3)
    print(f"calibration: python loop {python_loop_ms():.0f} ms (benchmarks/calibrate.py)")
    figures: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for _ in range(runs):
        for arm in (False, True):  # alternating, so both arms see the same busy machine
            t = draw_times(draws, arm)
            figures[arm].append((pct(t, 50), pct(t, 99)))
    for arm, name in ((False, "without the book"), (True, "with the book")):
        p50 = statistics.median(f[0] for f in figures[arm]) * 1000
        p99 = statistics.median(f[1] for f in figures[arm]) * 1000
        print(f"draw {name}: p50 {p50:.2f} ms, p99 {p99:.2f} ms ({draws} draws, median of {runs})")
    ratio = statistics.median(f[1] for f in figures[True]) / statistics.median(
        f[1] for f in figures[False]
    )
    print(f"draw p99 with / without the book: {ratio:.2f} x (target <= 1.1)")
    entries, size, packed = long_night(games)
    print(
        f"book of {games} games (90 balls, ledger, claims, awards, payouts): {entries} entries, "
        f"{size / 1024:.0f} KiB exported, {packed / 1024:.0f} KiB gzipped"
    )


if __name__ == "__main__":
    main()
