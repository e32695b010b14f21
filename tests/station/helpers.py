"""Test helpers: an independent re-implementation of the draw order from docs/fairness.md (so
the station's output is checked against the document, not against its own code). The Maestro's
API shortcuts are the `caller` fixture in tests/conftest.py."""

from __future__ import annotations

import hashlib
import hmac


def order_from_document(seed: bytes, public_input: str = "") -> list[int]:
    """docs/fairness.md step by step: HMAC-SHA256 blocks, rejection sampling, Fisher-Yates."""
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
        bits = (n - 1).bit_length()  # every n <= 75 fits in one byte
        while True:
            v = byte() & ((1 << bits) - 1)
            if v < n:
                return v

    balls = list(range(1, 76))
    for i in range(74, 0, -1):
        j = below(i + 1)
        balls[i], balls[j] = balls[j], balls[i]
    return balls


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
