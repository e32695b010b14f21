"""The seed of a linked game as people pass it on: a short code read aloud, texted or typed.

The code is 16 characters of Crockford's base32 (digits and letters without I, L, O and U, so
nothing is misheard or misread), shown in four groups of four: `K7QM-3XHD-9RTW-ZB42`. It carries
80 random bits. The station's round seed is the SHA-256 of a fixed label and those 10 bytes
(`station_seed`): 32 bytes, as every round of the station has, so a linked game is a round like
any other: its commitment is `draw.commitment(seed)`, its order `draw.draw_order(seed, None,
balls)` (the station's own draw, with no public input, so every hall derives the same order),
and the book's replay and `bingo-hall audit --seed` check it as any round. Typing is forgiving:
case, spaces and dashes do not matter, and O, I and L are read as 0, 1 and 1, as Crockford's
alphabet prescribes.
"""

from __future__ import annotations

import hashlib
import secrets

from ..draw import commitment, draw_order
from ..errors import KitError

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 16
CODE_BYTES = LENGTH * 5 // 8
#: what the station seed hashes before the code's bytes (docs/linked.md)
SEED_LABEL = b"bingo-hall linked seed v1\n"
_READ_AS = {"O": "0", "I": "1", "L": "1"}


class SeedError(KitError):
    """A seed code that cannot be used (mistyped, or not this game's)."""


def new_code() -> bytes:
    """A fresh code from the operating system's CSPRNG: 80 bits."""
    return secrets.token_bytes(CODE_BYTES)


def code_text(code: bytes) -> str:
    """The code as people read it, grouped by four."""
    if len(code) != CODE_BYTES:
        raise ValueError("a linked game's code is 10 bytes")
    value = int.from_bytes(code, "big")
    chars = "".join(ALPHABET[(value >> (5 * i)) & 31] for i in reversed(range(LENGTH)))
    return "-".join(chars[i : i + 4] for i in range(0, LENGTH, 4))


def parse_code(text: str) -> bytes:
    """The 10 bytes a typed code stands for; SeedError in one line when it is not a code."""
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
    return value.to_bytes(CODE_BYTES, "big")


def station_seed(code: bytes) -> bytes:
    """The round seed the code stands for: SHA-256(label || the code's 10 bytes)."""
    return hashlib.sha256(SEED_LABEL + code).digest()


def code_commitment(code: bytes) -> str:
    """What the game file publishes: the commitment of the code's round seed."""
    return commitment(station_seed(code))


def check_code(text: str, published: str) -> bytes:
    """The round seed of a typed code, once it matches the game's commitment: a hall calls
    nothing from a code that is not the organiser's."""
    code = parse_code(text)
    if code_commitment(code) != published:
        raise SeedError(
            "the code %(code)s does not match this game's commitment: check it with the "
            "organiser (a letter misheard?)",
            code=code_text(code),
        )
    return station_seed(code)


def linked_order(seed: bytes, balls: int) -> tuple[int, ...]:
    """The order every hall calls: the station's draw for the round seed, no public input."""
    return draw_order(seed, None, balls)
