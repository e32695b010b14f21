"""Provably fair draws: the order of the balls (75, or 90 for strips) is fixed, and shown to be
fixed, before ball one.

The seed's Maestro shuffles the fichas face down before the game ("las mezcla o baraja
concienzudamente", bingo-normal-y-de-puntos); the station does the same with a commitment so the
players can check afterwards that nobody re-shuffled. docs/fairness.md states it for auditors:

* At the start of a round the station draws a 32-byte seed with `secrets` and publishes
  commitment = SHA-256(seed), in lower-case hex.
* A player may type a public input (any text) before the first ball; it is mixed in so the
  Maestro cannot have chosen a seed that suits a friend's card.
* order = Fisher-Yates shuffle of [1, 2, ..., N] (N = 75, or 90 for a game of strips) driven
  by `bingo_hall.rng.SeededStream` with key = seed and label = b"draw" + UTF-8(public input)
  (the empty string when there is none).
* The next auto-drawn ball is the first ball of the order that is not already called, so undoing
  a call cannot re-roll the draw: the undone ball comes out again next.
* At the end the seed is revealed and `bingo-hall audit --seed HEX --public-input S` reprints the
  commitment and the order.

Nothing here touches Flask or SQLite: the station and the CLI are adapters around it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .errors import KitError
from .rng import SeededStream
from .variants import DEFAULT_BALLS, ball_counts, variant_for

T = TypeVar("T")

SEED_BYTES = 32
_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")


class DrawError(KitError):
    """A draw request that the rules forbid (a ball outside 1-N, a repeat, a draw after N)."""


def new_seed() -> bytes:
    """32 fresh bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """SHA-256 of the seed, lower-case hex: what the screens show before the first ball."""
    return hashlib.sha256(seed).hexdigest()


def parse_seed(text: str) -> bytes:
    """A revealed seed as typed by an auditor: 64 hex digits."""
    cleaned = text.strip()
    if not _HEX64.match(cleaned):
        raise DrawError("a seed is 64 hexadecimal digits (32 bytes), as revealed at the game's end")
    return bytes.fromhex(cleaned)


def check_game(balls: object) -> int:
    """The number of balls of a game: one a variant plays (75 or 90)."""
    if isinstance(balls, bool) or not isinstance(balls, int) or str(balls) not in ball_counts():
        raise DrawError("a game has 75 or 90 balls, not %(balls)r", balls=balls)
    return balls


def draw_order(
    seed: bytes, public_input: str | None = None, balls: int = DEFAULT_BALLS
) -> tuple[int, ...]:
    """The committed order of all `balls` balls (75 or 90) for this seed and public input.

    The shuffle is the same for every N (docs/fairness.md): a 75-ball order depends only on the
    seed, the public input and the 75 balls, whatever other games the kit knows."""
    return committed_order(seed, range(1, check_game(balls) + 1), b"draw", public_input)


def committed_order(
    seed: bytes, items: Iterable[T], label: bytes, public_input: str | None = None
) -> tuple[T, ...]:
    """The order of `items` a committed seed fixes: the Fisher-Yates shuffle of `items` (in the
    order given) driven by `SeededStream(seed, label + UTF-8(public input))`. The balls of a
    round (label b"draw") and the raffle's tickets (b"raffle", `bingo_hall.money.raffle`) are both
    this one draw, committed by `commitment(seed)` before the first and revealed after."""
    order = list(items)
    SeededStream(seed, label + (public_input or "").encode("utf-8")).shuffle(order)
    return tuple(order)


def check_ball(ball: object, balls: int = DEFAULT_BALLS) -> int:
    """A ball typed or clicked by the Maestro: a whole number from 1 to 75 (or 90)."""
    if isinstance(ball, bool) or not isinstance(ball, int) or not 1 <= ball <= balls:
        raise DrawError(
            "a ball is a whole number from 1 to %(balls)s, not %(ball)r", balls=balls, ball=ball
        )
    return ball


def next_auto_ball(order: Sequence[int], called: Iterable[int]) -> int:
    """The first ball of the committed order not yet on the Tabla Confrontadora."""
    done = set(called)
    for ball in order:
        if ball not in done:
            return ball
    raise DrawError("all %(count)s balls have been called", count=len(order))


def check_manual_ball(ball: object, called: Iterable[int], balls: int = DEFAULT_BALLS) -> int:
    """A ball from a physical cage: in range and not already called this round."""
    b = check_ball(ball, balls)
    if b in set(called):
        name = variant_for(balls).call_label(b)
        raise DrawError("%(name)s has already been called", name=name)
    return b


@dataclass(frozen=True)
class AuditResult:
    """What an auditor concludes about a round's calls, given the revealed seed."""

    commitment_ok: bool
    order_ok: bool
    first_difference: int | None  # 1-based position of the first call that breaks the order


def audit_round(
    seed: bytes,
    published_commitment: str,
    public_input: str | None,
    calls: Sequence[int],
    balls: int = DEFAULT_BALLS,
) -> AuditResult:
    """Check an auto-drawn round: the seed matches the commitment and the live calls follow the
    committed order from its start (undone calls are left out before calling this)."""
    order = draw_order(seed, public_input, balls)
    first = next((i + 1 for i, (a, b) in enumerate(zip(calls, order)) if a != b), None)
    if first is None and len(calls) > len(order):
        first = len(order) + 1
    return AuditResult(
        commitment_ok=commitment(seed) == published_commitment.strip().lower(),
        order_ok=first is None,
        first_difference=first,
    )
