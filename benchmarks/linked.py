"""Benchmark: the tally of a linked game's results, and one organiser followed live by hundreds of
halls (docs/linked.md). Prints figures; not a test.

    .venv/bin/python benchmarks/linked.py [--halls 1000] [--balls 90] [--followers 300]
                                          [--calls 30] [--every 1.0] [--smoke]

`--halls` halls each sell 10 to 60 random tickets of one of four decks, call the committed order
and send the signed result of their first full house, made by the real code (`make_result`, each
with its own station key and its book's signed head); one in twenty sends a forged one instead.
What is timed is the organiser's `tally` of them all, from the files' text to the signed tally:
reading each result, both signatures, the calls against the order, the card against the figure,
the awards. Three runs; the median is the figure. Target: under 5 s for 1000 halls.

**Live**: the organiser's station as `bingo-hall linked serve` runs it (a process of its own,
on loopback), followed by `--followers` halls, simulated: asyncio clients in this process, each
reading the organiser's event stream on a connection of its own, as a hall's station does. Each
`call` event carries when the call was due (`at`, the organiser's clock; one machine, one
clock), so a hall's delay for a call is when its client read the event minus `at`. The figure is
the median and the p99 of every call's delay at every hall, over `--calls` calls one `--every`
seconds apart. Target: p99 <= 1 s for 300 halls.

The calibration figure (benchmarks/calibrate.py: a fixed pure-Python loop, and the organiser's
stylesheet over HTTP) is printed first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _smoke import add_smoke  # noqa: E402
from calibrate import line  # noqa: E402

from bingo_hall.audit import Head, StationKey, sha256  # noqa: E402
from bingo_hall.linked.game import Hall, Tiers, Window, new_game  # noqa: E402
from bingo_hall.linked.keys import Signer  # noqa: E402
from bingo_hall.linked.result import make_result  # noqa: E402
from bingo_hall.linked.seed import code_text, linked_order, new_code, station_seed  # noqa: E402
from bingo_hall.linked.tally import State, Submission, tally  # noqa: E402
from bingo_hall.manifest import new_deck, new_strip_deck  # noqa: E402

REGIONS = ["North", "Midlands", "South", "Wales", "Scotland", "Ireland"]
DECKS = {
    75: lambda i: new_deck(300, seed=f"bench-{i}"),
    90: lambda i: new_strip_deck(50, seed=f"bench-{i}"),
}


def results(halls: int, balls: int):
    keys = [StationKey.new() for _ in range(halls)]
    organiser, code = Signer.new(), new_code()
    window = Window.parse("2026-12-05T19:30", "2026-12-05T21:00", "Europe/London")
    game = new_game(
        "Benchmark linked game",
        window,
        balls,
        None,
        Tiers("GBP", 100_000, 25_000, 5_000),
        [
            Hall(f"Hall {i + 1}", REGIONS[i % len(REGIONS)], k.fingerprint)
            for i, k in enumerate(keys)
        ],
        code,
        organiser,
    )
    order = linked_order(station_seed(code), balls)
    figure = game.figure
    rng = random.Random(53)
    decks = [DECKS[balls](i) for i in range(4)]
    done = {(d.deck_id, t.serial): figure.completed_at(t, order) for d in decks for t in d.cards}
    submissions = []
    for i, key in enumerate(keys):
        deck = decks[i % len(decks)]
        sold = rng.sample(deck.cards, rng.randint(10, 60))
        winner = min(sold, key=lambda t: done[deck.deck_id, t.serial])
        at = done[deck.deck_id, winner.serial]
        head = key.sign(Head(100 + i, sha256(f"{i}".encode())))
        result = make_result(
            game,
            f"Hall {i + 1}",
            Signer.of_station(key),
            head,
            order[:at],
            window.start + timedelta(minutes=rng.randint(5, 85)),
            deck.deck_id,
            winner,
        )
        text = result.text()
        if i % 20 == 19:  # a lower count written into a signed result
            data = json.loads(text)
            data["count"], data["calls"] = at - 5, data["calls"][: at - 5]
            text = json.dumps(data)
        submissions.append(Submission(f"hall-{i + 1:04}.json", text))
    return game, code_text(code), organiser, submissions


def organiser(folder: Path, halls: int, every: float) -> tuple[subprocess.Popen[str], int]:
    """`bingo-hall linked new` and `linked serve` as the organiser runs them: a window open
    since a minute ago; the served process and its port."""
    now = datetime.now(ZoneInfo("Europe/London"))
    fmt = "%Y-%m-%dT%H:%M"
    keys = [StationKey.new() for _ in range(halls)]
    kit = [sys.executable, "-m", "bingo_hall", "linked"]
    argv = [*kit, "new", "Live benchmark", "--start", (now - timedelta(minutes=1)).strftime(fmt)]
    argv += ["--end", (now + timedelta(hours=2)).strftime(fmt), "--zone", "Europe/London"]
    argv += ["--national", "1000", "-o", str(folder)]
    for i, key in enumerate(keys):
        argv += ["--hall", f"Hall {i + 1},{REGIONS[i % len(REGIONS)]},{key.fingerprint}"]
    subprocess.run(argv, check=True, capture_output=True, cwd=ROOT)
    proc = subprocess.Popen(
        [*kit, "serve", str(folder), "--port", "0", "--every", str(every)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    for said in proc.stdout:
        found = re.search(r"Organiser: http://127\.0\.0\.1:(\d+)/", said)
        if found:
            return proc, int(found.group(1))
    raise SystemExit(f"the organiser's station did not start: {proc.stderr and proc.stderr.read()}")


async def follow(port: int, calls: int, delays: list[float]) -> None:
    """One simulated hall: the stream read line by line, each call's delay noted, until it has
    received `calls` calls after its snapshot (the calls made before it came are in that)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write(b"GET /calls/events HTTP/1.0\r\nHost: organiser\r\n\r\n")
    await writer.drain()
    seen = 0
    event = ""
    try:
        while seen < calls:
            raw = await reader.readline()
            if not raw:
                raise SystemExit("the organiser's stream ended early")
            text = raw.decode().rstrip("\r\n")
            if text.startswith("event: "):
                event = text[7:]
            elif text.startswith("data: ") and event == "call":
                data = json.loads(text[6:])
                delays.append(time.time() - data["at"])
                seen += 1
    finally:
        writer.close()


