"""A guest on the hall's Wi-Fi attacking the station, while the Maestro draws (issue 29).

The station runs as `bingo-hall serve --host 0.0.0.0` (a non-loopback address, its defaults
otherwise). The guests run in a network namespace this script makes, joined to this machine by a
veth pair of private addresses (10.231.N.1 for the station's side, 10.231.N.2 for the guest's):
another machine, as the station sees it, never loopback. Nothing else is ever targeted. The
Maestro draws from the laptop itself (loopback, with the PIN), as on a real night.

For each attack: the guests open their connections and say "ready", then the Maestro draws 20
balls (each its own request, timed until the answer) and loads the big screen; the guests go on
for at least ATTACK_S seconds in all (MEMORY_S for the one aimed at memory), then stop.
Printed per attack and run: draws that succeeded, p50 / p99 / max of the draw's answer (and the
same 20 draws just before, with no guest), the big screen's status and time, the station's
memory growth, what the guests saw, and the machine's load (`uptime`) at the time; then, per
attack, the median of the runs' p99. A calibration figure for the machine comes first (a fixed
pure-Python loop, in ms), so that runs on different machines can be compared.

The attacks of issue 29 (bodies, slowloris, streams, header, clue, slowread) and of issue 38:
A `aliases` (a new static path each time), B `jsonbomb` (990 KB of empty lists), C `display`
(16 keep-alive readers of /display), D `cards` (typed card numbers from 10 addresses: how many
signed card paths do the guests learn?), E `bignum` (1e26 and -1e300 in a score entry: any 5xx?),
F `separator` (U+2028 and U+0085 in a table's names: does every event of its stream parse?).
And of issue 55, the guests' own work, which must not run in the Maestro's process: 2 `cluepins`
(new Clue notebooks with a PIN, one scrypt each, from 10 addresses) and 3 `entries` (score
entries at the request pace's limit, from 10 addresses, each on its own table); for them the
Maestro's process's CPU time during the attack is printed too.

    sudo .venv/bin/python benchmarks/guests.py              # every attack, three runs
    sudo .venv/bin/python benchmarks/guests.py display      # one (see ATTACKS)
    sudo .venv/bin/python benchmarks/guests.py --smoke      # one attack, tiny: does it still run?

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
import re
import secrets
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from _measure import free_port, load, percentile
from _smoke import add_smoke

ROOT = Path(__file__).resolve().parents[1]
PIN = "135790"
DRAWS = 20
#: the least time an attack runs (from the guests' "ready" to their stop), so that what it
#: does to memory shows
ATTACK_S = 2.0
#: the same for the attack on memory (A): long enough for its growth to show (before issue 38,
#: +70 MB in this time)
MEMORY_S = 8.0
#: the longest a guest process runs, whatever happens to its parent
GUEST_SECONDS = 90.0
#: guest addresses in the namespace (the card-number attack asks from each)
ADDRESSES = 10


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
    Attack("aliases", "aliases", 8, "A: /static/<random>/../vendor/jsQR.js, 8 connections"),
    Attack("jsonbomb", "jsonbomb", 4, "B: 990 KB of empty lists to /t/new/burako, 4 connections"),
    Attack("display", "display", 16, "C: /display, 16 keep-alive connections"),
    Attack("cards", "cards", ADDRESSES, "D: /join/card?n=1..100, 10 numbers from each of 10"),
    Attack("bignum", "bignum", 4, "E: score entries holding 1e26 and -1e300, 4 connections"),
    Attack("separator", "separator", 1, "F: U+2028 and U+0085 in a table's names, its stream"),
    Attack(
        "cluepins", "cluepins", 4, "2: Clue notebooks with a PIN, 4 connections from each of 10"
    ),
    Attack("entries", "entries", 4, "3: score entries at the pace's limit, 4 connections from 10"),
]
#: the attacks of issue 38 (A-F): each also checks memory, 5xx, card paths and events
NEW = ("aliases", "jsonbomb", "display", "cards", "bignum", "separator")
#: the attacks whose work is a guest's own (notebooks' PINs, score entries): the phones' process
#: does it, so the Maestro's process's CPU is measured while they run (`Figures.maestro_cpu`)
GUEST_WORK = ("cluepins", "entries")
#: how long those attacks run at least: long enough for the Maestro's CPU share to mean something
GUEST_WORK_S = 6.0


# --- the guests' network ------------------------------------------------------------------------
class GuestNetwork:
    """A network namespace joined to this machine by a veth pair: the station's side gets
    `host` (10.231.N.1/24), the guest's side `guest` (10.231.N.2/24) and nine more addresses
    (`guests`: .2 to .11, ten guests). Removed on exit, whatever happened (deleting the
    namespace removes both ends of the pair)."""

    def __init__(self) -> None:
        n = os.getpid() % 250 + 1
        self.ns = f"bhg{os.getpid()}"
        self.outside, self.inside = f"bhg{os.getpid()}h", f"bhg{os.getpid()}g"
        self.host = f"10.231.{n}.1"
        self.guests = [f"10.231.{n}.{k}" for k in range(2, 2 + ADDRESSES)]
        self.guest = self.guests[0]

    def __enter__(self) -> GuestNetwork:
        try:
            for argv in (
                ["ip", "netns", "add", self.ns],
                ["ip", "link", "add", self.outside, "type", "veth", "peer", "name", self.inside],
                ["ip", "link", "set", self.inside, "netns", self.ns],
                ["ip", "addr", "add", f"{self.host}/24", "dev", self.outside],
                ["ip", "link", "set", self.outside, "up"],
                *(
                    ["ip", "-n", self.ns, "addr", "add", f"{a}/24", "dev", self.inside]
                    for a in self.guests
                ),
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
class Hall(NamedTuple):
    port: int
    deck_id: str
    pid: int
    #: the Maestro's own port (loopback), where the Maestro draws
    maestro_port: int = 0


def rss_mb(pid: int) -> float:
    """The process's resident memory now, in MB (Linux: /proc)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    """The process's own CPU time so far (user + system, its children's not), in s (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _listening(proc: subprocess.Popen, port: int, folder: Path, log: Any, last_try: bool) -> bool:
    """Wait until the station answers on `port`; False if it exited first (and this is not the
    last try), else RuntimeError with the last line of its log."""
    deadline = time.monotonic() + 180  # bounds a failing start only: a busy machine is slow
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            if proc.poll() is not None and not last_try:
                return False
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                said = (folder / "station.log").read_text(errors="replace").strip()
                last = said.splitlines()[-1] if said else "(nothing)"
                raise RuntimeError(f"the station did not start: {last}") from None
            time.sleep(0.1)


@contextlib.contextmanager
def station(folder: Path) -> Iterator[Hall]:
    """`bingo-hall serve --host 0.0.0.0` with its defaults and a demo deck: (port, deck id,
    the station's process id)."""
    from bingo_hall.manifest import new_deck, save_deck

    deck = new_deck(300, seed="guests", name="Guests")
    deck_path = save_deck(deck, folder / "guests.deck.json")
    log = open(folder / "station.log", "wb")  # noqa: SIM115 (closed below)
    # a free port can be taken before the station binds it (the other smoke runs' phones open
    # hundreds of connections from the same range): a station that exits at once is started
    # again on another port, twice at most, and a third failure says why
    for attempt in range(3):
        port, maestro_port = free_port(), free_port()
        argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "0.0.0.0"]
        argv += ["--port", str(port), "--maestro-port", str(maestro_port)]
        argv += ["--db", str(folder / "guests.sqlite"), "--pin", PIN]
        argv += ["--deck", str(deck_path)]
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        if _listening(proc, port, folder, log, last_try=attempt == 2):
            break
    try:
        yield Hall(port, deck.deck_id, proc.pid, maestro_port)
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


