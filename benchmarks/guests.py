"""A guest on the hall's Wi-Fi attacking the station, while the Maestro draws (issue 29).

The station runs as `bingo-hall serve --host 0.0.0.0` (a non-loopback address, its defaults
otherwise). The guests run in a network namespace this script makes, joined to this machine by a
veth pair of private addresses (10.231.N.1 for the station's side, 10.231.N.2 for the guest's):
another machine, as the station sees it, never loopback. Nothing else is ever targeted. The
Maestro draws from the laptop itself (loopback, with the PIN), as on a real night.

For each attack: the guests open their connections and say "ready", then the Maestro draws 20
balls (each its own request, timed until the answer) and loads the big screen; then the guests
stop. Printed per attack: draws that succeeded, p50 / p99 / max of the draw's answer, the big
screen's status and time, what the guests saw, and the machine's load (`uptime`) at the time.

    sudo .venv/bin/python benchmarks/guests.py            # every attack
    sudo .venv/bin/python benchmarks/guests.py streams    # one (see ATTACKS)

Needs root (a network namespace) and `ip` (iproute2). tests/security/test_guests.py runs the
same attacks with the issue's targets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = "135790"
DRAWS = 20
#: the longest a guest process runs, whatever happens to its parent
GUEST_SECONDS = 90.0


@dataclass(frozen=True)
class Attack:
    """One attack: the guests' `kind` of connection, how many, and what the issue measured."""

    name: str
    kind: str
    count: int
    what: str


ATTACKS = [
    Attack("bodies4", "bodies", 4, "4 unfinished POST bodies (/api/login, then nothing)"),
    Attack("bodies64", "bodies", 64, "64 unfinished POST bodies"),
    Attack("slowloris", "slowloris", 1000, "1,000 slowloris connections, a header every 2 s"),
    Attack("streams", "streams", 8000, "8,000 held live streams (never read)"),
    Attack("header", "header", 4, "a 300 MB header, 4 connections trying again and again"),
    Attack("clue", "clue", 64, "64 connections posting to one Clue notebook, no PIN"),
    Attack("slowread", "slowread", 40, "40 slow readers of jsQR.js (1 KB receive buffer)"),
]


def load() -> str:
    """The machine's load averages (1, 5, 15 min), as `uptime` prints them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def percentile(values: list[float], p: float) -> float:
    """Nearest rank: p99 of 20 values is the largest."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-len(ordered) * p // 100)))
    return ordered[int(rank) - 1]


