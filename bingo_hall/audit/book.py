"""The night's book: an append-only record in which each entry carries the SHA-256 of the one
before it, so that an entry changed, removed or moved breaks the chain (docs/audit.md).

An entry is a value: its number (`seq`), the time, the kind of change, who made it (the laptop,
a caller login's hashed id, or a guest), the change as data and the hash of the entry before.
Its hash is the SHA-256 of its canonical JSON (keys sorted, no spaces, UTF-8).

Personal data (a player's name, a guest's address) is kept apart, in `personal`, with a random
salt; the entry's hash covers only the SHA-256 of that part (`personal_digest`). A copy for the
players (`export --redact`) replaces the names with stable pseudonyms and keeps the digest, so
the chain still holds and the names cannot be guessed back from it.

The head (the newest entry's number and hash) is signed with the station's Ed25519 key
(`cryptography`); its fingerprint ties a copy of the book to the station that wrote it.
docs/book-format.md specifies the bytes hashed and the text signed, with test vectors.

Pure: no Flask, no sqlite3; the station's store is `bingo_hall.web.book`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import KitError

#: the `prev` of the first entry a station ever writes
ORIGIN = "0" * 64
#: the first line of an exported book
FORMAT = "bingo-hall-book"
VERSION = 1
#: how many hex digits of a hash the screens and prints show
SHORT = 12
_HEAD_LABEL = b"bingo-hall book head v1\n"


class BookError(KitError):
    """A book that cannot be read at all (not a book, truncated, another format)."""


def canonical(value: object) -> bytes:
    """The one byte form of a value that is hashed and signed."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest_of(personal: Mapping[str, Any] | None) -> str | None:
    """The hash of an entry's personal part (None when it has none)."""
    if not personal:
        return None
    redacted = personal.get("redacted")
    if isinstance(redacted, str):  # a redacted copy keeps the digest of what it replaced
        return redacted
    return sha256(canonical(dict(personal)))


