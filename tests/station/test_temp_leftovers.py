"""A station's temporary files go with it, and a key never sits in a temp folder.

`bingo-hall serve` runs as a real process with TMPDIR set to a folder of the test's own, a 90-ball
deck loaded (a worker process that drew its tables used to make a whole station of its own there:
a database, a PIN file and a book key). While it serves, that folder may hold its processes'
socket and nothing else, and every process of the station reads the station's own database;
after a clean stop, and after a kill -9 and the next start, no bingo-hall-* folder is left in it
(web/scratch.py)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit import eventually, free_port, station_process

from bingo_hall.manifest import save_deck
from bingo_hall.variants import variant_for

pytestmark = [pytest.mark.slow]


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found.append(int(entry))
    return found


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def _open_databases(pid: int) -> list[str]:
    """The SQLite files the process has open (Linux: /proc/PID/fd)."""
    found = []
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return found
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.endswith(".sqlite"):
            found.append(target)
    return found


def _everything_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def _serve(tmp_path: Path, temp: Path) -> subprocess.Popen:
    from bingo_hall.manifest import new_variant_deck

    deck = tmp_path / "tombola.deck.json"
    if not deck.exists():
        save_deck(new_variant_deck(variant_for(90), 10, seed="leftovers", name="Tombola"), deck)
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "127.0.0.1"]
    argv += ["--port", str(free_port()), "--db", str(tmp_path / "night.sqlite"), "--pin", "8642"]
    argv += ["--deck", str(deck)]
    proc, _lines = station_process(argv, env={**os.environ, "TMPDIR": str(temp)})
    return proc


def _databases_open(proc: subprocess.Popen) -> list[str]:
    """Every database the station's processes have open, once its phones' process has one."""
    under = _descendants(proc.pid)
    if not any(_open_databases(pid) for pid in under if pid != proc.pid):
        return []
    return [path for pid in [proc.pid, *under] for path in _open_databases(pid)]


@pytest.fixture
def temp() -> Iterator[Path]:
    """The station's own TMPDIR: short, as a unix socket's path must be (108 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="bh-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_station_leaves_no_temp_folder_and_never_puts_a_database_or_key_in_one(tmp_path, temp):
    proc = _serve(tmp_path, temp)
    try:
        eventually(lambda: _databases_open(proc), timeout=120)
        # the phones' process reads the station's own database, never one of its own
        assert set(_databases_open(proc)) == {str(tmp_path / "night.sqlite")}
        (folder,) = [p for p in temp.iterdir() if p.name.startswith("bingo-hall-")]
        assert folder.name.startswith(f"bingo-hall-{proc.pid}-")
        assert _everything_in(temp) == [folder.name, f"{folder.name}/maestro.sock"]
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl+C: the station's clean stop
        proc.wait(30)
    assert [p.name for p in temp.iterdir() if p.name.startswith("bingo-hall-")] == []


def test_the_folder_of_a_station_killed_with_kill_9_is_removed_at_the_next_start(tmp_path, temp):
    killed = _serve(tmp_path, temp)
    killed.kill()  # kill -9: its stop never runs
    killed.wait(30)
    (left,) = [p.name for p in temp.iterdir() if p.name.startswith("bingo-hall-")]
    assert left.startswith(f"bingo-hall-{killed.pid}-")
    # its phones' process ends with it (the kernel tells it), then a new station starts
    proc = _serve(tmp_path, temp)
    try:
        names = [p.name for p in temp.iterdir() if p.name.startswith("bingo-hall-")]
        assert left not in names
        assert [n.split("-")[2] for n in names] == [str(proc.pid)]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    assert [p.name for p in temp.iterdir() if p.name.startswith("bingo-hall-")] == []
