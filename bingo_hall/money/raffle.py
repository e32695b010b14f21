"""The raffle that ends a charity night, as pure rules: tickets sold by colour
and number range, the prizes in the order they are drawn, and the draw, as fair as the balls'.

* Raffle tickets are the cloakroom kind: a roll of one colour, numbered. A ticket is
  (colour, number); a sale is a colour and a range of numbers ("red 1-50"), at the raffle's
  price per ticket.
* Sales close, then the station commits: a fresh seed, and its SHA-256 on the big screen before
  the first prize is drawn. The order of every ticket sold is `draw.committed_order` (the very
  shuffle of the balls' draw, label b"raffle" and the public input) of the tickets sorted by
  colour then number; the seed is revealed at the end, and anyone can recompute the order
  (`bingo-hall audit`-style: `raffle_order`).
* Each draw takes the next ticket of the committed order, so no ticket can win twice. The prizes
  are drawn in their listed order; a prize nobody claims is redrawn, with the Maestro's reason,
  and goes to the next ticket of the order.

No I/O: the station keeps the raffle in SQLite (`station/ledger/raffle_store.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..draw import committed_order
from ..errors import KitError
from .serials import Serials, first_overlap, parse_serials

LABEL = b"raffle"
MAX_NUMBER = 99_999  # the numbers a roll of raffle tickets prints
MAX_PRIZES = 50
_COLOUR = re.compile(r"^[^\W\d_][\w -]{0,23}$")


class RaffleError(KitError):
    """A raffle request the rules refuse, in the host's words."""


@dataclass(frozen=True, order=True)
class RaffleTicket:
    """One raffle ticket: its roll's colour (as the seller typed it, lower case) and number."""

    colour: str
    number: int

    def __str__(self) -> str:
        return f"{self.colour} {self.number}"

    def to_json(self) -> dict[str, object]:
        return {"colour": self.colour, "number": self.number}


@dataclass(frozen=True)
class TicketSale:
    """Tickets `numbers` of the `colour` roll, sold together."""

    colour: str
    numbers: tuple[Serials, ...]

    def tickets(self) -> tuple[RaffleTicket, ...]:
        return tuple(
            RaffleTicket(self.colour, n) for r in self.numbers for n in range(r.first, r.last + 1)
        )

    @property
    def count(self) -> int:
        return sum(len(r) for r in self.numbers)


def parse_colour(text: object) -> str:
    """A roll's colour as the seller types it ("Red", "azul"): a word or two, kept lower case."""
    if not isinstance(text, str) or not _COLOUR.match(text.strip()):
        raise RaffleError(
            'name the colour of the tickets, such as "red" (a word, up to 24 letters)'
        )
    return " ".join(text.strip().lower().split())


def parse_sale(colour: object, numbers: object, sold: Iterable[TicketSale] = ()) -> TicketSale:
    """A sale typed at the table: its colour and its numbers ("1-50, 75"), none of them sold
    before in that colour."""
    name = parse_colour(colour)
    try:
        ranges = parse_serials(numbers, MAX_NUMBER)
    except KitError:
        raise RaffleError(
            'type the ticket numbers sold, such as "1-50, 75" (from 1 to %(most)s)',
            most=MAX_NUMBER,
        ) from None
    clash = first_overlap(ranges, [r for s in sold if s.colour == name for r in s.numbers])
    if clash is not None:
        raise RaffleError("%(colour)s %(number)s is already sold", colour=name, number=clash)
    return TicketSale(name, ranges)


def parse_prize(text: object) -> str:
    """A prize as the host lists it ("A hamper from the bakery")."""
    if not isinstance(text, str) or not text.strip():
        raise RaffleError("name the prize, such as a hamper")
    if len(text.strip()) > 80:
        raise RaffleError("a prize's name is at most 80 characters")
    return " ".join(text.split())


def tickets_sold(sales: Iterable[TicketSale]) -> tuple[RaffleTicket, ...]:
    """Every ticket sold, by colour then number: the list the committed order shuffles."""
    return tuple(sorted(t for s in sales for t in s.tickets()))


def raffle_order(
    seed: bytes, tickets: Iterable[RaffleTicket], public_input: str | None = None
) -> tuple[RaffleTicket, ...]:
    """The committed order of the tickets sold (sorted first, so only the seed decides)."""
    return committed_order(seed, sorted(tickets), LABEL, public_input)


@dataclass(frozen=True)
class RaffleDraw:
    """One draw: the `prize` (its place in the list, 1 = drawn first) went to the ticket at
    `place` in the committed order (1 = first); `unclaimed` gives the reason it was redrawn."""

    prize: int
    place: int
    ticket: RaffleTicket
    unclaimed: str | None = None


def next_draw(
    order: Sequence[RaffleTicket], prizes: int, draws: Sequence[RaffleDraw]
) -> RaffleDraw | None:
    """The next draw: the first prize with no standing winner, to the next ticket of the order
    (every draw, redraws too, takes a ticket of its own: no ticket wins twice). None once every
    prize has a winner; a `RaffleError` when the tickets run out."""
    standing = {d.prize for d in draws if d.unclaimed is None}
    waiting = [p for p in range(1, prizes + 1) if p not in standing]
    if not waiting:
        return None
    place = len(draws) + 1
    if place > len(order):
        raise RaffleError(
            "every ticket sold has been drawn: prize %(prize)s has no ticket left",
            prize=waiting[0],
        )
    return RaffleDraw(waiting[0], place, order[place - 1])


def winners(draws: Sequence[RaffleDraw]) -> dict[int, RaffleDraw]:
    """Each prize's standing winner, by the prize's place in the list."""
    return {d.prize: d for d in draws if d.unclaimed is None}


def follows_order(order: Sequence[RaffleTicket], draws: Sequence[RaffleDraw]) -> bool:
    """An auditor's check: the draws took the tickets of the order one after another."""
    return [d.ticket for d in draws] == list(order[: len(draws)]) and [
        d.place for d in draws
    ] == list(range(1, len(draws) + 1))
