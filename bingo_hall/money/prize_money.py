"""How a prize is paid: a fixed sum, a percentage of its round's takings, or a jackpot won within
a number of calls (its pot growing from game to game); the payout of an awarded prize shared by
its winners (`settle`); and the takings those percentages are shares of.

Rounding and counting, written down once (docs/ledger.md says the same to the host; the
amounts' own rounding is in `amounts`):

* A sale's money is counted once, in one round (`takings`): a sale for one round in that round,
  a sale for the whole game (its cards play every round) in the round being played when it was
  made. A percentage prize is a share of its round's takings, and a game's percentage prizes
  together are at most 100 %, so they never pay more than the game took.
* A jackpot is paid INSTEAD of the prize (the larger of the two: it never pays less than the
  prize it replaces) or ON TOP of it (`JackpotMode`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from .amounts import (
    NEGATIVE,
    ZERO_PERCENT,
    LedgerError,
    parse_cents,
    parse_percent,
    percent_of,
    split,
    whole_cents,
)

MAX_WITHIN = 90  # a jackpot's calls: at most every ball


class PrizeKind(StrEnum):
    FIXED = "fixed"  # a fixed sum
    PERCENT = "percent"  # a percentage of the round's sales
    JACKPOT = "jackpot"  # a full house within N calls pays the pot, else the normal prize


class JackpotMode(StrEnum):
    """How a jackpot won is paid, as the host chooses."""

    INSTEAD = "instead"  # instead of the prize: the larger of the pot and the prize
    ON_TOP = "on-top"  # on top of the prize: the prize plus the pot


@dataclass(frozen=True)
class PrizeRule:
    """How one prize of a game is paid. FIXED pays `cents`; PERCENT pays `percent` of the
    round's takings; JACKPOT, its normal prize (`cents` plus `percent` of the round's takings,
    either may be zero) and, when the prize is won within `within` calls, the jackpot pot (this
    game adds `jackpot` cents to it) instead of it or on top of it (`mode`)."""

    kind: PrizeKind
    cents: int = 0
    percent: Decimal = Decimal(0)
    within: int = 0
    jackpot: int = 0
    mode: JackpotMode = JackpotMode.INSTEAD

    def __post_init__(self) -> None:
        if min(whole_cents(self.cents, "a prize"), whole_cents(self.jackpot, "a jackpot")) < 0:
            raise LedgerError(NEGATIVE["prize"])
        if not isinstance(self.percent, Decimal):  # an int is 35 %, a float is refused
            if isinstance(self.percent, bool) or not isinstance(self.percent, int):
                raise TypeError(f"a percentage is a Decimal or an int, not {self.percent!r}")
            object.__setattr__(self, "percent", Decimal(self.percent))
        if self.percent < 0:
            raise LedgerError("a percentage cannot be negative")
        if self.percent > 100:
            raise LedgerError("a percentage is at most 100, not %(pct)s", pct=self.percent)
        if self.kind == PrizeKind.PERCENT and self.percent == 0:
            raise LedgerError(ZERO_PERCENT)
        if isinstance(self.within, bool) or not isinstance(self.within, int):
            raise TypeError(f"a jackpot's calls are a whole number, not {self.within!r}")
        if self.kind == PrizeKind.JACKPOT and not 1 <= self.within <= MAX_WITHIN:
            raise LedgerError("a jackpot is won within 1 to %(n)s calls", n=MAX_WITHIN)
        if self.mode not in tuple(JackpotMode):
            raise LedgerError("a jackpot is paid instead of the prize or on top of it")

    def normal(self, sales: int) -> int:
        """The prize when no jackpot is won: the fixed sum plus the share of the round's sales."""
        if self.kind == PrizeKind.FIXED:
            return self.cents
        if self.kind == PrizeKind.PERCENT:
            return percent_of(sales, self.percent)
        return self.cents + percent_of(sales, self.percent)

    def percent_part(self, sales: int) -> int:
        """The part of the prize that is a share of the round's takings."""
        return 0 if self.kind == PrizeKind.FIXED else percent_of(sales, self.percent)

    def if_jackpot(self, sales: int, pot: int) -> int:
        """What the prize pays when won within its calls with `pot` in the jackpot: on top, the
        prize plus the pot; instead, the larger of the two (never less than the prize)."""
        normal = self.normal(sales)
        if self.kind != PrizeKind.JACKPOT or pot <= 0:
            return normal
        return normal + pot if self.mode == JackpotMode.ON_TOP else max(normal, pot)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": str(self.kind),
            "cents": self.cents,
            "percent": format(self.percent.normalize(), "f"),
            "within": self.within,
            "jackpot": self.jackpot,
        }
        if self.kind == PrizeKind.JACKPOT:
            out["mode"] = str(self.mode)
        return out