def burako_table(port: int, names: tuple[str, str] = ("Ana", "Beto")) -> str:
    """A Burako table made from the laptop (the guests post score entries to it)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        body = {"teams": [[names[0]], [names[1]]]}
        conn.request("POST", "/t/new/burako", json.dumps(body), JSON)
        return json.loads(conn.getresponse().read())["code"]
    finally:
        conn.close()


JSON = {"Content-Type": "application/json"}
#: a Burako hand as the table's page sends it
HAND = {"puras": 0, "impuras": 0, "closed": False, "muerto": "taken", "down": 10}
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
    #: the station's resident memory before the attack and after it (MB)
    memory: tuple[float, float] = (0.0, 0.0)
    #: the Maestro's process's CPU time during the attack and the attack's wall time (s)
    maestro_cpu: tuple[float, float] = (0.0, 0.0)

    @property
    def maestro_cpu_share(self) -> float:
        """The Maestro's process's CPU seconds per second of the attack (1.0: a whole core)."""
        cpu, wall = self.maestro_cpu
        return cpu / wall if wall else 0.0

    @property
    def memory_growth(self) -> float:
        return self.memory[1] - self.memory[0]

    @property
    def errors_5xx(self) -> int:
        """Answers 500 to 599 the guests got (the attacks of issue 38 count them)."""
        return sum(n for k, n in self.guests.items() if re.fullmatch(r"answers_5\d\d", k))

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
        grew = f"; memory +{self.memory_growth:.0f} MB" if self.memory[0] else ""
        if self.maestro_cpu[1]:
            cpu, wall = self.maestro_cpu
            grew += f"; the Maestro's process's CPU {cpu:.2f} s in {wall:.1f} s"
        return f"{self.attack.name:10} {shown}{grew}; guests {self.guests}; load {self.load}"


def run_attack(
    net: GuestNetwork,
    port: int,
    maestro: Maestro,
    deck_id: str,
    attack: Attack,
    pid: int | None = None,
    draws: int = DRAWS,
    attack_s: float = ATTACK_S,
) -> Figures:
    """Start the guests, wait for them to be ready, draw and load the big screen, stop them
    (after `attack_s` at least). `pid`: the station's process, whose memory is measured."""
    game_id = None
    for _ in range(12):  # a station still choking on the last attack: a minute at most
        try:
            game_id = maestro.new_game(deck_id)
            break
        except RuntimeError:
            time.sleep(5)
    if game_id is None:
        return Figures(attack, guests={"error": "the station did not make a game for a minute"})
    target = {"streams": f"/api/games/{game_id}/events", "cards": ",".join(net.guests)}.get(
        attack.kind, ""
    )
    if attack.kind == "clue":
        target = f"/t/{clue_notebook(port)}/entries"
    if attack.kind == "bignum":
        target = f"/t/{burako_table(port)}/entries"
    if attack.kind == "cluepins":
        target = ",".join(net.guests)
    if attack.kind == "entries":  # a table of its own for each address (made from the laptop)
        target = ",".join(f"{a}={burako_table(port)}" for a in net.guests)
    argv = [sys.executable, str(Path(__file__).resolve()), "--guest", attack.kind]
    argv += [f"{net.host}:{port}", str(attack.count), target]
    figures = Figures(attack)
    figures.quiet = maestro.draws(game_id, draws)
    before = rss_mb(pid) if pid else 0.0
    guests = net.popen(argv)
    try:
        figures.guests = _read_line(guests, 120.0)
        started = time.monotonic()
        cpu_before = cpu_s(pid) if pid else 0.0
        figures.load = load()
        figures.draws = maestro.draws(game_id, draws)
        figures.display = maestro.display()
        if attack.kind == "slowread":
            figures.check = maestro.check(game_id, 7)
        if attack.kind in NEW:  # long enough for what it does to memory to show
            least = MEMORY_S if attack.kind == "aliases" and attack_s >= ATTACK_S else attack_s
            time.sleep(max(0.0, least - (time.monotonic() - started)))
        if attack.kind in GUEST_WORK:  # long enough for the Maestro's CPU share to show
            least = GUEST_WORK_S if attack_s >= ATTACK_S else attack_s
            time.sleep(max(0.0, least - (time.monotonic() - started)))
        if pid:
            figures.memory = (before, rss_mb(pid))
            if attack.kind in GUEST_WORK:
                figures.maestro_cpu = (cpu_s(pid) - cpu_before, time.monotonic() - started)
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
        suggestion = _post(target, head, json.dumps(SUGGESTION).encode())
        tasks += [_task(_ask(g, lambda: suggestion, stop)) for _ in range(count)]
    elif kind == "aliases":
        alias = lambda: f"/static/{secrets.token_hex(8)}/../vendor/jsQR.js"  # noqa: E731
        tasks += [_task(_ask(g, lambda: _get(alias(), head), stop)) for _ in range(count)]
    elif kind == "display":
        tasks += [_task(_ask(g, lambda: _get("/display", head), stop)) for _ in range(count)]
    elif kind == "jsonbomb":
        bomb = _post("/t/new/burako", head, b"[" + b"[]," * 330_000 + b"[]]")
        tasks += [_task(_ask(g, lambda: bomb, stop)) for _ in range(count)]
    elif kind == "bignum":
        entries = [
            _post(target, head, json.dumps({"teams": [{**HAND, "down": [n]}, HAND]}).encode())
            for n in (1e26, -1e300, 1e25)
        ]
        turn = iter(range(1 << 62))
        bignum = lambda: entries[next(turn) % len(entries)]  # noqa: E731
        tasks += [_task(_ask(g, bignum, stop)) for _ in range(count)]
    elif kind == "cards":
        tasks.append(_task(_cards(g, head, target.split(","))))
    elif kind == "separator":
        tasks.append(_task(_separator(g, head, stop)))
    elif kind == "cluepins":  # a new private notebook each time: one scrypt of its PIN each
        notebook = {"players": ["Ana", "Beto", "Caro"], "pin": "1234"}
        made = _post("/t/new/clue", head, json.dumps(notebook).encode())
        tasks += [
            _task(_ask(g, lambda: made, stop, address))
            for address in target.split(",")
            for _ in range(count)
        ]
    elif kind == "entries":  # a hand on its address's own table, as fast as the pace allows
        for pair in target.split(","):
            address, code = pair.split("=")
            hand = _post(f"/t/{code}/entries", head, json.dumps({"teams": [HAND, HAND]}).encode())
            tasks += [_task(_ask(g, lambda hand=hand: hand, stop, address)) for _ in range(count)]
    await asyncio.sleep(0.5)  # what the station answers at once has arrived
    print(json.dumps({"opened": len(g.socks), "failed": g.failed, **g.still_open()}), flush=True)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), max(1.0, ends - time.monotonic()))
    stop.set()
    if tasks:  # a guest that counts (cards, separator) finishes; a flood ends its request
        await asyncio.wait(tasks, timeout=5.0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"at_end": g.still_open(), **g.stats}), flush=True)
    g.close()


