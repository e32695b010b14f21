"""Benchmark: a served station on loopback with many screens (issues 4 and 14). Prints figures;
not a test.

    .venv/bin/python benchmarks/station.py [--clients 1000] [--draws 40]
        [--pollers 20] [--poll-interval 0.5]
    .venv/bin/python benchmarks/station.py --screens 250,500,1000,1500,2000   # ramp

It starts `bingo-hall serve` as a real process with its default settings (one event loop writes
every live stream; `--threads` workers run the rest), loads a deck, starts a game, opens N
Server-Sent Events clients (in each screen worker the first is a big screen, the others phones
following their cards: `?view=card`, as the card page asks) and keeps `pollers` clients polling
`GET /api/games/<id>` (each every `poll-interval` s; 0 = flat out). Then it times each
measurement in MEASUREMENTS, and reports the station's resident memory per open screen and any
stream it refused.

The screens live in `--workers` processes of their own (phones are other devices): the Maestro's
timings are then not stuck behind the benchmark's own handling of N events. Receive times are
`time.monotonic()`, one clock for every process on the machine.

`draw_to_event`: for each draw, the time from sending `POST /draw` to each SSE client receiving
its `call` event (so N samples per draw); p50/p99 over all of them. Target: p99 <= 50 ms, and
the Maestro's draw answer p99 <= 50 ms.

`--screens` ramps: it adds screens up to each count in turn, times `--draws` draws at each, and
reports the first count where draw -> every screen p99 crosses 50 ms.

To add a measurement (e.g. the claims check under the same load), write
`async def measure_x(bench: Bench) -> dict[str, float]` and append
`(name, lambda bench, args, screens: measure_x(bench))` to MEASUREMENTS; `bench` gives the URL,
game id, bearer headers, deck and the helper `bench.request()`.
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _measure import free_port, percentile  # noqa: E402
from _smoke import add_smoke  # noqa: E402

from bingo_hall.manifest import Deck, new_deck, save_deck  # noqa: E402

PIN = "424242"
_SEQ = re.compile(rb'"seq":(\d+)')


@dataclass
class Bench:
    host: str
    port: int
    game_id: int
    headers: dict[str, str]
    deck: Deck
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

    def __init__(self, worker: ScreenWorker, host: str, game_id: int, view: str):
        self.worker, self.host, self.game_id, self.view = worker, host, game_id, view
        self.seen_snapshot = False
        self.refused = False

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(
            f"GET /api/games/{self.game_id}/events{self.view} HTTP/1.1\r\n"
            f"Host: {self.host}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        if not self.seen_snapshot:
            if data.startswith(b"HTTP/1.1 ") and data[9:12] != b"200":
                self.refused = True
                self.seen_snapshot = True
                self.worker.opened()
                return
            if b"event: snapshot" in data:
                self.seen_snapshot = True
                self.worker.opened()
        if b"event: call" in data:
            for m in _SEQ.finditer(data):
                self.worker.got(int(m.group(1)), now)


class ScreenWorker:
    """A process holding screens (`station.py --screen-worker HOST PORT GAME`). On stdin:
    `open N` opens N more and answers `opened <refused>`; `report` answers the receive times
    of each seq as JSON (and forgets them). It says `got <seq>` once all its screens have a call."""

    def __init__(self, host: str, port: int, game_id: int) -> None:
        self.host, self.port, self.game_id = host, port, game_id
        self.screens: list[SSEClient] = []
        self.received: dict[int, list[float]] = {}
        self._waiting = 0
        self._all_open = asyncio.Event()

    def opened(self) -> None:
        self._waiting -= 1
        if self._waiting == 0:
            self._all_open.set()

    def got(self, seq: int, now: float) -> None:
        times = self.received.setdefault(seq, [])
        times.append(now)
        if len(times) == sum(1 for s in self.screens if not s.refused):
            print(f"got {seq}", flush=True)

    async def open(self, count: int) -> int:
        loop = asyncio.get_running_loop()
        self._all_open.clear()
        self._waiting = count
        for _ in range(count):
            # each worker's first screen is a big screen (projector); the rest are phones
            # following their cards, which do not take the big screen's claim verdicts
            view = "" if not self.screens else "?view=card"
            _, screen = await loop.create_connection(
                lambda view=view: SSEClient(self, self.host, self.game_id, view),
                self.host,
                self.port,
            )
            self.screens.append(screen)
        if count:
            await asyncio.wait_for(self._all_open.wait(), 120)
        return sum(1 for s in self.screens if s.refused)

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while line := (await reader.readline()).decode().split():
            if line[0] == "open":
                print(f"opened {await self.open(int(line[1]))}", flush=True)
            elif line[0] == "report":
                print(json.dumps(self.received), flush=True)
                self.received = {}
        for screen in self.screens:
            screen.transport.close()


class Screens:
    """The benchmark's side of the screen workers: screens spread evenly over them."""

    def __init__(self, bench: Bench, workers: int) -> None:
        self.bench, self.count = bench, workers
        self.procs: list[asyncio.subprocess.Process] = []
        self.sizes: list[int] = []
        self.refused = 0

    async def start(self) -> None:
        for _ in range(self.count):
            argv = [__file__, "--screen-worker", self.bench.host, str(self.bench.port)]
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                *argv,
                str(self.bench.game_id),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=1 << 28,  # the report is one long JSON line
            )
            self.procs.append(proc)
            self.sizes.append(0)

    @property
    def total(self) -> int:
        return sum(self.sizes)

    async def _line(self, proc) -> list[str]:
        return (await proc.stdout.readline()).decode().split(" ", 1)

    async def open(self, total: int) -> None:
        """Open screens until `total` are open (or refused)."""
        more = max(0, total - self.total)
        shares = [more // self.count + (i < more % self.count) for i in range(self.count)]
        for proc, share in zip(self.procs, shares):
            proc.stdin.write(f"open {share}\n".encode())
        refused = 0
        for i, (proc, share) in enumerate(zip(self.procs, shares)):
            refused += int((await self._line(proc))[1])
            self.sizes[i] += share
        self.refused = refused

    async def wait_for(self, seq: int, timeout: float = 10) -> None:
        """Until every worker with screens says all its screens got `seq`."""

        async def one(proc):
            while (line := await self._line(proc)) != ["got", f"{seq}\n"]:
                if not line[0]:
                    raise SystemExit("a screen worker ended")

        busy = [p for p, n in zip(self.procs, self.sizes) if n]
        await asyncio.wait_for(asyncio.gather(*(one(p) for p in busy)), timeout)

    async def report(self) -> dict[int, list[float]]:
        out: dict[int, list[float]] = {}
        for proc in self.procs:
            proc.stdin.write(b"report\n")
            raw = b""
            while not raw.startswith(b"{"):  # skip `got` lines already read past
                raw = await proc.stdout.readline()
            for seq, times in json.loads(raw).items():
                out.setdefault(int(seq), []).extend(times)
        return out

    async def stop(self) -> None:
        for proc in self.procs:
            proc.stdin.close()
        for proc in self.procs:
            await proc.wait()


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


async def measure_draw_to_event(bench: Bench, draws: int, screens: Screens) -> dict[str, float]:
    sent, answer = {}, []
    cpu0 = server_cpu_seconds(bench.pid)
    for _ in range(draws):
        t0 = time.monotonic()
        status, data = await bench.request("POST", f"/api/games/{bench.game_id}/draw")
        answer.append(time.monotonic() - t0)
        assert status == 200, data
        sent[data["seq"]] = t0
        if screens.total:
            await screens.wait_for(data["seq"])
        await asyncio.sleep(0.05)
    cpu = None if cpu0 is None else server_cpu_seconds(bench.pid) - cpu0
    received = await screens.report()
    latencies = [t - sent[seq] for seq, times in received.items() for t in times] or [0.0]
    return {
        "draw->event p50 ms": 1000 * statistics.median(latencies),
        "draw->event p99 ms": 1000 * percentile(latencies, 99),
        "draw->event max ms": 1000 * max(latencies),
        "draw answer p50 ms": 1000 * statistics.median(answer),
        "draw answer p99 ms": 1000 * percentile(answer, 99),
        "samples": len(latencies) if screens.total else 0,
    } | ({} if cpu is None else {"station CPU ms per draw": 1000 * cpu / draws})


# (name, coroutine function(bench, args) -> dict). The claims check timing is appended here.
MEASUREMENTS = [
    (
        "draw to event",
        lambda bench, args, screens: measure_draw_to_event(bench, args.draws, screens),
    ),
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


MEASUREMENTS.append(("claims check", lambda bench, args, screens: measure_check(bench)))


def server_rss_kb(pid: int) -> int | None:
    """The station's resident memory (Linux /proc), for what an open screen costs."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def start_station(
    tmp: Path, deck_path: Path, one_process: bool = False, preexec=None
) -> tuple[subprocess.Popen, int]:
    """`bingo-hall serve` with its default settings (threads included; the hall's port served
    by the phones' process where the system allows it), or `--one-process`. `preexec` runs in
    the station's process before it starts (phones.py puts it in a cgroup: a CPU quota)."""
    proc, port, _maestro = start_station_ports(tmp, deck_path, one_process, preexec)
    return proc, port


def start_station_ports(
    tmp: Path, deck_path: Path, one_process: bool = False, preexec=None
) -> tuple[subprocess.Popen, int, int]:
    """`start_station`, and the Maestro's port too (where the Maestro's browser draws)."""
    port, maestro_port = free_port(), free_port()
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "127.0.0.1"]
    argv += ["--port", str(port)]
    if (ROOT / "bingo_hall" / "web" / "phones_process.py").exists():  # a station with two ports
        argv += ["--maestro-port", str(maestro_port)]
    else:  # an older checkout (--station-root): one port, the Maestro's too
        maestro_port = port
    argv += ["--db", str(tmp / "bench.sqlite"), "--pin", PIN]
    argv += ["--deck", str(deck_path), *(["--one-process"] if one_process else [])]
    proc = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.DEVNULL, env=os.environ.copy(), preexec_fn=preexec
    )
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port, maestro_port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the station did not start")


def station_tree(pid: int) -> list[int]:
    """The station's process and every process it started (Linux /proc): the public side's,
    the card tables' worker, the replays' worker."""
    found, todo = [], [pid]
    while todo:
        at = todo.pop()
        found.append(at)
        try:
            for task in os.listdir(f"/proc/{at}/task"):
                with open(f"/proc/{at}/task/{task}/children") as f:
                    todo += [int(x) for x in f.read().split()]
        except OSError:
            continue
    return found


def niceness(pid: int) -> int | None:
    try:
        return os.getpriority(os.PRIO_PROCESS, pid)
    except OSError:
        return None


def serving_pids(pid: int) -> list[int]:
    """The processes that answer requests: the station's, and its phones' process if any (named
    bingo-phones, web/phones_process.py)."""
    public = []
    for each in station_tree(pid):
        try:
            with open(f"/proc/{each}/comm") as f:
                if f.read().strip() in ("bingo-phones", "bingo-public"):  # (an older checkout)
                    public.append(each)
        except OSError:
            continue
    return [pid, *public[:1]]


def station_mode(pid: int) -> str:
    """Which processes serve: one, or the Maestro's and the phones' (web/phones_process.py)."""
    pids = serving_pids(pid)
    if len(pids) == 1:
        return f"one process ({pid})"
    return (
        f"split: the Maestro's process {pid} (nice {niceness(pid)}), the phones' "
        f"{pids[1]} (nice {niceness(pids[1])})"
    )


def show(name: str, figures: dict) -> None:
    print(f"{name}:")
    for k, v in figures.items():
        print(f"  {k:24} {v:10.1f}" if isinstance(v, float) else f"  {k:24} {v:>10}")


async def run(args) -> None:
    levels = [int(n) for n in args.screens.split(",")] if args.screens else [args.clients]
    with tempfile.TemporaryDirectory() as tmp:
        deck = new_deck(300, seed="bench", name="Bench")
        deck_path = save_deck(deck, Path(tmp) / "bench.deck.json")
        proc, port = start_station(Path(tmp), deck_path)
        try:
            bench = Bench("127.0.0.1", port, 0, {}, deck, pid=proc.pid)
            _, login = await bench.request("POST", "/api/login", {"pin": PIN}, auth=False)
            bench.headers = {"Authorization": "Bearer " + login["token"]}
            _, game = await bench.request("POST", "/api/games", {"deck_id": deck.deck_id})
            bench.game_id = game["game_id"]
            screens = Screens(bench, args.workers)
            await screens.start()
            stop, polls = asyncio.Event(), [0]
            pollers = [
                asyncio.create_task(poller(bench, stop, polls, args.poll_interval))
                for _ in range(args.pollers)
            ]
            print(
                f"station on 127.0.0.1:{port} (default serve settings), screens in "
                f"{args.workers} processes, {args.pollers} pollers of GET /api/games/<id> (each "
                f"every {args.poll_interval} s); load average before: "
                + " ".join(f"{x:.1f}" for x in os.getloadavg())
                + f" on {os.cpu_count()} CPUs"
            )
            crossed = None
            rss0 = server_rss_kb(proc.pid)
            t_start = time.perf_counter()
            for level in levels:
                await screens.open(level)
                rss = server_rss_kb(proc.pid)
                print(f"--- {screens.total} screens open, {screens.refused} refused")
                if rss and rss0 and screens.total:
                    per = (rss - rss0) / screens.total
                    print(f"  station memory per open screen {per:.1f} KB")
                if args.screens:  # ramp: the draws only, each level in a new round (75 balls)
                    if level != levels[0]:
                        path = f"/api/games/{bench.game_id}/rounds"
                        status, data = await bench.request("POST", path)
                        assert status == 201, data
                    figures = await measure_draw_to_event(bench, args.draws, screens)
                    show("draw to event", figures)
                    if crossed is None and figures["draw->event p99 ms"] > 50:
                        crossed = screens.total
                    continue
                for name, fn in MEASUREMENTS:
                    show(name, await fn(bench, args, screens))
            stop.set()
            elapsed = time.perf_counter() - t_start
            print(f"polls served meanwhile: {polls[0]} ({polls[0] / elapsed:.0f}/s)")
            if args.screens:
                where = f"{crossed} screens" if crossed else f"no level up to {levels[-1]}"
                print(f"draw -> every screen p99 crossed 50 ms at: {where}")
            await asyncio.gather(*pollers, return_exceptions=True)
            await screens.stop()
        finally:
            proc.terminate()
            proc.wait(10)


def run_loop(coro) -> None:
    """The screens are phones, other devices: here they share the station's CPUs, so they run on
    the fastest event loop available (uvloop, as the station does) to take as little as they can."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(coro)
    else:
        uvloop.run(coro)


def main() -> None:
    if sys.argv[1:2] == ["--screen-worker"]:
        host, port, game = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        run_loop(ScreenWorker(host, port, game).serve())
        return
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=1000, help="screens following the game")
    p.add_argument("--draws", type=int, default=40, help="draws per measurement (at most 75)")
    p.add_argument("--pollers", type=int, default=20)
    p.add_argument("--poll-interval", type=float, default=0.5, help="seconds between polls")
    p.add_argument("--workers", type=int, default=2, help="processes holding the screens")
    p.add_argument(
        "--screens", default=None, help="ramp: comma-separated screen counts, e.g. 250,500,1000"
    )
    add_smoke(p)
    args = p.parse_args()
    if args.smoke:
        args.clients, args.draws, args.pollers, args.workers = 10, 3, 2, 1
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
