"""What a ticket must hold to win a linked game, for each variant (a full house by default).

A 75-ball game names a pattern (any key of the pattern book, `patterns.BUILT_IN`, or a drawn
mask of 25 cells); a 90-ball game names a prize of the UK clubs' list (the full house, one line, two
lines), as `prize_rules` states it. Either way the variant answers with the ticket's `Need`s
(`Variant.needs`, as the odds use them), and a ticket holds the figure once one need is met.
The figures are a `ByVariant` table, so this module never asks which variant it has.

The centre of a 75-ball card counts as covered only when the card prints FREE there: the halls
of one linked game may use different decks, and a number printed is a number to call.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import KitError
from ..ninety.prize_rules import UK
from ..odds import Need
from ..prize_plan import PrizePlan
from ..seventyfive.patterns import BUILT_IN, FULL_CARD, Pattern, custom_pattern
from ..variants import ByVariant, Cards75, Strips90, Variant


@dataclass(frozen=True)
class Figure:
    """The linked game's figure: its name as the game file holds it, and how the variant judges
    it (`plan`, `prize` and, for cards, the `pattern`)."""

    name: str
    variant: Variant[Any]
    plan: PrizePlan
    prize: str
    pattern: Pattern | None = None

    def needs(self, ticket: Any) -> tuple[Need, ...]:
        return self.variant.needs(ticket, self.plan, self.prize, self.pattern, False)

    def completed_at(self, ticket: Any, calls: Sequence[int]) -> int | None:
        """The call (1 = the first) on which `ticket` first holds the figure; None if never."""
        needs = self.needs(ticket)
        if any(n.needed == 0 for n in needs):
            return 0
        counts = [0] * len(needs)
        for i, ball in enumerate(calls, start=1):
            for k, need in enumerate(needs):
                if ball in need.numbers:
                    counts[k] += 1
                    if counts[k] >= need.needed:
                        return i
        return None

    def missing(self, ticket: Any, calls: Sequence[int]) -> tuple[int, ...]:
        """The numbers the nearest need still lacks (for a refusal's reason)."""
        called = set(calls)
        best = min(self.needs(ticket), key=lambda n: n.needed - len(n.numbers & called))
        return tuple(sorted(best.numbers - called))


class Figures(ABC):
    """A variant's figures: the default, and the figure a game file's name stands for."""

    default: str = ""

    @abstractmethod
    def figure(self, variant: Variant[Any], name: str) -> Figure:
        """The figure `name`; KitError in one line for a name the variant does not play."""


class CardFigures(Figures):
    """75 balls: a pattern of the card (Bingo Normal played with a pattern)."""

    default = FULL_CARD.name

    def figure(self, variant: Variant[Any], name: str) -> Figure:
        pattern = BUILT_IN.get(name)
        if pattern is None:
            try:
                pattern = custom_pattern(name)
            except KitError:
                raise KitError(
                    "a 75-ball linked game's pattern is a pattern of the book (see "
                    "docs/patterns.md) or a mask of 25 cells (1 and 0, row by row), not %(name)r",
                    name=name,
                ) from None
        return Figure(
            name if name in BUILT_IN else pattern.mask,
            variant,
            variant.plan(None),
            "bingo",
            pattern,
        )


class TicketFigures(Figures):
    """90 balls: a prize of the UK clubs' list (full house, one line, two lines)."""

    default = "full-house"

    def figure(self, variant: Variant[Any], name: str) -> Figure:
        if name not in {p.key for p in UK.prizes}:
            raise KitError(
                "a 90-ball linked game's pattern is full-house, one-line or two-lines, not "
                "%(name)r",
                name=name,
            )
        return Figure(name, variant, PrizePlan.of(UK), name)


FIGURES: ByVariant[Figures] = ByVariant(
    "linked.figure.FIGURES", {Cards75: CardFigures(), Strips90: TicketFigures()}
)


def figure_for(variant: Variant[Any], name: str | None) -> Figure:
    """The figure `name` of `variant` (None: its default, a full house)."""
    figures = FIGURES[variant]
    return figures.figure(variant, figures.default if name is None else name)
