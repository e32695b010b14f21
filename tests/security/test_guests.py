"""Issues 29 and 38, "Done when": a guest cannot stop, slow, exhaust or fool the night.

The station runs as on a hall (`bingo-hall serve --host 0.0.0.0`, its defaults otherwise); the
guests run in a network namespace this test makes, joined by a veth pair of private addresses
(10.231.N.1 / 10.231.N.2, nothing else is targeted), so the station sees another machine, never
loopback. While each attack runs, the Maestro draws 20 times from the laptop (loopback, with the
PIN): 20 of 20 succeed with p99 <= 100 ms, and the big screen still loads. The attacks and the
Maestro are benchmarks/guests.py's (its figures: `sudo .venv/bin/python benchmarks/guests.py`).

The machine running the suite may be busy with other work (on 2 shared cores, one draw in 20
can wait 100 ms for a CPU with no guest at all). So the same 20 draws are timed just before each
attack with no guests, and their p99 is added to the 100 ms; and an attack whose draws miss that
is run again, up to TRIES times in all (each run must still get 20 of 20 draws and the big
screen). Before issue 29 no run could pass: 0 of 20 draws, or draws of seconds.

The attacks of issue 38 (A-F: static aliases, a JSON bomb, a /display flood, typed card numbers
from ten addresses, huge numbers in a score entry, line separators in a table's names) are each
held to all of the issue's targets, whichever they aim at: the draws as above, the station's
memory grows by less than 50 MB, no guest gets a 5xx, the guests together learn at most 10
signed card paths, and every event of the table's stream parses. Before issue 38 each failed
one: A memory (+215 MB in 10 s) and the draws, B and C the draws (p99 2 s, 0.5 s), D 100 signed
paths, E a 500, F events that did not parse.

The attacks of issue 55 on the guests' own work (2: Clue notebooks with a PIN from ten addresses,
3: score entries at the pace's limit from ten addresses) are held to the draws' bound, memory
(< 50 MB) and no 5xx, and the Maestro's process may spend at most MAESTRO_CPU_SHARE of a core
while they run: the phones' process hashes the PINs and writes the entries. Before issue 55 the
Maestro's process did both: PINs took both cores (a share near 2), entries about 0.7.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import guests  # noqa: E402

from bingo_hall.web.config import DEFAULT  # noqa: E402

# the guests attack a real station from a network namespace while the Maestro draws: with
# nothing else on the machine (`alone`), so that what the Maestro sees is the attack's doing
pytestmark = [pytest.mark.slow, pytest.mark.alone]

#: the issue's target for the Maestro's draws under attack
TARGET_P99_MS = 100.0
#: runs of one attack at most, while its p99 misses (the machine's noise, see above)
TRIES = 3
#: the issue's bounds for the attacks of issue 38
MEMORY_MB = 50.0
SIGNED_PATHS = 10
#: the Maestro's process's CPU seconds per second of a guest-work attack, at most: its own
#: draws and its share of the guests' connections (the door), none of their work
MAESTRO_CPU_SHARE = 0.15


@pytest.fixture(scope="module")
def night() -> Iterator[tuple[guests.GuestNetwork, guests.Hall, guests.Maestro]]:
    # CI runs as root; without root, deselect it: pytest -k "not test_guests"
    assert os.geteuid() == 0, "the guests run in a network namespace, which needs root"
    assert shutil.which("ip"), "`ip` (iproute2) is missing: `make test` installs it"
    with (
        tempfile.TemporaryDirectory() as tmp,
        guests.GuestNetwork() as net,
        guests.station(Path(tmp)) as hall,
    ):
        yield net, hall, guests.Maestro(hall.maestro_port)


@pytest.mark.parametrize("attack", guests.ATTACKS, ids=[a.name for a in guests.ATTACKS])
def test_the_maestro_draws_while_a_guest_attacks(night, attack):
    net, hall, maestro = night
    for _ in range(TRIES):
        figures = guests.run_attack(net, hall.port, maestro, hall.deck_id, attack, hall.pid)
        print(figures.line())
        _check_each_run(figures, attack)
        calm = [ms for status, ms in figures.quiet if status == 200]
        allowed = TARGET_P99_MS + guests.percentile(calm, 99)
        if guests.percentile(figures.ok, 99) <= allowed:
            return
    pytest.fail(f"the draws' p99 missed {allowed:.0f} ms in {TRIES} runs: {figures.line()}")


def _check_each_run(figures: guests.Figures, attack: guests.Attack) -> None:
    assert "error" not in figures.guests, figures.line()
    assert len(figures.ok) == guests.DRAWS, figures.line()
    status, _ms, page = figures.display
    assert status == 200 and page, figures.line()
    if attack.kind in ("bodies", "slowloris", "streams", "slowread"):
        # the guest held what it was given, and no more than its address's budget
        # the station runs with its defaults (benchmarks/guests.py: `bingo-hall serve`)
        assert 0 < figures.guests["held"] <= DEFAULT.connections_per_address, figures.line()
        assert figures.guests["opened"] + figures.guests["failed"] == attack.count
    if attack.kind == "header":
        assert figures.guests.get("headers_sent_whole", 0) == 0, figures.line()
        assert figures.guests.get("headers_cut_off", 0) > 0, figures.line()
    if attack.kind == "slowread":
        assert figures.check is not None and figures.check[0] == 200, figures.line()
    if attack.name in guests.NEW:
        assert figures.memory_growth < MEMORY_MB, figures.line()
        assert figures.errors_5xx == 0, figures.line()
        answered = sum(n for k, n in figures.guests.items() if k.startswith("answers_"))
        assert answered > 0, figures.line()  # the attack did reach the station
    if attack.name in guests.GUEST_WORK:
        assert figures.memory_growth < MEMORY_MB, figures.line()
        assert figures.errors_5xx == 0, figures.line()
        assert figures.guests.get("answers_201", 0) > 0, figures.line()  # the work was done
        assert figures.maestro_cpu_share <= MAESTRO_CPU_SHARE, figures.line()
    if attack.kind == "cards":
        assert figures.guests["signed_paths"] <= SIGNED_PATHS, figures.line()
        assert figures.guests.get("answers_200", 0) >= SIGNED_PATHS, figures.line()
    if attack.kind == "separator":
        assert figures.guests["events"] >= 4 and figures.guests["unparsable"] == 0, figures.line()


# --- attack 6 of the Maestro's-process sweep: guests on reconnect loops fill the budget ----------

#: guests from `addresses` holding `per` keep-alive connections each, asking for /display again
#: and again and reconnecting at once when refused or closed; "ready" once every loop has run,
#: then, when stdin closes, the answers' statuses counted
LOOPS = r"""
import collections, http.client, json, socket, sys, threading
host, port, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
addresses = sys.argv[4].split(",")
seen, stop, started = collections.Counter(), threading.Event(), collections.Counter()
class Bound(http.client.HTTPConnection):
    def __init__(self, source):
        super().__init__(host, port, timeout=10, source_address=(source, 0))
