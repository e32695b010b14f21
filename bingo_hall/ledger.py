"""The night's money as pure rules (issue 27): amounts in integer cents, prices per card or per
book, the three kinds of prize, splitting a prize between simultaneous winners, serial ranges
("1-40, 55") and amounts formatted in the reader's locale. No I/O: the station's ledger area
(`bingo_hall.station.ledger`) keeps these in SQLite, and the summary (`bingo_hall.night`) adds
them up.

Money is an `int` of cents everywhere; a `float` is never used. Percentages are `Decimal`s with
at most two decimals.

Rounding, written down once (docs/ledger.md says the same to the host):

* A percentage of the round's sales is rounded DOWN to the cent: 15 % of 10,05 € is 1,50 €, not
  1,51 €. The fraction of a cent stays with the cause.
* Simultaneous winners split a prize equally, to the cent. When the cents do not divide evenly,
  the odd cents go one each to the winners in the order their claims were recorded: 10,00 €
  between three winners is 3,34 €, 3,33 €, 3,33 €. The shares always add up to the prize.
* A book of N cards is the N consecutive serials starting at a multiple of N plus one (book 1 is
  cards 1..N, book 2 is N+1..2N); a sale at a book price must be whole books.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from enum import StrEnum

from babel.core import Locale, UnknownLocaleError
from babel.numbers import format_currency, is_currency

from .errors import KitError

#: the largest amount the ledger takes: a million in the night's currency
MAX_CENTS = 100_000_000
MAX_BOOK = 100  # cards in a book
MAX_WITHIN = 90  # a jackpot's calls: at most every ball
DEFAULT_CURRENCY = "EUR"


class LedgerError(KitError):
    """Bad money input (a `KitError` template with its parameters, translated at the edge)."""


class PrizeKind(StrEnum):
    FIXED = "fixed"  # a fixed sum
    PERCENT = "percent"  # a percentage of the round's sales
    JACKPOT = "jackpot"  # a full house within N calls pays the pot, else the normal prize


# ---- amounts -------------------------------------------------------------------------------

_AMOUNT = re.compile(r"^(\d{1,9})(?:[.,](\d{1,2}))?$")
_PERCENT = re.compile(r"^(\d{1,3})(?:[.,](\d{1,2}))?$")


#: what cannot be negative, by what was typed (one message each, so each translates whole)
NEGATIVE = {
    "amount": "an amount cannot be negative",
    "price": "a price cannot be negative",
    "prize": "a prize cannot be negative",
    "jackpot": "a jackpot cannot be negative",
}
NOT_AN_AMOUNT = "write an amount with at most two decimals, such as 15,50"


def parse_cents(value: object, what: str = "amount") -> int:
    """An amount typed by the host ("15", "15.5", "15,50") or given as an int of cents in JSON
    (`{"cents": 1550}` is the API's form; here a bare int is cents). Refuses negatives, more
    than two decimals and anything over a million."""
    if isinstance(value, bool):
        raise LedgerError(NOT_AN_AMOUNT)
    if isinstance(value, int):
        cents = value
    elif isinstance(value, str):
        text = value.strip().replace("\u00a0", "").replace(" ", "")
        for sign in "€£$":
            text = text.replace(sign, "")
        if text.startswith("-"):
            raise LedgerError(NEGATIVE[what])
        m = _AMOUNT.match(text)
        if not m:
            raise LedgerError(NOT_AN_AMOUNT)
        cents = int(m.group(1)) * 100 + int((m.group(2) or "0").ljust(2, "0"))
    else:
        raise LedgerError(NOT_AN_AMOUNT)
    if cents < 0:
        raise LedgerError(NEGATIVE[what])
    if cents > MAX_CENTS:
        raise LedgerError("an amount is at most a million")
    return cents


def parse_percent(value: object) -> Decimal:
    """A percentage of the round's sales, more than 0 and at most 100, two decimals at most."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise LedgerError("the percentage must be a number from 0 to 100, such as 35 or 12,5")
    text = str(value).strip().rstrip("%").strip()
    if text.startswith("-"):
        raise LedgerError("a percentage cannot be negative")
    m = _PERCENT.match(text)
    if not m:
        raise LedgerError("the percentage must be a number from 0 to 100, such as 35 or 12,5")
    pct = Decimal(f"{m.group(1)}.{m.group(2) or '0'}")
    if pct > 100:
        raise LedgerError("a percentage is at most 100, not %(pct)s", pct=text)
    return pct


def percent_of(cents: int, pct: Decimal) -> int:
    """`pct` % of `cents`, rounded down to the cent (the fraction stays with the cause)."""
    try:
        share = (Decimal(cents) * pct / 100).quantize(Decimal(1), rounding=ROUND_DOWN)
    except InvalidOperation as exc:  # pragma: no cover - amounts are bounded
        raise LedgerError("the amount is out of range") from exc
    return int(share)


def split(cents: int, winners: int) -> tuple[int, ...]:
    """A prize shared equally by `winners` simultaneous winners, to the cent. The odd cents go
    one each to the first winners, in the order their claims were recorded; the shares add up
    to `cents` exactly and differ by at most one cent."""
    if winners < 1:
        raise ValueError("a prize is split between at least one winner")
    if cents < 0:
        raise ValueError("a prize is not negative")
    base, odd = divmod(cents, winners)
    return tuple(base + 1 if i < odd else base for i in range(winners))


# ---- prices --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Price:
    """What a card costs: `cents` for a book of `book` cards (1: a price per card)."""

    cents: int
    book: int = 1

    def __post_init__(self) -> None:
        if self.cents < 0:
            raise LedgerError(NEGATIVE["price"])
        if not 1 <= self.book <= MAX_BOOK:
            raise LedgerError("a book holds 1 to %(n)s cards", n=MAX_BOOK)

    def amount(self, cards: int) -> int:
        """The money for `cards` cards: whole books only."""
        books, rest = divmod(cards, self.book)
        if rest:
            raise LedgerError(
                "cards are sold in books of %(book)s: %(n)s cards are not whole books",
                book=self.book,
                n=cards,
            )
        return books * self.cents


def parse_price(cents: object, book: object = 1) -> Price:
    if isinstance(book, str) and book.strip().isdigit():
        book = int(book.strip())
    if isinstance(book, bool) or not isinstance(book, int):
        raise LedgerError("a book holds 1 to %(n)s cards", n=MAX_BOOK)
    return Price(parse_cents(cents, "price"), book)


# ---- serial ranges -------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Serials:
    """Cards `first` to `last`, both included."""

    first: int
    last: int

    def __len__(self) -> int:
        return self.last - self.first + 1

    def __contains__(self, serial: object) -> bool:
        return isinstance(serial, int) and self.first <= serial <= self.last

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


_PART = re.compile(r"^(\d{1,6})(?:-(\d{1,6}))?$")


def parse_serials(text: object, deck_size: int) -> tuple[Serials, ...]:
    """Serial ranges as the host types them: "1-40, 55" (commas or spaces between parts). Each
    card must be in the deck (1..deck_size) and named once."""
    if not isinstance(text, str) or not text.strip():
        raise LedgerError('type the cards sold, such as "1-40, 55"')
    joined = re.sub(r"\s*[-–]\s*", "-", text.strip())  # "1 - 40" is one range
    parts = [p for p in re.split(r"[,;\s]+", joined) if p]
    out: list[Serials] = []
    for part in parts:
        m = _PART.match(part.strip())
        if not m:
            raise LedgerError('"%(part)s" is not a card number or a range such as 1-40', part=part)
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if first > last:
            raise LedgerError("the range %(part)s runs backwards", part=part)
        if first < 1 or last > deck_size:
            bad = first if first < 1 else last
            raise LedgerError(
                "card %(serial)s is not in the deck (its cards are 1 to %(n)s)",
                serial=bad,
                n=deck_size,
            )
        out.append(Serials(first, last))
    clash = first_overlap(out, ())
    if clash is not None:
        raise LedgerError("card %(serial)s is named twice", serial=clash)
    return tuple(sorted(out))


def first_overlap(new: Sequence[Serials], sold: Iterable[Serials]) -> int | None:
    """The lowest card that `new` names twice or that `sold` already holds; None if none."""
    taken = {s for r in sold for s in range(r.first, r.last + 1)}
    clashes = []
    for r in new:
        cards = set(range(r.first, r.last + 1))
        hit = cards & taken
        if hit:
            clashes.append(min(hit))
        taken |= cards
    return min(clashes) if clashes else None


def format_serials(ranges: Iterable[Serials]) -> str:
    return ", ".join(str(r) for r in sorted(ranges))


def count(ranges: Iterable[Serials]) -> int:
    return sum(len(r) for r in ranges)


def book_of(serial: int, book: int) -> Serials:
    """The book holding `serial`: N consecutive serials from a multiple of N plus one."""
    first = (serial - 1) // book * book + 1
    return Serials(first, first + book - 1)


# ---- prizes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrizeRule:
    """How one prize of a game is paid. FIXED pays `cents`; PERCENT pays `percent` of the
    round's sales; JACKPOT pays the jackpot pot (this game adds `jackpot` cents to it) when the
    prize is won within `within` calls, else its normal prize: `cents` plus `percent` of the
    round's sales (either may be zero)."""

    kind: PrizeKind
    cents: int = 0
    percent: Decimal = Decimal(0)
    within: int = 0
    jackpot: int = 0

    def __post_init__(self) -> None:
        if min(self.cents, self.jackpot) < 0:
            raise LedgerError(NEGATIVE["prize"])
        if not Decimal(0) <= self.percent <= 100:
            raise LedgerError("a percentage is at most 100, not %(pct)s", pct=self.percent)
        if self.kind == PrizeKind.JACKPOT and not 1 <= self.within <= MAX_WITHIN:
            raise LedgerError("a jackpot is won within 1 to %(n)s calls", n=MAX_WITHIN)

    def normal(self, sales: int) -> int:
        """The prize when no jackpot is won: the fixed sum plus the share of the round's sales."""
        if self.kind == PrizeKind.FIXED:
            return self.cents
        if self.kind == PrizeKind.PERCENT:
            return percent_of(sales, self.percent)
        return self.cents + percent_of(sales, self.percent)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": str(self.kind),
            "cents": self.cents,
            "percent": format(self.percent.normalize(), "f"),
            "within": self.within,
            "jackpot": self.jackpot,
        }


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
    pct = parse_percent(raw_pct) if raw_pct not in (None, "", 0, "0") else Decimal(0)
    if kind == PrizeKind.PERCENT and raw_pct in (None, ""):
        raise LedgerError("a percentage prize needs its percentage")
    within, pot = 0, 0
    if kind == PrizeKind.JACKPOT:
        raw = data.get("within")
        if isinstance(raw, str) and raw.strip().isdigit():
            raw = int(raw.strip())
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise LedgerError("a jackpot is won within 1 to %(n)s calls", n=MAX_WITHIN)
        within = raw
        pot = parse_cents(data.get("jackpot", 0) or 0, "jackpot")
    return PrizeRule(PrizeKind(kind), cents, pct, within, pot)


