"""The kit as a host gets it (issue 16): built into an sdist and a wheel, installed in a fresh venv
outside the repository, and run from an empty folder.

How it is built and installed, and why that proves the wheel is self-contained: the sdist and
the wheel are built once, the wheel from the sdist as `make dist` does, but with the suite's own
setuptools and Babel (`--no-isolation`; the test extra holds both) instead of a fresh build
environment, which would add 10-20 seconds; `make dist` builds in isolation. A venv is made in
a temporary folder without pip (faster), and the suite's own pip installs the wheel into it
(`pip --python`), compiling nothing ahead (`--no-compile`: Python compiles what a command
imports, as it runs). pip resolves the third-party dependencies from the wheel's metadata alone,
through the usual index and pip's cache (`make install-test` filled it with the same releases,
so this takes seconds), which proves the declared dependencies are complete. The kit's own
files can only come from the wheel: every command runs with a temporary folder as its working
directory, with no PYTHONPATH, and the test asserts that each package imports from the new
venv. HOME points at a temporary folder, so the per-user data folder is a temporary one too.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
import requests
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from printing.pdfread import PAYLOAD, open_pdf, scan_qr_codes
from testkit import station_process

pytestmark = pytest.mark.slow  # builds from the working tree: not beside tests that write in it

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("bingo_hall", "companions", "firmware_bridge", "card_templates")
BUILD_ONLY = {"babel.cfg"}  # message-extraction settings: the repository's, not the kit's
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    cmd = [sys.executable, "-m", "build", "-q", "--no-isolation", "-o", str(out), str(REPO)]
    subprocess.run(cmd, check=True, capture_output=True, timeout=300)
    return {"sdist": next(out.glob("*.tar.gz")), "wheel": next(out.glob("*.whl"))}


@pytest.fixture(scope="session")
def venv(dist, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("installed") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = str(root / "bin" / "python")
    pip = [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-compile"]
    subprocess.run([*pip, str(dist["wheel"])], check=True, capture_output=True, timeout=300)
    return root


def kit_env(home: Path) -> dict[str, str]:
    """The environment of a host's shell: a home of its own, nothing pointing into the clone."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "XDG_DATA_HOME")}
    return {**env, "HOME": str(home)}


def kit_source_files() -> list[str]:
    """Every file of the four packages in the source tree, except what is generated or only used
    to maintain the repository (computed from the tree, so a new template or script is covered)."""
    files = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*")):
            generated = "__pycache__" in path.parts or path.suffix in (".pyc", ".mo")
            if path.is_file() and not generated and path.name not in BUILD_ONLY:
                files.append(path.relative_to(REPO).as_posix())
    return files


def translated(catalog) -> set[str | tuple[str, ...]]:
    """The ids with a translation; a plural's id is its (singular, plural) pair."""
    return {
        m.id if isinstance(m.id, str) else tuple(m.id)
        for m in catalog
        if m.id and m.string and not m.fuzzy
    }


def test_the_wheel_carries_every_kit_file_and_a_compiled_catalog_for_every_po(dist):
    wheel = zipfile.ZipFile(dist["wheel"])
    names = set(wheel.namelist())
    files = kit_source_files()
    assert [f for f in files if f not in names] == []
    catalogs = [f for f in files if f.endswith("/LC_MESSAGES/messages.po")]
    assert len(catalogs) >= 9  # station, verify, the companions shell and its games, the bridge
    for po in catalogs:
        with (REPO / po).open("rb") as src:
            source = read_po(src)
        compiled = read_mo(wheel.open(po[:-3] + ".mo"))
        assert translated(compiled) == translated(source), po
    with tarfile.open(dist["sdist"]) as sdist:
        with_sdist = sdist.getnames()
    assert [n for n in with_sdist if n.endswith(".mo")] == []  # compiled at build time, not shipped
    assert sum(n.endswith("messages.po") for n in with_sdist) == len(catalogs)


def test_the_installed_commands_and_python_m_run_the_venvs_own_copy(venv, tmp_path):
    bin_ = venv / "bin"
    script = (
        "import importlib, sys; [print(importlib.import_module(p).__file__) for p in sys.argv[1:]]"
    )
    runs = {
        "command": [bin_ / "bingo-hall", "--version"],
        "python -m": [bin_ / "python", "-m", "bingo_hall", "--version"],
        "packages": [bin_ / "python", "-c", script, *PACKAGES],
        "firmware": [bin_ / "bingo-hall", "firmware", tmp_path / "board"],
    }
    out = {}
    for name, argv in runs.items():
        r = subprocess.run(
            [str(a) for a in argv],
            cwd=tmp_path,
            env=kit_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert r.returncode == 0, r.stderr
        out[name] = r.stdout
    assert out["command"].strip() == f"bingo-hall, version {VERSION}"
    assert out["python -m"] == out["command"]
    files = [Path(f) for f in out["packages"].split()]
    assert len(files) == len(PACKAGES) and all(f.is_relative_to(venv) for f in files), files
    on_the_board = {"framing.py", "bhp_device.py", "display.py", "hal_board.py", "config.py"}
    assert {p.name for p in (tmp_path / "board").iterdir()} == on_the_board | {"main.py"}


def test_the_demo_from_the_wheel_keeps_its_files_in_the_user_folder_and_speaks_spanish(
    venv, tmp_path
):
    home, here = tmp_path / "home", tmp_path / "empty"
    home.mkdir()
    here.mkdir()
    user_data = home / ".local" / "share" / "bingo-hall"  # the XDG default on Linux
    argv = [str(venv / "bin" / "bingo-hall"), "demo", "--host", "127.0.0.1", "--port", "0"]
    argv += ["--pin", "8642", "--cards", "8"]
    proc, lines = station_process(argv, timeout=60, cwd=here, env=kit_env(home))
    try:
        said = dict(x.strip().split(": ", 1) for x in lines if ": " in x)
        base = re.search(r"http://127\.0\.0\.1:\d+", said["Bingo Hall station"]).group(0)

        assert Path(said["database"].strip()) == user_data / "bingo-hall.sqlite"
        assert (user_data / "demo.deck.json").is_file() and (user_data / "secret_key").is_file()
        pdf = Path(said["cards PDF"].strip())
        assert pdf.parent == user_data
        assert list(here.iterdir()) == []  # the folder it was started in stays as it was

        payload = PAYLOAD.match(scan_qr_codes(open_pdf(pdf.read_bytes())[0])[0].text)
        serial = payload["serial"]
        card = f"{base}/C/{payload['deck']}/{serial}/{payload['sig']}"
        es = requests.get(card, headers={"Accept-Language": "es"}, timeout=10)
        assert es.status_code == 200
        assert f"Cartón {serial}" in es.text and "Un cartón auténtico de esta sala" in es.text
        en = requests.get(card, params={"lang": "en"}, timeout=10)
        assert f"Card {serial}" in en.text and "A genuine card of this hall" in en.text
        tables = requests.get(f"{base}/t/", params={"lang": "es"}, timeout=10)
        assert tables.status_code == 200 and "Unirse a una mesa" in tables.text
    finally:
        proc.terminate()
        proc.wait(10)
