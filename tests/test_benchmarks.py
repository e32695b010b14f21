"""Every benchmark still runs (issue 34): each `benchmarks/*.py` has a `--smoke` mode (a few
iterations, seconds), and this runs it, so a change that breaks a benchmark (a renamed constant,
a cache that moved) fails here instead of on the day someone measures. The figures of a smoke
run mean nothing; only that it runs to the end and prints them.

The runs start together, a few at a time, so the whole set takes about as long as its longest;
guests.py makes a network namespace and so needs root (as `make test` runs in CI; where you are
not root, leave it out as test_guests.py is left out: `pytest -k "not guests"`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted(p for p in (ROOT / "benchmarks").glob("*.py") if not p.name.startswith("_"))
NEEDS_ROOT = {"guests.py"}  # a network namespace for the guests (ip netns)
AT_ONCE = 3
LIMIT_S = 300

# the benchmarks start stations and worker processes (some at a low priority) and wait on them:
# with nothing beside them (`alone`), as a benchmark is run
pytestmark = [pytest.mark.slow, pytest.mark.alone]


def _can_run(path: Path) -> bool:
    return path.name not in NEEDS_ROOT or (os.geteuid() == 0 and shutil.which("ip") is not None)


def _smoke(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(path), "--smoke"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=LIMIT_S,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@pytest.fixture(scope="module")
def smoke_runs():
    with ThreadPoolExecutor(AT_ONCE) as pool:
        yield {p.name: pool.submit(_smoke, p) for p in BENCHMARKS if _can_run(p)}


def test_there_are_benchmarks_to_run():
    assert len(BENCHMARKS) >= 14


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.name)
def test_the_benchmark_runs_in_its_smoke_mode(path: Path, smoke_runs: dict[str, Future]):
    assert path.name in smoke_runs, (
        f"{path.name} makes a network namespace, which needs root and iproute2's ip (make test "
        'installs it); where you are not root, deselect it: pytest -k "not guests"'
    )
    done = smoke_runs[path.name].result()
    assert done.returncode == 0, f"{path.name} --smoke failed:\n{done.stdout}\n{done.stderr}"
    assert done.stdout.strip(), f"{path.name} --smoke printed no figures"
    assert "Traceback" not in done.stderr
