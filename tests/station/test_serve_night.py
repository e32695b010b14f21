"""`serve` on the night (issue 15): `--lang` sets the language pages open in for players who
have not chosen one (kept in the database, changed on the caller page too), and a deck whose
cards were printed for an address that is not this machine's is pointed out in one line."""

from __future__ import annotations

import signal
import sys

import pytest
import requests
from testkit import free_port, station_process

from bingo_hall.machine.printed import printed_for, remember, stale_note
from bingo_hall.manifest import new_deck, save_deck

ELSEWHERE = "http://10.254.254.253:5000"  # never this machine (a reserved-looking private host)


def _serve(tmp_path, *extra):
    port = free_port()
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "127.0.0.1"]
    argv += ["--port", str(port), "--instance", str(tmp_path), "--pin", "8642", *extra]
    proc, lines = station_process(argv, timeout=60)
    return proc, port, lines


@pytest.mark.slow  # starts the station as a process of its own: `make test` runs it
def test_serve_says_in_one_line_when_the_printed_address_is_not_this_machine(tmp_path):
    deck_path = tmp_path / "fiesta.deck.json"
    save_deck(new_deck(3, seed="stale", name="Fiesta"), deck_path)
    remember(deck_path, ELSEWHERE)
    proc, _port, lines = _serve(tmp_path, "--deck", str(deck_path))
    try:
        warned = [x for x in lines if "not this machine's address" in x]
        assert len(warned) == 1
        assert ELSEWHERE in warned[0] and "Scan card" in warned[0] and "--base-url" in warned[0]
    finally:
        proc.terminate()
        proc.wait(10)


def test_no_warning_for_cards_printed_for_this_machine(tmp_path):
    deck_path = tmp_path / "home.deck.json"
    save_deck(new_deck(3, seed="home", name="Home"), deck_path)
    remember(deck_path, ELSEWHERE)
    remember(deck_path, "http://127.0.0.1:5000")  # reprinted: the newest printing counts
    assert printed_for(deck_path) == [ELSEWHERE, "http://127.0.0.1:5000"]
    assert stale_note("Home", deck_path) is None
    assert stale_note("Home", deck_path, addresses={"192.168.1.9"}) is not None


def test_printing_notes_the_address_the_cards_point_at(tmp_path, capsys):
    from bingo_hall.cli import main

    pdf = tmp_path / "party.pdf"
    argv = ["generate", "-n", "2", "-o", str(pdf), "--base-url", "http://192.168.50.7:5000"]
    try:
        main(argv)
    except SystemExit as exc:
        assert exc.code in (0, None)
    assert printed_for(tmp_path / "party.deck.json") == ["http://192.168.50.7:5000"]


@pytest.mark.slow
def test_serve_lang_opens_pages_in_that_language_until_the_caller_changes_it(tmp_path):
    proc, port, lines = _serve(tmp_path, "--lang", "es")
    base = f"http://127.0.0.1:{port}"
    try:
        assert any("las páginas se abren en español (--lang es)" in x for x in lines)
        english_browser = {"Accept-Language": "en-GB,en;q=0.9"}
        home = requests.get(base + "/", headers=english_browser).text
        assert '<html lang="es">' in home
        chosen = requests.get(base + "/", headers=english_browser, cookies={"lang": "en"}).text
        assert '<html lang="en">' in chosen  # a player's own choice still wins
        token = requests.post(base + "/api/login", json={"pin": "8642"}).json()["token"]
        auth = {"Authorization": "Bearer " + token}
        r = requests.post(base + "/api/hall/settings", json={"lang": "en"}, headers=auth)
        assert r.status_code == 200 and r.json()["lang"] == "en"
        assert (
            '<html lang="en">' in requests.get(base + "/", headers={"Accept-Language": "es"}).text
        )
        bad = requests.post(base + "/api/hall/settings", json={"lang": "fr"}, headers=auth)
        assert bad.status_code == 400 and "lang is one of" in bad.json()["error"]
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.slow  # starts the station as a process of its own: `make test` runs it
def test_serve_warns_when_the_cards_were_printed_for_another_port(tmp_path):
    deck_path = tmp_path / "fiesta.deck.json"
    save_deck(new_deck(3, seed="port", name="Fiesta"), deck_path)
    remember(deck_path, "http://127.0.0.1:5000")  # this machine, the default port
    proc, port, lines = _serve(tmp_path, "--deck", str(deck_path))
    try:
        warned = [x for x in lines if "http://127.0.0.1:5000" in x]
        assert len(warned) == 1, lines
        assert f"listens on port {port}" in warned[0] and "--port 5000" in warned[0]
        # ... and the Maestro sees it on the caller page too, in the page's language.
        s = requests.Session()
        login = s.get(f"http://127.0.0.1:{port}/caller/login").text
        csrf = login.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
        s.post(f"http://127.0.0.1:{port}/caller/login", data={"pin": "8642", "csrf_token": csrf})
        token = s.post(f"http://127.0.0.1:{port}/api/login", json={"pin": "8642"}).json()["token"]
        decks = s.get(
            f"http://127.0.0.1:{port}/api/decks", headers={"Authorization": "Bearer " + token}
        ).json()["decks"]
        r = s.post(
            f"http://127.0.0.1:{port}/api/games",
            json={"deck_id": decks[0]["deck_id"], "mode": "normal", "draw": "auto"},
            headers={"Authorization": "Bearer " + token},
        )
        page = s.get(f"http://127.0.0.1:{port}/caller/games/{r.json()['game_id']}").text
        assert "printed-mismatch" in page and f"port {port}" in page
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_printed_port_and_host_are_compared_with_where_the_station_listens(tmp_path):
    deck_path = tmp_path / "club.deck.json"
    save_deck(new_deck(3, seed="club", name="Club"), deck_path)
    remember(deck_path, "http://127.0.0.1:5000")
    assert stale_note("Club", deck_path, port=5000) is None
    assert "--port 5000" in stale_note("Club", deck_path, port=5001)
    remember(deck_path, "http://127.0.0.1")  # no port: http's 80
    assert stale_note("Club", deck_path, port=80) is None
    assert "--port 80" in stale_note("Club", deck_path, port=5000)
    remember(deck_path, "http://10.1.2.3:5000")  # this machine's LAN address, say
    mine = {"127.0.0.1", "10.1.2.3"}
    assert stale_note("Club", deck_path, addresses=mine, port=5000) is None
    only_here = stale_note("Club", deck_path, addresses=mine, port=5000, host="127.0.0.1")
    assert "--host 0.0.0.0" in only_here


@pytest.mark.slow  # starts the station as a process of its own: `make test` runs it
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("when", ["serving", "at once"])
def test_a_station_stopped_by_a_signal_exits_cleanly_without_leaked_semaphore_warnings(
    tmp_path, stop, when
):
    """Ctrl+C (SIGINT) or a service manager's SIGTERM, while serving or in the instant after
    "Press Ctrl+C to stop.": the station shuts down, exits 0 and leaves nothing behind (no
    traceback; the table replays' worker leaves nothing for Python's resource tracker to warn
    about)."""
    proc, port, _lines = _serve(tmp_path)
    if when == "serving":
        assert requests.get(f"http://127.0.0.1:{port}/display", timeout=30).ok
    proc.send_signal(stop)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:  # it did not stop: leave no station running after the test
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "leaked" not in err and "Traceback" not in err and "Warning" not in err, err
