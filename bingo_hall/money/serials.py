"""Serial ranges of cards ("1-40, 55"): read from what the host types, checked against the deck
and what is sold, written back, and the books they make: a book of N cards is the N consecutive
serials starting at a multiple of N plus one (book 1 is cards 1..N, book 2 is N+1..2N); a sale
at a book price must be whole books (`whole_books`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .amounts import LedgerError


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