@dataclass(frozen=True)
class Settled:
    """What an awarded prize pays: `cents` in all, `jackpot` when the jackpot was won, and the
    shares of the winners in the order their claims were recorded."""

    cents: int
    jackpot: bool
    shares: tuple[int, ...]


def settle(rule: PrizeRule, sales: int, pot: int, at_call: int, winners: int) -> Settled:
    """The payout of a prize won on call `at_call` by `winners` simultaneous winners, with
    `pot` in the jackpot (this game's part included). A jackpot is won within its calls and
    only while it holds money; otherwise the normal prize is paid."""
    won = rule.kind == PrizeKind.JACKPOT and at_call <= rule.within and pot > 0
    cents = pot if won else rule.normal(sales)
    return Settled(cents, won, split(cents, winners))


def jackpot_pot(contributions: Iterable[int], paid: Iterable[int]) -> int:
    """The jackpot pot: what every game so far put in, less the jackpots paid out. A jackpot not
    won rolls over: it stays in the pot for the next game."""
    return max(0, sum(contributions) - sum(paid))


# ---- formatting ----------------------------------------------------------------------------


def check_currency(code: object) -> str:
    """An ISO 4217 code Babel knows ("EUR", "GBP", "USD", "ARS"...)."""
    if not isinstance(code, str) or not re.fullmatch(r"[A-Za-z]{3}", code.strip()):
        raise LedgerError("the currency is a three-letter code such as EUR or GBP")
    code = code.strip().upper()
    if not is_currency(code):
        raise LedgerError("%(code)s is not a currency", code=code)
    return code


def money(cents: int, currency: str = DEFAULT_CURRENCY, lang: str = "en") -> str:
    """An amount as a reader of `lang` writes it: "15,00 €" in Spanish, "€15.00" in English,
    "£15.00" for pounds. Negative amounts (a night that lost money) keep their sign."""
    try:
        locale = Locale.parse(_LOCALES.get(lang, lang))
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse("en_GB")
    return format_currency(Decimal(cents) / 100, currency, locale=locale)


#: the locale of each page language (Spain's Spanish, British English: "€15.00", "£15.00")
_LOCALES = {"es": "es_ES", "en": "en_GB"}
