"""The book's format as docs/book-format.md specifies it: its test vectors check with a verifier
written from that document alone (tests/book_audit.py, which imports nothing of the kit), the
kit agrees with them, a real night's export checks with that verifier too, and a copy with any
one byte changed fails it."""

from __future__ import annotations

import ast
import json
import re
from datetime import datetime, timedelta
from pathlib import Path

import book_audit as audit
import pytest

from bingo_hall import audit as kit

from .test_book_tamper import exported, night  # noqa: F401  # the night a real station wrote

SPEC = (Path(__file__).parents[2] / "docs" / "book-format.md").read_text(encoding="utf-8")
VECTORS = re.search(r"```jsonl\n(.*?)```", SPEC, re.S).group(1)  # the whole export, as printed
TABLE = dict(re.findall(r"^\| (\d) \| `([0-9a-f]{64})` \|$", SPEC, re.M))
VECTOR_KEY = re.search(r"fingerprint: `([0-9a-f]{16})`", SPEC).group(1)


def changed(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :]


def test_the_independent_verifier_imports_nothing_of_the_kit():
    tree = ast.parse((Path(audit.__file__)).read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported <= {
        "__future__",
        "base64",
        "binascii",
        "hashlib",
        "json",
        "datetime",
        "typing",
        "cryptography",
    }


def test_the_documents_vectors_hold_for_a_verifier_written_from_the_document():
    assert audit.verify(VECTORS, published_key=VECTOR_KEY) == []
    entries = [json.loads(line) for line in VECTORS.splitlines()[1:-1]]
    assert {str(e["seq"]): audit.entry_hash(e) for e in entries} == TABLE
    head = json.loads(VECTORS.splitlines()[-1])["head"]
    assert head["signature"] in SPEC and head["public_key"] in SPEC
    # RFC 8032 TEST 1's public key, which the document gives in hex
    raw = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    assert audit.fingerprint(raw) == VECTOR_KEY == head["fingerprint"]


def test_the_kit_computes_the_documents_hashes_and_verifies_the_vectors(tmp_path, kit_cli):
    book = kit.read_book(VECTORS)
    assert {str(e.seq): e.computed_hash() for e in book.entries} == TABLE
    assert kit.check_chain(book) == []
    path = tmp_path / "vectors.book.jsonl"
    path.write_text(VECTORS, encoding="utf-8")
    code, out, err = kit_cli(["book", "verify", str(path), "--key", VECTOR_KEY])
    assert code == 0, out + err


def test_any_one_byte_changed_in_the_vectors_fails_the_independent_verifier():
    data = VECTORS.encode("utf-8")
    held = [at for at in range(len(data)) if not audit.verify_file(changed(data, at))]
    assert held == []


def test_a_real_nights_export_holds_for_the_independent_verifier(night, exported):  # noqa: F811
    fingerprint = kit.StationKey.from_pem((night["folder"] / "book_key.pem").read_bytes())
    assert audit.verify_file(exported.read_bytes(), fingerprint.fingerprint) == []
    assert audit.verify_file(exported.read_bytes(), VECTOR_KEY) != []  # another station's key


def test_one_byte_changed_in_a_real_nights_export_fails_the_independent_verifier(
    exported,  # noqa: F811
):
    data = exported.read_bytes()
    starts = [0] + [i + 1 for i, b in enumerate(data[:-1]) if b == 0x0A]
    places = [s + d for s in starts for d in (2, 40, 120) if s + d < len(data)]
    places.append(len(data) - 1)  # the last newline
    held = [at for at in places if not audit.verify_file(changed(data, at))]
    assert len(places) > 100 and held == []


@pytest.mark.parametrize("redact", [False, True])
def test_a_nights_copy_and_a_redacted_copy_hold_for_the_independent_verifier(
    night,  # noqa: F811
    kit_cli,
    tmp_path,
    redact,
):
    """One night (noon to noon) of the real station's book, whole and for players."""
    last = json.loads(night_lines(night, kit_cli, tmp_path, None)[-2])["at"]
    made = datetime.strptime(last[:19], "%Y-%m-%dT%H:%M:%S")
    day = f"{made - timedelta(hours=12):%Y-%m-%d}"  # the night runs from noon to noon
    lines = night_lines(night, kit_cli, tmp_path, day, redact)
    assert len(lines) > 2  # entries of that night
    assert json.loads(lines[0])["night"] == day
    assert audit.verify("\n".join(lines) + "\n") == []


def night_lines(night, kit_cli, tmp_path, day, redact=False) -> list[str]:  # noqa: F811
    out = tmp_path / f"copy-{day}-{redact}.book.jsonl"
    args = ["book", "export", "--db", str(night["db"]), "-o", str(out)]
    args += ["--night", day] if day else []
    args += ["--redact"] if redact else []
    code, _, err = kit_cli(args)
    assert code == 0, err
    return out.read_text(encoding="utf-8").splitlines()


def test_a_nights_copy_whose_header_names_another_night_fails(night, kit_cli, tmp_path):  # noqa: F811
    """The header is not hashed: its night is checked by the entries' times, by the kit as by
    the document."""
    last = json.loads(night_lines(night, kit_cli, tmp_path, None)[-2])["at"]
    made = datetime.strptime(last[:19], "%Y-%m-%dT%H:%M:%S") - timedelta(hours=12)
    lines = night_lines(night, kit_cli, tmp_path, f"{made:%Y-%m-%d}")
    header = json.loads(lines[0])
    lines[0] = json.dumps({**header, "night": f"{made - timedelta(days=1):%Y-%m-%d}"})
    text = "\n".join(lines) + "\n"
    assert any("is not in the night" in p for p in audit.verify(text))
    found = kit.check_chain(kit.read_book(text))
    assert [f.message for f in found][:1] == [
        f"it is not of the night the header names ({made - timedelta(days=1):%Y-%m-%d})"
    ]
