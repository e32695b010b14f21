"""90-ball strips (tiras): six tickets that hold 1-90 once each, and decks of them whose rows never
repeat (docs/decks.md, "90 balls").

The rows are this game's lines, so, as the 1933 rules ask of the 75-ball deck's lines, no two rows
anywhere in the deck hold the same set of numbers. Inside one strip that is automatic (every
number is used once); across strips it is enforced.

How one strip is drawn, from its own seeded stream, with no retries:

1. Column counts. Every ticket has at least one number per column, which leaves 6 "extras" per
   ticket and (3, 4, 4, 4, 4, 4, 4, 4, 5) extras per column (9, 10 ... 10, 11 numbers less 6).
   Split each ticket into two halves of 3 extras; a 12 x 9 0/1 matrix with row sums 3 and those
   column sums exists (Gale-Ryser), and filling the columns one by one (in a random order), each
   from the halves with the most extras still to place (ties in a random order: a random
   rotation of a random order of the halves), always finishes:
   that is the bipartite Havel-Hakimi theorem. A ticket's count in a column is 1 + its two halves'
   bits, so 1, 2 or 3.
2. Layout. A ticket with a columns of 3, b of 2 and c of 1 has 2a + b = 6, so a row missed by x
   of the 2-columns must take a - 1 + x of the 1-columns to hold 5 numbers. Any split of the b
   misses over the 3 rows with every count >= 1 - a works; one is picked at random from the
   (at most 28) splits, then the 2- and 1-columns are dealt to the rows in a random order.
3. Numbers. Each column's numbers are shuffled and dealt to the tickets by their counts, and
   each ticket's numbers go down its column in ascending order.

Unique rows across the deck: strip k is drawn from the stream labelled (k, attempt); the first
attempt none of whose 18 rows appears in strips 1..k-1 is kept. Attempts are bounded by
`ATTEMPTS` = 64, so generation always ends: if every attempt clashed it would stop with a
DeckError naming the strip rather than loop. The deck is capped at `MAX_STRIPS` = 4000 strips
(24000 tickets); even for the last strips the measured share of attempts that clash is about
1 in 10 (benchmarks/strips.py prints it by deck size), so running out of attempts has odds of
the order of 10**-64. Each strip depends only on the seed and the strips before it, so a larger
deck from the same seed begins with the smaller one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from ..errors import DeckError
from ..rng import SeededStream, seed_bytes
from .tickets import (
    BALLS,
    COLUMNS,
    ROWS,
    TICKETS_PER_STRIP,
    Ticket,
    check_ticket,
    column_range_90,
)

MAX_STRIPS = 4000  # 24000 tickets, 72000 unique rows
ATTEMPTS = 64
_EXTRAS = tuple(len(column_range_90(c)) - TICKETS_PER_STRIP for c in range(COLUMNS))
_HALF = 3  # extras per half-ticket
_RANGES = tuple(tuple(column_range_90(c)) for c in range(COLUMNS))
_ALL_ROWS = tuple(range(ROWS))
_ALL_BUT = tuple(tuple(x for x in _ALL_ROWS if x != r) for r in range(ROWS))


@dataclass(frozen=True)
class Strip:
    """Six tickets, serials 6(number-1)+1 .. 6*number, that together hold 1-90 once each."""

    number: int
    tickets: tuple[Ticket, ...]

    @property
    def rows(self) -> tuple[frozenset[int], ...]:
        """The 18 rows of the strip as sets of numbers."""
        return tuple(frozenset(row) for t in self.tickets for row in t.rows)


def _splits(b: int, low: int) -> tuple[tuple[int, ...], ...]:
    return tuple(x for x in product(range(b + 1), repeat=ROWS) if sum(x) == b and min(x) >= low)


_SPLITS = {a: _splits(6 - 2 * a, max(0, 1 - a)) for a in range(4)}


def _column_counts(stream: SeededStream) -> list[list[int]]:
    """counts[t][c]: how many numbers ticket t has in column c (step 1 of the docstring)."""
    need = [_HALF] * (2 * TICKETS_PER_STRIP)
    counts = [[1] * COLUMNS for _ in range(TICKETS_PER_STRIP)]
    order = list(range(COLUMNS))
    stream.shuffle(order)
    base = list(range(len(need)))
    stream.shuffle(base)
    for c in order:
        turn = stream.randbelow(len(base))
        halves = base[turn:] + base[:turn]
        halves.sort(key=lambda h: -need[h])  # stable: ties keep the random order
        for h in halves[: _EXTRAS[c]]:
            if need[h] == 0:  # cannot happen (Havel-Hakimi); a loud failure, never a bad strip
                raise AssertionError("column counts: no half-ticket left to fill")
            need[h] -= 1
            counts[h // 2][c] += 1
    return counts


def _layout(counts: Sequence[int], stream: SeededStream) -> list[tuple[int, ...]]:
    """For each column of a ticket, the rows that hold its numbers (step 2 of the docstring)."""
    rows_of: list[tuple[int, ...]] = [_ALL_ROWS] * COLUMNS
    twos = [c for c in range(COLUMNS) if counts[c] == 2]
    ones = [c for c in range(COLUMNS) if counts[c] == 1]
    a = COLUMNS - len(twos) - len(ones)  # columns of 3
    splits = _SPLITS[a]
    misses = splits[stream.randbelow(len(splits))]
    stream.shuffle(twos)
    stream.shuffle(ones)
    i = j = 0
    for r in range(ROWS):
        for c in twos[i : i + misses[r]]:
            rows_of[c] = _ALL_BUT[r]
        i += misses[r]
        take = a - 1 + misses[r]
        for c in ones[j : j + take]:
            rows_of[c] = (r,)
        j += take
    return rows_of


def draw_strip(key: bytes, number: int, attempt: int = 0) -> Strip:
    """One valid strip, drawn from the stream for (number, attempt); serials follow the number."""
    stream = SeededStream(key, b"strip" + number.to_bytes(4, "big") + attempt.to_bytes(2, "big"))
    counts = _column_counts(stream)
    layouts = [_layout(counts[t], stream) for t in range(TICKETS_PER_STRIP)]
    grids: list[list[list[int | None]]] = [
        [[None] * COLUMNS for _ in range(ROWS)] for _ in range(TICKETS_PER_STRIP)
    ]
    for c in range(COLUMNS):
        numbers = list(_RANGES[c])
        stream.shuffle(numbers)
        start = 0
        for t in range(TICKETS_PER_STRIP):
            rows = layouts[t][c]
            end = start + len(rows)
            grid = grids[t]
            for r, n in zip(rows, sorted(numbers[start:end])):
                grid[r][c] = n
            start = end
    first = TICKETS_PER_STRIP * (number - 1) + 1
    tickets = tuple(
        Ticket(serial=first + t, strip=number, grid=tuple(map(tuple, grids[t])))
        for t in range(TICKETS_PER_STRIP)
    )
    return Strip(number=number, tickets=tickets)


def generate_strips(
    count: int,
    seed: str | bytes | int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Strip]:
    """Build `count` strips (6 * count tickets, serials 1..6*count) with no row repeated.

    The same seed gives the same strips on any machine; with no seed the key comes from
    `secrets`. `progress(k)` is told each time k more strips are made.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
        raise DeckError(
            "the number of strips must be a whole number from 1 to %(most)s",
            most=MAX_STRIPS,
        )
    if count > MAX_STRIPS:
        raise DeckError(
            "a 90-ball deck has at most %(most)s strips; %(count)s were asked for",
            most=MAX_STRIPS,
            count=count,
        )
    key = seed_bytes(seed)
    seen: set[frozenset[int]] = set()
    strips = []
    for number in range(1, count + 1):
        for attempt in range(ATTEMPTS):
            strip = draw_strip(key, number, attempt)
            rows = strip.rows
            if seen.isdisjoint(rows):
                break
        else:
            raise DeckError(
                "strip %(number)s: %(attempts)s draws all repeated a row; use another seed",
                number=number,
                attempts=ATTEMPTS,
            )
        seen.update(rows)
        strips.append(strip)
        if progress is not None and number % 100 == 0:
            progress(100)
    if progress is not None and count % 100:
        progress(count % 100)
    return strips


