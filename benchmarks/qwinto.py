"""Time of companions.qwinto.replay over long 6-player games played to the end.

The companions shell replays a table's whole history on every post, so this is the cost of one
entry at the end of a game: the replay and its view as JSON data (`to_json()`, as the shell sends
it). Median and p95 of 50 runs per game; the calibration figure (benchmarks/calibrate.py) first.

Run: .venv/bin/python benchmarks/qwinto.py [--smoke]
"""

import random
import statistics
import time

from _smoke import smoke_only
from calibrate import python_loop_ms

from companions.qwinto import BOXES_PER_ROW, COLOURS, Entry, Settings, Sheet, replay

PLAYERS = ["Ana", "Beto", "Caro", "Dani", "Eva", "Fede"]


def random_game(players: list[str], seed: int) -> list[dict]:
    """A legal game: each turn the active player rolls 1-3 dice, everyone writes where it fits."""
    rng = random.Random(seed)
    sheets = {p: Sheet() for p in players}
    entries: list[dict] = []
    turn = 0
    while not any(s.game_over for s in sheets.values()) and turn < 400:
        active = players[turn % len(players)]
        dice = rng.sample(COLOURS, rng.randint(1, 3))
        total = sum(rng.randint(1, 6) for _ in dice)
        entries.append({"op": "roll", "player": active, "colours": dice, "sum": total})
        for p in [active] + [q for q in players if q != active]:
            spots = [
                (c, b) for c in dice for b in range(BOXES_PER_ROW) if sheets[p].fits(c, b, total)
            ]
            if spots:
                c, b = rng.choice(spots)
                sheets[p].place(c, b, total)
                entries.append({"op": "place", "player": p, "colour": c, "box": b, "value": total})
            elif p == active:
                sheets[p].fail()
                entries.append({"op": "fail", "player": p})
        turn += 1
    return [{**e, "id": i + 1} for i, e in enumerate(entries)]


if __name__ == "__main__":
    smoke = smoke_only(__doc__)
    runs = 3 if smoke else 50
    print(f"calibration: python loop {python_loop_ms():.0f} ms (benchmarks/calibrate.py)")
    for seed in (1,) if smoke else (1, 2, 3):
        entries = random_game(PLAYERS, seed)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            # the stored JSON read into the engine's values, as the shell does on every replay
            view = replay(Settings(), PLAYERS, [Entry.from_json(e) for e in entries])
            view.to_json()
            times.append(time.perf_counter() - t)
        times.sort()
        p95 = times[int(0.95 * runs) - 1]
        print(
            f"game {seed}: {len(entries)} entries, finished={view.finished}, "
            f"median {statistics.median(times) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms"
        )
