"""The kinds of game the kit plays, one class each, the way python-chess's `chess.variant` gives
each variant its own Board: everything that differs between the 75-ball cards and the 90-ball
strips is answered here, once, and the manifest, the printer, the station and the CLI ask the
deck's or the game's variant instead of testing the number of balls.

A variant knows its printed ticket (`Card`, `Ticket`) and how the deck file holds it, how a deck of
them is made and checked, and the prizes it plays as data (`PrizePlan`): their names, and whether
they are played one after another or are all open at once. Pure: no Flask, no SQLite, no
reportlab. The printer's and the station's parts of a variant (layouts, pages, claims storage)
are adapters: each asks the variant its facts, and where it keeps a part of its own (a layout, a
page, a claims store) it keeps it in a `ByVariant` table keyed by the variant's class.

Adding a game kind is a subclass here, registered in `VARIANTS`, plus one entry in each
`ByVariant` table (`ByVariant.tables` lists them; tests/test_variants.py checks that every table
covers every variant): nothing is copied.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, Generic, TypeVar

from .errors import DeckError, KitError
from .ninety.prize_rules import BUILT_IN, CellsRule, CountRule, RowCountRule
from .ninety.strips import Strip, check_strips, generate_strips, strips_of
from .ninety.tickets import COLUMNS, ROWS, TICKETS_PER_STRIP, Ticket, check_ticket
from .odds import Need
from .prize_plan import PrizePlan
from .seventyfive.cards import CENTRE, LETTERS, LINE_CELLS, Card, call_name, check_card, letter_of
from .seventyfive.claims import Mode
from .seventyfive.deck import check_deck, generate_deck
from .seventyfive.patterns import Pattern

T = TypeVar("T", Card, Ticket)
Progress = Callable[[int], None] | None


@dataclass(frozen=True)
class BoardRow:
    """A row of the Tabla Confrontadora: its letter (none in the 90-ball game) and its balls."""

    letter: str
    balls: range


class Variant(ABC, Generic[T]):
    """One kind of game. Subclasses set the class attributes and the ticket's own rules."""

    key: ClassVar[str]  # "cards", "strips": the variant's name in the API's answers
    balls: ClassVar[int]  # the manifest's `game` and the game's `balls`
    layout: ClassVar[str]  # "card", "ticket": the view pages and scripts draw (`VIEWS[layout]`)
    count_option: ClassVar[str]  # the deck command's count option: "--cards", "--strips"
    ticket_type: ClassVar[type]
    ticket_word: ClassVar[tuple[str, str]]  # singular, plural: "card", "cards"
    deck_word: ClassVar[str]  # how the CLI names such a deck: "deck", "90-ball deck"
    default_template: ClassVar[str]
    large_template: ClassVar[str]  # what `--template large` prints
    has_letters: ClassVar[bool]  # calls are "N 31" (75 balls) or "87" (90 balls)
    free_centre: ClassVar[bool]  # may the deck print FREE in the centre
    rules_sheet: ClassVar[str]  # `rules_<lang>.md` with {lang}

    # -- the deck file ---------------------------------------------------------------------
    @abstractmethod
    def ticket_from_dict(self, i: int, raw: Any) -> T:
        """The deck file's `cards[i-1]`, fully checked; DeckError naming the ticket otherwise."""

    @abstractmethod
    def check_deck(self, tickets: Sequence[T], free_centre: bool) -> None:
        """Every guarantee of a deck of these tickets (ranges, shape, unique lines)."""

    @abstractmethod
    def generate(
        self, n: int, key: bytes | None, free_centre: bool, progress: Progress
    ) -> tuple[T, ...]:
        """`n` (cards or strips) made from `key`, serials from 1."""

    def tickets_from_dicts(self, raw: list[Any], free_centre: bool) -> tuple[T, ...]:
        tickets = tuple(self.ticket_from_dict(i, r) for i, r in enumerate(raw, start=1))
        self.check_deck(tickets, free_centre)
        return tickets

    def tickets_for(self, n: int) -> int:
        """How many tickets `n` (cards, or strips) make."""
        return n

    def strips(self, tickets: Sequence[T]) -> list[Strip]:
        """The strips the deck's tickets make (a deck of cards has none)."""
        return []

    # -- the Tabla Confrontadora and the calls -----------------------------------------------
    @property
    @abstractmethod
    def board(self) -> tuple[BoardRow, ...]:
        """The Tabla Confrontadora, row by row: every ball of the game once."""

    @abstractmethod
    def call_label(self, ball: int) -> str:
        """The call as screens write it: "N 31" with letters, "87" without."""

    @abstractmethod
    def said(self, ball: int, words: str) -> str:
        """The call as the Maestro says it, given the number in words ("N... thirty-one")."""

    # -- words -----------------------------------------------------------------------------
    def count_words(self, n_tickets: int) -> str:
        """How a deck of `n_tickets` is counted in the CLI's messages ("40 cards")."""
        return f"{n_tickets} {self.ticket_word[1]}"

    @abstractmethod
    def check_summary(self, tickets: Sequence[T], free_centre: bool) -> str:
        """What `bingo-hall deck --check` says of a sound deck, after "OK, "."""

    # -- prizes ----------------------------------------------------------------------------
    @property
    @abstractmethod
    def plans(self) -> tuple[PrizePlan, ...]:
        """Every prize plan this variant can play; the first is the default."""

    @abstractmethod
    def needs(
        self, ticket: T, plan: PrizePlan, prize: str, pattern: Pattern | None, free_centre: bool
    ) -> tuple[Need, ...]:
        """The ways `ticket` can win `prize` of `plan` (for the odds, `bingo_hall.odds`): a
        75-ball card's lines or the game's `pattern`, a 90-ball ticket's prize rule."""

    def plan(self, mode: str | None, extra: Sequence[PrizePlan] = ()) -> PrizePlan:
        """The plan named `mode` (None: the default), among the variant's own and `extra` (a
        host's lists); KitError for a mode it does not play."""
        plans = (*self.plans, *extra)
        if mode is None:
            return plans[0]
        for p in plans:
            if p.mode == mode:
                return p
        names = ", ".join(repr(p.mode) for p in plans)
        raise KitError(
            "a %(balls)s-ball game's mode is one of %(names)s, not %(mode)r",
            balls=self.balls,
            names=names,
            mode=mode,
        )


