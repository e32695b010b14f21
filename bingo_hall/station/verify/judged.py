"""A card or ticket judged against its game's calls, as values: the pure rules' verdict with the
round it was judged in, and what the pages draw from it. The pages get these values (the grid
reads the verdict's covered squares and winning figures, never a dict); `to_json()` is the
API's, the events' and the stored claims' shape, unchanged.

One class per variant: `CardCheck` (75 balls, `seventyfive.claims`) and `TicketCheck` (90 balls,
`bingo_hall.ninety.prize_rules`). Both answer `serial`, `valid`, `verdict_value()` (the verdict as a
claim stores it and the screens show it: `CardVerdict`, `TicketVerdict`) and `to_json()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ...ninety.prize_rules import (
    Prize,
    PrizeList,
    PrizeVerdict,
    RowsRule,
    complete_rows,
    rows_completed_by_last_call,
)
from ...ninety.tickets import ROW_NAMES, Ticket
from ...seventyfive import claims as rules
from ...seventyfive.cards import LINE_CELLS, SIZE, Card
from ...values import JsonValue
from ...variants import STRIPS
from ..spoken import call_label
from .board import PrizeBoard

Cell = tuple[int, int]


class Checked(Protocol):
    """What every variant's judged card answers."""

    @property
    def game_id(self) -> int: ...

    @property
    def round(self) -> int: ...

    @property
    def serial(self) -> int: ...

    @property
    def valid(self) -> bool: ...

    @property
    def ticket(self) -> Any:
        """The card or ticket judged, as printed."""

    def verdict_value(self) -> JsonValue: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Nearest(JsonValue):
    """Without a bingo: the figure the card is nearest to, and the numbers it still lacks
    ("No es bingo: falta el 44")."""

    line: str
    numbers: tuple[int, ...]


@dataclass(frozen=True)
class CardCheck:
    """A 75-ball card judged against the calls of its game's current round."""

    game_id: int
    round: int
    card: Card
    verdict: rules.Verdict
    judged_by: rules.Rules
    calls: tuple[int, ...] = ()  # the round's live calls it was judged against, in order
    penalties: tuple[rules.Penalty, ...] = ()  # the card's, this round

    @property
    def serial(self) -> int:
        return self.card.serial

    @property
    def ticket(self) -> Card:
        return self.card

    @property
    def valid(self) -> bool:
        return self.verdict.bingo

    @property
    def nearest(self) -> Nearest | None:
        if self.verdict.bingo:
            return None
        name, numbers = rules.nearest_figure(self.card, self.verdict.covered, self.judged_by)
        return Nearest(name, numbers)

    def figure_cells(self, figure: rules.Figure) -> frozenset[Cell]:
        """The squares of a figure: the form of the game's pattern it completes, or its line."""
        pattern = self.verdict.pattern  # the game's, or an odd-even game's card's own
        if pattern is None:
            return frozenset(LINE_CELLS[figure.name])
        return pattern.forms[figure.form or 0]

    @property
    def winning_cells(self) -> frozenset[Cell]:
        return frozenset(c for f in self.verdict.winning for c in self.figure_cells(f))

    def verdict_value(self) -> CardVerdict:
        return CardVerdict(
            self.verdict,
            self.card.rows,
            {name: line.total for name, line in self.card.lines_by_name.items()},
            tuple(sorted(self.winning_cells)),
            self.nearest,
        )

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "round": self.round, **self.verdict_value().to_json()}


@dataclass(frozen=True)
class CardVerdict(JsonValue):
    """The verdict on a 75-ball card as a claim stores it: the rules' verdict with the card as
    printed (None = FREE), its margin totals, the squares of the winning figures and, without a
    bingo, the nearest figure and what it lacks."""

    verdict: rules.Verdict
    rows: tuple[tuple[int | None, ...], ...]
    totals: Mapping[str, int]
    winning_cells: tuple[Cell, ...]
    missing: Nearest | None

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        del data["verdict"]  # the rules' verdict's own keys come first
        return {**self.verdict.to_json(), **data}