# --- the guests' network ------------------------------------------------------------------------
class GuestNetwork:
    """A network namespace joined to this machine by a veth pair: the station's side gets
    `host` (10.231.N.1/30), the guest's side `guest` (10.231.N.2/30). Removed on exit, whatever
    happened (deleting the namespace removes both ends of the pair)."""

    def __init__(self) -> None:
        n = os.getpid() % 250 + 1
        self.ns = f"bhg{os.getpid()}"
        self.outside, self.inside = f"bhg{os.getpid()}h", f"bhg{os.getpid()}g"
        self.host, self.guest = f"10.231.{n}.1", f"10.231.{n}.2"

    def __enter__(self) -> GuestNetwork:
        try:
            for argv in (
                ["ip", "netns", "add", self.ns],
                ["ip", "link", "add", self.outside, "type", "veth", "peer", "name", self.inside],
                ["ip", "link", "set", self.inside, "netns", self.ns],
                ["ip", "addr", "add", f"{self.host}/30", "dev", self.outside],
                ["ip", "link", "set", self.outside, "up"],
                ["ip", "-n", self.ns, "addr", "add", f"{self.guest}/30", "dev", self.inside],
                ["ip", "-n", self.ns, "link", "set", self.inside, "up"],
                ["ip", "-n", self.ns, "link", "set", "lo", "up"],
            ):
                subprocess.run(argv, check=True, capture_output=True, timeout=20)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True, timeout=20)
        subprocess.run(["ip", "link", "del", self.outside], capture_output=True, timeout=20)

    def popen(self, argv: list[str]) -> subprocess.Popen:
        """Run a guest in the namespace. A guest is another machine: its own CPU time is not the
        station's, so here, on the station's CPUs, it runs at the lowest priority (nice 19)."""
        return subprocess.Popen(
            ["ip", "netns", "exec", self.ns, "nice", "-n", "19", *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )


# --- the station and the Maestro ----------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def station(folder: Path) -> Iterator[tuple[int, str]]:
    """`bingo-hall serve --host 0.0.0.0` with its defaults and a demo deck: (port, deck id)."""
    from bingo_hall.manifest import new_deck, save_deck

    deck = new_deck(300, seed="guests", name="Guests")
    deck_path = save_deck(deck, folder / "guests.deck.json")
    port = free_port()
    argv = [sys.executable, "-m", "bingo_hall.cli", "serve", "--host", "0.0.0.0"]
    argv += ["--port", str(port), "--db", str(folder / "guests.sqlite"), "--pin", PIN]
    argv += ["--deck", str(deck_path)]
    log = open(folder / "station.log", "wb")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the station did not start") from None
                time.sleep(0.1)
        yield port, deck.deck_id
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(15)
        log.close()


class Maestro:
    """The Maestro at the laptop: loopback, logged in with the PIN, one keep-alive connection
    (as the caller page's fetch() keeps one)."""

    def __init__(self, port: int, timeout: float = 10.0) -> None:
        self.port, self.timeout = port, timeout
        self.conn = self._connect()
        self.token = self.request("POST", "/api/login", {"pin": PIN})[1]["token"]

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)

    def request(self, method: str, path: str, body: object = None) -> tuple[int, dict, float]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if getattr(self, "token", None):
            headers["Authorization"] = f"Bearer {self.token}"
        started = time.perf_counter()
        for again in (True, False):  # a browser sends again once on a stale keep-alive socket
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                break
            except (OSError, http.client.HTTPException) as exc:
                self.conn.close()
                self.conn = self._connect()
                if not again or isinstance(exc, TimeoutError):  # a timeout is never sent again
                    return 0, {}, (time.perf_counter() - started) * 1000
        ms = (time.perf_counter() - started) * 1000
        try:
            answer = json.loads(raw) if raw else {}
        except ValueError:
            answer = {"text": raw[:200].decode(errors="replace")}
        return resp.status, answer, ms

    def new_game(self, deck_id: str) -> int:
        status, game, _ = self.request("POST", "/api/games", {"deck_id": deck_id})
        if status != 201:
            raise RuntimeError(f"no game: {status} {game}")
        return int(game["game_id"])

    def draws(self, game_id: int, n: int = DRAWS) -> list[tuple[int, float]]:
        return [self.request("POST", f"/api/games/{game_id}/draw")[::2] for _ in range(n)]

    def check(self, game_id: int, serial: int) -> tuple[int, float]:
        return self.request("GET", f"/api/games/{game_id}/check/{serial}")[::2]

    def display(self) -> tuple[int, float, bool]:
        """The big screen's page, on a connection of its own (the projector's browser)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        started = time.perf_counter()
        try:
            conn.request("GET", "/display")
            resp = conn.getresponse()
            page = resp.read()
            return resp.status, (time.perf_counter() - started) * 1000, b"<html" in page
        except (OSError, http.client.HTTPException):
            return 0, (time.perf_counter() - started) * 1000, False
        finally:
            conn.close()


def clue_notebook(port: int) -> str:
    """A Clue notebook without a PIN, set up (the guests flood it)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        body = {"players": ["Ana", "Beto", "Caro", "Dani"]}
        conn.request("POST", "/t/new/clue", json.dumps(body), {"Content-Type": "application/json"})
        code = json.loads(conn.getresponse().read())["code"]
        setup = {"type": "setup", "me": "Ana", "cards": SETUP_CARDS}
        conn.request("POST", f"/t/{code}/entries", json.dumps(setup), JSON)
        conn.getresponse().read()
        return code
    finally:
        conn.close()


JSON = {"Content-Type": "application/json"}
SETUP_CARDS = ["green", "mustard", "candlestick", "knife", "ballroom"]
#: the same suggestion again and again: never a contradiction, so every one is replayed
SUGGESTION = {
    "type": "suggestion",
    "suggester": "Ana",
    "suspect": "plum",
    "weapon": "rope",
    "room": "kitchen",
    "shown_by": "Beto",
    "card": "plum",
}


# --- one attack, with the Maestro drawing -------------------------------------------------------
@dataclass
class Figures:
    attack: Attack
    #: the same draws just before, with no guests: what this busy machine gives anyway
    quiet: list[tuple[int, float]] = field(default_factory=list)
    draws: list[tuple[int, float]] = field(default_factory=list)
    display: tuple[int, float, bool] = (0, 0.0, False)
    check: tuple[int, float] | None = None
    guests: dict = field(default_factory=dict)
    load: str = ""

    @property
    def ok(self) -> list[float]:
        return [ms for status, ms in self.draws if status == 200]

    def line(self) -> str:
        ok = self.ok
        shown = f"{len(ok)}/{len(self.draws)} draws ok"
        if ok:
            p50, p99 = percentile(ok, 50), percentile(ok, 99)
            shown += f", p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {max(ok):.0f} ms"
        status, ms, page = self.display
        shown += f"; /display {status} in {ms:.0f} ms{'' if page else ' (no page)'}"
        if self.check is not None:
            shown += f"; claim check {self.check[0]} in {self.check[1]:.0f} ms"
        calm = [ms for status, ms in self.quiet if status == 200]
        if calm:
            shown += f" (no guests just before: p50 {percentile(calm, 50):.0f} ms"
            shown += f", p99 {percentile(calm, 99):.0f} ms)"
        return f"{self.attack.name:10} {shown}; guests {self.guests}; load {self.load}"


