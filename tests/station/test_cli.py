"""`bingo-hall audit`, and the one-line errors of `serve` and `audit` (exit code 2)."""

import hashlib
import socket
import subprocess
import sys

import pytest
from testkit import free_port, station_process

from .helpers import order_from_document

SEED = bytes.fromhex("9f" * 32)


def test_audit_prints_the_commitment_and_the_order_an_auditor_can_recompute(kit_cli):
    code, out, _ = kit_cli(["audit", "--seed", SEED.hex(), "--public-input", "Sala 3"])
    assert code in (0, None)
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    assert lines["commitment"] == hashlib.sha256(SEED).hexdigest()
    assert [int(b) for b in lines["order"].split()] == order_from_document(SEED, "Sala 3")


def test_audit_checks_a_list_of_calls(kit_cli):
    order = order_from_document(SEED)
    good = ",".join(map(str, order[:8]))
    code, out, _ = kit_cli(["audit", "--seed", SEED.hex(), "--calls", good])
    assert code in (0, None) and "follow the committed order" in out
    bad = ",".join(map(str, [order[1], order[0]]))
    code, _, err = kit_cli(["audit", "--seed", SEED.hex(), "--calls", bad])
    assert code == 2 and "call #1" in err


def test_audit_refuses_a_seed_that_is_not_64_hex_digits(kit_cli):
    code, _, err = kit_cli(["audit", "--seed", "1234"])
    assert code == 2 and err.count("\n") == 1 and "64" in err


@pytest.mark.slow  # starts the station as a process of its own: `make test` runs it
def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "bingo_hall",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                str(tmp_path / "s.sqlite"),
                "--pin",
                "1234",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and f"port {port} is already in use" in r.stderr


def test_serve_refuses_a_broken_deck_file(tmp_path, kit_cli):
    bad = tmp_path / "bad.deck.json"
    bad.write_text("{}")
    code, _, err = kit_cli(["serve", "--deck", str(bad), "--db", str(tmp_path / "d.sqlite")])
    assert code == 2 and "not a deck file" in err


def test_init_db_creates_the_station_tables(tmp_path, kit_cli):
    import sqlite3

    db = tmp_path / "new.sqlite"
    code, out, _ = kit_cli(["init-db", "--db", str(db)])
    assert code == 0 and str(db) in out
    with sqlite3.connect(db) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"decks", "games", "rounds", "calls"} <= tables


@pytest.mark.slow  # starts the station as a process of its own: `make test` runs it
def test_demo_makes_a_deck_and_its_pdf_and_serves_them_with_the_pin(tmp_path):

    import requests

    port = free_port()
    argv = [sys.executable, "-m", "bingo_hall", "demo", "--host", "127.0.0.1"]
    argv += ["--port", str(port), "--instance", str(tmp_path), "--pin", "8642", "--cards", "8"]
    proc, lines = station_process(argv)
    try:
        out = "".join(lines)
        assert f"http://127.0.0.1:{port}/" in out and "caller PIN:  8642" in out
        assert str(tmp_path / "bingo-hall.sqlite") in out
        pdf = next(x.split(":", 1)[1].strip() for x in lines if x.strip().startswith("cards PDF"))
        assert open(pdf, "rb").read(5) == b"%PDF-"
        token = requests.post(f"http://127.0.0.1:{port}/api/login", json={"pin": "8642"}).json()
        decks = requests.get(
            f"http://127.0.0.1:{port}/api/decks",
            headers={"Authorization": "Bearer " + token["token"]},
        ).json()["decks"]
        assert [(d["name"], d["cards"]) for d in decks] == [("Demo", 8)]
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.slow  # starts the station as a process of its own: `make test` runs it
def test_serve_refuses_a_blank_pin_in_one_line(tmp_path):
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "127.0.0.1", "--port", "0"]
    for blank in ("", "   "):
        try:
            r = subprocess.run(
                [*argv, "--pin", blank, "--db", str(tmp_path / "p.sqlite")],
                capture_output=True,
                text=True,
                timeout=30,
            )
        except subprocess.TimeoutExpired:
            raise AssertionError(f"serve --pin {blank!r} started a station") from None
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--pin" in r.stderr, r.stderr


