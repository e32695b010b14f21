"""The night's book, its entries: an append-only record in which each entry carries the
SHA-256 of the one before it, so that an entry changed, removed or moved breaks the chain
(docs/audit.md).

An entry is a value: its number (`seq`), the time, the kind of change, who made it (the laptop,
a caller login's hashed id, or a guest), the change as data and the hash of the entry before.
Its hash is the SHA-256 of its canonical JSON (keys sorted, no spaces, UTF-8).

Personal data (a player's name, a guest's address) is kept apart, in `personal`, with a random
salt; the entry's hash covers only the SHA-256 of that part (`personal_digest`). A copy for the
players (`export --redact`, `head.redacted`) replaces the names with stable pseudonyms and keeps
the digest, so the chain still holds and the names cannot be guessed back from it.

docs/book-format.md specifies the bytes hashed, with test vectors. Pure: no Flask, no sqlite3;
the station's store is `bingo_hall.web.book_store`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import KitError

#: the `prev` of the first entry a station ever writes
ORIGIN = "0" * 64
#: how many hex digits of a hash the screens and prints show
SHORT = 12


class BookError(KitError):
    """A book that cannot be read at all (not a book, truncated, another format)."""


def canonical(value: object) -> bytes:
    """The one byte form of a value that is hashed and signed."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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

    @property
    def personal_digest(self) -> str | None:
        """The hash of the entry's personal part (None when it has none)."""
        if not self.personal:
            return None
        redacted = self.personal.get("redacted")
        if isinstance(redacted, str):  # a redacted copy keeps the digest of what it replaced
            return redacted
        return sha256(canonical(dict(self.personal)))

    def computed_hash(self) -> str:
        """SHA-256 of what the hash covers: the entry with its personal part's digest in place
        of the part itself, without its own hash."""
        covered = {**self.to_json(), "personal": self.personal_digest}
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


def deck_hash(manifest_json: str) -> str:
    """The hash of a deck file as the book records it: SHA-256 of its manifest's canonical JSON
    (so the file's spacing does not matter, its every number and its secret do)."""
    return sha256(canonical(json.loads(manifest_json)))