@dataclass(frozen=True)
class Square:
    """One square of a card on its page."""

    n: int | None  # None: FREE
    covered: bool
    last: bool
    wins: bool
    need: bool  # part of the game's pattern


def card_grid(card: Card, check: CardCheck | None) -> list[list[Square]]:
    """The card as printed, row by row, with what the verdict says about each square."""
    v = check.verdict if check else None
    covered = v.covered if v else frozenset()
    winning = check.winning_cells if check else frozenset()
    need: frozenset[Cell] = frozenset()
    if v and v.pattern:  # the form won, or every square some form needs
        won = [f for f in v.winning if f.form is not None]
        need = v.pattern.forms[won[0].form or 0] if won else v.pattern.cells
    last = v.last_call if v else None
    return [
        [
            Square(
                n=(n := card.number_at(r, c)),
                covered=(r, c) in covered,
                last=last is not None and n == last,
                wins=(r, c) in winning,
                need=(r, c) in need,
            )
            for c in range(SIZE)
        ]
        for r in range(SIZE)
    ]


@dataclass(frozen=True)
class WonPrize(JsonValue):
    """A prize a ticket won in its game, and the round it was won in."""

    prize: str
    round: int


@dataclass(frozen=True)
class TicketCheck:
    """A 90-ball ticket judged for one prize against the calls of its game's current round, with
    the open prizes it holds now (one call may complete several); for its page, also whether the
    round's last prize is already awarded (it is then judged for it, not played for), the prizes
    the ticket has won in the game and the game's prize list (what the page judges with)."""

    game_id: int
    round: int
    ticket: Ticket
    prize: Prize
    verdict: PrizeVerdict
    calls: tuple[int, ...]
    held: tuple[Prize, ...] = ()  # the open prizes the ticket holds now
    round_over: bool = False
    won: tuple[WonPrize, ...] = ()
    rules: PrizeList | None = None
    board: PrizeBoard | None = None  # the round's prizes, who won each (prizes._board)

    @property
    def serial(self) -> int:
        return self.ticket.serial

    @property
    def valid(self) -> bool:
        """The ticket holds the prize (a claim is only judged for an open prize; a check says
        so of a prize already won too, for the winner's phone); never for a ticket barred from
        it (a second Full House is not the first one's winner's: `prize_rules.barred_from`)."""
        return self.verdict.result.holds and self.verdict.barred is None

    @property
    def last_call(self) -> int | None:
        return self.calls[-1] if self.calls else None

    @property
    def marked(self) -> list[int]:
        called = set(self.calls)
        return sorted(n for n in self.ticket.numbers if n in called)

    @property
    def complete_row_indexes(self) -> tuple[int, ...]:
        return complete_rows(self.ticket, set(self.calls))

    @property
    def last_call_row_indexes(self) -> tuple[int, ...]:
        return rows_completed_by_last_call(self.ticket, self.calls)

    @property
    def complete_rows(self) -> list[str]:
        return [ROW_NAMES[r] for r in self.complete_row_indexes]

    @property
    def prize_names(self) -> dict[str, dict[str, str]]:
        """Every prize of the game's list by its key, with its names ({"en", "es"})."""
        prizes = self.rules.prizes if self.rules is not None else (self.prize,)
        return {p.key: dict(p.names) for p in prizes}

    @property
    def prize_numbers(self) -> list[int]:
        """The numbers the prize is made of on this ticket (a row, the corners, all 15)."""
        return sorted(self.prize.rule.numbers(self.ticket))

    def verdict_value(self) -> TicketVerdict:
        """The ticket as printed (None = blank); the prize judged (its key and names, whether it
        is still open, what it lacks); the open prizes the ticket holds; and each row named (L1
        top) with its numbers, total, whether it is complete and whether the last call
        completed it."""
        v, last = self.verdict, self.last_call
        done = tuple(self.complete_rows)
        rule = self.prize.rule
        rows_rule = isinstance(rule, RowsRule)
        called = set(self.calls)
        complete, by_last = self.complete_row_indexes, self.last_call_row_indexes
        return TicketVerdict(
            game=STRIPS.balls,
            serial=v.serial,
            strip=self.ticket.strip,
            prize=v.prize,
            prize_names=dict(self.prize.names),
            kind=v.prize,
            points=None,
            valid=self.valid,
            open=v.open,
            held=tuple(p.key for p in self.held),
            barred=v.barred,
            by_last_call=v.by_last_call,
            rows_needed=rule.needed if isinstance(rule, RowsRule) else None,
            prize_numbers=tuple(self.prize_numbers) if not rows_rule else (),
            prize_missing=v.result.missing,
            still_needed=v.result.still_needed,
            complete_rows=done,
            winning=(done if rows_rule else ()) if self.valid else (),
            last_call_rows=tuple(ROW_NAMES[r] for r in by_last),
            lines=tuple(
                TicketLine(
                    ROW_NAMES[r],
                    row,
                    sum(row),
                    r in complete,
                    r in by_last,
                    tuple(n for n in row if n not in called),
                )
                for r, row in enumerate(self.ticket.rows)
            ),
            calls=len(self.calls),
            last_call=last,
            last_call_label=None if last is None else call_label(last, STRIPS.balls),
            marked=tuple(self.marked),
            rows=self.ticket.grid,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "round": self.round,
            **self.verdict_value().to_json(),
            # None once the round's last prize is awarded: judged for it, no longer played for
            "playing": None if self.round_over else self.prize.key,
            "won": [w.to_json() for w in self.won],
        }


