"""`bingo-hall companions [--host --port --db]`: the scorekeepers alone, for a night with no
bingo."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest
import requests
from testkit import eventually

# every test here runs a real process (see `process` in pyproject.toml)
pytestmark = pytest.mark.process

CLI = [sys.executable, "-c", "from bingo_hall.cli import main; main()", "companions"]


def run(*args):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60)


def test_a_db_in_a_missing_folder_is_one_line_and_exit_2(tmp_path):
    r = run("--db", str(tmp_path / "nope" / "x.sqlite"))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "does not exist" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_db_that_is_not_sqlite_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("shopping list: eggs, milk, tiles " * 100)
    r = run("--db", str(bad))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_a_bad_port_is_a_usage_error(tmp_path):
    r = run("--port", "0", "--db", str(tmp_path / "x.sqlite"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_it_serves_only_the_companions_and_keeps_tables_in_the_db_file(tmp_path):
    port, db = free_port(), tmp_path / "party.sqlite"
    proc = subprocess.Popen(
        [*CLI, "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"

        def answers() -> bool:  # the server is up once it answers; it may take seconds to start
            try:
                return requests.get(f"{base}/t/", timeout=5).status_code == 200
            except requests.RequestException:
                return False

        eventually(answers, timeout=60)
        r = requests.post(f"{base}/t/new/rummy", json={"players": ["Ana", "Beto"]}, timeout=5)
        assert r.status_code == 201
        assert requests.get(f"{base}/caller", timeout=5).status_code == 404  # no bingo here
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    assert db.exists() and db.stat().st_size > 0


def test_on_its_own_it_prints_the_lan_address_and_its_start_leads_to_the_tables(tmp_path):
    from bingo_hall.machine import netaddr

    port, db = free_port(), tmp_path / "alone.sqlite"
    proc = subprocess.Popen(
        [*CLI, "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner = proc.stdout.readline()
        lan = netaddr.lan_address() or "127.0.0.1"
        assert f"http://{lan}:{port}/t/" in banner and "localhost" not in banner, banner
        base = f"http://127.0.0.1:{port}"
        start = requests.get(f"{base}/", timeout=10)
        assert start.status_code == 200 and start.url == f"{base}/t/"
        missing = requests.get(f"{base}/nothing-here", timeout=10)
        assert missing.status_code == 404
        back = missing.text.split("<a href=", 1)[1].split(">", 1)[0].strip("\"'")
        assert requests.get(base + back, timeout=10).url == f"{base}/t/"  # not itself
    finally:
        proc.terminate()
        proc.wait(timeout=10)
