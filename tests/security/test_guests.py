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
    if attack.kind == "cards":
        assert figures.guests["signed_paths"] <= SIGNED_PATHS, figures.line()
        assert figures.guests.get("answers_200", 0) >= SIGNED_PATHS, figures.line()
    if attack.kind == "separator":
        assert figures.guests["events"] >= 4 and figures.guests["unparsable"] == 0, figures.line()