def _task(coro) -> asyncio.Task:
    return asyncio.create_task(coro)


def _get(path: str, head: bytes) -> bytes:
    return f"GET {path} HTTP/1.1\r\n".encode() + head + b"\r\n"


def _post(path: str, head: bytes, body: bytes) -> bytes:
    request = f"POST {path} HTTP/1.1\r\n".encode() + head
    return (
        request + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    )


async def _answer(reader: asyncio.StreamReader) -> tuple[str, dict[bytes, bytes], bytes]:
    """One HTTP/1.1 answer: its status, headers (lower-case names) and body."""
    status = (await reader.readline()).split(b" ")[1:2]
    headers: dict[bytes, bytes] = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get(b"content-length", b"0")))
    return (status[0].decode() if status else "none"), headers, body


def _count(g: Guests, key: str) -> None:
    g.stats[key] = g.stats.get(key, 0) + 1


async def _ask(
    g: Guests, request: Callable[[], bytes], stop: asyncio.Event, address: str | None = None
) -> None:
    """Ask again and again on a keep-alive connection (a new one when the station closes it),
    counting the answers by status. `address`: the guest address it asks from."""
    local = (address, 0) if address else None
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(g.host, g.port, local_addr=local)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        try:
            while not stop.is_set():
                writer.write(request())
                status, headers, _ = await _answer(reader)
                _count(g, "answers_" + status)
                if headers.get(b"connection", b"").lower() == b"close":
                    break
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            _count(g, "dropped")
        finally:
            writer.close()


