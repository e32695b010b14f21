"""What cards cost: a price per card or per book of cards, under the name the door sees, and a
game's list of such prices."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .amounts import NEGATIVE, LedgerError, parse_cents, whole_cents
from .serials import Serials, count, whole_books

MAX_BOOK = 100  # cards in a book


@dataclass(frozen=True)
class Price:
    """What a card costs: `cents` for a book of `book` cards (1: a price per card), under the
    name the door sees on its price list (`label`: "Single", "Book of 6", "Second book").
    A game has a price list of one or more prices (`PriceList`); each sale says which."""

    cents: int
    book: int = 1
    label: str = ""

    def __post_init__(self) -> None:
        if whole_cents(self.cents, "a price") < 0:
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
