"""Ed25519 signatures for the linked game, made and checked as the book's head is
(`audit.head`: raw public keys in base64, the fingerprint of the raw key).

Two kinds of key sign here: a hall's station key (the one that signs its book's head, kept as
`book_key.pem` beside the database) signs the hall's result, and the organiser's key signs the
game file and the tally. Each signed text starts with a label naming what it is, so a signature
made for one kind of document never holds for another.
"""

from __future__ import annotations

import base64
from typing import Any, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..audit import StationKey, canonical, fingerprint_of
from ..errors import KitError


class Signed(Protocol):
    """A signed document (a hall's result, the game file, the tally): a value whose JSON holds
    its `signature` beside what the signature covers."""

    @property
    def signature(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class Signer:
    """A private Ed25519 key that signs linked-game documents."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key

    @classmethod
    def new(cls) -> Signer:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_pem(cls, pem: bytes) -> Signer:
        try:
            key = serialization.load_pem_private_key(pem, password=None)
        except (ValueError, TypeError):
            raise KitError("the key file is not a PEM Ed25519 private key") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KitError("the key file is not a PEM Ed25519 private key")
        return cls(key)

    @classmethod
    def of_station(cls, station: StationKey) -> Signer:
        """The station's book key, signing a result (the same key, so one fingerprint)."""
        return cls.from_pem(station.to_pem())

    def to_pem(self) -> bytes:
        return self._key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )

    @property
    def public_key(self) -> str:
        raw = self._key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return base64.b64encode(raw).decode()

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(base64.b64decode(self.public_key))

    def sign(self, label: bytes, document: Signed) -> str:
        """The base64 signature of `label` followed by what `covered(document)` gives."""
        return base64.b64encode(self._key.sign(label + covered(document))).decode()


def covered(document: Signed) -> bytes:
    """What a signature covers: the canonical JSON of the document without its `signature`."""
    return canonical({k: v for k, v in document.to_json().items() if k != "signature"})


def fingerprint_of_key(public_key: str) -> str | None:
    """The fingerprint of a base64 raw public key; None when it is not one."""
    try:
        raw = base64.b64decode(public_key, validate=True)
    except ValueError:
        return None
    return fingerprint_of(raw) if len(raw) == 32 else None


def signature_holds(public_key: str, label: bytes, document: Signed) -> bool:
    """Whether the document's `signature` is `public_key`'s over `label` and what it covers."""
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True))
        signature = base64.b64decode(document.signature, validate=True)
        key.verify(signature, label + covered(document))
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True
