"""Replay cost of a long Domino Bingo table (the companions shell replays every entry on every
post): 60 hands, 240 entries, the replay and its view as JSON data (`to_json()`, as the shell
sends it). Median and p95 of 200 runs; the calibration figure (benchmarks/calibrate.py) first.

Run: .venv/bin/python benchmarks/domino.py [--smoke]
"""

import random
import statistics
import time

from _smoke import smoke_only
from calibrate import python_loop_ms

from companions.domino_bingo import TILES, Entry, Settings, replay


def long_table(hands: int = 60, seed: int = 9) -> list[dict]:
    rng = random.Random(seed)
    entries: list[dict] = []
    for _ in range(hands):
        tiles = list(TILES)
        rng.shuffle(tiles)
        entries.append({"type": "hand", "trump": rng.randrange(7)})
        entries.append({"type": "declare", "player": "Ana", "doubles": 2})
        entries.append({"type": "tricks", "player": "Ana", "tiles": [list(t) for t in tiles[:5]]})
        entries.append({"type": "tricks", "player": "Beto", "tiles": [list(t) for t in tiles[5:9]]})
    return [{**e, "id": i} for i, e in enumerate(entries)]


if __name__ == "__main__":
    smoke = smoke_only(__doc__)
    entries = long_table(hands=5 if smoke else 60)
    runs = 3 if smoke else 200
    print(f"calibration: python loop {python_loop_ms():.0f} ms (benchmarks/calibrate.py)")
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        # the stored JSON read into the engine's values, as the shell does on every replay
        stored = [Entry.from_json(e) for e in entries]
        view = replay(Settings.from_json({"rubbers_to_win": 99}), ["Ana", "Beto"], stored)
        view.to_json()
        times.append(time.perf_counter() - t0)
    times.sort()
    print(
        f"{len(entries)} entries ({view.hands_played} hands, "
        f"{sum(view.rubbers.values())} rubbers): median "
        f"{statistics.median(times) * 1e3:.2f} ms, p95 {times[int(0.95 * runs) - 1] * 1e3:.2f} ms"
    )
