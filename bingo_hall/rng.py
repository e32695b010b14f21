"""Reproducible randomness from a seed, by a fixed and documented algorithm.

Decks and draw orders must come out identical on any machine and any Python >= 3.11, so nothing
here relies on `random.Random`, whose sequence Python does not promise to keep. The algorithm,
which docs/fairness.md states for auditors, is:

* The byte stream for (key, label) is block 0 || block 1 || ..., where
  block i = HMAC-SHA256(key, label || i as an 8-byte big-endian integer).
* `randbelow(n)`: let k = bit length of n-1; take ceil(k/8) bytes from the stream as a big-endian
  integer, keep its low k bits, and accept it if it is below n, otherwise take fresh bytes
  (rejection sampling, so there is no modulo bias). n == 1 gives 0 and consumes nothing.
* `shuffle(items)`: Fisher-Yates from the end: for i = len-1 down to 1, j = randbelow(i+1),
  swap items i and j.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")


class SeededStream:
    """A deterministic stream of random integers derived from `key` and a `label`."""

    def __init__(self, key: bytes, label: bytes | str = b"") -> None:
        self._key = bytes(key)
        self._label = label.encode() if isinstance(label, str) else bytes(label)
        self._block = 0
        self._buf = b""
        self._pos = 0

    def _refill(self) -> None:
        msg = self._label + self._block.to_bytes(8, "big")
        self._buf = hmac.digest(self._key, msg, hashlib.sha256)
        self._block += 1
        self._pos = 0

    def read(self, count: int) -> bytes:
        """The next `count` bytes of the stream."""
        out = bytearray()
        while count > 0:
            if self._pos >= len(self._buf):
                self._refill()
            take = min(count, len(self._buf) - self._pos)
            out += self._buf[self._pos : self._pos + take]
            self._pos += take
            count -= take
        return bytes(out)

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n == 1:
            return 0
        if n <= 256:
            return self._small(n)
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self.read(nbytes), "big") & mask
            if value < n:
                return value

    def _small(self, n: int) -> int:
        """randbelow(n) for 2 <= n <= 256: one byte per try, read straight from the block (the
        same bytes and the same result as the general path, without its per-byte overhead)."""
        mask = _MASKS[n]
        while True:
            if self._pos >= len(self._buf):
                self._refill()
            value = self._buf[self._pos] & mask
            self._pos += 1
            if value < n:
                return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place with Fisher-Yates, drawing from this stream."""
        top = len(items) - 1
        for i in range(top, 255, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
        # Bounds <= 256: `_small` inlined, since decks shuffle many short lists.
        buf, pos = self._buf, self._pos
        for i in range(min(top, 255), 0, -1):
            mask = _MASKS[i + 1]
            while True:
                if pos >= len(buf):
                    self._refill()
                    buf, pos = self._buf, 0
                j = buf[pos] & mask
                pos += 1
                if j <= i:
                    break
            items[i], items[j] = items[j], items[i]
        self._pos = pos


_MASKS = [0, 0] + [(1 << (n - 1).bit_length()) - 1 for n in range(2, 257)]


def seed_bytes(seed: str | bytes | int | None) -> bytes:
    """Key bytes for a seed: text as UTF-8, an int as its decimal text, None as random bytes."""
    if seed is None:
        return secrets.token_bytes(32)
    if isinstance(seed, bytes):
        return seed
    return str(seed).encode("utf-8")
