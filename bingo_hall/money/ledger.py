"""The night's money as pure rules: amounts in integer cents, prices per card or per
book, the three kinds of prize, splitting a prize between simultaneous winners, serial ranges
("1-40, 55") and amounts formatted in the reader's locale. No I/O: the station's ledger area
(`bingo_hall.station.ledger`) keeps these in SQLite, and the summary (`bingo_hall.money.night`) adds
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
  cards 1..N, book 2 is N+1..2N); a sale at a book price must be whole books (`whole_books`).
* A sale's money is counted once, in one round (`takings`): a sale for one round in that round,
  a sale for the whole game (its cards play every round) in the round being played when it was
  made. A percentage prize is a share of its round's takings, and a game's percentage prizes
  together are at most 100 %, so they never pay more than the game took.
* A jackpot is paid INSTEAD of the prize (the larger of the two: it never pays less than the
  prize it replaces) or ON TOP of it (`JackpotMode`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from enum import StrEnum

from babel.core import Locale, UnknownLocaleError
from babel.numbers import format_currency, format_decimal, is_currency

from ..errors import KitError

#: the largest amount the ledger takes: a million in the night's currency
MAX_CENTS = 100_000_000
MAX_BOOK = 100  # cards in a book
MAX_WITHIN = 90  # a jackpot's calls: at most every ball
DEFAULT_CURRENCY = "EUR"


class LedgerError(KitError):
    """Bad money input (a `KitError` template with its parameters, translated at the edge)."""


def _cents_given(value: object, what: str = "an amount") -> int:
    """An amount a caller passes to the pure rules: an int of cents, never a float (0.1 + 0.2)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} is a whole number of cents, not {value!r}")
    return value


class PrizeKind(StrEnum):
    FIXED = "fixed"  # a fixed sum
    PERCENT = "percent"  # a percentage of the round's sales
    JACKPOT = "jackpot"  # a full house within N calls pays the pot, else the normal prize


class JackpotMode(StrEnum):
    """How a jackpot won is paid, as the host chooses."""

    INSTEAD = "instead"  # instead of the prize: the larger of the pot and the prize
    ON_TOP = "on-top"  # on top of the prize: the prize plus the pot


# ---- amounts -------------------------------------------------------------------------------

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
    _cents_given(cents, "a prize")
    if isinstance(winners, bool) or not isinstance(winners, int):
        raise TypeError(f"the winners are a whole number, not {winners!r}")
    if winners < 1:
        raise ValueError("a prize is split between at least one winner")
    if cents < 0:
        raise ValueError("a prize is not negative")
    base, odd = divmod(cents, winners)
    return tuple(base + 1 if i < odd else base for i in range(winners))


# ---- prices --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Price:
    """What a card costs: `cents` for a book of `book` cards (1: a price per card), under the
    name the door sees on its price list (`label`: "Single", "Book of 6", "Second book").
    A game has a price list of one or more prices (`PriceList`); each sale says which."""

    cents: int
    book: int = 1
    label: str = ""

    def __post_init__(self) -> None:
        if _cents_given(self.cents, "a price") < 0:
            raise LedgerError(NEGATIVE["price"])
        if isinstance(self.book, bool) or not isinstance(self.book, int):
            raise TypeError(f"a book is a whole number of cards, not {self.book!r}")
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

    def of_sale(self, ranges: Sequence[Serials]) -> int:
        """The money for the cards of `ranges`, a sale: every book it touches whole
        (`whole_books`), not just a count of cards that divides into books."""
        whole_books(ranges, self.book)
        return self.amount(count(ranges))


def parse_price(cents: object, book: object = 1, label: object = "") -> Price:
    if isinstance(book, str) and book.strip().isdigit():
        book = int(book.strip())
    if isinstance(book, bool) or not isinstance(book, int):
        raise LedgerError("a book holds 1 to %(n)s cards", n=MAX_BOOK)
    if label is None:
        label = ""
    if not isinstance(label, str) or len(label.strip()) > MAX_LABEL:
        raise LedgerError("a price's name is text of at most %(n)s characters", n=MAX_LABEL)
    if cents is None or (isinstance(cents, str) and not cents.strip()):
        raise LedgerError("each price needs its amount, such as 1,00")
    return Price(parse_cents(cents, "price"), book, " ".join(label.split()))


MAX_PRICES = 12  # prices on one game's list
MAX_LABEL = 40  # characters in a price's name