class Cards75(Variant[Card]):
    """The 1933 cards: 5x5 under B I N G O, 12 lines each, one bingo a round (Normal or Puntos)."""

    key = "cards"
    balls = 75
    layout = "card"
    count_option = "--cards"
    ticket_type = Card
    ticket_word = ("card", "cards")
    deck_word = "deck"
    default_template = "classic-4"
    large_template = "large-2"
    has_letters = True
    free_centre = True
    rules_sheet = "rules_{lang}.md"

    def ticket_from_dict(self, i: int, raw: Any) -> Card:
        _need(isinstance(raw, dict), "card #%(i)s is not an object", i=i)
        serial = raw.get("serial")
        _need(
            serial == i,
            "card #%(i)s: serial is %(serial)r, expected %(i)s (serials count from 1)",
            i=i,
            serial=serial,
        )
        cols = raw.get("columns")
        _need(
            isinstance(cols, list)
            and len(cols) == 5
            and all(isinstance(c, list) and len(c) == 5 for c in cols),
            "card %(i)s: columns must be 5 lists of 5 numbers",
            i=i,
        )
        card = Card(serial=i, columns=tuple(tuple(c) for c in cols))
        check_card(card)
        if raw.get("totals") != card.totals():
            raise DeckError("card %(i)s: the printed totals do not match its numbers", i=i)
        return card

    def check_deck(self, tickets: Sequence[Card], free_centre: bool) -> None:
        check_deck(tickets, free_centre)

    def generate(
        self, n: int, key: bytes | None, free_centre: bool, progress: Progress
    ) -> tuple[Card, ...]:
        return tuple(generate_deck(n, seed=key, free_centre=free_centre, progress=progress))

    @property
    def board(self) -> tuple[BoardRow, ...]:
        return tuple(
            BoardRow(letter, range(15 * i + 1, 15 * i + 16)) for i, letter in enumerate(LETTERS)
        )

    def call_label(self, ball: int) -> str:
        return call_name(ball)

    def said(self, ball: int, words: str) -> str:
        return f"{letter_of(ball)}... {words}"

    def check_summary(self, tickets: Sequence[Card], free_centre: bool) -> str:
        centre = "FREE centre" if free_centre else "numbered centre"
        return f"{len(tickets)} cards, {centre}, {12 * len(tickets)} unique lines"

    def needs(
        self, ticket: Card, plan: PrizePlan, prize: str, pattern: Pattern | None, free_centre: bool
    ) -> tuple[Need, ...]:
        def numbers(cells: Collection[tuple[int, int]]) -> frozenset[int]:
            return frozenset(
                n
                for r, c in cells
                if (n := ticket.number_at(r, c)) is not None
                and not (free_centre and (r, c) == CENTRE)
            )

        if pattern is not None:  # any one of its forms wins
            return tuple(Need(numbers(form)) for form in pattern.forms)
        return tuple(Need(numbers(cells)) for cells in LINE_CELLS.values())

    @property
    def plans(self) -> tuple[PrizePlan, ...]:
        # one bingo a round; Puntos plays rounds until a side reaches the target
        return tuple(
            PrizePlan(
                str(m),
                ("bingo",),
                plays_patterns=m == Mode.NORMAL,  # a pattern replaces Normal's lines
                figure="points" if m == Mode.POINTS else "lines",
            )
            for m in Mode
        )


