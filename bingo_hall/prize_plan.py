"""The prizes a game plays, as data (`PrizePlan`): what the ledger pays and the screens list,
the order they are played in (`PrizeOrder`), and for a 90-ball game the prize list whose rules
judge them. Each variant gives its plans (`Variant.plans`); nothing here branches on one."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from .ninety.prize_rules import Prize, PrizeList


class PrizeOrder(StrEnum):
    """How a game's prizes are played."""

    SEQUENCE = "sequence"  # one at a time, in order: the next opens when one is awarded
    OPEN = "open"  # all open at once, each closed by its first award (Tambola)


@dataclass(frozen=True)
class PrizePlan:
    """The prizes a game plays, as data: what the ledger pays and the screens list.

    `mode` is the word the API and the database use for the plan ("normal", "points",
    "linea-bingo", "lines-house", "tambola" or a host's own list); `prizes` are the prizes' keys
    in the order they are listed. A 90-ball plan carries its `prize_list` (`prize_rules`): the
    rule of each prize, its names and, in an open set, which prize waits for another; the plan is
    that list seen by the station, not a copy of it.
    """

    mode: str
    prizes: tuple[str, ...]
    order: PrizeOrder = PrizeOrder.SEQUENCE
    prize_list: PrizeList | None = None
    #: may a game of this plan be played for a drawn pattern instead of its lines?
    plays_patterns: bool = False
    #: the prize name's key of what a game of this plan without a pattern or a prize list is
    #: played for (`prize_names`): "lines" in Bingo Normal, "points" in Bingo de Puntos
    figure: str = "lines"

    @classmethod
    def of(cls, prize_list: PrizeList) -> PrizePlan:
        """The plan that plays `prize_list` (its key is the plan's mode)."""
        order = PrizeOrder.OPEN if prize_list.open_at_once else PrizeOrder.SEQUENCE
        return cls(prize_list.key, tuple(p.key for p in prize_list.prizes), order, prize_list)

    def next_prize(self, awarded: Collection[str]) -> str | None:
        """In a sequence, the prize being played after `awarded`; None once all are won."""
        left = self.open_prizes(awarded)
        return left[0] if left else None

    def open_prizes(self, awarded: Collection[str]) -> tuple[str, ...]:
        """The prizes that can be won now: the next one of a sequence, or every prize of an
        open set not awarded yet (and not waiting for another prize, in a host's list)."""
        if self.prize_list is not None:
            return tuple(p.key for p in self.prize_list.open_prizes(awarded))
        left = tuple(p for p in self.prizes if p not in awarded)
        return left[:1] if self.order == PrizeOrder.SEQUENCE else left

    def finished(self, awarded: Collection[str]) -> bool:
        """True once every prize is won: the round has nothing left to draw for."""
        return all(p in awarded for p in self.prizes)

    def prize(self, key: str) -> Prize:
        """The prize `key` of a 90-ball plan, with its rule and names (KeyError otherwise)."""
        if self.prize_list is None:
            raise KeyError(key)
        return self.prize_list.prize(key)

    def name(self, key: str, lang: str) -> str:
        """A prize's name in `lang` (its key where the plan has no names)."""
        try:
            return self.prize(key).name(lang)
        except KeyError:
            return key

    def list_names(self) -> dict[str, str]:
        """The plan's own name by language ("Tambola (Housie)...", a host's list's name)."""
        if self.prize_list is None:
            return {"en": self.mode}
        return {lang: self.prize_list.name(lang) for lang in ("en", "es")}

    def names(self) -> dict[str, dict[str, str]]:
        """Every prize's names by language, for the screens: {key: {"en": ..., "es": ...}}."""
        if self.prize_list is None:
            return {}
        return {p.key: {"en": p.name("en"), "es": p.name("es")} for p in self.prize_list.prizes}