@pytest.mark.slow  # starts the station as a process of its own: `make test` runs it
def test_demo_lang_en_prints_the_demo_cards_and_opens_the_pages_in_english(tmp_path):

    import pypdfium2
    import requests

    port = free_port()
    argv = [sys.executable, "-m", "bingo_hall", "demo", "--host", "127.0.0.1", "--lang", "en"]
    argv += ["--port", str(port), "--instance", str(tmp_path), "--pin", "8642", "--cards", "4"]
    proc, lines = station_process(argv)
    try:
        pdf = next(x.split(":", 1)[1].strip() for x in lines if x.strip().startswith("cards PDF"))
        text = pypdfium2.PdfDocument(pdf)[0].get_textpage().get_text_range()
        assert "Card No." in text and "Scan to verify" in text
        assert "Cartón" not in text and "Escanee" not in text
        home = requests.get(f"http://127.0.0.1:{port}/", headers={"Accept-Language": "es"}).text
        assert '<html lang="en">' in home
    finally:
        proc.terminate()
        proc.wait(10)


def test_make_run_passes_the_port_and_the_language_to_demo():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    dry = subprocess.run(
        ["make", "-n", "-C", str(root), "run", "PORT=5001", "LANG=en"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    ).stdout
    assert "bingo-hall demo --port 5001 --lang en" in dry
    plain = subprocess.run(
        ["make", "-n", "-C", str(root), "run"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "LANG": "en_US.UTF-8", "PORT": ""},
    ).stdout
    assert "--lang" not in plain and "--port" not in plain  # the locale is not a --lang


def test_a_busy_port_5000_on_a_mac_names_the_airplay_receiver(tmp_path, monkeypatch):
    from bingo_hall.errors import KitError
    from bingo_hall.station.cli import start as station_cli

    assert station_cli.mac_port_hint(5000, "linux") == ""
    assert station_cli.mac_port_hint(5001, "darwin") == ""
    assert "AirPlay Receiver" in station_cli.mac_port_hint(5000, "darwin")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        app = station_cli.build_app(str(tmp_path / "m.sqlite"), "1234")
        monkeypatch.setattr(station_cli, "mac_port_hint", lambda p, s: " (AirPlay hint)")
        try:
            station_cli.run_server(app, "127.0.0.1", port)
        except KitError as exc:
            said = str(exc)
        else:
            raise AssertionError("a busy port started a station")
    assert f"port {port} is already in use" in said and said.endswith("(AirPlay hint)")


@pytest.mark.slow  # starts the station as a process of its own: `make test` runs it
def test_serve_announces_a_strips_deck_in_strips_and_tickets_not_cards(tmp_path):
    from bingo_hall.manifest import new_deck, new_variant_deck, save_deck
    from bingo_hall.variants import variant_for

    strips = new_variant_deck(variant_for(90), 25, seed="banner", name="Tombola")  # 25 strips
    cards = new_deck(12, seed="banner", name="Fiesta")
    files = [save_deck(d, tmp_path / f"{d.name}.deck.json") for d in (strips, cards)]
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "127.0.0.1"]
    argv += ["--port", str(free_port()), "--db", str(tmp_path / "s.sqlite"), "--pin", "8642"]
    proc, lines = station_process(argv + [a for f in files for a in ("--deck", str(f))])
    try:
        loaded = [x.strip() for x in lines if x.strip().startswith("deck loaded")]
        assert len(loaded) == 2, lines
        assert "Tombola (25 strips (150 tickets)" in loaded[0] and "cards" not in loaded[0]
        assert "Fiesta (12 cards" in loaded[1]
    finally:
        proc.terminate()
        proc.wait(10)
