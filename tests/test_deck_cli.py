"""`bingo-hall deck`, run as a real process: files, summaries and one-line errors with exit 2."""

import json
import subprocess
import sys

import pytest

# every test here runs a real process (see `process` in pyproject.toml)
pytestmark = pytest.mark.process


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "bingo_hall", *args], capture_output=True, text=True, cwd=cwd
    )


def test_deck_writes_a_valid_manifest_and_check_summarises_it(tmp_path):
    out = tmp_path / "fiesta.deck.json"
    r = run("deck", "--cards", "50", "--seed", "s1", "--name", "Fiesta", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert len(json.loads(out.read_text())["cards"]) == 50
    r = run("deck", "--check", str(out))
    assert r.returncode == 0 and "50 cards" in r.stdout and "Fiesta" in r.stdout


def test_same_seed_on_the_command_line_gives_the_same_cards(tmp_path):
    for name in ("a", "b"):
        run("deck", "-n", "30", "--seed", "same", "-o", str(tmp_path / f"{name}.deck.json"))
    a, b = (json.loads((tmp_path / f"{x}.deck.json").read_text())["cards"] for x in "ab")
    assert a == b


def _assert_one_line_error(r):
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


@pytest.mark.slow
@pytest.mark.cpu
def test_bad_card_counts_are_one_line_errors(tmp_path):
    for n in ("0", "-3", "3004", "many"):
        _assert_one_line_error(run("deck", "-n", n, "-o", str(tmp_path / "x.deck.json")))
    r = run("deck", "-n", "1366", "--free-centre", "-o", str(tmp_path / "x.deck.json"))
    _assert_one_line_error(r)
    assert "1365" in r.stderr


def test_free_centre_limit_error_says_the_limit_comes_from_the_free_centre(tmp_path):
    r = run("deck", "-n", "2000", "--free-centre", "-o", str(tmp_path / "x.deck.json"))
    _assert_one_line_error(r)
    said = r.stderr
    assert "1365" in said and "3003" in said  # the limit, and what it is without FREE
    assert said.index("1365") < said.index("comes from --free-centre")
    assert not (tmp_path / "x.deck.json").exists()
    # The same count without FREE is fine, so the flag is the whole reason.
    ok = run("deck", "-n", "2000", "-o", str(tmp_path / "y.deck.json"))
    assert ok.returncode == 0, ok.stderr


def test_unwritable_path_is_a_one_line_error(tmp_path):
    _assert_one_line_error(run("deck", "-n", "3", "-o", str(tmp_path / "missing" / "x.deck.json")))


def test_corrupt_file_is_a_one_line_error(tmp_path):
    bad = tmp_path / "bad.deck.json"
    bad.write_text('{"format": "bingo-hall-deck/1", "cards": [')
    r = run("deck", "--check", str(bad))
    _assert_one_line_error(r)
    assert "bad.deck.json" in r.stderr


def test_game_90_writes_strips_and_check_summarises_them(tmp_path):
    out = tmp_path / "sala.deck.json"
    r = run("deck", "--game", "90", "--strips", "5", "--seed", "s", "-o", str(out))
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["game"] == 90 and len(data["cards"]) == 30
    r = run("deck", "--check", str(out))
    assert r.returncode == 0 and "5 strips" in r.stdout and "30 tickets" in r.stdout


@pytest.mark.slow
@pytest.mark.cpu
def test_bad_strip_counts_and_mixed_options_are_one_line_errors(tmp_path):
    out = str(tmp_path / "x.deck.json")
    for args in (
        ("--strips", "0"),
        ("--strips", "4001"),
        ("--strips", "many"),
        ("-n", "30"),
        ("--strips", "2", "--free-centre"),
        (),
    ):
        _assert_one_line_error(run("deck", "--game", "90", *args, "-o", out))
    r = run("deck", "--game", "90", "--strips", "4001", "-o", out)
    assert "4000" in r.stderr
    _assert_one_line_error(run("deck", "--strips", "3", "-o", out))  # 75 is the default
    _assert_one_line_error(run("deck", "--game", "91", "--strips", "3", "-o", out))


def test_deck_refuses_to_replace_an_existing_deck_file_without_force(tmp_path):
    out = tmp_path / "fiesta.deck.json"
    assert run("deck", "-n", "5", "--seed", "printed", "-o", str(out)).returncode == 0
    before = out.read_bytes()
    r = run("deck", "-n", "7", "--seed", "other", "-o", str(out))
    _assert_one_line_error(r)
    assert "--force" in r.stderr and "already exists" in r.stderr
    assert out.read_bytes() == before  # the printed cards still verify
    r = run("deck", "-n", "7", "--seed", "other", "-o", str(out), "--force")
    assert r.returncode == 0, r.stderr
    assert len(json.loads(out.read_text())["cards"]) == 7


def _deck_files_written(text: str) -> list[str]:
    """The deck files the shell lines of a document write: `deck -o X` and `generate -o Y.pdf`
    (which writes Y.deck.json beside it)."""
    import re
    import shlex

    written = []
    for line in re.findall(r"^bingo-hall (?:deck|generate) .*$", text, re.M):
        args = shlex.split(line.split("#")[0])
        if "-o" not in args:
            continue
        out = args[args.index("-o") + 1]
        written.append(out[:-4] + ".deck.json" if out.endswith(".pdf") else out)
    return written


def test_the_readme_examples_never_write_one_deck_file_twice():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for doc in ("README.md", "docs/decks.md", "docs/printing.md"):
        written = _deck_files_written((root / doc).read_text("utf-8"))
        assert written, doc
        assert len(written) == len(set(written)), (doc, written)
