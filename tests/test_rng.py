"""The seeded stream follows the algorithm documented in bingo_hall/rng.py and docs/fairness.md,
checked against stdlib HMAC directly, so decks and draws can be rebuilt by anyone."""

import hashlib
import hmac
from collections import Counter

from bingo_hall.rng import SeededStream


def documented_block(key: bytes, label: bytes, i: int) -> bytes:
    return hmac.new(key, label + i.to_bytes(8, "big"), hashlib.sha256).digest()


def test_stream_is_hmac_sha256_of_label_and_counter():
    s = SeededStream(b"k", b"lab")
    expected = b"".join(documented_block(b"k", b"lab", i) for i in range(3))
    assert s.read(40) + s.read(56) == expected


def test_randbelow_rejects_values_out_of_range_instead_of_taking_a_modulo():
    key, label = b"seed", b"x"
    raw = b"".join(documented_block(key, label, i) for i in range(4))
    # For n = 5 the documented rule reads one byte and keeps its low 3 bits, rejecting 5..7.
    expected = [b & 7 for b in raw if (b & 7) < 5][:50]
    s = SeededStream(key, label)
    assert [s.randbelow(5) for _ in range(50)] == expected


def test_shuffle_is_fisher_yates_from_the_end():
    key = b"shuffle"
    ref = SeededStream(key)
    items = list(range(10))
    for i in range(9, 0, -1):
        j = ref.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    got = list(range(10))
    SeededStream(key).shuffle(got)
    assert got == items


def test_randbelow_is_roughly_uniform():
    s = SeededStream(b"u")
    counts = Counter(s.randbelow(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < c < 1200 for c in counts.values())