def run_attack(
    net: GuestNetwork, port: int, maestro: Maestro, deck_id: str, attack: Attack
) -> Figures:
    """Start the guests, wait for them to be ready, draw and load the big screen, stop them."""
    game_id = None
    for _ in range(12):  # a station still choking on the last attack: a minute at most
        try:
            game_id = maestro.new_game(deck_id)
            break
        except RuntimeError:
            time.sleep(5)
    if game_id is None:
        return Figures(attack, guests={"error": "the station did not make a game for a minute"})
    target = {"streams": f"/api/games/{game_id}/events", "clue": ""}.get(attack.kind, "")
    if attack.kind == "clue":
        target = f"/t/{clue_notebook(port)}/entries"
    argv = [sys.executable, str(Path(__file__).resolve()), "--guest", attack.kind]
    argv += [f"{net.host}:{port}", str(attack.count), target]
    figures = Figures(attack)
    figures.quiet = maestro.draws(game_id)
    guests = net.popen(argv)
    try:
        figures.guests = _read_line(guests, 120.0)
        figures.load = load()
        figures.draws = maestro.draws(game_id)
        figures.display = maestro.display()
        if attack.kind == "slowread":
            figures.check = maestro.check(game_id, 7)
        guests.stdin.close()  # the guests stop and report
        figures.guests.update(_read_line(guests, 30.0))
    finally:
        _stop(guests)
    return figures


def _read_line(proc: subprocess.Popen, timeout: float) -> dict:
    """The guest process's next JSON line ({} if none came in time)."""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            return {"error": "no answer from the guests"}
    line = proc.stdout.readline()
    try:
        return json.loads(line) if line else {}
    except ValueError:
        return {"error": line[:200]}


def _stop(proc: subprocess.Popen) -> None:
    with contextlib.suppress(OSError, ValueError):
        proc.stdin.close()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(20)


# --- the guests (run inside the namespace) -------------------------------------------------------
def _open_files() -> int:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 20_000 if hard == resource.RLIM_INFINITY else min(hard, 20_000)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return want


class Guests:
    """Raw sockets, as a hostile client writes them: never reading unless the attack reads."""

    def __init__(self, host: str, port: int, count: int, target: str) -> None:
        self.host, self.port, self.count, self.target = host, port, count, target
        self.loop = asyncio.get_running_loop()
        self.socks: list[socket.socket] = []
        self.failed = 0
        self.stats: dict[str, int] = {}

    async def connect(self, first: bytes, rcvbuf: int | None = None) -> socket.socket | None:
        sock = socket.socket()
        if rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        try:
            await asyncio.wait_for(self.loop.sock_connect(sock, (self.host, self.port)), 10)
            if first:
                await asyncio.wait_for(self.loop.sock_sendall(sock, first), 10)
        except (OSError, TimeoutError):
            sock.close()
            self.failed += 1
            return None
        self.socks.append(sock)
        return sock

    async def open_all(self, first: bytes, rcvbuf: int | None = None) -> None:
        gate = asyncio.Semaphore(256)

        async def one() -> None:
            async with gate:
                await self.connect(first, rcvbuf)

        await asyncio.gather(*(one() for _ in range(self.count)))

    def still_open(self) -> dict[str, int]:
        """How many connections the station still holds open, and how many it answered 503."""
        held = refused = closed = 0
        for sock in self.socks:
            try:
                data = sock.recv(64, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            except BlockingIOError:
                held += 1
                continue
            except OSError:
                closed += 1
                continue
            if data.startswith(b"HTTP/1.1 503"):
                refused += 1
            elif data:
                held += 1
            else:
                closed += 1
        return {"held": held, "answered_503": refused, "closed": closed}

    def close(self) -> None:
        for sock in self.socks:
            sock.close()


async def guest_main(kind: str, address: str, count: int, target: str) -> None:
    _open_files()
    host, port = address.rsplit(":", 1)
    g = Guests(host, int(port), count, target)
    stop = asyncio.Event()
    g.loop.add_reader(sys.stdin.fileno(), lambda: stop.set() if not sys.stdin.read(1) else None)
    ends = time.monotonic() + GUEST_SECONDS
    head = f"Host: {host}\r\n".encode()
    tasks: list[asyncio.Task] = []
    if kind == "bodies":
        body = b"POST /api/login HTTP/1.1\r\n" + head
        body += b"Content-Type: application/json\r\nContent-Length: 20\r\n\r\n{"
        await g.open_all(body)
    elif kind == "slowloris":
        await g.open_all(b"GET /display HTTP/1.1\r\n" + head)
        tasks.append(asyncio.create_task(_trickle(g, stop)))
    elif kind == "streams":
        await g.open_all(f"GET {target} HTTP/1.1\r\n".encode() + head + b"\r\n")
    elif kind == "slowread":
        await g.open_all(b"GET /static/vendor/jsQR.js HTTP/1.1\r\n" + head + b"\r\n", 1024)
    elif kind == "header":
        tasks += [asyncio.create_task(_big_header(g, head, stop)) for _ in range(count)]
    elif kind == "clue":
        tasks += [asyncio.create_task(_flood(g, head, stop)) for _ in range(count)]
    await asyncio.sleep(0.5)  # what the station answers at once has arrived
    print(json.dumps({"opened": len(g.socks), "failed": g.failed, **g.still_open()}), flush=True)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), max(1.0, ends - time.monotonic()))
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"at_end": g.still_open(), **g.stats}), flush=True)
    g.close()