@dataclass(frozen=True)
class Entry:
    """One change of the night, chained to the one before it by `prev`."""

    seq: int
    at: str
    kind: str
    who: str
    data: Mapping[str, Any]
    prev: str
    personal: Mapping[str, Any] | None = None
    hash: str = field(default="", compare=False)

    def to_json(self) -> dict[str, Any]:
        """The entry as exported: its personal part whole (or redacted), and its hash."""
        out = {
            "seq": self.seq,
            "at": self.at,
            "kind": self.kind,
            "who": self.who,
            "data": dict(self.data),
            "personal": None if not self.personal else dict(self.personal),
            "prev": self.prev,
        }
        return {**out, "hash": self.hash}

    def computed_hash(self) -> str:
        """SHA-256 of what the hash covers: the entry with its personal part's digest in place
        of the part itself, without its own hash."""
        covered = {**self.to_json(), "personal": digest_of(self.personal)}
        del covered["hash"]
        return sha256(canonical(covered))

    def sealed(self) -> Entry:
        """The entry with its hash filled in."""
        return Entry(
            self.seq,
            self.at,
            self.kind,
            self.who,
            self.data,
            self.prev,
            self.personal,
            self.computed_hash(),
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        try:
            personal = data["personal"]
            if personal is not None and not isinstance(personal, dict):
                raise TypeError
            seq, entry_hash = data["seq"], data["hash"]
            if isinstance(seq, bool) or not isinstance(seq, int) or not isinstance(entry_hash, str):
                raise TypeError
            if not isinstance(data["data"], dict):
                raise TypeError
            return cls(
                seq,
                str(data["at"]),
                str(data["kind"]),
                str(data["who"]),
                data["data"],
                str(data["prev"]),
                personal,
                entry_hash,
            )
        except (KeyError, TypeError):
            raise BookError("line is not an entry of a book") from None

    def player(self) -> str | None:
        """The player this entry names (its personal part), if any."""
        return None if not self.personal else self.personal.get("player")


def next_entry(
    prev: str,
    seq: int,
    at: str,
    kind: str,
    who: str,
    data: Mapping[str, Any],
    personal: Mapping[str, Any] | None = None,
) -> Entry:
    return Entry(seq, at, kind, who, data, prev, personal or None).sealed()


# ---- the head and the station's key --------------------------------------------------------


@dataclass(frozen=True)
class Head:
    """The newest entry: its number and hash (the anchor's when the book is empty)."""

    seq: int
    hash: str

    @property
    def short(self) -> str:
        return self.hash[:SHORT]

    def message(self) -> bytes:
        return _HEAD_LABEL + canonical({"seq": self.seq, "hash": self.hash})


@dataclass(frozen=True)
class SignedHead:
    head: Head
    public_key: str  # raw Ed25519 public key, base64
    signature: str  # base64

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(base64.b64decode(self.public_key))

    def valid(self) -> bool:
        try:
            key = Ed25519PublicKey.from_public_bytes(
                base64.b64decode(self.public_key, validate=True)
            )
            key.verify(base64.b64decode(self.signature, validate=True), self.head.message())
        except (InvalidSignature, ValueError):
            return False
        return True

    def to_json(self) -> dict[str, Any]:
        return {
            "head": {
                "seq": self.head.seq,
                "hash": self.head.hash,
                "fingerprint": self.fingerprint,
                "public_key": self.public_key,
                "signature": self.signature,
            }
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SignedHead:
        try:
            h = data["head"]
            if not isinstance(h["seq"], int) or not isinstance(h["hash"], str):
                raise TypeError
            return cls(Head(h["seq"], h["hash"]), str(h["public_key"]), str(h["signature"]))
        except (KeyError, TypeError):
            raise BookError("the last line is not the book's signed head") from None

    def figures(self) -> str:
        """The head in no language, for a print whose label says what each part is."""
        return f"{self.head.short} · {self.head.seq} · {self.fingerprint}"

    def line(self) -> str:
        """The head as people read it: short hash, number, key fingerprint."""
        return f"{self.head.short} (entry {self.head.seq}, key {self.fingerprint})"


def fingerprint_of(public_raw: bytes) -> str:
    """The station key's fingerprint: the first 16 hex digits of the SHA-256 of the raw public
    key (one word, so a print or a photo keeps it whole)."""
    return hashlib.sha256(public_raw).hexdigest()[:16]


class StationKey:
    """The station's Ed25519 key (made once, kept beside the database as PEM)."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key

    @classmethod
    def new(cls) -> StationKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_pem(cls, pem: bytes) -> StationKey:
        try:
            key = serialization.load_pem_private_key(pem, password=None)
        except (ValueError, TypeError):
            raise KitError("the station's book key is not a PEM Ed25519 key") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KitError("the station's book key is not a PEM Ed25519 key")
        return cls(key)

    def to_pem(self) -> bytes:
        return self._key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )

    def public_raw(self) -> bytes:
        return self._key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.public_raw())

    def sign(self, head: Head) -> SignedHead:
        return SignedHead(
            head,
            base64.b64encode(self.public_raw()).decode(),
            base64.b64encode(self._key.sign(head.message())).decode(),
        )

    def pseudonym(self, name: str) -> str:
        """A stable stand-in for a name in a redacted copy: the same name gives the same
        pseudonym in every copy from this station, and it cannot be reversed without the key."""
        raw = self._key.private_bytes(
            serialization.Encoding.Raw,
            serialization.PrivateFormat.Raw,
            serialization.NoEncryption(),
        )
        mac = hmac.new(raw, b"bingo-hall pseudonym:" + name.encode("utf-8"), hashlib.sha256)
        return "P-" + mac.hexdigest()[:8]


def redacted(entry: Entry, key: StationKey) -> Entry:
    """The entry for a copy given to players: its personal part replaced by pseudonyms and the
    digest of what was there (the chain still holds)."""
    if not entry.personal:
        return entry
    stand_in: dict[str, Any] = {"redacted": digest_of(entry.personal)}
    for name, value in entry.personal.items():
        if name == "salt":
            continue
        if isinstance(value, str):
            stand_in[name] = key.pseudonym(value)
        elif isinstance(value, list):
            stand_in[name] = [key.pseudonym(v) if isinstance(v, str) else v for v in value]
    return Entry(
        entry.seq,
        entry.at,
        entry.kind,
        entry.who,
        entry.data,
        entry.prev,
        stand_in,
        entry.hash,
    )


# ---- an exported book ---------------------------------------------------------------------


@dataclass(frozen=True)
class Book:
    """An exported book as read from its lines: the anchor (the hash before its first entry),
    its entries, and the signed head of its last line."""

    anchor: str
    entries: tuple[Entry, ...]
    head: SignedHead
    night: str | None = None
    redacted: bool = False


def header_line(anchor: str, night: str | None, redact: bool) -> str:
    """The first line of an export: the format, the anchor, the night, whether redacted."""
    first = {"book": FORMAT, "version": VERSION, "anchor": anchor, "night": night}
    return canonical({**first, "redacted": redact}).decode()


def export_lines(
    anchor: str, entries: list[Entry], head: SignedHead, night: str | None, redact: bool
) -> list[str]:
    """The export: a header naming the anchor, one line per entry, the signed head last."""
    lines = [header_line(anchor, night, redact)]
    lines += [canonical(e.to_json()).decode() for e in entries]
    lines.append(canonical(head.to_json()).decode())
    return lines


def read_book(text: str) -> Book:
    """Parse an exported book. Anything that is not one (another file, a copy cut short before
    its signed head) is a BookError in one sentence naming the line (as the file numbers its
    lines, blank ones included)."""
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not numbered:
        raise BookError("the file is empty: it is not a book")
    parsed = []
    for n, line in numbered:
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError:
            if n == numbered[-1][0] and n > 1 and not text.endswith("\n"):
                # an export ends each line, its last included: a last line unfinished and not
                # JSON is a copy cut in the middle of that line
                raise BookError("the copy is cut short at line %(n)s", n=n) from None
            raise BookError("line %(n)s is not JSON: it is not a book", n=n) from None
    first = parsed[0]
    if not isinstance(first, dict) or first.get("book") != FORMAT:
        raise BookError("the file is not a Bingo Hall book (its first line names no book)")
    if first.get("version") != VERSION:
        raise BookError(
            "the book is of version %(v)r; this kit reads version 1", v=first.get("version")
        )
    anchor = first.get("anchor")
    if not isinstance(anchor, str):
        raise BookError("the book's first line gives no anchor")
    last = parsed[-1]
    if len(parsed) < 2 or not isinstance(last, dict) or "head" not in last:
        raise BookError(
            "the copy is cut short at line %(n)s: it ends without its signed head",
            n=numbered[-1][0],
        )
    entries = []
    for (n, _), item in zip(numbered[1:-1], parsed[1:-1], strict=True):
        if not isinstance(item, dict):
            raise BookError("line %(n)s is not an entry of a book", n=n)
        try:
            entries.append(Entry.from_json(item))
        except BookError:
            raise BookError("line %(n)s is not an entry of a book", n=n) from None
    night = first.get("night")
    return Book(
        anchor,
        tuple(entries),
        SignedHead.from_json(last),
        night if isinstance(night, str) else None,
        bool(first.get("redacted")),
    )


@dataclass(frozen=True)
class Finding:
    """One thing `verify` found wrong, naming the entry (its seq) when there is one."""

    message: str
    seq: int | None = None

    def line(self) -> str:
        where = f"entry {self.seq}: " if self.seq is not None else ""
        return where + self.message


def night_bounds(night: str) -> tuple[str, str]:
    """A night (YYYY-MM-DD) runs from that day's noon to the next day's noon, UTC, so a night
    that goes past midnight is one night: the first and the first-after `at` of its entries."""
    day = datetime.strptime(night, "%Y-%m-%d").replace(tzinfo=UTC)
    start = day + timedelta(hours=12)
    end = start + timedelta(days=1)
    fmt = "%Y-%m-%dT%H:%M:%S.000Z"
    return start.strftime(fmt), end.strftime(fmt)


def check_chain(book: Book) -> list[Finding]:
    """The chain and the signature: every entry's hash is its own, each names the hash of the
    one before (the first, the anchor), numbers follow, and the signed head is the last entry's,
    signed by the key it names."""
    found: list[Finding] = []
    prev, last_seq = book.anchor, None
    for e in book.entries:
        if e.computed_hash() != e.hash:
            found.append(Finding("its content does not match its hash (changed)", e.seq))
        if e.prev != prev:
            found.append(
                Finding("it does not follow the entry before it (removed or moved)", e.seq)
            )
        if last_seq is not None and e.seq != last_seq + 1:
            found.append(Finding(f"its number follows {last_seq} (an entry is missing)", e.seq))
        prev, last_seq = e.hash, e.seq
    if book.night is not None:
        try:
            lo, hi = night_bounds(book.night)
        except ValueError:
            found.append(Finding(f"the header's night {book.night!r} is not a date"))
        else:
            outside = next((e for e in book.entries if not lo <= e.at < hi), None)
            if outside is not None:
                found.append(
                    Finding(f"it is not of the night the header names ({book.night})", outside.seq)
                )
    head = book.head.head
    if head.hash != prev or (last_seq is not None and head.seq != last_seq):
        found.append(
            Finding(
                "the signed head is not the last entry's (entries were dropped or added)",
                last_seq,
            )
        )
    if not book.head.valid():
        found.append(Finding("the head's signature does not hold"))
    return found


@dataclass(frozen=True)
class Published:
    """What the station published during the night, to check a copy against: its key's
    fingerprint and/or a head (an entry's number and its hash, or the first 12 or more hex
    digits of it, as a print or a photo keeps them)."""

    fingerprint: str | None = None
    seq: int | None = None
    hash: str | None = None

    @classmethod
    def parse(cls, key: str | None, head: str | None) -> Published:
        """`--key FINGERPRINT` and `--head SEQ:HASH` as typed; BookError when malformed."""
        fingerprint = None
        if key is not None:
            fingerprint = key.strip().lower()
            if len(fingerprint) != 16 or not _is_hex(fingerprint):
                raise BookError("--key is the key's fingerprint, 16 hex digits, not %(k)r", k=key)
        seq = digest = None
        if head is not None:
            number, _, given = head.strip().partition(":")
            digest = given.strip().lower()
            if not number.strip().isdigit() or not 12 <= len(digest) <= 64 or not _is_hex(digest):
                raise BookError(
                    "--head is SEQ:HASH, the entry's number and at least 12 hex digits of its "
                    "hash (such as 412:3f2a9c1b0d4e), not %(h)r",
                    h=head,
                )
            seq = int(number)
        return cls(fingerprint, seq, digest)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def check_published(book: Book, published: Published) -> list[Finding]:
    """The book against what was published: signed by the published key, and holding the
    published head (the entry of that number has that hash). A book that holds together but
    fails here was signed by another key or rewritten after the head was published."""
    found: list[Finding] = []
    signed_by = book.head.fingerprint
    if published.fingerprint is not None and signed_by != published.fingerprint:
        found.append(
            Finding(
                f"the book is signed by key {signed_by}, not by the published key "
                f"{published.fingerprint}: it is not the station's book as published"
            )
        )
    if published.seq is not None and published.hash is not None:
        short = f"{published.seq}:{published.hash[:SHORT]}"
        hashes = {e.seq: e.hash for e in book.entries}
        if book.entries:
            hashes.setdefault(book.entries[0].seq - 1, book.anchor)  # the entry before the copy
        held = hashes.get(published.seq)
        if held is None:
            found.append(
                Finding(
                    f"the book does not reach the published head {short}: it holds no entry "
                    f"{published.seq}"
                )
            )
        elif not held.startswith(published.hash):
            found.append(
                Finding(
                    f"the book does not contain the published head {short}: its entry "
                    f"{published.seq} has hash {held[:SHORT]} (rewritten after it was published)",
                    published.seq,
                )
            )
    return found


def deck_hash(manifest_json: str) -> str:
    """The hash of a deck file as the book records it: SHA-256 of its manifest's canonical JSON
    (so the file's spacing does not matter, its every number and its secret do)."""
    return sha256(canonical(json.loads(manifest_json)))
