"""A verifier of exported books written from docs/book-format.md alone, as an auditor would
write one: the canonical JSON, the entry hash with the personal-data digest in place of the
personal part, the chain from the anchor, the signed text of the head and the key's
fingerprint. It imports nothing of the kit, so the tests check the station's books against the
published format and not against the kit's own code (as tests/raffle_audit.py does for the
raffle)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from datetime import datetime, timedelta
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ZEROS = "0" * 64
HEAD_LABEL = b"bingo-hall book head v1\n"
ENTRY_FIELDS = {"seq", "at", "kind", "who", "data", "personal", "prev", "hash"}


def canonical(value: Any) -> bytes:
    """Section 1: keys sorted by code point, no spaces, non-ASCII as UTF-8, no NaN."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def personal_digest(personal: Any) -> str | None:
    """Section 3: null for none; a redacted part's "redacted" value; else the SHA-256 of the
    part's canonical JSON, salt included."""
    if personal is None or personal == {}:
        return None
    if isinstance(personal.get("redacted"), str):
        return personal["redacted"]
    return sha256_hex(canonical(personal))


def entry_hash(entry: dict[str, Any]) -> str:
    """Section 2: the hashed object is the entry's seven fields, `personal` by its digest."""
    covered = {k: entry[k] for k in ("seq", "at", "kind", "who", "data", "prev")}
    covered["personal"] = personal_digest(entry["personal"])
    return sha256_hex(canonical(covered))


def head_text(seq: int, hash_hex: str) -> bytes:
    """Section 5: the label line, then the canonical JSON of the head's number and hash."""
    return HEAD_LABEL + canonical({"seq": seq, "hash": hash_hex})


def fingerprint(public_raw: bytes) -> str:
    """Section 6: 16 hex digits of the SHA-256 of the raw 32-byte public key."""
    return sha256_hex(public_raw)[:16]


def verify_file(data: bytes, published_key: str | None = None) -> list[str]:
    """Section 7: a UTF-8 text file; then `verify`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return ["the file is not UTF-8"]
    return verify(text, published_key)


def verify(text: str, published_key: str | None = None) -> list[str]:
    """Every problem the book has (empty: it holds). `published_key`: the fingerprint the
    station published, which the signing key must have."""
    if not text.endswith("\n"):
        return ["the file does not end with a newline: cut short"]
    try:
        lines = [json.loads(line) for line in text[:-1].split("\n")]
    except json.JSONDecodeError as exc:
        return [f"a line is not JSON: {exc}"]
    if len(lines) < 2:
        return ["no header or no signed head"]
    header, entries, last = lines[0], lines[1:-1], lines[-1]
    problems = []
    if not isinstance(header, dict) or header.get("book") != "bingo-hall-book":
        return ["the first line is not a book's header"]
    if set(header) != {"anchor", "book", "night", "redacted", "version"}:
        problems.append("the header has not exactly its five fields")
    if header.get("version") != 1:
        problems.append(f"version {header.get('version')!r}, not 1")
    night = header.get("night")
    window = None
    if night is not None:
        try:
            noon = datetime.strptime(str(night), "%Y-%m-%d") + timedelta(hours=12)
        except ValueError:
            problems.append(f"the night {night!r} is not a date")
        else:
            window = (
                f"{noon:%Y-%m-%dT%H:%M:%S}.000Z",
                f"{noon + timedelta(days=1):%Y-%m-%dT%H:%M:%S}.000Z",
            )
    for n, line in enumerate(text[:-1].split("\n"), start=1):
        if line.encode("utf-8") != canonical(lines[n - 1]):
            problems.append(f"line {n} is not in canonical form")
    prev, seq = header.get("anchor"), None
    for e in entries:
        if not isinstance(e, dict) or set(e) != ENTRY_FIELDS:
            problems.append(f"an entry without exactly the fields {sorted(ENTRY_FIELDS)}")
            continue
        if entry_hash(e) != e["hash"]:
            problems.append(f"entry {e['seq']}: its hash is not the hash of its content")
        if e["prev"] != prev:
            problems.append(f"entry {e['seq']}: prev is not the hash before it")
        if seq is not None and e["seq"] != seq + 1:
            problems.append(f"entry {e['seq']}: its number does not follow {seq}")
        if window is not None and not window[0] <= e["at"] < window[1]:
            problems.append(f"entry {e['seq']}: its time is not in the night {night}")
        prev, seq = e["hash"], e["seq"]
    head = last.get("head") if isinstance(last, dict) else None
    if not isinstance(head, dict):
        return [*problems, "the last line is not a signed head"]
    if head.get("hash") != prev or (seq is not None and head.get("seq") != seq):
        problems.append("the signed head is not the last entry's")
    try:
        raw = base64.b64decode(head["public_key"], validate=True)
        signature = base64.b64decode(head["signature"], validate=True)
        Ed25519PublicKey.from_public_bytes(raw).verify(
            signature, head_text(head["seq"], head["hash"])
        )
    except (InvalidSignature, ValueError, binascii.Error, KeyError, TypeError):
        return [*problems, "the head's signature does not hold"]
    if head.get("fingerprint") != fingerprint(raw):
        problems.append("the head's fingerprint is not its key's")
    if published_key is not None and fingerprint(raw) != published_key:
        problems.append(f"signed by key {fingerprint(raw)}, not the published {published_key}")
    return problems