def price_list(prices: Sequence[Price]) -> tuple[Price, ...]:
    """A game's price list, checked whole: one price at least, at most MAX_PRICES, and no two
    with the same name (the door chooses a price by its name). A list of one price is what a
    game had before price lists: its one price."""
    if not prices:
        raise LedgerError("a price list has one price at least, such as a card at 1,00")
    if len(prices) > MAX_PRICES:
        raise LedgerError("a price list has at most %(n)s prices", n=MAX_PRICES)
    names = [p.label.casefold() for p in prices if p.label]
    twice = next((p.label for p in prices if p.label and names.count(p.label.casefold()) > 1), None)
    if twice is not None:
        raise LedgerError('two prices are called "%(label)s"', label=twice)
    return tuple(prices)


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
        out.append(Serials(first, last))
    # the first card named outside the deck: 0, or the lowest one after the deck's last card
    outside = [
        r.first if r.first < 1 or r.first > deck_size else deck_size + 1
        for r in out
        if r.first < 1 or r.last > deck_size
    ]
    if outside:
        raise LedgerError(
            "card %(serial)s is not in the deck (its cards are 1 to %(n)s)",
            serial=min(outside),
            n=deck_size,
        )
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


def whole_books(ranges: Sequence[Serials], book: int) -> None:
    """Refuse a sale at a book price that is not whole books: every book it touches must be
    sold whole. With books of 6, "2-7" takes part of book 1 (cards 1-6) and part of book 2
    (cards 7-12); "13-15, 22-24" part of book 3 and part of book 4. The message names the first
    book taken in part."""
    cards = {s for r in ranges for s in range(r.first, r.last + 1)}
    for serial in sorted(cards):
        whole = book_of(serial, book)
        if any(s not in cards for s in range(whole.first, whole.last + 1)):
            raise LedgerError(
                "cards are sold in whole books of %(book)s: book %(n)s is cards %(cards)s, "
                "and this sale has only part of it",
                book=book,
                n=(whole.first - 1) // book + 1,
                cards=str(whole),
            )


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
        if min(_cents_given(self.cents, "a prize"), _cents_given(self.jackpot, "a jackpot")) < 0:
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


def amount_text(cents: int, lang: str = "en") -> str:
    """An amount without its currency, as `money` writes it and `parse_cents` reads it back:
    what an input box is filled with ("2.000,00" in Spanish, "2,000.00" in English)."""
    try:
        locale = Locale.parse(_LOCALES.get(lang, lang))
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse("en_GB")
    return format_decimal(Decimal(cents) / 100, format="#,##0.00", locale=locale)


class SmallUnit(StrEnum):
    """What the hundredth of a currency is called where its treasurers count it: the pages
    word "the odd cents" with it ("the odd pence" in pounds, "los céntimos" in euros in
    Spanish, "los centavos" in pesos and dollars)."""

    PENCE = "pence"  # GBP
    EURO_CENTS = "euro-cents"  # EUR: cents in English, céntimos in Spanish
    CENTS = "cents"  # USD and the other dollars: cents, centavos in Spanish
    CENTAVOS = "centavos"  # the pesos and the other currencies of Latin America


#: the currencies whose hundredth is not called a cent in English
_SMALL_UNITS = {
    "GBP": SmallUnit.PENCE,
    "EUR": SmallUnit.EURO_CENTS,
    **{c: SmallUnit.CENTAVOS for c in ("ARS", "MXN", "CLP", "COP", "UYU", "PYG", "BOB", "PEN")},
    **{c: SmallUnit.CENTAVOS for c in ("BRL", "DOP", "GTQ", "HNL", "NIO", "CUP", "PHP")},
}


def small_unit(currency: str) -> SmallUnit:
    """The name of the currency's hundredth (cents when nothing more usual is known)."""
    return _SMALL_UNITS.get(currency, SmallUnit.CENTS)


#: how a treasurer writes a coin below the unit, by currency and language: "50p" in pounds (in
#: either language: it is what the coin and the club's tally say), "50c" for euros in English
#: (as Irish clubs write it), "50 cent." in Spanish (the RAE's abbreviation of céntimo), "50¢" for
#: dollars; other currencies keep the amount as `money` writes it
_COINS = {
    ("GBP", "en"): "{n}p",
    ("GBP", "es"): "{n}p",
    ("EUR", "en"): "{n}c",
    ("EUR", "es"): "{n} cént.",
    ("USD", "en"): "{n}¢",
    ("USD", "es"): "{n} ¢",
}