def rule_from_json(data: object) -> PrizeRule:
    """A prize rule from the API: {"kind": "fixed", "amount": "15,00"} or {"cents": 1500};
    {"kind": "percent", "percent": 35}; {"kind": "jackpot", "within": 40, "jackpot": "200",
    "amount": ..., "percent": ...} (the normal prize)."""
    if not isinstance(data, dict):
        raise LedgerError("a prize is an object with its kind: fixed, percent or jackpot")
    kind = data.get("kind")
    if kind not in tuple(PrizeKind):
        raise LedgerError("a prize's kind is fixed, percent or jackpot")
    amount = data.get("cents", data.get("amount", 0))
    cents = parse_cents(amount if amount not in (None, "") else 0, "prize")
    raw_pct = data.get("percent")
    if kind == PrizeKind.PERCENT and raw_pct in (None, ""):
        raise LedgerError("a percentage prize needs its percentage")
    pct = Decimal(0)
    if kind != PrizeKind.FIXED and raw_pct not in (None, ""):
        # a jackpot's normal prize may leave its share out (0); a percentage prize may not
        pct = parse_percent(raw_pct, zero=kind == PrizeKind.JACKPOT)
    within, pot, mode = 0, 0, JackpotMode.INSTEAD
    if kind == PrizeKind.JACKPOT:
        raw_mode = data.get("mode") or JackpotMode.INSTEAD  # left out or blank: instead
        if not isinstance(raw_mode, str) or raw_mode not in tuple(JackpotMode):
            raise LedgerError("a jackpot is paid instead of the prize or on top of it")
        mode = JackpotMode(raw_mode)
        raw = data.get("within")
        if isinstance(raw, str) and raw.strip().isdigit():
            raw = int(raw.strip())
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise LedgerError("a jackpot is won within 1 to %(n)s calls", n=MAX_WITHIN)
        within = raw
        pot = parse_cents(data.get("jackpot", 0) or 0, "jackpot")
    return PrizeRule(PrizeKind(kind), cents, pct, within, pot, mode)


@dataclass(frozen=True)
class Settled:
    """What an awarded prize pays: `cents` in all, `jackpot` when the jackpot was won, the
    shares of the winners in the order their claims were recorded, and each share's part taken
    from the jackpot pot (`from_pot`: what leaves the pot)."""

    cents: int
    jackpot: bool
    shares: tuple[int, ...]
    from_pot: tuple[int, ...]


def settle(rule: PrizeRule, sales: int, pot: int, at_call: int, winners: int) -> Settled:
    """The payout of a prize won on call `at_call` by `winners` simultaneous winners, with
    `pot` in the jackpot (this game's part included). A jackpot is won within its calls and
    only while it holds money: on top, the prize plus the pot; instead, the pot when it is more
    than the prize, else the prize (and the pot rolls over). Otherwise the normal prize."""
    normal = rule.normal(sales)
    within = rule.kind == PrizeKind.JACKPOT and at_call <= rule.within and pot > 0
    if within and rule.mode == JackpotMode.ON_TOP:
        taken, rest = pot, normal
    elif within and pot > normal:
        taken, rest = pot, 0
    else:
        taken, rest = 0, normal
    # the whole prize is shared (split's odd cents once, not once for the pot and once for the
    # rest: two winners of 5,73 + 13,09 get 9,41 each, not 9,42 and 9,40); each share's part
    # from the pot never exceeds the share, since both splits give their odd cents first
    shares = split(taken + rest, winners)
    return Settled(taken + rest, taken > 0, shares, split(taken, winners))


@dataclass(frozen=True)
class SaleMoney:
    """What `takings` needs of a sale: the round it was for (None: the whole game), the round
    being played when it was made, its cards and its money, and whether it was voided."""

    round: int | None
    made_in: int
    cards: int
    cents: int
    void: bool = False

    @property
    def counts_in(self) -> int:
        """The round whose takings hold this sale's money: its own round, or for a sale for the
        whole game the round being played when it was made."""
        return self.made_in if self.round is None else self.round


def takings(sales: Iterable[SaleMoney]) -> dict[int, tuple[int, int]]:
    """(cards, cents) taken per round, each sale counted once (`SaleMoney.counts_in`), voided
    sales left out. A round's percentage prizes are shares of its takings; the takings of all
    rounds add up to what the game took."""
    out: dict[int, tuple[int, int]] = {}
    for s in sales:
        if not s.void:
            cards, cents = out.get(s.counts_in, (0, 0))
            out[s.counts_in] = (cards + s.cards, cents + s.cents)
    return out


def night_shares(cents: int, games: int) -> tuple[int, ...]:
    """A night sale's money shared over the `games` games it covers, in the program's order:
    equal shares to the cent, the odd cents one each to the first games (as `split` shares a
    prize). Each game counts its share in its takings, so a percentage prize of any of them is a
    share of its part of the sale, and the shares add up to the sale: counted once."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise LedgerError("a night sale covers one game of the program at least")
    return split(cents, games)


def jackpot_pot(contributions: Iterable[int], paid: Iterable[int]) -> int:
    """The jackpot pot: what every game so far put in, less the jackpots paid out. A jackpot not
    won rolls over: it stays in the pot for the next game."""
    return max(0, sum(contributions) - sum(paid))