async def _trickle(g: Guests, stop: asyncio.Event) -> None:
    """Slowloris: one more header line on every connection every 2 s."""
    while not stop.is_set():
        await asyncio.sleep(2.0)
        for sock in list(g.socks):
            with contextlib.suppress(OSError):
                sock.send(b"X-a: b\r\n")


async def _big_header(g: Guests, head: bytes, stop: asyncio.Event) -> None:
    """Send a 300 MB header; when the station cuts it off, start again."""
    chunk = b"a" * (1 << 20)
    while not stop.is_set():
        sock = await g.connect(b"GET /display HTTP/1.1\r\n" + head + b"X-Big: ")
        if sock is None:
            await asyncio.sleep(0.1)
            continue
        g.socks.remove(sock)
        sent = 0
        try:
            while sent < 300 * (1 << 20) and not stop.is_set():
                await g.loop.sock_sendall(sock, chunk)
                sent += len(chunk)
            if sent >= 300 * (1 << 20):
                await g.loop.sock_sendall(sock, b"\r\n\r\n")
                g.stats["headers_sent_whole"] = g.stats.get("headers_sent_whole", 0) + 1
        except OSError:
            g.stats["headers_cut_off"] = g.stats.get("headers_cut_off", 0) + 1
        g.stats["mb_sent"] = g.stats.get("mb_sent", 0) + sent // (1 << 20)
        sock.close()


async def _flood(g: Guests, head: bytes, stop: asyncio.Event) -> None:
    """Post the same Clue suggestion again and again on one keep-alive connection."""
    body = json.dumps(SUGGESTION).encode()
    request = f"POST {g.target} HTTP/1.1\r\n".encode() + head
    request += b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(g.host, g.port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        try:
            while not stop.is_set():
                writer.write(request)
                status = (await reader.readline()).split(b" ")[1:2]
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await reader.readexactly(length)
                key = "answers_" + (status[0].decode() if status else "none")
                g.stats[key] = g.stats.get(key, 0) + 1
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            g.stats["dropped"] = g.stats.get("dropped", 0) + 1
        finally:
            writer.close()


# --- the benchmark -------------------------------------------------------------------------------
def run_all(names: list[str], timeout: float = 10.0) -> list[Figures]:
    chosen = [a for a in ATTACKS if not names or a.name in names]
    out = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        GuestNetwork() as net,
        station(Path(tmp)) as (
            port,
            deck_id,
        ),
    ):
        maestro = Maestro(port, timeout)
        for attack in chosen:
            figures = run_attack(net, port, maestro, deck_id, attack)
            print(figures.line(), flush=True)
            out.append(figures)
    return out


def main() -> None:
    if sys.argv[1:2] == ["--guest"]:
        kind, address, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
        target = sys.argv[5] if len(sys.argv) > 5 else ""
        asyncio.run(guest_main(kind, address, count, target))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("attacks", nargs="*", help=", ".join(a.name for a in ATTACKS))
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds a draw may take (default 10)"
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run (a few iterations, seconds) that checks the benchmark still runs",
    )
    args = parser.parse_args()
    if args.smoke:
        args.attacks = args.attacks or [ATTACKS[0].name]
    if os.geteuid() != 0:
        raise SystemExit("guests.py needs root: it makes a network namespace for the guests")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the namespace is removed on the way
    print(f"load before: {load()} on {os.cpu_count()} CPUs; the station: bingo-hall serve")
    run_all(args.attacks, args.timeout)


if __name__ == "__main__":
    main()
