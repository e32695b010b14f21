"""Benchmark: the tally of a linked game's results (docs/linked.md). Prints figures; not a test.

    .venv/bin/python benchmarks/linked.py [--halls 1000] [--balls 90] [--smoke]

`--halls` halls each sell 10 to 60 random tickets of one of four decks, call the committed order
and send the signed result of their first full house, made by the real code (`make_result`, each
with its own station key and its book's signed head); one in twenty sends a forged one instead.
What is timed is the organiser's `tally` of them all, from the files' text to the signed tally:
reading each result, both signatures, the calls against the order, the card against the figure,
the awards. Three runs; the median is the figure. Target: under 5 s for 1000 halls.

The calibration figure (benchmarks/calibrate.py: a fixed pure-Python loop) is printed first.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

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


def main() -> None:
    parser = add_smoke(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--halls", type=int, default=1000)
    parser.add_argument("--balls", type=int, choices=(75, 90), default=90)
    args = parser.parse_args()
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