class Strips90(Variant[Ticket]):
    """The 90-ball game: strips of six 3x9 tickets; prizes one after another (línea, bingo; or
    one line, two lines, full house) or all open at once (Tambola), as `prize_rules` lists."""

    key = "strips"
    balls = 90
    layout = "ticket"
    count_option = "--strips"
    ticket_type = Ticket
    ticket_word = ("ticket", "tickets")
    deck_word = "90-ball deck"
    default_template = "strips-2"
    large_template = "large-tickets"
    has_letters = False
    free_centre = False
    rules_sheet = "rules_90_{lang}.md"

    def ticket_from_dict(self, i: int, raw: Any) -> Ticket:
        _need(isinstance(raw, dict), "ticket #%(i)s is not an object", i=i)
        serial, strip = raw.get("serial"), raw.get("strip")
        _need(
            serial == i,
            "ticket #%(i)s: serial is %(serial)r, expected %(i)s (serials count from 1)",
            i=i,
            serial=serial,
        )
        want = (i - 1) // TICKETS_PER_STRIP + 1
        _need(
            strip == want,
            "ticket %(i)s: strip is %(strip)r, expected %(want)s (6 tickets a strip)",
            i=i,
            strip=strip,
            want=want,
        )
        rows = raw.get("rows")
        _need(
            isinstance(rows, list)
            and len(rows) == ROWS
            and all(isinstance(r, list) and len(r) == COLUMNS for r in rows),
            "ticket %(i)s: rows must be 3 lists of 9 cells (null for a blank)",
            i=i,
        )
        ticket = Ticket(serial=i, strip=want, grid=tuple(tuple(r) for r in rows))
        check_ticket(ticket)
        if raw.get("totals") != ticket.totals():
            raise DeckError("ticket %(i)s: the printed row totals do not match its numbers", i=i)
        return ticket

    def check_deck(self, tickets: Sequence[Ticket], free_centre: bool) -> None:
        check_strips(strips_of(tickets))

    def generate(
        self, n: int, key: bytes | None, free_centre: bool, progress: Progress
    ) -> tuple[Ticket, ...]:
        made = generate_strips(n, seed=key, progress=progress)
        return tuple(t for s in made for t in s.tickets)

    def tickets_for(self, n: int) -> int:
        return TICKETS_PER_STRIP * n

    def strips(self, tickets: Sequence[Ticket]) -> list[Strip]:
        return strips_of(tickets) if tickets else []

    @property
    def board(self) -> tuple[BoardRow, ...]:
        return tuple(BoardRow("", range(10 * row + 1, 10 * row + 11)) for row in range(9))

    def call_label(self, ball: int) -> str:
        return str(ball)

    def said(self, ball: int, words: str) -> str:
        return words

    def count_words(self, n_tickets: int) -> str:
        return f"{n_tickets // TICKETS_PER_STRIP} strips ({n_tickets} tickets)"

    def check_summary(self, tickets: Sequence[Ticket], free_centre: bool) -> str:
        n = len(tickets)
        return f"{n // TICKETS_PER_STRIP} strips, {n} tickets, {ROWS * n} unique rows"

    @property
    def plans(self) -> tuple[PrizePlan, ...]:
        return tuple(PrizePlan.of(p) for p in BUILT_IN.values())

    def needs(
        self,
        ticket: Ticket,
        plan: PrizePlan,
        prize: str,
        pattern: Pattern | None,
        free_centre: bool,
    ) -> tuple[Need, ...]:
        rule = plan.prize(prize).rule
        if isinstance(rule, CountRule):
            return (Need(ticket.numbers, rule.count),)
        if isinstance(rule, CellsRule):
            return (Need(rule.numbers(ticket)),)
        if isinstance(rule, RowCountRule):  # ambo, terno...: that many on any one row
            return tuple(Need(frozenset(row), rule.count) for row in ticket.rows)
        return tuple(
            Need(frozenset(n for r in rows for n in ticket.rows[r]))
            for rows in combinations(rule.rows, rule.needed)
        )


