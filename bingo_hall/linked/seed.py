"""The seed of a linked game as people pass it on: a short code read aloud, texted or typed.

The code is 16 characters of Crockford's base32 (digits and letters without I, L, O and U, so
nothing is misheard or misread), shown in four groups of four: `K7QM-3XHD-9RTW-ZB42`. It is the
80 bits of the seed; the commitment is SHA-256 of those 10 bytes (`draw.commitment`), and the
order is `draw.draw_order(seed, None, balls)`: the station's own draw, with no public input, so
every hall derives the same order. Typing is forgiving: case, spaces and dashes do not matter,
and O, I and L are read as 0, 1 and 1, as Crockford's alphabet prescribes.
"""

from __future__ import annotations

import secrets

from ..draw import commitment, draw_order
from ..errors import KitError

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 16
SEED_BYTES = LENGTH * 5 // 8
_READ_AS = {"O": "0", "I": "1", "L": "1"}


class SeedError(KitError):
    """A seed code that cannot be used (mistyped, or not this game's)."""


def new_seed() -> bytes:
    """A fresh seed from the operating system's CSPRNG: 80 bits, as the code carries."""
    return secrets.token_bytes(SEED_BYTES)


def seed_code(seed: bytes) -> str:
    """The seed as its code, grouped by four for reading aloud."""
    if len(seed) != SEED_BYTES:
        raise ValueError("a linked game's seed is 10 bytes")
    value = int.from_bytes(seed, "big")
    chars = "".join(ALPHABET[(value >> (5 * i)) & 31] for i in reversed(range(LENGTH)))
    return "-".join(chars[i : i + 4] for i in range(0, LENGTH, 4))


def parse_code(text: str) -> bytes:
    """The seed a typed code stands for; SeedError in one line when it is not a code."""
    if not isinstance(text, str):
        raise SeedError("the seed code is 16 letters and digits, such as K7QM-3XHD-9RTW-ZB42")
    cleaned = "".join(_READ_AS.get(c, c) for c in text.upper() if c != "-" and not c.isspace())
    bad = sorted({c for c in cleaned if c not in ALPHABET})
    if bad:
        raise SeedError(
            "the seed code has %(chars)s, which no code holds (letters and digits only, no U)",
            chars=" ".join(bad),
        )
    if len(cleaned) != LENGTH:
        raise SeedError(
            "the seed code is 16 letters and digits, not %(n)s (such as K7QM-3XHD-9RTW-ZB42)",
            n=len(cleaned),
        )
    value = 0
    for c in cleaned:
        value = value * 32 + ALPHABET.index(c)
    return value.to_bytes(SEED_BYTES, "big")


def check_code(text: str, published: str) -> bytes:
    """The seed of a typed code, once it matches the game's commitment: a hall calls nothing
    from a code that is not the organiser's."""
    seed = parse_code(text)
    if commitment(seed) != published:
        raise SeedError(
            "the code %(code)s does not match this game's commitment: check it with the "
            "organiser (a letter misheard?)",
            code=seed_code(seed),
        )
    return seed


def linked_order(seed: bytes, balls: int) -> tuple[int, ...]:
    """The order every hall calls: the station's draw for this seed, with no public input."""
    return draw_order(seed, None, balls)
