"""Every command speaks the hall's language (docs/glossary.md, "How the pages speak"): `--lang`
if given, else the environment's (LANG=es_AR.UTF-8 is Spanish), its lines and its one-line
errors translated through the kit's catalogs, with no English word and no prize key in them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_spanish import code_words_in, english_in
from testkit import free_port, station_process

from bingo_hall.manifest import new_deck, new_strip_deck, save_deck

#: an Argentine club's night: Four Corners as singles and books, an Italian Tombola, a Tambola
#: and Línea y bingo on strips, in pesos written as she writes them
NIGHT = """\
name = "Friday at the club"
name_es = "Viernes en el club"
currency = "ARS"

[[game]]
name = "Four Corners"
name_es = "Cuatro esquinas"
pattern = "four_corners"
prices = [{ amount = "1.500" }, { amount = "6.000", book = 6 }]
prizes = { bingo = "20.000" }

[[game]]
name = "Italian Tombola"
name_es = "Tómbola italiana"
balls = 90
prize_list = "tombola"
price = "2.000"
[game.prizes]
ambo = "1.000"
terno = "2.000"
quaterna = "3.000"
cinquina = "5.000"
tombola = { amount = "10.000", jackpot = "50.000", within = 45 }

[[game]]
name = "Tambola"
balls = 90
prize_list = "tambola"
price = "2.000"
interval = 15
[game.prizes]
early-five = "1.000"
top-line = "2.000"
middle-line = "2.000"
bottom-line = "2.000"
four-corners = "2.000"
full-house = { percent = 50 }

[[game]]
name = "Line and bingo"
name_es = "Línea y bingo"
balls = 90
prize_list = "linea-bingo"
price = "2.000"
[game.prizes]
linea = "3.000"
bingo = "15.000"
"""


@pytest.fixture
def night_file(tmp_path) -> Path:
    path = tmp_path / "viernes.toml"
    path.write_text(NIGHT, encoding="utf-8")
    return path


@pytest.fixture
def argentine(monkeypatch):
    """The host's terminal: an Argentine locale, as `locale` would show it."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "es_AR.UTF-8")


def test_the_environment_names_the_language_as_posix_reads_it():
    from bingo_hall.cli.speech import environment_lang

    assert environment_lang({"LANG": "es_AR.UTF-8"}) == "es"
    assert environment_lang({"LANG": "en_GB.UTF-8", "LC_ALL": "es_ES.UTF-8"}) == "es"
    assert environment_lang({"LANG": "es_AR.UTF-8", "LC_MESSAGES": "C"}) is None
    assert environment_lang({"LANG": "fr_FR.UTF-8"}) is None and environment_lang({}) is None


def test_program_check_speaks_the_environments_spanish(argentine, night_file, kit_cli):
    code, out, err = kit_cli(["program", "check", str(night_file)])
    assert code == 0, err
    assert english_in(out) == [], out
    assert code_words_in(out) == [], out
    assert "Viernes en el club" in out and "4 partidas" in out
    assert "Cinco primeros" in out and "Línea de arriba" in out and "Ambo (dos en una fila)" in out
    assert "1.500,00" in out  # the pesos as she wrote them


def test_lang_en_wins_over_the_environment(argentine, night_file, kit_cli):
    code, out, err = kit_cli(["program", "check", str(night_file), "--lang", "en"])
    assert code == 0, err
    assert "OK, 4 games (Friday at the club)" in out and "Early Five" in out
    assert code_words_in(out) == [], out


def test_program_print_and_its_refusals_speak_spanish(argentine, night_file, tmp_path, kit_cli):
    code, out, err = kit_cli(["program", "print", str(night_file), "-o", str(tmp_path / "p.pdf")])
    assert code == 0, err
    assert english_in(out) == [] and "el programa de 4 partidas" in out, out
    bad = tmp_path / "mal.toml"
    bad.write_text(NIGHT.replace('price = "2.000"', 'price = "mucho"', 1), "utf-8")
    code, out, err = kit_cli(["program", "check", str(bad)])
    assert code == 2 and err.count("\n") == 1, err
    assert "mal.toml:17:" in err and english_in(err) == [], err


