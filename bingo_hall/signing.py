"""Signed card URLs: the QR code on every card, and the check the station makes when it is scanned.

The QR encodes `<base-url>/C/<deck_id>/<serial>/<sig>`, where sig is HMAC-SHA256 over
"<deck_id>/<serial>" under the deck's secret, truncated to 80 bits and written in upper-case
base32 (16 characters). Upper case throughout lets the QR use alphanumeric mode and stay small;
the station accepts /c/ and /C/ alike. Only someone holding the deck file can make a valid one.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from typing import Any

SIG_BYTES = 10  # 80 bits
#: RFC 4648's base32 alphabet, and every pair of its letters (10 bits) in order: 80 bits are
#: eight pairs, with no padding
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_PAIRS = tuple(a + b for a in _B32 for b in _B32)
#: HMAC's inner and outer pads (RFC 2104), as byte translations
_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))


@functools.lru_cache(maxsize=64)
def _keyed(secret_hex: str) -> tuple[Any, Any]:
    """HMAC-SHA256 under one deck's secret, started: the inner and outer hashes with the padded
    key already in them (RFC 2104). Each signature copies them, so a join storm's thousand checks
    make no key schedule and ask OpenSSL for no new context."""
    key = bytes.fromhex(secret_hex)
    if len(key) > 64:  # (a secret longer than SHA-256's block is hashed first, as HMAC says)
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


def card_signature(secret_hex: str, deck_id: str, serial: int) -> str:
    inner, outer = _keyed(secret_hex)
    inner, outer = inner.copy(), outer.copy()
    inner.update(f"{deck_id}/{serial}".encode())
    outer.update(inner.digest())
    n = int.from_bytes(outer.digest()[:SIG_BYTES], "big")  # 80 bits: 16 letters of base32
    pairs = _PAIRS
    return (
        pairs[n >> 70]
        + pairs[(n >> 60) & 1023]
        + pairs[(n >> 50) & 1023]
        + pairs[(n >> 40) & 1023]
        + pairs[(n >> 30) & 1023]
        + pairs[(n >> 20) & 1023]
        + pairs[(n >> 10) & 1023]
        + pairs[n & 1023]
    )


def card_path(secret_hex: str, deck_id: str, serial: int) -> str:
    """The path part of a card's QR URL."""
    return f"/C/{deck_id}/{serial}/{card_signature(secret_hex, deck_id, serial)}"


def card_url(base_url: str, secret_hex: str, deck_id: str, serial: int) -> str:
    return base_url.rstrip("/").upper() + card_path(secret_hex, deck_id, serial)


def signature_is_valid(secret_hex: str, deck_id: str, serial: int, sig: str) -> bool:
    """Constant-time check of a scanned signature (case-insensitive, as QR readers may fold it)."""
    expected = card_signature(secret_hex, deck_id, serial)
    return hmac.compare_digest(expected.encode(), sig.upper().encode())
