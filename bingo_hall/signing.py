"""Signed card URLs: the QR code on every card, and the check the station makes when it is scanned.

The QR encodes `<base-url>/C/<deck_id>/<serial>/<sig>`, where sig is HMAC-SHA256 over
"<deck_id>/<serial>" under the deck's secret, truncated to 80 bits and written in upper-case
base32 (16 characters). Upper case throughout lets the QR use alphanumeric mode and stay small;
the station accepts /c/ and /C/ alike. Only someone holding the deck file can make a valid one.
"""

from __future__ import annotations

import hashlib
import hmac
from base64 import b32encode

SIG_BYTES = 10  # 80 bits


def card_signature(secret_hex: str, deck_id: str, serial: int) -> str:
    mac = hmac.digest(bytes.fromhex(secret_hex), f"{deck_id}/{serial}".encode(), hashlib.sha256)
    return b32encode(mac[:SIG_BYTES]).decode()


def card_path(secret_hex: str, deck_id: str, serial: int) -> str:
    """The path part of a card's QR URL."""
    return f"/C/{deck_id}/{serial}/{card_signature(secret_hex, deck_id, serial)}"


def card_url(base_url: str, secret_hex: str, deck_id: str, serial: int) -> str:
    return base_url.rstrip("/").upper() + card_path(secret_hex, deck_id, serial)


def signature_is_valid(secret_hex: str, deck_id: str, serial: int, sig: str) -> bool:
    """Constant-time check of a scanned signature (case-insensitive, as QR readers may fold it)."""
    expected = card_signature(secret_hex, deck_id, serial)
    return hmac.compare_digest(expected.encode(), sig.upper().encode())
