"""The odds of a prize, estimated by simulation with the real deck and the real figure.

Before the host sets a jackpot "within N calls", the kit says how likely that is with the cards
actually sold: "with 68 cards sold, a full house within 40 calls about 1 night in 12; the first
bingo is expected near call 19".

A night is a random order of the balls. A card wins a prize on the call that completes one of
its `Need`s (a line, a pattern, a full house, any five numbers); the night's first win is the
earliest such call over every card sold. Simulating many nights gives the chance that the first
win comes within N calls and the expected call of the first win. Each `Need` is a set of
numbers and how many of them must be called (all of them, or any 5 for Early Five); which needs a
card or a ticket has for a prize is its variant's answer (`Variant.needs`), so this module knows
no ball counts.

When the needs of all the cards together hold few numbers (one card played for a postage stamp:
16), `exact` counts instead of simulating: every subset of those numbers either wins or not, and
the chance that the numbers called within N calls are a winning subset follows from how many
winning subsets there are of each size. `odds_for` counts when it can and simulates otherwise.

Pure: numpy only (vectorised over nights, so a 300-card hall takes well under a second).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import perm
from typing import TYPE_CHECKING

from .errors import KitError

if TYPE_CHECKING:
    import numpy as np

#: nights simulated when the caller does not say: the chance is then within about ±1 point
DEFAULT_NIGHTS = 10_000
#: nights simulated at once (memory: chunk x needs x numbers bytes)
_CHUNK_BYTES = 24_000_000
#: the most numbers `exact` counts over (2^18 subsets, a few milliseconds); beyond, simulate
EXACT_MOST = 18


@dataclass(frozen=True)
class Need:
    """A way to win a prize on one card: `count` of `numbers` called (`count` 0: all of them)."""

    numbers: frozenset[int]
    count: int = 0

    @property
    def needed(self) -> int:
        return self.count or len(self.numbers)


@dataclass(frozen=True)
class Odds:
    """What a simulation of `nights` nights found for a prize on `cards` cards: `first[k]` is
    how many nights saw the first win on call k (index 0 unused; a night nobody wins counts at
    the last ball). `exact`: counted, not simulated; `nights` is then every order in which the
    numbers that matter can come out (each as likely), and `first` counts them."""

    cards: int
    balls: int
    nights: int
    first: tuple[int, ...]
    exact: bool = False

    def probability_within(self, calls: int) -> Fraction:
        """The chance that some card wins the prize within `calls` calls, as a fraction."""
        calls = max(0, min(calls, self.balls))
        return Fraction(sum(self.first[1 : calls + 1]), self.nights)

    def chance_within(self, calls: int) -> float:
        """The chance that some card wins the prize within `calls` calls."""
        calls = max(0, min(calls, self.balls))
        return sum(self.first[1 : calls + 1]) / self.nights

    @property
    def expected_call(self) -> float:
        """The expected call of the first win."""
        return sum(k * n for k, n in enumerate(self.first)) / self.nights

    def one_in(self, calls: int) -> float | None:
        """ "About 1 night in X" for a win within `calls` calls; None if no night saw one."""
        p = self.chance_within(calls)
        return None if p == 0 else 1 / p

    def to_json(self, calls: int | None = None) -> dict[str, object]:
        out: dict[str, object] = {
            "cards": self.cards,
            "nights": self.nights,
            "expected_call": round(self.expected_call, 1),
        }
        if calls is not None:
            out["within"] = calls
            out["chance"] = round(self.chance_within(calls), 4)
        return out


def estimate(
    needs: Sequence[Sequence[Need]],
    balls: int,
    nights: int = DEFAULT_NIGHTS,
    seed: int | None = None,
) -> Odds:
    """Simulate `nights` nights of `balls` balls for the cards whose needs are `needs` (one
    sequence per card sold). `seed` makes the estimate repeatable (tests)."""
    if not needs:
        raise KitError("no cards are sold yet: the odds need the cards that play")
    if nights < 1:
        raise KitError("simulate at least one night")
    import numpy as np  # here, not at the top: every `bingo-hall` command imports this module

    rng = np.random.default_rng(seed)
    groups = _groups(n for card in needs for n in card)
    width = sum(idx.shape[0] * idx.shape[1] for idx, _ in groups) or 1
    chunk = max(1, min(nights, _CHUNK_BYTES // width))
    first = np.zeros(balls + 1, dtype=np.int64)
    done = 0
    while done < nights:
        n = min(chunk, nights - done)
        # argsort of independent uniforms is a uniformly random order: pos[b - 1] is the call
        # (0-based) on which ball b comes out
        pos = np.argsort(rng.random((n, balls)), axis=1).astype(np.uint8)
        best = np.full(n, balls - 1, dtype=np.uint8)
        for idx, need in groups:
            got = pos[:, idx]  # nights x needs x numbers
            if need == idx.shape[1]:
                done_at = got.max(axis=2)
            else:
                done_at = np.partition(got, need - 1, axis=2)[:, :, need - 1]
            np.minimum(best, done_at.min(axis=1), out=best)
        first += np.bincount(best.astype(np.int64) + 1, minlength=balls + 1)
        done += n
    return Odds(len(needs), balls, nights, tuple(int(x) for x in first))


def exact(needs: Sequence[Sequence[Need]], balls: int, most: int = EXACT_MOST) -> Odds | None:
    """The odds counted exactly, or None when the needs hold more than `most` numbers.

    With U the u numbers any need holds and w[s] the winning subsets of U of s numbers, the
    orders in which U's numbers can fall on the `balls` calls that have the win within k calls
    number sum over s of w[s] * P(k, s) * P(balls - k, u - s) (P: falling factorial): s of them
    on the first k calls, the rest after."""
    if not needs:
        raise KitError("no cards are sold yet: the odds need the cards that play")
    flat = [n for card in needs for n in card]
    numbers = sorted(frozenset().union(*(n.numbers for n in flat)))
    u = len(numbers)
    if u > most:
        return None
    if any(not n.numbers for n in flat):
        raise KitError("a figure with no numbers cannot be won")
    import numpy as np

    at = {ball: i for i, ball in enumerate(numbers)}
    subsets = np.arange(1 << u, dtype=np.uint32)
    wins = np.zeros(1 << u, dtype=bool)
    for need in flat:
        bits = np.uint32(sum(1 << at[b] for b in need.numbers))
        wins |= np.bitwise_count(subsets & bits) >= need.needed
    w = np.bincount(np.bitwise_count(subsets[wins]).astype(np.int64), minlength=u + 1)
    within = [
        sum(int(w[s]) * perm(k, s) * perm(balls - k, u - s) for s in range(u + 1))
        for k in range(balls + 1)
    ]
    first = (0, *(within[k] - within[k - 1] for k in range(1, balls + 1)))
    return Odds(len(needs), balls, perm(balls, u), first, exact=True)


def odds_for(
    needs: Sequence[Sequence[Need]],
    balls: int,
    nights: int = DEFAULT_NIGHTS,
    seed: int | None = None,
) -> Odds:
    """The odds counted when the needs hold few numbers (`exact`), else simulated."""
    return exact(needs, balls) or estimate(needs, balls, nights, seed)


def _groups(needs: Iterable[Need]) -> list[tuple[np.ndarray, int]]:
    """The needs as index arrays (ball - 1), one array per (size, count) so each is square."""
    by: dict[tuple[int, int], list[list[int]]] = {}
    for need in needs:
        nums = sorted(need.numbers)
        if not nums:
            raise KitError("a figure with no numbers cannot be won")
        by.setdefault((len(nums), need.needed), []).append([b - 1 for b in nums])
    import numpy as np

    return [(np.array(rows, dtype=np.int64), k) for (_, k), rows in sorted(by.items())]
