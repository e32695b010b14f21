"""The book's head (the newest entry's number and hash), signed with the station's Ed25519 key
(`cryptography`): its fingerprint ties a copy of the book to the station that wrote it, and the
key also makes the players' copy's stable pseudonyms (`redacted`). docs/book-format.md
specifies the text signed, with test vectors."""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import KitError
from .entries import SHORT, BookError, Entry, canonical

_HEAD_LABEL = b"bingo-hall book head v1\n"


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
    stand_in: dict[str, Any] = {"redacted": entry.personal_digest}
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