def test_deck_and_book_commands_speak_spanish(argentine, tmp_path, kit_cli):
    deck = tmp_path / "club.deck.json"
    said = []
    for argv in (
        ["deck", "--cards", "6", "--name", "Club", "-o", str(deck)],
        ["deck", "--check", str(deck)],
        [
            "deck",
            "--game",
            "90",
            "--strips",
            "1",
            "--name",
            "Tiras",
            "-o",
            str(tmp_path / "t.json"),
        ],
        ["deck", "--check", str(tmp_path / "t.json")],
    ):
        code, out, err = kit_cli(argv)
        assert code == 0, err
        said.append(out)
    text = " ".join(said)
    assert english_in(text) == [], text
    assert "hileras únicas" in text and "filas únicas" in text


@pytest.mark.slow  # starts the station as a process of its own: `make test` runs it
def test_the_serve_banner_speaks_the_environments_spanish(tmp_path):
    strips = save_deck(new_strip_deck(1, seed="banner es", name="Tiras"), tmp_path / "t.deck.json")
    cards = save_deck(new_deck(6, seed="banner es", name="Club"), tmp_path / "c.deck.json")
    argv = [sys.executable, "-m", "bingo_hall", "serve", "--host", "127.0.0.1"]
    argv += ["--port", str(free_port()), "--db", str(tmp_path / "s.sqlite"), "--pin", "8642"]
    argv += ["--deck", str(strips), "--deck", str(cards)]
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("LC_")}
    proc, lines = station_process(argv, env={**env, "LANG": "es_AR.UTF-8"})
    try:
        banner = "".join(lines)
        assert english_in(banner) == [], banner
        assert "PIN del Maestro: 8642" in banner and "1 tiras (6 cartones)" in banner
    finally:
        proc.terminate()
        proc.wait(10)


def test_book_export_and_verify_speak_spanish(argentine, client, tmp_path, kit_cli):
    from testkit import Caller

    deck = new_deck(6, seed="book es", name="Club")
    hall = Caller(client, deck)
    hall.new_game(draw="manual")
    db = client.application.config["DATABASE"]
    out = tmp_path / "noche.book.jsonl"
    code, exported, err = kit_cli(["book", "export", "--db", db, "-o", str(out)])
    assert code == 0, err
    deck_file = save_deck(deck, tmp_path / "club.deck.json")
    code, verified, err = kit_cli(["book", "verify", str(out), "--deck", str(deck_file)])
    assert code == 0, err
    assert "asientos, cabeza" in exported and verified.startswith("BIEN: ")
    assert english_in(exported + verified) == [], exported + verified


def test_audit_and_the_ledger_speak_the_environments_spanish(argentine, client, kit_cli):
    seed = "ab" * 32
    code, out, err = kit_cli(["audit", "--seed", seed, "--public-input", "Sala 3"])
    assert code == 0, err
    assert out.startswith("orden sellado: ") and "aporte del público: 'Sala 3'" in out
    assert english_in(out) == [], out
    db = client.application.config["DATABASE"]
    code, out, err = kit_cli(["ledger", "--db", db])
    assert code == 0, err
    assert "Resumen de la noche" in out and english_in(out) == [], out


@pytest.mark.parametrize("kind", ["port", "host", "elsewhere"])
def test_the_banners_warning_about_cards_printed_elsewhere_is_spanish_too(kind):
    from bingo_hall.cli.speech import Speech
    from bingo_hall.machine.printed import Mismatch
    from bingo_hall.station.cli.start import printed_warning

    m = Mismatch("Club", "http://10.0.0.5:5000", kind, 5000, "127.0.0.1", 5001)
    line = printed_warning(m, Speech("es"))
    assert "Club" in line and english_in(line) == [], line
    assert printed_warning(m, Speech("en")) == m.line()