def coin(cents: int, currency: str = DEFAULT_CURRENCY, lang: str = "en") -> str:
    """A note or coin of the cash count as the treasurer writes it: below the unit, in the
    currency's small unit where it has a usual short form ("50p", "20c", "5¢"); a pound, a
    euro and above, as `money` writes any amount ("£1.00", "2,00 €")."""
    form = _COINS.get((currency, lang))
    if form is None or not 0 < cents < 100:
        return money(cents, currency, lang)
    return form.format(n=cents)


#: the locale of each page language (Spain's Spanish, British English: "€15.00", "£15.00")
_LOCALES = {"es": "es_ES", "en": "en_GB"}


# ---- paper stock -----------------------------------------------------------------------------
#
# A hall that counts its paper hands serial ranges to each seller (the door, a table, a
# volunteer by name); what comes back unsold is returned, what is torn, lost or spoilt is void,
# with its reason. Once any stock is issued for a game, only cards issued for it (and neither
# returned nor void) can be sold. A hall that never issues stock is never asked.


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


def cards_of(ranges: Iterable[Serials]) -> set[int]:
    return {s for r in ranges for s in range(r.first, r.last + 1)}


def ranges_of(cards: Iterable[int]) -> tuple[Serials, ...]:
    """Cards as the fewest ranges: {88, 89, 90, 95} is 88-90, 95."""
    out: list[Serials] = []
    for serial in sorted(set(cards)):
        if out and out[-1].last == serial - 1:
            out[-1] = Serials(out[-1].first, serial)
        else:
            out.append(Serials(serial, serial))
    return tuple(out)


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


# ---- cash ------------------------------------------------------------------------------------

#: the notes and coins of each currency, in cents, largest first
DENOMINATIONS: dict[str, tuple[int, ...]] = {
    "EUR": (50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1),
    "GBP": (5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1),
    "USD": (10000, 5000, 2000, 1000, 500, 200, 100, 50, 25, 10, 5, 1),
}
MAX_PIECES = 100_000  # notes or coins of one kind in the box


@dataclass(frozen=True)
class Count:
    """The cash counted in the box: a total, or `pieces` (denomination in cents, how many)."""

    cents: int
    pieces: tuple[tuple[int, int], ...] = ()


def parse_count(total: object, pieces: object, currency: str) -> Count:
    """A count as a total ("412,50") or by denomination ({"2000": 3, "50": 4}: the key is the
    note or coin in cents), never both. Each denomination must be one the currency has."""
    if pieces in (None, {}, ""):
        if total is None or (isinstance(total, str) and not total.strip()):
            raise LedgerError("give the cash counted: a total, or the notes and coins")
        return Count(parse_cents(total))
    if total not in (None, ""):
        raise LedgerError("give the cash counted as a total or by notes and coins, not both")
    if not isinstance(pieces, dict):
        raise LedgerError('the notes and coins are an object such as {"2000": 3}')
    known = DENOMINATIONS.get(currency)
    if known is None:
        raise LedgerError(
            "count %(code)s as a total: its notes and coins are not listed", code=currency
        )
    out: dict[int, int] = {}
    for key, n in pieces.items():
        value = int(key) if isinstance(key, str) and key.isdigit() else None
        if value is None or value not in known:
            raise LedgerError("%(key)s is not a note or coin of %(code)s", key=key, code=currency)
        if isinstance(n, str) and n.strip().isdigit():
            n = int(n.strip())
        if n in (None, ""):
            n = 0
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_PIECES:
            raise LedgerError(
                "how many of %(key)s: a whole number from 0 to %(n)s", key=key, n=MAX_PIECES
            )
        out[value] = out.get(value, 0) + n
    cents = sum(v * n for v, n in out.items())
    if cents > MAX_CENTS:
        raise LedgerError("an amount is at most a million")
    return Count(cents, tuple(sorted(((v, n) for v, n in out.items() if n), reverse=True)))


def over_short(counted: int, float_cents: int, takings: int, cash_payouts: int) -> int:
    """What the box holds over (+) or short (-) of what the ledger expects in it: the float,
    plus the takings, less the payouts paid in cash."""
    return counted - (float_cents + takings - cash_payouts)