@dataclass(frozen=True)
class TicketLine(JsonValue):
    """A ticket's row in its verdict: its name (L1 top), numbers, total, whether it is complete,
    whether the last call completed it, and the numbers it still lacks."""

    name: str
    numbers: tuple[int, ...]
    total: int
    complete: bool
    completed_by_last_call: bool
    missing: tuple[int, ...]


@dataclass(frozen=True)
class TicketVerdict(JsonValue):
    """The verdict on a 90-ball ticket for one prize as a claim stores it (`TicketCheck`)."""

    game: int
    serial: int
    strip: int
    prize: str
    prize_names: Mapping[str, str]
    kind: str  # the prize: the record and scoreboard read `kind` from every verdict
    points: None
    valid: bool
    open: bool
    held: tuple[str, ...]
    barred: str | None
    by_last_call: bool
    rows_needed: int | None
    prize_numbers: tuple[int, ...]
    prize_missing: tuple[int, ...]
    still_needed: int
    complete_rows: tuple[str, ...]
    winning: tuple[str, ...]
    last_call_rows: tuple[str, ...]
    lines: tuple[TicketLine, ...]
    calls: int
    last_call: int | None
    last_call_label: str | None
    marked: tuple[int, ...]
    rows: tuple[tuple[int | None, ...], ...]


@dataclass(frozen=True)
class Blank:
    """One cell of a ticket on its page (n None: a blank)."""

    n: int | None
    covered: bool
    last: bool


@dataclass(frozen=True)
class TicketRow:
    """A ticket's row on its page: its cells, and what the verdict says of the row."""

    name: str
    numbers: tuple[int, ...]
    total: int
    complete: bool
    by_last_call: bool
    missing: tuple[int, ...]
    cells: tuple[Blank, ...]


def ticket_grid(ticket: Ticket, check: TicketCheck | None) -> list[TicketRow]:
    """Row by row: the row's name, total and completeness, and its 9 cells."""
    called = set(check.calls) if check else set()
    last = check.last_call if check else None
    complete = check.complete_row_indexes if check else ()
    by_last = check.last_call_row_indexes if check else ()
    return [
        TicketRow(
            name=ROW_NAMES[r],
            numbers=ticket.rows[r],
            total=sum(ticket.rows[r]),
            complete=r in complete,
            by_last_call=r in by_last,
            missing=tuple(n for n in ticket.rows[r] if n not in called) if check else (),
            cells=tuple(
                Blank(n, n is not None and n in called, n is not None and n == last) for n in row
            ),
        )
        for r, row in enumerate(ticket.grid)
    ]
