"""The paper stock of a game. A hall that counts its paper hands serial ranges to each seller
(the door, a table, a volunteer by name); what comes back unsold is returned, what is torn,
lost or spoilt is void, with its reason. Once any stock is issued for a game, only cards issued
for it (and neither returned nor void) can be sold. A hall that never issues stock is never
asked."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .amounts import LedgerError
from .serials import Serials, cards_of, count, ranges_of


class StockKind(StrEnum):
    ISSUE = "issue"  # handed to a seller
    RETURN = "return"  # came back unsold
    VOID = "void"  # torn, lost or spoilt


@dataclass(frozen=True)
class StockEntry:
    """One stock movement of a game: cards issued to `seller`, returned, or void (`reason`)."""

    kind: StockKind
    serials: tuple[Serials, ...]
    seller: str = ""
    reason: str = ""


def issued_to(entries: Iterable[StockEntry]) -> dict[int, str]:
    """Each card issued for the game and the seller it was issued to."""
    return {s: e.seller for e in entries if e.kind == StockKind.ISSUE for s in cards_of(e.serials)}


def came_back(entries: Iterable[StockEntry], kind: StockKind) -> set[int]:
    return {s for e in entries if e.kind == kind for s in cards_of(e.serials)}


def check_issue(entries: Sequence[StockEntry], ranges: Sequence[Serials]) -> None:
    """A card is issued once for a game: a range issued twice names its first card again."""
    held = issued_to(entries)
    again = sorted(cards_of(ranges) & held.keys())
    if again:
        raise LedgerError(
            "card %(serial)s is already issued to %(seller)s",
            serial=again[0],
            seller=held[again[0]],
        )


def check_back(entries: Sequence[StockEntry], ranges: Sequence[Serials], sold: set[int]) -> None:
    """Cards returned or voided must have been issued, and be neither sold nor back already."""
    held = issued_to(entries)
    cards = sorted(cards_of(ranges))
    never = [s for s in cards if s not in held]
    if never:
        raise LedgerError("card %(serial)s was never issued for this game", serial=never[0])
    for kind, template in (
        (StockKind.RETURN, "card %(serial)s is already returned"),
        (StockKind.VOID, "card %(serial)s is already void"),
    ):
        back = sorted(came_back(entries, kind) & set(cards))
        if back:
            raise LedgerError(template, serial=back[0])
    sold_now = sorted(sold & set(cards))
    if sold_now:
        raise LedgerError(
            "card %(serial)s is sold: void its sale first, then return it", serial=sold_now[0]
        )


def check_sellable(entries: Sequence[StockEntry], ranges: Sequence[Serials]) -> None:
    """Once stock is issued for a game, only cards issued for it and still out can be sold. With
    no stock issued, every card can: a hall that does not count paper is never asked."""
    held = issued_to(entries)
    if not held:
        return
    cards = sorted(cards_of(ranges))
    never = [s for s in cards if s not in held]
    if never:
        raise LedgerError(
            "card %(serial)s was never issued to a seller for this game, so it cannot be sold",
            serial=never[0],
        )
    for kind, template in (
        (StockKind.RETURN, "card %(serial)s came back unsold from %(seller)s: it cannot be sold"),
        (StockKind.VOID, "card %(serial)s is void: it cannot be sold"),
    ):
        back = sorted(came_back(entries, kind) & set(cards))
        if back:
            raise LedgerError(template, serial=back[0], seller=held[back[0]])


@dataclass(frozen=True)
class Gap:
    """Cards issued to `seller`, neither sold nor returned nor void."""

    seller: str
    serials: tuple[Serials, ...]


@dataclass(frozen=True)
class Reconciled:
    """A game's stock: issued = sold + returned + void, and every gap named by its serials."""

    issued: int
    sold: int
    returned: int
    void: int
    gaps: tuple[Gap, ...]

    @property
    def missing(self) -> int:
        return sum(count(g.serials) for g in self.gaps)

    @property
    def balances(self) -> bool:
        return self.issued == self.sold + self.returned + self.void


def reconcile(entries: Sequence[StockEntry], sold: set[int]) -> Reconciled:
    """The stock of a game against its sales (`sold`: every card in a sale not voided): the cards
    issued, those sold among them, returned and void, and the gaps by seller."""
    held = issued_to(entries)
    returned = came_back(entries, StockKind.RETURN)
    void = came_back(entries, StockKind.VOID)
    sold_issued = sold & held.keys()
    left = held.keys() - sold_issued - returned - void
    sellers = sorted({held[s] for s in left})
    gaps = tuple(Gap(who, ranges_of(s for s in left if held[s] == who)) for who in sellers)
    return Reconciled(len(held), len(sold_issued), len(returned & held.keys()), len(void), gaps)
