"""Benchmark: a served station on loopback with many screens (issue 4). Prints figures; not a test.

    .venv/bin/python benchmarks/station.py [--clients 300] [--draws 40]
        [--pollers 20] [--poll-interval 0.5]

It starts `bingo-hall serve` as a real process (waitress, one thread per open event stream),
loads a deck, starts a game, opens N Server-Sent Events clients and keeps `pollers` clients
polling `GET /api/games/<id>` (each every `poll-interval` s; 0 = flat out). Then it times
each measurement in MEASUREMENTS.

`draw_to_event`: for each draw, the time from sending `POST /draw` to each SSE client receiving
its `call` event (so N samples per draw); p50/p99 over all of them. Target: p99 <= 50 ms.

To add a measurement (e.g. the claims check under the same load), write
`async def measure_x(bench: Bench) -> dict[str, float]` and append it to MEASUREMENTS; `bench`
gives the URL, game id, bearer headers, deck and the helper `bench.request()`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bingo_hall.manifest import Deck, new_deck, save_deck  # noqa: E402

PIN = "424242"
_SEQ = re.compile(rb'"seq":(\d+)')


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class Bench:
    host: str
    port: int
    game_id: int
    headers: dict[str, str]
    deck: Deck
    received: dict[int, list[float]] = field(default_factory=dict)  # seq -> receive times
    pid: int = 0  # the station process

    async def request(self, method: str, path: str, body: dict | None = None, auth=True):
        """One HTTP/1.1 request on a fresh connection: (status, parsed JSON body)."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        payload = json.dumps(body or {}).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", "Connection: close"]
        if auth:
            head += [f"{k}: {v}" for k, v in self.headers.items()]
        head += ["Content-Type: application/json", f"Content-Length: {len(payload)}", "", ""]
        writer.write("\r\n".join(head).encode() + payload)
        await writer.drain()
        raw = await reader.read()
        writer.close()
        status = int(raw.split(b" ", 2)[1])
        text = raw.split(b"\r\n\r\n", 1)[1]
        if b"Transfer-Encoding: chunked" in raw.split(b"\r\n\r\n", 1)[0]:
            text = _unchunk(text)
        return status, json.loads(text) if text.strip() else None


def _unchunk(data: bytes) -> bytes:
    out, rest = b"", data
    while rest:
        size_line, rest = rest.split(b"\r\n", 1)
        size = int(size_line, 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2 :]
    return out


