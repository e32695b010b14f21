"""Station draw -> device ACK latency over a pty (issue 6 target: p99 <= 10 ms).

A real station (SQLite, the JSON API) draws every ball of several games; the bridge follows it
and sends SHOW to an emulated board (the reference firmware) on a pseudo-terminal. For each draw
we time from the moment the draw request starts until the host reads the board's `R<seq> OK` for
that ball's SHOW. Two ways of following the station:

- embedded: `bingo-hall serve --device` (in-process broker), draws through the Flask test client;
- http: `bingo-hall bridge` (SSE over HTTP from the station's server), draws by HTTP POST.

Two figures per mode: from the station publishing the call (after its fsync'ed SQLite commit) to
the ACK, which is the bridge's own latency, and from the start of the draw request to the ACK,
which adds the draw itself. The load average is printed too: on a shared machine it dominates p99.

Run: .venv/bin/python benchmarks/bridge.py [--games 4]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from _measure import percentile
from _smoke import add_smoke

from bingo_hall.app import create_app
from bingo_hall.manifest import new_deck
from bingo_hall.web.instance import hall
from firmware_bridge.embedded import register as start_in_station
from firmware_bridge.emulator import Emulator
from firmware_bridge.follow import Follower
from firmware_bridge.host import DeviceLink
from firmware_bridge.station_client import HttpSource

PIN = "135790"


PUBLISHED: dict[int, float] = {}


def _time_publishes(app) -> None:
    """Note when the station publishes each call (wraps the hub's publish; benchmark only)."""
    hub = hall(app).hub
    publish = hub.publish

    def timed(channel, event, data, text=None):
        if event == "call":
            PUBLISHED[data["ball"]] = time.perf_counter()
        return publish(channel, event, data, text)

    hub.publish = timed


class Acks:
    """on_reply hook: when did the board acknowledge SHOW <ball>?"""

    def __init__(self) -> None:
        self.at: dict[int, float] = {}
        self.cond = threading.Condition()

    def __call__(self, verb, ball, reply) -> None:
        if verb == "SHOW" and reply.ok:
            with self.cond:
                self.at[ball] = time.perf_counter()
                self.cond.notify_all()

    def wait(self, ball: int, timeout: float = 5.0) -> float:
        with self.cond:
            self.cond.wait_for(lambda: ball in self.at, timeout)
            return self.at[ball]


def run_games(post, games: int, acks: Acks, follower: Follower) -> tuple[list[float], list[float]]:
    """Draw `games` full games through `post(path, body)`; return the publish->ACK and the
    request->ACK latencies (s)."""
    deck = new_deck(6, seed="bench", name="Bench")
    post("/api/decks", json.loads(deck.to_json()))
    lat, full = [], []
    for _ in range(games):
        gid = post("/api/games", {"deck_id": deck.deck_id, "draw": "auto"})["game_id"]
        deadline = time.monotonic() + 5
        while follower.game_id != gid and time.monotonic() < deadline:  # a new game is found by
            time.sleep(0.005)  # polling: the benchmark times the draws, not the discovery
        acks.at.clear()
        for _ in range(75):
            t0 = time.perf_counter()
            ball = post(f"/api/games/{gid}/draw", {})["ball"]
            acked = acks.wait(ball)
            lat.append(acked - PUBLISHED[ball])
            full.append(acked - t0)
        post(f"/api/games/{gid}/end", {})
    return lat, full


def embedded(tmp: Path, games: int) -> tuple[list[float], list[float], dict]:
    app = create_app(
        {
            "DATABASE": str(tmp / "e.sqlite"),
            "CALLER_PIN": PIN,
            "SECRET_KEY": "bench",
        },
        instance_path=str(tmp),
    )
    _time_publishes(app)
    emu = Emulator("board", link=str(tmp / "board-e")).start()
    bridge = start_in_station(app, emu.path)
    acks = Acks()
    bridge.link.on_reply = acks
    client = app.test_client()
    token = client.post("/api/login", json={"pin": PIN}).get_json()["token"]
    auth = {"Authorization": f"Bearer {token}"}

    def post(path, body):
        return client.post(path, json=body, headers=auth).get_json()

    try:
        bridge.link.wait_synced()
        lat, draw = run_games(post, games, acks, bridge.follower)
        return lat, draw, bridge.link.counters
    finally:
        bridge.stop()
        emu.stop()


def http(tmp: Path, games: int) -> tuple[list[float], list[float], dict]:
    from bingo_hall.web.station_server import Server

    app = create_app(
        {
            "DATABASE": str(tmp / "h.sqlite"),
            "CALLER_PIN": PIN,
            "SECRET_KEY": "bench",
            "THREADS": 8,
        },
        instance_path=str(tmp),
    )
    _time_publishes(app)
    server = Server(app, "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{server.port}"
    emu = Emulator("board", link=str(tmp / "board-h")).start()
    source = HttpSource(url, PIN)
    source.login()
    acks = Acks()
    follower = Follower(source, link=None, poll=0.05)
    link = DeviceLink(emu.path, on_ball=follower.on_ball, on_reply=acks).start()
    follower.link = link
    threading.Thread(target=follower.run, daemon=True).start()

    def post(path, body):
        req = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST")
        req.add_header("Content-Type", "application/json")
        req.add_header("Authorization", f"Bearer {source.token}")
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read())

    try:
        link.wait_synced()
        lat, draw = run_games(post, games, acks, follower)
        return lat, draw, link.counters
    finally:
        follower.stop()
        link.stop()
        emu.stop()
        server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="75 draws each")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.games = 1
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in (("embedded", embedded), ("http", http)):
            lat, full, counters = fn(Path(tmp), args.games)
            for label, xs in (("publish->ACK", lat), ("request->ACK", full)):
                ms = [x * 1000 for x in xs]
                print(
                    f"{name:9s} {label:13s} n={len(ms)}  p50 {statistics.median(ms):6.2f} ms  "
                    f"p99 {percentile(ms, 99):6.2f} ms  max {max(ms):7.2f} ms"
                )
            print(f"{name:9s} resends {counters['resends']}")


if __name__ == "__main__":
    main()