CARDS = Cards75()
STRIPS = Strips90()

#: every variant the kit plays, the default first (`variant_for` finds one by its balls)
VARIANTS: list[Variant[Any]] = [CARDS, STRIPS]

#: the balls of the game the kit plays where none is named: a manifest without `game`, a game
#: from before the 90-ball game, a call written without its game (the default variant's)
DEFAULT_BALLS: int = VARIANTS[0].balls


def variant_for(balls: object) -> Variant[Any]:
    """The variant of a deck's `game` or a game's `balls`; DeckError for one the kit lacks."""
    for variant in VARIANTS:
        if type(balls) is int and balls == variant.balls:
            return variant
    *others, last = ball_counts()  # "or" is the template's: translated
    raise DeckError(
        "game must be %(others)s or %(last)s, not %(balls)r",
        others=", ".join(others),
        last=last,
        balls=balls,
    )


def ball_counts() -> tuple[str, ...]:
    """The games the kit plays, by their balls, as the command line's `--game` choices."""
    return tuple(str(v.balls) for v in VARIANTS)


V = TypeVar("V")


class ByVariant(Generic[V]):
    """An adapter's own part of each variant (a printed layout, the station's claims), keyed by
    the variant's class. Every table made is listed in `ByVariant.tables`, so one test checks
    that each covers every variant, and a new variant cannot miss one quietly."""

    tables: ClassVar[list[ByVariant[Any]]] = []

    def __init__(self, name: str, entries: Mapping[type[Variant[Any]], V]) -> None:
        self.name = name
        self.entries: dict[type[Variant[Any]], V] = dict(entries)
        ByVariant.tables.append(self)

    def __getitem__(self, variant: Variant[Any]) -> V:
        try:
            return self.entries[type(variant)]
        except KeyError:
            raise KitError(
                "%(table)s has no entry for the %(balls)s-ball game",
                table=self.name,
                balls=variant.balls,
            ) from None

    def covers(self, variant: Variant[Any]) -> bool:
        return type(variant) in self.entries


def _need(cond: bool, template: str, /, **params: Any) -> None:
    if not cond:
        raise DeckError(template, **params)