def loop(source):
    conn = None
    while not stop.is_set():
        try:
            conn = conn or Bound(source)
            conn.request("GET", "/display")
            r = conn.getresponse(); r.read()
            seen[r.status] += 1
            if r.status != 200: conn.close(); conn = None
        except Exception:
            seen["error"] += 1; conn = None
        started[source] += 1
for a in addresses:
    for _ in range(per):
        threading.Thread(target=loop, args=(a,), daemon=True).start()
while sum(started.values()) < per * len(addresses): stop.wait(0.05)
print("ready", flush=True)
sys.stdin.read()
stop.set()
print(json.dumps({str(k): v for k, v in seen.items()}), flush=True)
"""

#: a phone from `source` that scanned its card: the card's page, then its stream (named by the
#: page in its Referer, as the browser sends it), each on a connection of its own
PHONE = r"""
import http.client, json, sys
host, port, source, card, stream = sys.argv[1], int(sys.argv[2]), *sys.argv[3:6]
said = []
for path, headers in ((card, {}), (stream, {"Referer": f"http://{host}:{port}{card}"})):
    conn = http.client.HTTPConnection(host, port, timeout=20, source_address=(source, 0))
    conn.request("GET", path, headers=headers)
    r = conn.getresponse()
    said.append(r.status if r.status == 200 else [r.status, r.read().decode()[:300]])
    conn.close()
print(json.dumps(said), flush=True)
"""


def test_a_phone_with_a_valid_card_gets_in_while_guests_on_reconnect_loops_fill_the_budget(
    night, tmp_path
):
    """Under a laptop's usual file limit (1024: 64 guests' connections), guests from four
    addresses, 20 loops each, hold every anonymous connection the station allows; a phone from
    a fresh address still opens its card's page and its stream."""
    import json
    import resource
    import subprocess

    from bingo_hall.manifest import new_deck, save_deck
    from bingo_hall.signing import card_path

    deck = new_deck(12, seed="budget loops", name="Loops")
    deck_file = save_deck(deck, tmp_path / "loops.deck.json")
    port, maestro_port = guests.free_port(), guests.free_port()
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "0.0.0.0", "--pin", guests.PIN]
    argv += ["--port", str(port), "--maestro-port", str(maestro_port), "--deck", str(deck_file)]
    argv += ["--db", str(tmp_path / "loops.sqlite")]

    def a_laptops_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    station = subprocess.Popen(
        argv,
        cwd=guests.ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=a_laptops_limit,
    )
    loops = None
    try:
        lines = []
        while not any("Ctrl+C" in x for x in lines):
            lines.append(station.stdout.readline())
            assert station.poll() is None, "".join(lines)
        maestro = guests.Maestro(maestro_port)
        gid = maestro.new_game(deck.deck_id)
        net = night[0]  # the guests' network (one namespace per process: its name is the pid's)
        loopers, phone = net.guests[:4], net.guests[-1]
        loops = net.popen(
            [sys.executable, "-c", LOOPS, net.host, str(port), "20", ",".join(loopers)]
        )
        assert loops.stdout.readline().strip() == "ready"
        said = []
        for serial in range(1, 6):
            card = card_path(deck.secret, deck.deck_id, serial)
            stream = f"/api/games/{gid}/events?view=card"
            argv = [sys.executable, "-c", PHONE, net.host, str(port), phone, card, stream]
            said.append(json.loads(net.popen(argv).communicate(timeout=60)[0]))
        loops.stdin.close()
        seen = json.loads(loops.stdout.readline())
        assert said == [[200, 200]] * 5, (said, seen)
        assert seen.get("503", 0) > 0, seen  # the guests did fill the budget
    finally:
        if loops is not None and loops.poll() is None:
            loops.kill()
        station.terminate()
        station.communicate(timeout=60)
