"""Benchmark: what one phone's join costs the station's processes in CPU time (issue 32). Prints
figures; not a test.

    .venv/bin/python benchmarks/public_cpu.py [--phones 600] [--runs 3] [--at-once 100]
        [--station-root DIR] [--spy FILE] [--smoke]

It starts `bingo-hall serve` as a real process with its default settings (split: the Maestro's
process and the phones' one, web/phones_process.py), loads a deck of `--runs` x `--phones` cards
(+3) and starts a game, then waits until the station is idle (its start-up done, the deck read).
Each run then joins `--phones` phones, at most
`--at-once` at a time, each with a card no phone of any run has asked for (in a join storm every
card is asked once): its page, the page's files exactly as a browser fetches them, and its card
stream until the snapshot (phones.py's `Phone.join`, the simulator of the phones benchmark).
Printed per run: the CPU time (user + system, from /proc) the phones' process and the Maestro's
spent, per phone; then the medians of the runs. CPU time barely moves with the machine's load, so
the figure holds on a busy machine; the calibration line beside it says how fast the machine is.

`--station-root DIR` serves the station from another checkout (a checkout of main measures
"before"; the phones are this checkout's). `--spy FILE` records the public process with py-spy
(raw format) during the last run. ("public" in its lines is the phones' process.) `--spread S`:
each phone arrives at a random time within S s, as in a storm, not as soon as one before it is
done. After each run the streams are left open 5 s with nothing happening, and the phones'
process's CPU meanwhile is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import calibrate  # noqa: E402
from phones import PIN, Bench, Conn, Phone  # noqa: E402
from station import (  # noqa: E402
    run_loop,
    serving_pids,
    start_station,
    station_mode,
    station_tree,
)

from bingo_hall.manifest import new_deck, save_deck  # noqa: E402
from bingo_hall.signing import card_path  # noqa: E402

#: the station counts as idle when its processes spent less than this CPU in IDLE_S
IDLE_CPU_S = 0.05
IDLE_S = 1.0
#: how long the streams of a run are left open, with nothing happening, before they close
OPEN_S = 5.0


def cpu_s(pid: int) -> float:
    """A process's CPU time so far (user + system), in seconds (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_s(pid: int) -> float:
    return sum(cpu_s(p) for p in station_tree(pid))


async def idle(pid: int, most_s: float = 300.0) -> float:
    """Wait until the station's processes are idle (the tables drawn); the seconds it took."""
    t0 = time.monotonic()
    before = tree_cpu_s(pid)
    while time.monotonic() - t0 < most_s:
        await asyncio.sleep(IDLE_S)
        now = tree_cpu_s(pid)
        if now - before < IDLE_CPU_S:
            return time.monotonic() - t0
        before = now
    raise SystemExit("the station never went idle")


async def game_started(port: int, deck) -> int:
    """The Maestro logs in to the station on `port` and starts a game of `deck`: its id."""
    conn = Conn("127.0.0.1", port)
    _, data = await conn.request("POST", "/api/login", json.dumps({"pin": PIN}).encode())
    auth = [f"Authorization: Bearer {json.loads(data)['token']}"]
    body = json.dumps({"deck_id": deck.deck_id}).encode()
    _, data = await conn.request("POST", "/api/games", body, auth)
    conn.close()
    return json.loads(data)["game_id"]


async def one_run(
    bench: Bench, deck, serials: list[int], at_once: int, spread_s: float = 0.0
) -> list[Phone]:
    gate = asyncio.Semaphore(at_once)
    phones = [
        Phone(bench, card_path(deck.secret, deck.deck_id, s), Conn(bench.host, bench.port))
        for s in serials
    ]

    async def join(p: Phone) -> None:
        if spread_s:  # arrivals spread as a storm's are (phones.py's join window)
            await asyncio.sleep(random.uniform(0, spread_s))
        async with gate:
            await p.join()
            p.conn.close()  # the page's files are kept by the browser: only the stream stays

    await asyncio.gather(*(join(p) for p in phones))
    return phones


async def run(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        deck = new_deck(args.runs * args.phones + 3, seed="public-cpu")
        deck_path = save_deck(deck, Path(tmp) / "bench.deck.json")
        import station

        station.ROOT = Path(args.station_root or ROOT).resolve()  # the checkout being measured
        proc, port = start_station(Path(tmp), deck_path)
        try:
            bench = Bench("127.0.0.1", port, await game_started(port, deck), legacy=False)
            took = await idle(proc.pid)
            pids = serving_pids(proc.pid)
            if len(pids) < 2:
                raise SystemExit("the station runs in one process: no phones' process to measure")
            maestro, public = pids
            print(calibrate.line("127.0.0.1", port, "/web/static/live.js"))
            print(
                f"station from {station.ROOT} on :{port} (default serve settings), "
                f"{station_mode(proc.pid)}; a deck "
                f"of {len(deck.cards)} cards, idle {took:.0f} s after its game "
                f"started; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}"
            )
            per_public, per_maestro = [], []
            for r in range(args.runs):
                spy = None
                if args.spy and r == args.runs - 1:
                    spy = subprocess.Popen(
                        ["py-spy", "record", "-r", "200", "-f", "raw", "-o", args.spy,
                         "-p", str(public)],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    )  # fmt: skip
                    await asyncio.sleep(1.0)
                serials = list(range(r * args.phones + 1, (r + 1) * args.phones + 1))
                p0, m0, t0 = cpu_s(public), cpu_s(maestro), time.monotonic()
                phones = await one_run(bench, deck, serials, args.at_once, args.spread)
                wall = time.monotonic() - t0
                p1, m1 = cpu_s(public), cpu_s(maestro)
                per_public.append(1000 * (p1 - p0) / args.phones)
                per_maestro.append(1000 * (m1 - m0) / args.phones)
                files = len(phones[0].cached)
                print(
                    f"  run {r + 1}: {args.phones} phones ({files} files each) in {wall:.1f} s: "
                    f"public cpu {per_public[-1]:.2f} ms/phone, maestro cpu "
                    f"{per_maestro[-1]:.2f} ms/phone (load {os.getloadavg()[0]:.2f})"
                )
                if spy is not None:
                    spy.send_signal(2)
                    spy.wait()
                p0, t0 = cpu_s(public), time.monotonic()
                await asyncio.sleep(OPEN_S)
                print(
                    f"  then, {args.phones} streams open and nothing happening: public cpu "
                    f"{1000 * (cpu_s(public) - p0) / (time.monotonic() - t0):.1f} ms/s"
                )
                for p in phones:
                    p.drop()
                await idle(proc.pid)
            print(
                f"median of {args.runs}: public cpu {statistics.median(per_public):.2f} ms/phone, "
                f"maestro cpu {statistics.median(per_maestro):.2f} ms/phone"
            )
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--phones", type=int, default=600, help="phones joining per run")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--at-once", type=int, default=100, help="phones joining at the same time")
    p.add_argument("--station-root", default=None, help="the checkout whose station is served")
    p.add_argument(
        "--spread", type=float, default=0.0, help="each phone arrives at a random time in S s"
    )
    p.add_argument("--spy", default=None, help="record the public process with py-spy")
    p.add_argument("--smoke", action="store_true", help="20 phones, one run: seconds")
    args = p.parse_args()
    if args.smoke:
        args.phones, args.runs = 20, 1
    run_loop(run(args))  # uvloop, as the station: the phones take as little CPU as they can


if __name__ == "__main__":
    main()
