"""What other parts of the station may add to a claim and an award, inside its transaction, and
to the game record.

The claims code (verify/) calls `claimed` and `awarded` once the row is written and before the
commit, so what a hook writes is committed with it or not at all. The ledger uses
them: a claim on a card not sold for the round gets a warning, and an award records who is paid
how much. A hook must not publish events: the caller publishes after the commit.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..values import JsonValue
from ..web.instance import area_state


@dataclass(frozen=True)
class Winner:
    claim_id: int
    serial: int
    player: str | None


@dataclass(frozen=True)
class Claimed:
    """A claim just stored: its game, round (id and number) and card."""

    game_id: int
    round_id: int
    round: int
    claim_id: int
    serial: int


@dataclass(frozen=True)
class Awarded:
    """A prize just awarded: `prize` is "bingo" for a 75-ball round, else the 90-ball prize
    (linea, bingo, one-line, two-lines, full-house); `at_call` is how many calls it took; the
    winners are in the order their claims were recorded."""

    game_id: int
    round_id: int
    round: int
    prize: str
    at_call: int
    winners: tuple[Winner, ...]


#: `fn(conn, claim) -> value or None`: what joins the claim's answer (its JSON's keys)
ClaimHook = Callable[[sqlite3.Connection, Claimed], JsonValue | None]
AwardHook = Callable[[sqlite3.Connection, Awarded], None]


#: `fn(conn, round_id) -> list of notes`: what the game record says about a round besides its
#: calls and claims; a note is {"at", "event", "serial", "detail"}
@dataclass(frozen=True)
class RecordNote(JsonValue):
    """A line a hook adds to a round of the game record (its JSON and its CSV): when, what kind
    of event, and what happened; the card or the player it concerns, when there is one."""

    at: str
    event: str
    detail: str
    serial: int | None = None
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The fields that say something: a note about no card has no `serial`."""
        return {k: v for k, v in super().to_json().items() if v is not None}


RecordHook = Callable[[sqlite3.Connection, int], list[RecordNote]]
#: `fn(conn, game_id, round, serial) -> (first, last) or None`: the book (the cards sold
#: together) that holds a card, for a game that needs its pattern on N cards of one book
BookHook = Callable[[sqlite3.Connection, int, int, int], tuple[int, int] | None]


@dataclass
class _Hooks:
    claims: list[ClaimHook] = field(default_factory=list)
    awards: list[AwardHook] = field(default_factory=list)
    records: list[RecordHook] = field(default_factory=list)
    books: list[BookHook] = field(default_factory=list)


def _hooks() -> _Hooks:
    return area_state("station_hooks", _Hooks)


def on_claim(fn: ClaimHook) -> None:
    """Run `fn` in every claim's transaction; the value it returns joins the claim's answer."""
    if fn not in _hooks().claims:
        _hooks().claims.append(fn)


def on_award(fn: AwardHook) -> None:
    """Run `fn` in every award's transaction (a 75-ball round's, each 90-ball prize's)."""
    if fn not in _hooks().awards:
        _hooks().awards.append(fn)


def on_record(fn: RecordHook) -> None:
    """Add `fn`'s notes to every round of the game record (JSON and CSV)."""
    if fn not in _hooks().records:
        _hooks().records.append(fn)


def on_book(fn: BookHook) -> None:
    """`fn` says which book holds a card (the ledger: the sale at a book price that sold it)."""
    if fn not in _hooks().books:
        _hooks().books.append(fn)


def book_of(
    conn: sqlite3.Connection, game_id: int, round: int, serial: int
) -> tuple[int, int] | None:
    """The serials (first, last) of the book holding the card, from the first hook that knows."""
    for fn in list(_hooks().books):
        found = fn(conn, game_id, round, serial)
        if found is not None:
            return found
    return None


def notes(conn: sqlite3.Connection, round_id: int) -> list[RecordNote]:
    return [note for fn in list(_hooks().records) for note in fn(conn, round_id)]


def claimed(conn: sqlite3.Connection, claim: Claimed) -> tuple[JsonValue, ...]:
    """What the hooks add to a claim, in the order they were registered."""
    added = (fn(conn, claim) for fn in list(_hooks().claims))
    return tuple(value for value in added if value is not None)


def awarded(conn: sqlite3.Connection, award: Awarded) -> None:
    for fn in list(_hooks().awards):
        fn(conn, award)