#: a card's signed path, as a page or a redirect would give it: /c/<deck>/<serial>/<signature>
SIGNED = re.compile(rb"/[cC]/([0-9A-Za-z_-]+)/([0-9]+)/([0-9A-Za-z_-]{8,})")


async def _cards(g: Guests, head: bytes, addresses: list[str]) -> None:
    """Ten new card numbers from each address (each within its own address's budget), one
    connection each, no cookie kept: the signed card paths found in the answers are counted."""
    found: set[bytes] = set()

    async def ask(address: str, n: int) -> None:
        try:
            reader, writer = await asyncio.open_connection(g.host, g.port, local_addr=(address, 0))
        except OSError:
            _count(g, "dropped")
            return
        try:
            writer.write(
                _get(f"/join/card?n={n}", head.replace(b"\r\n", b"\r\nConnection: close\r\n", 1))
            )
            status, headers, body = await _answer(reader)
            _count(g, "answers_" + status)
            for m in SIGNED.finditer(headers.get(b"location", b"") + b" " + body):
                found.add(m.group(0))
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            _count(g, "dropped")
        finally:
            writer.close()

    per = 100 // len(addresses)
    await asyncio.gather(
        *(ask(a, i * per + k + 1) for i, a in enumerate(addresses) for k in range(per))
    )
    g.stats["signed_paths"] = len(found)


def parse_events(raw: bytes) -> tuple[int, int]:
    """(events, events whose data is not JSON) in an event stream, split into lines as the
    WHATWG rules and a browser's EventSource split it: on CR LF, LF or CR, nothing else."""
    events = bad = 0
    data: list[str] = []
    for line in re.split(r"\r\n|\r|\n", raw.decode("utf-8", "replace")):
        if line == "":
            if data:
                events += 1
                try:
                    json.loads("\n".join(data))
                except ValueError:
                    bad += 1
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    return events, bad


