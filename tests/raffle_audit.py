"""The raffle's order recomputed from the revealed seed as docs/fairness.md states the draw, written
out here from the text (HMAC-SHA256 blocks, rejection sampling, Fisher-Yates from the end), so
the tests check the station against the published algorithm and not against its own code."""

from __future__ import annotations

import hashlib
import hmac


class Stream:
    def __init__(self, key: bytes, label: bytes) -> None:
        self.key, self.label, self.block, self.buf = key, label, 0, b""

    def take(self, n: int) -> bytes:
        while len(self.buf) < n:
            msg = self.label + self.block.to_bytes(8, "big")
            self.buf += hmac.new(self.key, msg, hashlib.sha256).digest()
            self.block += 1
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def below(self, n: int) -> int:
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        while True:
            value = int.from_bytes(self.take((bits + 7) // 8), "big") & ((1 << bits) - 1)
            if value < n:
                return value


def raffle_order(seed_hex: str, tickets: list[tuple[str, int]], public_input: str = "") -> list:
    """The tickets (colour, number) sorted, then shuffled by the seed: label "raffle" + input."""
    items = sorted(tickets)
    stream = Stream(bytes.fromhex(seed_hex), b"raffle" + public_input.encode())
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def commitment(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()