def strips_of(tickets: Sequence[Ticket]) -> list[Strip]:
    """Group a deck's tickets (serials 1..6n in order) into its strips."""
    if len(tickets) % TICKETS_PER_STRIP:
        raise DeckError(
            "a 90-ball deck holds whole strips of 6 tickets, not %(count)s", count=len(tickets)
        )
    return [
        Strip(number=i // TICKETS_PER_STRIP + 1, tickets=tuple(tickets[i : i + TICKETS_PER_STRIP]))
        for i in range(0, len(tickets), TICKETS_PER_STRIP)
    ]


def check_rows_unique(tickets: Iterable[Ticket]) -> None:
    """Raise DeckError naming the first two rows, anywhere in the deck, with the same numbers."""
    seen: dict[frozenset[int], tuple[int, int]] = {}
    for ticket in tickets:
        for r, row in enumerate(ticket.rows, start=1):
            key = frozenset(row)
            other = seen.get(key)
            if other is not None:
                raise DeckError(
                    "ticket %(serial)s row %(r)s repeats ticket %(other_ticket)s row %(other_row)s "
                    "(%(names)s)",
                    serial=ticket.serial,
                    r=r,
                    other_ticket=other[0],
                    other_row=other[1],
                    names=", ".join(map(str, sorted(key))),
                )
            seen[key] = (ticket.serial, r)


def check_strips(strips: Sequence[Strip]) -> None:
    """All the guarantees of a 90-ball deck: every ticket's shape, serials and strip numbers in
    order, each strip holding 1-90 once, and no row repeated anywhere."""
    if len(strips) > MAX_STRIPS:
        raise DeckError(
            "a 90-ball deck has at most %(most)s strips; this one has %(count)s",
            most=MAX_STRIPS,
            count=len(strips),
        )
    for i, strip in enumerate(strips, start=1):
        if strip.number != i or len(strip.tickets) != TICKETS_PER_STRIP:
            raise DeckError("strip %(i)s: a strip is 6 tickets numbered in order", i=i)
        held: list[int] = []
        for t, ticket in enumerate(strip.tickets):
            serial = TICKETS_PER_STRIP * (i - 1) + t + 1
            if ticket.serial != serial or ticket.strip != i:
                raise DeckError(
                    "ticket %(serial)s: expected serial %(expected)s of strip %(i)s",
                    serial=ticket.serial,
                    expected=serial,
                    i=i,
                )
            check_ticket(ticket)
            held.extend(ticket.numbers)
        if sorted(held) != list(range(1, BALLS + 1)):
            raise DeckError(
                "strip %(i)s: its 6 tickets must hold every number 1-90 exactly once", i=i
            )
    check_rows_unique(t for s in strips for t in s.tickets)
