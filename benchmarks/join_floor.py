"""Benchmark: what a phone's join costs the station against the floor of any Python server that
makes the same answers. Prints figures; not a test.

    .venv/bin/python benchmarks/join_floor.py [--joins 400] [--gap-ms 15] [--runs 3] [--smoke]

One join is what a card page asks for (as benchmarks/phones.py's `Phone.join` makes it): the
page, its stylesheet and its script on one kept-alive connection, which is then closed, and the
card's stream on a second connection until its snapshot (left open). The joins come one at a
time, `--gap-ms` apart, so each arrives at a process that was idle, as in a storm spread over
seconds (public_cpu.py `--spread` shows that this is what a join costs most).

Measured alternately, `--runs` times each, from the same client:
- **the station**: `bingo-hall serve` with its default settings (the phones' process answers
  the hall's port), a 1000-card deck and a game started; its phones' process's CPU per join;
- **the floor**: a bare asyncio protocol on uvloop with httptools (the parser the station
  uses), answering the same four requests with bodies of the station's own sizes (read from the
  station's answers) and nothing else: no admission, no routing, no page made, no hub. It is
  what Python and the kernel cost for a join's connections, requests and bytes on this machine.

CPU time is the kernel's count of the process's threads' run time (/proc/PID/task/*/schedstat,
in nanoseconds: exact for short bursts, where /proc/PID/stat's ticks are not). The calibration
line says how fast the machine is at the time.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import multiprocessing
import socket
import statistics
import sys
import tempfile
from pathlib import Path

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import calibrate  # noqa: E402
from phones import BROWSER, Bench, Conn, Phone  # noqa: E402
from public_cpu import game_started, idle  # noqa: E402
from station import serving_pids, start_station  # noqa: E402

from bingo_hall.manifest import new_deck, save_deck  # noqa: E402
from bingo_hall.signing import card_path  # noqa: E402


def run_ns(pid: int) -> int:
    """The run time so far of every thread of process `pid`, in nanoseconds (Linux)."""
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):  # a thread that ended meanwhile
            pass
    return total


def floor_server(sock: socket.socket, sizes: dict[bytes, bytes], snapshot: bytes) -> None:
    """The floor: answers each path of `sizes` with that head and body, anything else with a
    stream's head and `snapshot` as its first chunk (left open)."""
    import httptools

    kept: list[asyncio.Protocol] = []

    class Join(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self.transport = transport
            self.parser = httptools.HttpRequestParser(self)
            self.url = b""

        def data_received(self, data: bytes) -> None:
            self.parser.feed_data(data)

        def on_url(self, url: bytes) -> None:
            self.url += url

        def on_message_complete(self) -> None:
            url, self.url = self.url, b""
            answer = sizes.get(url)
            if answer is None:
                head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                answer = head + b"transfer-encoding: chunked\r\n\r\n%x\r\n%s\r\n" % (
                    len(snapshot),
                    snapshot,
                )
                kept.append(self)
            self.transport.write(answer)  # type: ignore[attr-defined]

    async def main() -> None:
        await asyncio.get_running_loop().create_server(Join, sock=sock)
        await asyncio.Event().wait()

    uvloop.run(main())


async def joins(
    port: int, paths: list[list[str]], stream: int, pid: int, n: int, gap_s: float
) -> float:
    """`n` joins (`paths[i]`: the i-th join's page and files; `stream`: the game whose stream
    each opens), one at a time, `gap_s` apart: the CPU (ms) per join of process `pid`."""
    streams: list[Phone] = []
    bench = Bench("127.0.0.1", port, stream, legacy=False)
    before = run_ns(pid)
    for i in range(n):
        conn = Conn("127.0.0.1", port)
        for path in paths[i]:
            status, _ = await conn.request("GET", path, headers=BROWSER)
            assert status == 200, (path, status)
        conn.close()
        phone = Phone(bench, "/", Conn("127.0.0.1", port))
        await phone.open_stream()
        streams.append(phone)
        await asyncio.sleep(gap_s)
    used = (run_ns(pid) - before) / 1e6 / n
    for phone in streams:
        phone.drop()
    await asyncio.gather(*(p.task for p in streams if p.task), return_exceptions=True)  # ended
    return used


async def run(args) -> None:
    n = 20 if args.smoke else args.joins
    runs = 1 if args.smoke else args.runs
    gap_s = args.gap_ms / 1000
    with tempfile.TemporaryDirectory() as tmp:
        deck = new_deck(max(1000, runs * n + 2), seed="join-floor")
        deck_path = save_deck(deck, Path(tmp) / "bench.deck.json")
        proc, port = start_station(Path(tmp), deck_path)
        try:
            game = await game_started(port, deck)
            await idle(proc.pid)
            pids = serving_pids(proc.pid)
            public = pids[-1]  # the phones' process (the Maestro's when there is one process)
            print(calibrate.line("127.0.0.1", port, "/web/static/live.js"))
            # the station's own answers: their sizes, for the floor to write the same bytes
            first = Phone(
                Bench("127.0.0.1", port, game, legacy=False),
                card_path(deck.secret, deck.deck_id, 1),
                Conn("127.0.0.1", port),
            )
            await first.join()
            first.conn.close()
            files = sorted(first.cached)
            first.drop()
            sizes = await _answers(port, [card_path(deck.secret, deck.deck_id, 1), *files])
            snapshot = await _first_event(port, game)
            floor_sock = socket.create_server(("127.0.0.1", 0), backlog=2048)
            floor = multiprocessing.Process(
                target=floor_server, args=(floor_sock, sizes, snapshot), daemon=True
            )
            floor.start()
            floor_port = floor_sock.getsockname()[1]
            print(
                f"the station on :{port} (default serve settings, a deck of {len(deck.cards)} "
                f"cards, a game started) and the floor on :{floor_port}; {n} joins a run, one "
                f"every {args.gap_ms:g} ms; answers of "
                f"{', '.join(str(len(a)) for a in sizes.values())} bytes"
            )
            serial = 2
            station_ms, floor_ms = [], []
            for r in range(runs):
                pages = [
                    [card_path(deck.secret, deck.deck_id, serial + i), *files] for i in range(n)
                ]
                serial += n
                used = await joins(port, pages, game, public, n, gap_s)
                station_ms.append(used)
                await idle(proc.pid)
                same = [[p.decode() for p in sizes] for _ in range(n)]
                floor_ms.append(await joins(floor_port, same, game, floor.pid, n, gap_s))
                print(
                    f"  run {r + 1}: the station {station_ms[-1]:.3f} ms a join, "
                    f"the floor {floor_ms[-1]:.3f} ms (x{station_ms[-1] / floor_ms[-1]:.1f})"
                )
            s, f = statistics.median(station_ms), statistics.median(floor_ms)
            print(
                f"median of {runs}: the station {s:.3f} ms a join, the floor {f:.3f} ms "
                f"(x{s / f:.1f})"
            )
            floor.kill()
        finally:
            proc.terminate()
            proc.wait(10)


async def _answers(port: int, paths: list[str]) -> dict[bytes, bytes]:
    """Each path's whole answer from the station (head and body, as a browser asks for it)."""
    got: dict[bytes, bytes] = {}
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for path in paths:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n{BROWSER[0]}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        got[path.encode()] = head + await reader.readexactly(length)
    writer.close()
    return got


async def _first_event(port: int, game: int) -> bytes:
    """The station's first event of a card's stream (its snapshot), as written."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/games/{game}/events?view=card HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    got = b""
    while b"event: snapshot" not in got or not got.endswith(b"\n\n\r\n"):
        data = await reader.read(65536)
        if not data:
            raise SystemExit(f"the game's stream ended before its snapshot: {got[:200]!r}")
        got += data
    writer.close()
    body = got.split(b"\r\n\r\n", 1)[1]
    size, rest = body.split(b"\r\n", 1)
    return rest[: int(size, 16)]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--joins", type=int, default=400, help="joins per run")
    p.add_argument("--gap-ms", type=float, default=15.0, help="between one join and the next")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--smoke", action="store_true", help="20 joins, one run: seconds")
    uvloop.run(run(p.parse_args()))


if __name__ == "__main__":
    main()
