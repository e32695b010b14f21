"""`bingo-hall serve --program FILE` as a real process: the program is loaded with the station,
and the same file again after a restart resumes it (issue 37)."""

from __future__ import annotations

import sys

import pytest
from testkit import free_port, station_process

pytestmark = pytest.mark.slow

PROGRAM = """\
name = "Club night"
[[game]]
name = "Corners"
pattern = "four_corners"
prizes = { bingo = "5" }
[[game]]
name = "Full house"
pattern = "full_card"
prizes = { bingo = "50" }
"""


def _serve(tmp_path, *extra: str):
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "127.0.0.1"]
    argv += ["--port", str(free_port()), "--instance", str(tmp_path / "inst"), "--pin", "246810"]
    return station_process([*argv, *extra])


def test_serve_loads_the_program_and_resumes_it_after_a_restart(tmp_path):
    path = tmp_path / "club.toml"
    path.write_text(PROGRAM, encoding="utf-8")
    for expected in (
        "program loaded: Club night (2 games; Next game starts game 1)",
        "program resumed: Club night (2 games, at game 1)",
    ):
        proc, lines = _serve(tmp_path, "--program", str(path))
        try:
            assert any(expected in line for line in lines), lines
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def test_serve_with_a_bad_program_is_one_line_and_exit_2(tmp_path):
    import subprocess

    path = tmp_path / "club.toml"
    path.write_text(PROGRAM.replace('"full_card"', '"star"'), encoding="utf-8")
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--port", "0"]
    argv += ["--instance", str(tmp_path / "inst"), "--program", str(path)]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "club.toml:8: game 2: unknown pattern 'star'" in r.stderr
