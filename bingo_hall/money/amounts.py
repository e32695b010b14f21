"""Amounts of money as the ledger takes them: integer cents read from what the host types,
percentages of the round's sales, and a prize split between simultaneous winners. No I/O.

Money is an `int` of cents everywhere; a `float` is never used. Percentages are `Decimal`s with
at most two decimals.

Rounding, written down once (docs/ledger.md says the same to the host):

* A percentage of the round's sales is rounded DOWN to the cent: 15 % of 10,05 € is 1,50 €, not
  1,51 €. The fraction of a cent stays with the cause.
* Simultaneous winners split a prize equally, to the cent. When the cents do not divide evenly,
  the odd cents go one each to the winners in the order their claims were recorded: 10,00 €
  between three winners is 3,34 €, 3,33 €, 3,33 €. The shares always add up to the prize."""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, Decimal, InvalidOperation

from ..errors import KitError

#: the largest amount the ledger takes: a million in the night's currency
MAX_CENTS = 100_000_000


class LedgerError(KitError):
    """Bad money input (a `KitError` template with its parameters, translated at the edge)."""


def whole_cents(value: object, what: str = "an amount") -> int:
    """An amount a caller passes to the pure rules: an int of cents, never a float (0.1 + 0.2)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} is a whole number of cents, not {value!r}")
    return value


_PERCENT = re.compile(r"^(\d{1,3})(?:[.,](\d{1,2}))?$")


#: what cannot be negative, by what was typed (one message each, so each translates whole)
NEGATIVE = {
    "amount": "an amount cannot be negative",
    "price": "a price cannot be negative",
    "prize": "a prize cannot be negative",
    "jackpot": "a jackpot cannot be negative",
}
NOT_AN_AMOUNT = "write an amount with at most two decimals, such as 15,50 or 1.500"


def parse_cents(value: object, what: str = "amount") -> int:
    """An amount typed by the host ("15", "15.5", "15,50", "1.500", "1.500,50", "1,500.50") or
    given as an int of cents in JSON (`{"cents": 1550}` is the API's form; here a bare int is
    cents). Refuses negatives, more than two decimals and anything over a million.

    How the marks are read, the same on every page and in every file (docs/ledger.md): a
    point or comma followed by one or two digits at the end is the decimal mark; every other
    mark separates thousands, in groups of three ("1.500", "1.500.000", "1.500,50" and
    "1,500.50" are all fifteen hundred). An amount has at most two decimals, so "1.500" can
    only be thousands, as Spanish writes them; a lone comma before three digits ("1,500") is
    refused, naming both readings: it is English thousands or a Spanish decimal comma with a
    digit too many, and which one the host meant the kit cannot tell."""
    if isinstance(value, bool):
        raise LedgerError(NOT_AN_AMOUNT)
    if isinstance(value, int):
        cents = value
    elif isinstance(value, str):
        text = value.strip().replace("\u00a0", "").replace(" ", "")
        for sign in "€£$":
            text = text.replace(sign, "")
        text = re.sub(r"^[A-Za-z]{3}|[A-Za-z]{3}$", "", text)  # "2.000,00 ARS", as shown
        if text.startswith("-"):
            raise LedgerError(NEGATIVE[what])
        cents = _cents_of_text(text)
    else:
        raise LedgerError(NOT_AN_AMOUNT)
    if cents < 0:
        raise LedgerError(NEGATIVE[what])
    if cents > MAX_CENTS:
        raise LedgerError("an amount is at most a million")
    return cents


_DECIMALS = re.compile(r"^(.*?)(?:([.,])(\d{1,2}))?$")


def _cents_of_text(text: str) -> int:
    """`parse_cents`'s reading of the marks in `text` (digits, points and commas only)."""
    whole, mark, decimals = _DECIMALS.match(text).groups()  # type: ignore[union-attr]
    thousands = {".", ","} - {mark} if mark else {".", ","}
    digits = whole
    for sep in thousands:
        if sep in whole:
            if not re.fullmatch(rf"[1-9]\d{{0,2}}(?:{re.escape(sep)}\d{{3}})+", whole):
                raise LedgerError(NOT_AN_AMOUNT)
            if sep == "," and not mark and whole.count(",") == 1:
                first, last = whole.split(",")
                raise LedgerError(
                    AMBIGUOUS,
                    typed=text,
                    thousands=Decimal(first + last),
                    decimal=Decimal(f"{first}.{last}"),
                )
            digits = whole.replace(sep, "")
    if not re.fullmatch(r"\d{1,9}", digits):
        raise LedgerError(NOT_AN_AMOUNT)
    return int(digits) * 100 + int((decimals or "0").ljust(2, "0"))


#: a lone comma before three digits: English thousands, or a decimal comma with a digit too many
AMBIGUOUS = (
    "write an amount with at most two decimals: %(typed)s could be %(thousands)s or "
    "%(decimal)s (three decimals); write the thousands with a point (1.500) or none (1500)"
)


def parse_percent(value: object, *, zero: bool = False) -> Decimal:
    """A percentage of the round's sales, more than 0 (0 itself only with `zero`: the share a
    jackpot's normal prize may leave out) and at most 100, two decimals at most."""
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
    if pct == 0 and not zero:
        raise LedgerError(ZERO_PERCENT)
    return pct


ZERO_PERCENT = "a percentage prize is more than 0 %"


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
    whole_cents(cents, "a prize")
    if isinstance(winners, bool) or not isinstance(winners, int):
        raise TypeError(f"the winners are a whole number, not {winners!r}")
    if winners < 1:
        raise ValueError("a prize is split between at least one winner")
    if cents < 0:
        raise ValueError("a prize is not negative")
    base, odd = divmod(cents, winners)
    return tuple(base + 1 if i < odd else base for i in range(winners))
