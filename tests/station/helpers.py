"""Test helpers: an independent re-implementation of the draw order from docs/fairness.md (so
the station's output is checked against the document, not against its own code). The Maestro's
API shortcuts are the `caller` fixture in tests/conftest.py."""

from __future__ import annotations

import hashlib
import hmac


def order_from_document(seed: bytes, public_input: str = "", balls: int = 75) -> list[int]:
    """docs/fairness.md step by step: HMAC-SHA256 blocks, rejection sampling, Fisher-Yates over
    [1 .. balls] (75, or 90 for a game of strips)."""
    label = b"draw" + public_input.encode("utf-8")
    stream = bytearray()
    block = 0

    def byte() -> int:
        nonlocal block
        if not stream:
            stream.extend(hmac.new(seed, label + block.to_bytes(8, "big"), "sha256").digest())
            block += 1
        return stream.pop(0)

    def below(n: int) -> int:
        bits = (n - 1).bit_length()  # every n <= 90 fits in one byte
        while True:
            v = byte() & ((1 << bits) - 1)
            if v < n:
                return v

    order = list(range(1, balls + 1))
    for i in range(balls - 1, 0, -1):
        j = below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