async def followed(port: int, halls: int, calls: int) -> list[float]:
    delays: list[float] = []
    await asyncio.gather(*(follow(port, calls, delays) for _ in range(halls)))
    return delays


def live(halls: int, calls: int, every: float) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        proc, port = organiser(Path(scratch) / "game", 3, every)
        try:
            print(line("127.0.0.1", port, "/static/organiser.css"))
            t = time.perf_counter()
            delays = sorted(asyncio.run(followed(port, halls, calls)))
            took = time.perf_counter() - t
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
    print(
        f"live: {halls} halls followed the organiser for {calls} calls {every:g} s apart "
        f"({took:.1f} s, {len(delays)} calls received); delay from the call to the hall: "
        f"median {statistics.median(delays) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
        f"max {delays[-1] * 1000:.0f} ms; target p99 <= 1000 ms for 300 halls"
    )


def main() -> None:
    parser = add_smoke(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--halls", type=int, default=1000)
    parser.add_argument("--balls", type=int, choices=(75, 90), default=90)
    parser.add_argument("--followers", type=int, default=300)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--every", type=float, default=1.0)
    args = parser.parse_args()
    if args.smoke:
        live(10, 3, 0.2)
    else:
        live(args.followers, args.calls, args.every)
    halls = 20 if args.smoke else args.halls
    print(line())
    t = time.perf_counter()
    game, code, organiser, submissions = results(halls, args.balls)
    print(f"{halls} halls' results made in {time.perf_counter() - t:.1f} s (not timed)")
    runs = []
    for _ in range(1 if args.smoke else 3):
        t = time.perf_counter()
        made = tally(game, code, submissions, datetime.now(UTC), organiser)
        runs.append(time.perf_counter() - t)
    won = sum(1 for s in made.standings if s.state == State.WON)
    national = made.awards[0]
    print(
        f"tally of {halls} halls ({args.balls} balls): {won} won, {len(made.refused)} refused; "
        f"national at call {national.count}, shared by {len(national.winners)}"
    )
    per = statistics.median(runs) / halls * 1000
    print(
        f"tally: median {statistics.median(runs):.2f} s of {len(runs)} runs "
        f"({', '.join(f'{r:.2f}' for r in runs)}), {per:.2f} ms a hall; target < 5 s for 1000 halls"
    )


if __name__ == "__main__":
    main()
