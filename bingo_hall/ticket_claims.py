"""Checking a 90-ball claim against the calls: pure helpers (docs/decks.md). The station judges
prizes with `prize_rules` (every list, Tambola's included); this module keeps the rows of a
ticket (`complete_rows`, `rows_completed_by_last_call`) and the Spanish and UK sequences by their
old names, read from `prize_rules`' lists.

A ticket's lines are its three rows. The prizes come in a fixed sequence, the game's mode:

* Spanish halls: **línea** (one complete row), then **bingo** (all 15 numbers);
* UK clubs: **one line**, then **two lines** (two complete rows of one ticket), then **full house**.

As in the 75-ball game (docs/claims.md), a row is complete only if all its numbers were called in
this game, and a row that was already complete before the last call still wins (the player
missed it); the verdict says which rows the last call completed, so a hall that only pays claims
on the completing call can apply its rule.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .prize_rules import SPANISH, UK, RowsRule
from .tickets import Ticket


class PrizeMode(StrEnum):
    """Which prize sequence a 90-ball game plays."""

    SPANISH = "linea-bingo"
    UK = "lines-house"


class Prize(StrEnum):
    LINEA = "linea"
    BINGO = "bingo"
    ONE_LINE = "one-line"
    TWO_LINES = "two-lines"
    FULL_HOUSE = "full-house"


# The sequences and the rows each prize needs are `prize_rules`' lists (SPANISH, UK): one source.
_LISTS = {PrizeMode.SPANISH: SPANISH, PrizeMode.UK: UK}

#: The prizes of each mode, in the order they are played.
PRIZES: dict[PrizeMode, tuple[Prize, ...]] = {
    mode: tuple(Prize(p.key) for p in rules.prizes) for mode, rules in _LISTS.items()
}

#: How many complete rows of one ticket each prize needs.
ROWS_NEEDED: dict[Prize, int] = {
    Prize(p.key): p.rule.needed
    for rules in _LISTS.values()
    for p in rules.prizes
    if isinstance(p.rule, RowsRule)
}


def next_prize(mode: PrizeMode, awarded: Sequence[Prize]) -> Prize | None:
    """The prize now being played, after `awarded`; None once the last prize is won."""
    sequence = PRIZES[mode]
    return sequence[len(awarded)] if len(awarded) < len(sequence) else None


def complete_rows(ticket: Ticket, called: Collection[int]) -> tuple[int, ...]:
    """Indexes (0 = top) of the rows whose 5 numbers have all been called."""
    return tuple(r for r, row in enumerate(ticket.rows) if all(n in called for n in row))


def rows_completed_by_last_call(ticket: Ticket, calls: Sequence[int]) -> tuple[int, ...]:
    """The complete rows that hold the newest call: the rows that call finished."""
    if not calls:
        return ()
    last = calls[-1]
    return tuple(r for r in complete_rows(ticket, set(calls)) if last in ticket.rows[r])


def prizes_satisfied(ticket: Ticket, called: Collection[int], mode: PrizeMode) -> tuple[Prize, ...]:
    """Every prize of the mode the ticket now holds (a full house also holds one and two lines)."""
    done = len(complete_rows(ticket, called))
    return tuple(p for p in PRIZES[mode] if done >= ROWS_NEEDED[p])


@dataclass(frozen=True)
class TicketVerdict:
    """What the Maestro reads out for a claimed ticket and prize."""

    serial: int
    strip: int
    prize: Prize
    valid: bool
    complete_rows: tuple[int, ...]  # 0 = top row
    last_call_rows: tuple[int, ...]  # the complete rows the newest call finished
    missing: tuple[tuple[int, ...], ...]  # per row, its numbers not called yet


def check_ticket_claim(ticket: Ticket, calls: Sequence[int], prize: Prize) -> TicketVerdict:
    """Check a claim of `prize` on `ticket` after `calls` (in call order)."""
    called = set(calls)
    rows = complete_rows(ticket, called)
    return TicketVerdict(
        serial=ticket.serial,
        strip=ticket.strip,
        prize=prize,
        valid=len(rows) >= ROWS_NEEDED[prize],
        complete_rows=rows,
        last_call_rows=rows_completed_by_last_call(ticket, calls),
        missing=tuple(tuple(n for n in row if n not in called) for row in ticket.rows),
    )