class SSEClient(asyncio.Protocol):
    """One screen. A bare protocol (no line reader) so that the benchmark's own cost of noticing
    an event is a few microseconds per screen, not part of what it measures."""

    def __init__(self, bench: Bench, ready: asyncio.Event, counter: list[int], total: int):
        self.bench, self.ready, self.counter, self.total = bench, ready, counter, total
        self.seen_snapshot = False

    def connection_made(self, transport) -> None:
        transport.write(
            f"GET /api/games/{self.bench.game_id}/events HTTP/1.1\r\n"
            f"Host: {self.bench.host}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        if not self.seen_snapshot and b"event: snapshot" in data:
            self.seen_snapshot = True
            self.counter[0] += 1
            if self.counter[0] == self.total:
                self.ready.set()
        if b"event: call" in data:
            for m in _SEQ.finditer(data):
                self.bench.received.setdefault(int(m.group(1)), []).append(now)


async def sse_client(bench: Bench, ready: asyncio.Event, counter: list[int], total: int):
    loop = asyncio.get_running_loop()
    transport, _ = await loop.create_connection(
        lambda: SSEClient(bench, ready, counter, total), bench.host, bench.port
    )
    return transport


async def poller(bench: Bench, stop: asyncio.Event, count: list[int], interval: float):
    """A screen or phone that polls instead of listening, on one kept-alive connection as a
    browser or `requests.Session` would."""
    reader, writer = await asyncio.open_connection(bench.host, bench.port)
    request = (
        f"GET /api/games/{bench.game_id} HTTP/1.1\r\nHost: {bench.host}\r\n"
        "Connection: keep-alive\r\n\r\n"
    ).encode()
    try:
        while not stop.is_set():
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
            await reader.readexactly(length)
            count[0] += 1
            await asyncio.sleep(interval)
    finally:
        writer.close()


def server_cpu_seconds(pid: int) -> float | None:
    """utime + stime of the station process (Linux /proc), to tell its cost from the machine's."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure_draw_to_event(bench: Bench, draws: int, clients: int) -> dict[str, float]:
    latencies, answer = [], []
    cpu0 = server_cpu_seconds(bench.pid)
    for _ in range(draws):
        t0 = time.perf_counter()
        status, data = await bench.request("POST", f"/api/games/{bench.game_id}/draw")
        answer.append(time.perf_counter() - t0)
        assert status == 200, data
        deadline = time.perf_counter() + 5
        while len(bench.received.get(data["seq"], [])) < clients:
            if time.perf_counter() > deadline:
                raise SystemExit(f"only {len(bench.received.get(data['seq'], []))} got seq")
            await asyncio.sleep(0.001)
        latencies += [t - t0 for t in bench.received[data["seq"]]]
        await asyncio.sleep(0.05)
    return {
        "draw->event p50 ms": 1000 * statistics.median(latencies),
        "draw->event p99 ms": 1000 * percentile(latencies, 99),
        "draw->event max ms": 1000 * max(latencies),
        "draw answer p50 ms": 1000 * statistics.median(answer),
        "samples": len(latencies),
    } | (
        {}
        if cpu0 is None
        else {"station CPU ms per draw": 1000 * (server_cpu_seconds(bench.pid) - cpu0) / draws}
    )


# (name, coroutine function(bench, args) -> dict). The claims check timing is appended here.
MEASUREMENTS = [
    ("draw to event", lambda bench, args: measure_draw_to_event(bench, args.draws, args.clients)),
]


async def measure_check(bench: Bench, checks: int = 300) -> dict[str, float]:
    """Claims (issue 5): `GET /api/games/<id>/check/<serial>`, the Maestro's typed serial, on
    cards spread over the deck, each on a fresh connection. Target: p99 <= 20 ms."""
    times = []
    for i in range(checks):
        serial = 1 + (i * 37) % len(bench.deck.cards)
        t0 = time.perf_counter()
        status, data = await bench.request("GET", f"/api/games/{bench.game_id}/check/{serial}")
        times.append(time.perf_counter() - t0)
        assert status == 200 and data["serial"] == serial, data
    return {
        "check p50 ms": 1000 * statistics.median(times),
        "check p99 ms": 1000 * percentile(times, 99),
        "check max ms": 1000 * max(times),
        "samples": len(times),
    }


MEASUREMENTS.append(("claims check", lambda bench, args: measure_check(bench)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_station(tmp: Path, deck_path: Path, threads: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    argv = [sys.executable, "-m", "bingo_hall.cli", "serve", "--host", "127.0.0.1"]
    argv += ["--port", str(port), "--db", str(tmp / "bench.sqlite"), "--pin", PIN]
    argv += ["--threads", str(threads), "--deck", str(deck_path)]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, env=os.environ.copy())
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the station did not start")


async def run(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        deck = new_deck(300, seed="bench", name="Bench")
        deck_path = save_deck(deck, Path(tmp) / "bench.deck.json")
        threads = args.clients + args.pollers + 32
        proc, port = start_station(Path(tmp), deck_path, threads)
        try:
            bench = Bench("127.0.0.1", port, 0, {}, deck, pid=proc.pid)
            _, login = await bench.request("POST", "/api/login", {"pin": PIN}, auth=False)
            bench.headers = {"Authorization": "Bearer " + login["token"]}
            _, game = await bench.request("POST", "/api/games", {"deck_id": deck.deck_id})
            bench.game_id = game["game_id"]
            ready, counter = asyncio.Event(), [0]
            readers = [
                await sse_client(bench, ready, counter, args.clients) for _ in range(args.clients)
            ]
            await asyncio.wait_for(ready.wait(), 60)
            stop, polls = asyncio.Event(), [0]
            pollers = [
                asyncio.create_task(poller(bench, stop, polls, args.poll_interval))
                for _ in range(args.pollers)
            ]
            t_start = time.perf_counter()
            print(
                f"station on 127.0.0.1:{port}, waitress threads {threads}, "
                f"{args.clients} SSE clients, {args.pollers} pollers of GET /api/games/<id> "
                f"(each every {args.poll_interval} s); load average before: "
                + " ".join(f"{x:.1f}" for x in os.getloadavg())
                + f" on {os.cpu_count()} CPUs"
            )
            for name, fn in MEASUREMENTS:
                figures = await fn(bench, args)
                print(f"{name}:")
                for k, v in figures.items():
                    print(f"  {k:24} {v:10.1f}" if isinstance(v, float) else f"  {k:24} {v:>10}")
            stop.set()
            elapsed = time.perf_counter() - t_start
            print(f"polls served meanwhile: {polls[0]} ({polls[0] / elapsed:.0f}/s)")
            await asyncio.gather(*pollers, return_exceptions=True)
            for transport in readers:
                transport.close()
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=300)
    p.add_argument("--draws", type=int, default=40)
    p.add_argument("--pollers", type=int, default=20)
    p.add_argument("--poll-interval", type=float, default=0.5, help="seconds between polls")
    asyncio.run(run(p.parse_args()))


if __name__ == "__main__":
    main()
