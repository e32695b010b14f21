"""What the ledger's caller asks for, parsed once at the route into small frozen values (as the
station's `bingo_hall.station.requests`): a price list, a sale, prize rules, a stock movement,
the float and the cash count, a correction's reason. The routes build these from the JSON body;
the services take them and never a raw dict. Parsing checks the shape of each field and the
money rules that need nothing else (`bingo_hall.money`); what needs the game or the deck (is
card 95 in the deck? was it issued?) is the service's question.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ... import money
from ...errors import KitError
from ...money import LedgerError, Price, PrizeRule, StockKind, raffle
from ...money.raffle import RaffleError
from ...web.errors import RequestError

MAX_REASON = 200
MAX_SELLER = 40
MAX_PUBLIC_INPUT = 200


@contextmanager
def money_input(*refusals: type[KitError]) -> Iterator[None]:
    """A pure rule's refusal (`LedgerError`, or the `refusals` named: the raffle's) becomes a
    400 with the same translatable text."""
    caught: tuple[type[KitError], ...] = (LedgerError, *refusals)
    try:
        yield
    except caught as exc:
        raise RequestError(exc.template, **exc.params) from None


def reason_of(value: Any, template: str, *, required: bool = True) -> str:
    """The reason a correction gives (a sale voided, a payout not paid after all, a card void):
    at most MAX_REASON characters; `template` says what must be explained."""
    if not required and (value is None or (isinstance(value, str) and not value.strip())):
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_REASON:
        raise RequestError(template, n=MAX_REASON)
    return " ".join(value.split())


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


@dataclass(frozen=True)
class PriceListRequest:
    """`{"prices": [{"label": "Single", "amount": "1,00"}, {"label": "Book of 6", "amount":
    "5", "book": 6}]}`: a game's whole price list, replacing the one before. The older form,
    `{"amount": "1,50", "book": 1}`, is a list of one price."""

    prices: tuple[Price, ...]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PriceListRequest:
        items = d.get("prices")
        if items is None and ("amount" in d or "cents" in d):
            items = [d]
        if not isinstance(items, list) or not items:
            raise RequestError("a price list has one price at least, such as a card at 1,00")
        prices = []
        with money_input():
            for item in items:
                if not isinstance(item, Mapping):
                    raise RequestError(
                        'each price is an object such as {"label": "Single", "amount": "1,00"}'
                    )
                amount = item.get("cents", item.get("amount"))
                prices.append(money.parse_price(amount, item.get("book", 1), item.get("label")))
            return cls(money.price_list(prices))


@dataclass(frozen=True)
class SaleRequest:
    """A sale: `serials` typed ("1-40, 55") or one card's code scanned (`scan`), for `round`
    (blank: the current one; "all": the whole game), at the price `price_id` of the game's
    list (left out: the list's only price)."""

    serials: str | None
    scan: str | None
    round: Any
    price_id: int | None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SaleRequest:
        raw = d.get("price")
        if isinstance(raw, str) and raw.strip().isdigit():
            raw = int(raw.strip())
        if raw in (None, ""):
            raw = None
        elif isinstance(raw, bool) or not isinstance(raw, int):
            raise RequestError("the price of a sale is the number of a price on the game's list")
        if "scan" in d:
            scan = _text(d.get("scan"))
            if scan is None:
                raise RequestError("that is not the code of a bingo card")
            return cls(None, scan, d.get("round"), raw)
        return cls(_text(d.get("serials")) or "", None, d.get("round"), raw)


#: what a night sale gives as its games for "from the game in play to the program's last"
WHOLE_NIGHT = "night"


@dataclass(frozen=True)
class GameSpan:
    """The program's games a night sale covers, by their numbers: `first` None means from
    the game in play (or, before one is, the next game waiting); `last` None, to the last."""

    first: int | None
    last: int | None


_SPAN_WORDS = (
    'the games are the program\'s numbers such as "1-4" or "3", or "night" for this game '
    "and every game after it"
)


def game_span(value: Any) -> GameSpan:
    """`"night"` (this game to the last), `"2-4"`, `"3"` or 3."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise RequestError(_SPAN_WORDS)
    text = value.strip().lower()
    if text in (WHOLE_NIGHT, "all"):
        return GameSpan(None, None)
    first, sep, last = (p.strip() for p in text.replace("–", "-").partition("-"))
    if not first.isdigit() or (sep and not last.isdigit()) or len(first + last) > 6:
        raise RequestError(_SPAN_WORDS)
    a, b = int(first), int(last) if sep else int(first)
    if not 1 <= a <= b:
        raise RequestError(_SPAN_WORDS)
    return GameSpan(a, b)


@dataclass(frozen=True)
class NightSaleRequest:
    """A night sale: `serials` typed ("1-12") or one card's code scanned (`scan`), for the
    program's `games` ("1-4", "night"), at a price of the first game's list: for a game
    started, a `price_id` as for any sale; for a game not started yet, the price's place on
    the list its program gives it (1 = the first) or its name ("Book of 6"). Left out: the
    list's only price."""

    serials: str | None
    scan: str | None
    games: GameSpan
    price: int | str | None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> NightSaleRequest:
        raw = d.get("price")
        if isinstance(raw, str) and raw.strip().isdigit():
            raw = int(raw.strip())
        elif isinstance(raw, str):
            raw = raw.strip() or None
        if raw is not None and (isinstance(raw, bool) or not isinstance(raw, int | str)):
            raise RequestError("the price of a sale is the number of a price on the game's list")
        span = game_span(d.get("games"))
        if "scan" in d:
            scan = _text(d.get("scan"))
            if scan is None:
                raise RequestError("that is not the code of a bingo card")
            return cls(None, scan, span, raw)
        return cls(_text(d.get("serials")) or "", None, span, raw)


@dataclass(frozen=True)
class PrizesRequest:
    """`{"prizes": {"linea": {"kind": "percent", "percent": 20}, "bingo": null}}`: the rules of
    some or all of a game's prizes; None sets a prize back to no money prize."""

    prizes: tuple[tuple[str, PrizeRule | None], ...]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PrizesRequest:
        given = d.get("prizes")
        if not isinstance(given, dict) or not given:
            raise RequestError('send {"prizes": {"<prize>": {"kind": ...}}}')
        out: list[tuple[str, PrizeRule | None]] = []
        for prize, spec in given.items():
            if spec is None:
                out.append((prize, None))
                continue
            with money_input():
                out.append((prize, money.rule_from_json(spec)))
        return cls(tuple(out))


@dataclass(frozen=True)
class StockRequest:
    """Cards issued to a seller (`seller` required), returned unsold, or void (`reason`
    required: torn, lost, spoilt). `serials` as the host types them, checked against the deck
    by the service."""

    kind: StockKind
    serials: str
    seller: str
    reason: str

    @classmethod
    def from_json(cls, kind: StockKind, d: Mapping[str, Any]) -> StockRequest:
        serials = _text(d.get("serials")) or ""
        if not serials.strip():
            raise RequestError('type the cards, such as "1-30, 45"')
        seller = ""
        if kind == StockKind.ISSUE:
            raw = d.get("seller")
            if not isinstance(raw, str) or not raw.strip() or len(raw.strip()) > MAX_SELLER:
                raise RequestError(
                    "say who the cards go to (the door, a table, a name): at most %(n)s characters",
                    n=MAX_SELLER,
                )
            seller = " ".join(raw.split())
        reason = reason_of(
            d.get("reason"),
            "say why the cards are void (torn, lost, spoilt): at most %(n)s characters",
            required=kind == StockKind.VOID,
        )
        return cls(kind, serials, seller, reason)


@dataclass(frozen=True)
class FloatRequest:
    """The float in the cash box at the start of the night; a second one says why."""

    cents: int
    reason: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> FloatRequest:
        with money_input():
            raw = d.get("cents", d.get("amount"))
            if raw is None or (isinstance(raw, str) and not raw.strip()):
                raise LedgerError(money.NOT_AN_AMOUNT)
            cents = money.parse_cents(raw)
        return cls(cents, reason_of(d.get("reason"), _AGAIN, required=False))


@dataclass(frozen=True)
class CountRequest:
    """The cash counted at the end: `{"amount": "412,50"}` or `{"pieces": {"2000": 3}}` (the
    note or coin in cents, how many), checked against the night's currency by the service."""

    amount: Any
    pieces: Any
    reason: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CountRequest:
        pieces = d.get("pieces")
        if pieces not in (None, "") and not isinstance(pieces, dict):
            raise RequestError('the notes and coins are an object such as {"2000": 3}')
        reason = reason_of(d.get("reason"), _AGAIN, required=False)
        return cls(d.get("cents", d.get("amount")), pieces, reason)


_AGAIN = "say why the figure is given again (at most %(n)s characters)"


# ---- the raffle (ledger/raffle.py's routes, raffle_store's services) -------------------------


@dataclass(frozen=True)
class RaffleStartRequest:
    """`{"price": "1,00"}`: a new raffle at its price per ticket."""

    cents: int

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RaffleStartRequest:
        with money_input(RaffleError):
            return cls(money.parse_cents(d.get("price"), "price"))


@dataclass(frozen=True)
class RaffleSaleRequest:
    """`{"colour": "red", "numbers": "1-50, 75"}`: tickets of one colour sold by number range
    (kept as text, tidied). The shape is checked here; whether a number is already sold is the
    service's question."""

    colour: str
    numbers: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RaffleSaleRequest:
        with money_input(RaffleError):
            sale = raffle.parse_sale(d.get("colour"), d.get("numbers"))
        return cls(sale.colour, money.format_serials(sale.numbers))


@dataclass(frozen=True)
class RafflePrizeRequest:
    """`{"name": "A hamper"}`: a prize at the end of the raffle's list."""

    name: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RafflePrizeRequest:
        with money_input(RaffleError):
            return cls(raffle.parse_prize(d.get("name")))


@dataclass(frozen=True)
class RaffleCommitRequest:
    """`{"public_input": "..."}` (may be left out): closes the sales and commits the order."""

    public_input: str | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RaffleCommitRequest:
        public_input = d.get("public_input") or None
        if public_input is not None and (
            not isinstance(public_input, str) or len(public_input) > MAX_PUBLIC_INPUT
        ):
            raise RequestError("the public input is a text of at most 200 characters")
        return cls(public_input)


@dataclass(frozen=True)
class RaffleRedrawRequest:
    """`{"reason": "nobody came forward"}`: the ticket just drawn is set aside with the reason
    (spaces tidied) and its prize redrawn."""

    reason: str

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RaffleRedrawRequest:
        reason = d.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise RequestError("say why the prize is redrawn, such as: nobody came forward")
        if len(reason) > MAX_REASON:
            raise RequestError("a reason is at most %(n)s characters", n=MAX_REASON)
        return cls(reason)
