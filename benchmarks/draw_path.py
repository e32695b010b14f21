"""Benchmark: the Maestro's draw with no phone, and what it costs the Maestro's process (issue 32).
Prints figures; not a test.

    .venv/bin/python benchmarks/draw_path.py [--draws 200] [--station-root DIR] [--smoke]

It starts `bingo-hall serve` as a real process with its default settings (from `--station-root`,
this checkout unless given: a checkout of an older commit measures "before"), loads a deck,
starts a game and draws `--draws` times on one kept-alive connection, one draw every
EVERY_S. Figures: the draw's answer time (p50, p99), and per draw the Maestro's process's CPU
time and its threads' wake-ups (the voluntary context switches of all its threads, from
/proc: each wake-up is a thread that must win a core again, which is what a join storm makes
the draw wait for). A calibration line first (calibrate.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import calibrate  # noqa: E402
import station  # noqa: E402
from _measure import percentile  # noqa: E402
from _smoke import add_smoke  # noqa: E402
from phones import PIN, Conn, draw_once  # noqa: E402
from station import start_station  # noqa: E402

from bingo_hall.manifest import new_deck, save_deck  # noqa: E402

EVERY_S = 0.05


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wake_ups(pid: int) -> int:
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                total += sum(int(line.split()[1]) for line in f if line.startswith("voluntary"))
        except OSError:  # a thread that ended meanwhile
            continue
    return total


async def measure(port: int, pid: int, deck_id: str, draws: int) -> dict[str, float]:
    conn = Conn("127.0.0.1", port)
    _, said = await conn.request(
        "POST", "/api/login", json.dumps({"pin": PIN}).encode(), ["Content-Type: application/json"]
    )
    auth = [f"Authorization: Bearer {json.loads(said)['token']}", "Content-Type: application/json"]
    _, said = await conn.request(
        "POST", "/api/games", json.dumps({"deck_id": deck_id}).encode(), auth
    )
    game = json.loads(said)["game_id"]
    await asyncio.sleep(1.0)  # the game's start settles (the card tables' worker, the snapshot)
    took: list[float] = []
    cpu0, woke0 = cpu_s(pid), wake_ups(pid)
    while len(took) < draws:
        drawn = await draw_once(conn, game, auth)
        if drawn is not None:
            took.append(drawn[0])
            await asyncio.sleep(EVERY_S)
    cpu1, woke1 = cpu_s(pid), wake_ups(pid)
    conn.close()
    return {
        "p50_ms": 1000 * percentile(took, 50),
        "p99_ms": 1000 * percentile(took, 99),
        "cpu_ms": 1000 * (cpu1 - cpu0) / draws,
        "wake_ups": (woke1 - woke0) / draws,
    }


def main() -> None:
    ap = add_smoke(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--draws", type=int, default=200)
    ap.add_argument("--station-root", default=None, help="the checkout whose station is served")
    args = ap.parse_args()
    draws = 5 if args.smoke else args.draws
    station.ROOT = Path(args.station_root or ROOT).resolve()  # serve from that checkout
    print(f"calibration: pure-Python loop {calibrate.python_loop_ms():.0f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        deck = new_deck(100, seed="draw path", name="Draws")
        proc, port = start_station(Path(tmp), save_deck(deck, Path(tmp) / "deck.json"))
        try:
            got = asyncio.run(measure(port, proc.pid, deck.deck_id, draws))
        finally:
            proc.terminate()
            proc.wait(30)
    print(
        f"station from {station.ROOT}: {draws} draws, one every {EVERY_S * 1000:.0f} ms: answer "
        f"p50 {got['p50_ms']:.1f} ms, p99 {got['p99_ms']:.1f} ms; per draw, the Maestro's "
        f"process: {got['cpu_ms']:.2f} ms CPU, {got['wake_ups']:.1f} thread wake-ups"
    )


if __name__ == "__main__":
    main()
