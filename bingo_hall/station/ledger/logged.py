"""What each ledger action logs, as values: the detail `store.log` writes to the audit trail
(`ledger_log`) and, with the game, to the night's book (a `ledger.<action>` entry), which
`bingo_hall.audit.replay` checks.

A value's `to_json()` is the detail as the book has always had it: its fields in order (the
audit trail keeps that order), a field left out where the action has nothing to say (a payout
marked not paid says nothing of cash). Changing a key here changes what new entries of the book
say, which its replay reads (`bingo_hall.audit.entry_data`, `replay._ledger`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...money import PrizeRule
from ...values import JsonValue


@dataclass(frozen=True)
class CurrencySet(JsonValue):
    currency: str


@dataclass(frozen=True)
class PriceLogged(JsonValue):
    label: str | None
    cents: int
    book: int


@dataclass(frozen=True)
class PricesSet(JsonValue):
    """A game's new price list."""

    prices: tuple[PriceLogged, ...]


@dataclass(frozen=True)
class PrizesSet(JsonValue):
    """A game's prizes' money rules as changed: each prize's new rule, or None when it no
    longer pays."""

    rules: tuple[tuple[str, PrizeRule | None], ...]

    def to_json(self) -> dict[str, Any]:
        return {prize: None if rule is None else rule.to_json() for prize, rule in self.rules}


@dataclass(frozen=True)
class SaleLogged(JsonValue):
    """Cards sold for a game at a price of its list (`price` cents per `book` cards)."""

    sale_id: int
    round: int | None
    serials: str
    cents: int
    method: str
    price_id: int | None
    cards: int
    price: int
    book: int
    made_in: int


@dataclass(frozen=True)
class SaleCorrected(JsonValue):
    sale_id: int
    reason: str


@dataclass(frozen=True)
class NightSaleLogged(JsonValue):
    """Cards sold once for several games of the program (`games`, by their place in it), the
    money shared over them (`shares`, in the order of `games`)."""

    night_sale_id: int
    games: tuple[int, ...]
    serials: str
    cards: int
    cents: int
    shares: tuple[int, ...]
    price: int
    book: int
    label: str | None
    method: str


@dataclass(frozen=True)
class NightShareLogged(JsonValue):
    """A game's share of a night sale, as the game starts (its `place` in the program)."""

    night_sale_id: int
    place: int
    serials: str
    cards: int
    cents: int
    made_in: int


@dataclass(frozen=True)
class NightSaleVoided(JsonValue):
    night_sale_id: int
    reason: str


@dataclass(frozen=True)
class PayoutMarked(JsonValue):
    """A payout marked paid (in cash or not) or, with the reason, not paid after all."""

    payout_id: int
    cents: int
    cash: bool | None  # None: marked not paid, where cash says nothing
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"payout_id": self.payout_id, "cents": self.cents}
        if self.cash is not None:
            out["cash"] = self.cash
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class CashCounted(JsonValue):
    """The cash in the box, counted at the start or the end of the night: a total, or the
    pieces of each denomination (in cents, how many); a count made again says why."""

    night: str
    cents: int
    pieces: tuple[tuple[int, int], ...]
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"night": self.night, "cents": self.cents}
        if self.pieces:
            out["pieces"] = {str(value): n for value, n in self.pieces}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class StockLogged(JsonValue):
    """Cards issued to a seller, or back from them (then `seller` names who held them)."""

    stock_id: int
    serials: str
    seller: str
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stock_id": self.stock_id,
            "serials": self.serials,
            "seller": self.seller,
        }
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class StockCorrected(JsonValue):
    stock_id: int
    reason: str


@dataclass(frozen=True)
class RaffleStarted(JsonValue):
    raffle: int
    cents: int


@dataclass(frozen=True)
class RaffleSold(JsonValue):
    raffle: int
    colour: str
    numbers: str
    cents: int


@dataclass(frozen=True)
class RafflePrizeListed(JsonValue):
    raffle: int
    name: str


@dataclass(frozen=True)
class RaffleCommitted(JsonValue):
    raffle: int
    commitment: str


@dataclass(frozen=True)
class RaffleDrawn(JsonValue):
    raffle: int
    ticket: str


@dataclass(frozen=True)
class RaffleRedrawn(JsonValue):
    """Nobody claimed the ticket drawn: the reason, and the ticket its prize went to next
    ("None" when the order had no ticket left)."""

    raffle: int
    ticket: str
    reason: str
    next: str


@dataclass(frozen=True)
class RaffleRevealed(JsonValue):
    raffle: int
    seed: str | None