async def _separator(g: Guests, head: bytes, stop: asyncio.Event) -> None:
    """A table whose names hold U+2028 and U+0085 (a guest sets it up), its live stream read
    while hands are entered: every event must parse."""
    names = {"teams": [["Ana\u2028Sol"], ["Beto\u0085Luz"]]}
    setup = json.dumps(names, ensure_ascii=False).encode()
    reader, writer = await asyncio.open_connection(g.host, g.port)
    writer.write(_post("/t/new/burako", head, setup))
    status, _, body = await _answer(reader)
    _count(g, "answers_" + status)
    code = json.loads(body)["code"]
    sr, sw = await asyncio.open_connection(g.host, g.port)
    sw.write(_get(f"/t/{code}/events", head))
    stream = bytearray()

    async def read() -> None:
        while chunk := await sr.read(65536):
            stream.extend(chunk)

    reading = asyncio.create_task(read())
    hand = _post(f"/t/{code}/entries", head, json.dumps({"teams": [HAND, HAND]}).encode())
    for _ in range(3):
        writer.write(hand)
        _count(g, "answers_" + (await _answer(reader))[0])
        await asyncio.sleep(0.2)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), 2.0)
    reading.cancel()
    sw.close()
    writer.close()
    _, _, text = bytes(stream).partition(b"\r\n\r\n")  # the head; the body is chunked
    body_bytes = _unchunk(text)
    g.stats["events"], g.stats["unparsable"] = parse_events(body_bytes)


def _unchunk(data: bytes) -> bytes:
    """A chunked body's bytes (as far as they came)."""
    out = bytearray()
    while data:
        size_line, sep, rest = data.partition(b"\r\n")
        if not sep:
            break
        try:
            size = int(size_line.split(b";")[0], 16)
        except ValueError:
            break
        if size == 0:
            break
        out += rest[:size]
        data = rest[size + 2 :]
    return bytes(out)


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


# --- the benchmark -------------------------------------------------------------------------------
def calibration_ms() -> float:
    """This machine's speed: a fixed pure-Python loop (a million squares summed), median of
    three, in ms. Beside the figures, it lets runs on different machines be compared."""
    times = []
    for _ in range(3):
        started = time.perf_counter()
        sum(i * i for i in range(1_000_000))
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times)[1]


def run_all(
    names: list[str], timeout: float = 10.0, runs: int = 3, smoke: bool = False
) -> list[Figures]:
    chosen = [a for a in ATTACKS if not names or a.name in names]
    if smoke:  # tiny: does it still run? (no figure means anything)
        chosen = [
            Attack(a.name, a.kind, min(a.count, 2 if a.kind != "cards" else 10), a.what)
            for a in chosen
        ]
        runs = 1
    out = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        GuestNetwork() as net,
        station(Path(tmp)) as hall,
    ):
        maestro = Maestro(hall.maestro_port, timeout)
        for attack in chosen:
            p99s = []
            for run in range(runs):
                figures = run_attack(
                    net,
                    hall.port,
                    maestro,
                    hall.deck_id,
                    attack,
                    hall.pid,
                    draws=2 if smoke else DRAWS,
                    attack_s=0.5 if smoke else ATTACK_S,
                )
                print(f"run {run + 1}: {figures.line()}", flush=True)
                out.append(figures)
                if figures.ok:
                    p99s.append(percentile(figures.ok, 99))
            if runs > 1 and p99s:
                median = sorted(p99s)[len(p99s) // 2]
                print(
                    f"{attack.name:10} median of {len(p99s)} runs' p99: {median:.0f} ms", flush=True
                )
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
    parser.add_argument("--runs", type=int, default=3, help="runs of each attack (default 3)")
    add_smoke(parser)
    args = parser.parse_args()
    unknown = set(args.attacks) - {a.name for a in ATTACKS}
    if unknown:
        parser.error(f"no such attack: {', '.join(sorted(unknown))}")
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    if args.smoke:  # tiny: the first attack of issue 29 (tests/security/test_guests.py runs
        # every attack in full, with these same functions; the smoke checks the command runs)
        args.attacks = args.attacks or [ATTACKS[0].name]
    if os.geteuid() != 0:
        raise SystemExit("guests.py needs root: it makes a network namespace for the guests")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the namespace is removed on the way
    print(f"load before: {load()} on {os.cpu_count()} CPUs; the station: bingo-hall serve")
    print(f"calibration: {calibration_ms():.0f} ms for a fixed pure-Python loop (1e6 squares)")
    run_all(args.attacks, args.timeout, args.runs, args.smoke)


if __name__ == "__main__":
    main()
