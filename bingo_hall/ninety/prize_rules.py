"""90-ball prizes as data: a prize is a rule over one ticket and the calls (docs/claims.md).

Spanish halls and UK clubs play their prizes one after another (línea -> bingo; one line -> two
lines -> full house). Tambola (Housie), as India and its diaspora play it, opens every prize at
once, and each closes at its first valid claim, in any order:

* **Early Five** (Jaldi Five): any 5 numbers of the ticket called;
* **Top Line**, **Middle Line**, **Bottom Line**: that row complete;
* **Four Corners**: the first and last number of the top row and of the bottom row;
* **Full House**: all 15.

Hosts add or leave out prizes and write their own list in a small TOML file
(`prize_list_file.parse_prize_list`). Three kinds of rule cover the prizes halls play:

* `RowsRule`: `needed` of the listed rows complete (a line, two lines, the full house, the top
  line); in a host's file `rows = [...]` asks for all of those rows, `lines = N` for any N;
* `CountRule`: any `count` numbers of the ticket called (Early Five);
* `CellsRule`: named cells called, a cell being (row, position among that row's 5 numbers), so
  the corners are the first and last number of the top and the bottom row, whatever the columns;
* `RowCountRule`: `count` numbers called on one row (Italian Tombola's ambo, terno, quaterna);
  in a host's file `in_a_row = N`.

Italian Tombola plays its prizes one after another on a cartella (the ticket) of 3 rows of 5:
**ambo** (2 numbers called on one row), **terno** (3), **quaterna** (4), **cinquina** (5: the
row complete) and **tombola** (all 15). The caller's board is the tabellone, the 90 numbers cut
into six cartelle of 15 (`PrizeList.tabellone`).

A prize list is a sequence (the next prize opens when the one before it is awarded) or a set open
at once; in a set a prize may still wait for another (`after`: a second Full House opens once the
first is won). This module does no I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from .tickets import PER_ROW, ROWS, Ticket


@dataclass(frozen=True)
class RowsRule:
    """`needed` of `rows` (0 = top) complete: a line, two lines, a named line or the full house."""

    needed: int = 1
    rows: tuple[int, ...] = tuple(range(ROWS))

    def numbers(self, ticket: Ticket) -> frozenset[int]:
        return frozenset(n for r in self.rows for n in ticket.rows[r])


@dataclass(frozen=True)
class CountRule:
    """Any `count` of the ticket's numbers called (Early Five is 5)."""

    count: int

    def numbers(self, ticket: Ticket) -> frozenset[int]:
        return ticket.numbers


@dataclass(frozen=True)
class CellsRule:
    """Every named cell called; a cell is (row, position among the row's numbers), 0-based."""

    cells: tuple[tuple[int, int], ...]

    def numbers(self, ticket: Ticket) -> frozenset[int]:
        return frozenset(ticket.rows[r][p] for r, p in self.cells)


@dataclass(frozen=True)
class RowCountRule:
    """At least `count` numbers called on one row of the ticket (ambo is 2, terno 3, quaterna 4):
    any numbers of that row, so the rule's numbers are the whole ticket."""

    count: int

    def numbers(self, ticket: Ticket) -> frozenset[int]:
        return ticket.numbers


Rule = RowsRule | CountRule | CellsRule | RowCountRule


@dataclass(frozen=True)
class RuleResult:
    """How far one ticket is from one prize.

    `missing` lists the numbers still needed where they are known (a row, the corners); for a
    count rule any numbers will do, so `missing` is empty and `still_needed` says how many.
    """

    holds: bool
    marked: frozenset[int]  # the prize's numbers already called
    still_needed: int
    missing: tuple[int, ...]


def judge_rule(rule: Rule, ticket: Ticket, called: Collection[int]) -> RuleResult:
    """Whether `ticket` holds `rule` once `called` have been called, and what is missing."""
    if isinstance(rule, CountRule):
        marked = frozenset(n for n in ticket.numbers if n in called)
        short = max(0, rule.count - len(marked))
        return RuleResult(short == 0, marked, short, ())
    if isinstance(rule, RowCountRule):
        best = max(
            (frozenset(n for n in row if n in called) for row in ticket.rows),
            key=len,
        )
        short = max(0, rule.count - len(best))
        return RuleResult(short == 0, best, short, ())
    if isinstance(rule, CellsRule):
        wanted = rule.numbers(ticket)
        missing = tuple(sorted(n for n in wanted if n not in called))
        return RuleResult(not missing, wanted - set(missing), len(missing), missing)
    # RowsRule: the nearest `needed` rows decide what is missing.
    per_row = sorted(
        ((tuple(n for n in ticket.rows[r] if n not in called), r) for r in rule.rows),
        key=lambda item: (len(item[0]), item[1]),
    )
    nearest = per_row[: rule.needed]
    missing = tuple(sorted(n for row_missing, _ in nearest for n in row_missing))
    marked = frozenset(n for n in rule.numbers(ticket) if n in called)
    return RuleResult(not missing, marked, len(missing), missing)


def complete_rows(ticket: Ticket, called: Collection[int]) -> tuple[int, ...]:
    """Indexes (0 = top) of the ticket's rows whose 5 numbers have all been called: a row is
    complete only if all its numbers were called in this game (docs/claims.md)."""
    return tuple(r for r, row in enumerate(ticket.rows) if all(n in called for n in row))


def rows_completed_by_last_call(ticket: Ticket, calls: Sequence[int]) -> tuple[int, ...]:
    """The complete rows that hold the newest call: the rows that call finished (a row complete
    before it still wins; a hall that pays only the completing call reads this)."""
    if not calls:
        return ()
    last = calls[-1]
    return tuple(r for r in complete_rows(ticket, set(calls)) if last in ticket.rows[r])


@dataclass(frozen=True)
class Prize:
    """One prize of a list: its key (stable, in the record), its names, its rule.

    `after` names a prize that must be awarded before this one opens (a second Full House).
    `amount_cents`, where the list sets one, is what the night's ledger pays.
    """

    key: str
    names: Mapping[str, str]
    rule: Rule
    after: str | None = None
    amount_cents: int | None = None

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["en"]


@dataclass(frozen=True)
class PrizeList:
    """The prizes a 90-ball game plays: in sequence, or all open at once (Tambola).

    `tabellone`: the display draws its board of 90 as the Italian tabellone, six blocks of 15
    (3 rows of 5) as the cartelle are laid out, instead of plain rows of 10."""

    key: str
    names: Mapping[str, str]
    prizes: tuple[Prize, ...]
    open_at_once: bool
    source: str = field(default="", compare=False)
    tabellone: bool = False
    #: a host's list: the TOML it was read from, which a game records as its rules
    text: str = field(default="", compare=False, repr=False)
    #: what the list plays, in a sentence, by language (the New game form's choice)
    about: Mapping[str, str] = field(default_factory=dict, compare=False)

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["en"]

    def description(self, lang: str) -> str:
        """The sentence that says what the list plays (its name where it has none)."""
        return self.about.get(lang) or self.about.get("en") or self.name(lang)

    def prize(self, key: str) -> Prize:
        for p in self.prizes:
            if p.key == key:
                return p
        raise KeyError(key)

    def open_prizes(self, awarded: Collection[str]) -> tuple[Prize, ...]:
        """The prizes a claim can win now, once the prizes in `awarded` have been won.

        A sequence has at most one open prize (the first not yet awarded); a set has every prize
        not yet awarded whose `after` prize (if any) has been.
        """
        waiting = [p for p in self.prizes if p.key not in awarded]
        if not self.open_at_once:
            return tuple(waiting[:1])
        return tuple(p for p in waiting if p.after is None or p.after in awarded)

    def finished(self, awarded: Collection[str]) -> bool:
        """True once every prize has been awarded: no draw is left to play for."""
        return all(p.key in awarded for p in self.prizes)

    def held(
        self,
        ticket: Ticket,
        calls: Collection[int],
        awarded: Collection[str] = (),
        won: Mapping[str, PrizeWon] | None = None,
    ) -> tuple[Prize, ...]:
        """The open prizes the ticket holds now and can win (one call may satisfy several at
        once; a second Full House is not the first one's winner's, `barred_from`)."""
        called = set(calls)
        return tuple(
            p
            for p in self.open_prizes(awarded)
            if judge_rule(p.rule, ticket, called).holds
            and barred_from(p, ticket, list(calls), won or {}) is None
        )


@dataclass(frozen=True)
class PrizeWon:
    """A prize awarded in the round: on which call, and the tickets that share it."""

    key: str
    at_call: int
    serials: frozenset[int]


def completed_at(rule: Rule, ticket: Ticket, calls: Sequence[int]) -> int | None:
    """The call (1 = the first) on which `ticket` first held `rule`; None if it does not."""
    called: set[int] = set()
    for i, n in enumerate(calls, start=1):
        called.add(n)
        if n in ticket.numbers and judge_rule(rule, ticket, called).holds:
            return i
    return None


#: why a ticket that holds a prize does not win it (`PrizeVerdict.barred`)
WON_BEFORE = "won-before"  # it won the prize this one comes after (a second Full House)
SAME_CALL = "same-call"  # it completed on the call that prize was won: it shares that one


def barred_from(
    prize: Prize, ticket: Ticket, calls: Sequence[int], won: Mapping[str, PrizeWon]
) -> str | None:
    """Why `ticket` cannot win `prize` although it holds it, or None. A prize that comes
    after another (a second Full House after the first) belongs to another ticket: never one
    that won the first, and only one that completed it on a later call than the first was won
    on (the tickets that completed on that call share the first)."""
    first = won.get(prize.after) if prize.after is not None else None
    if first is None:
        return None
    if ticket.serial in first.serials:
        return WON_BEFORE
    at = completed_at(prize.rule, ticket, calls)
    if at is not None and at <= first.at_call:
        return SAME_CALL
    return None


@dataclass(frozen=True)
class PrizeVerdict:
    """What the Maestro reads out for a ticket claimed for one prize."""

    serial: int
    prize: str
    valid: bool
    open: bool  # False: the prize is already won, or not open yet
    result: RuleResult
    by_last_call: bool  # the newest call completed it (a hall may pay only those)
    barred: str | None = None  # it holds the prize but cannot win it (`barred_from`)


def check_prize_claim(
    plan: PrizeList,
    ticket: Ticket,
    calls: Sequence[int],
    prize_key: str,
    awarded: Collection[str] = (),
    won: Mapping[str, PrizeWon] | None = None,
) -> PrizeVerdict:
    """Check a claim of `prize_key` on `ticket` after `calls` (in call order).

    A closed prize is never valid, whatever the ticket holds: the first valid claim (or the
    simultaneous ones, which the station awards together) closed it. A prize that comes after
    another is never valid for a ticket `barred_from` it (`won`: the prizes awarded so far).
    """
    prize = plan.prize(prize_key)
    called = set(calls)
    result = judge_rule(prize.rule, ticket, called)
    is_open = prize in plan.open_prizes(awarded)
    barred = barred_from(prize, ticket, calls, won or {}) if result.holds else None
    by_last = bool(
        result.holds and calls and not judge_rule(prize.rule, ticket, called - {calls[-1]}).holds
    )
    return PrizeVerdict(
        serial=ticket.serial,
        prize=prize.key,
        valid=result.holds and is_open and barred is None,
        open=is_open,
        result=result,
        by_last_call=by_last,
        barred=barred,
    )


# --- the lists the kit knows --------------------------------------------------------------


def _names(en: str, es: str) -> dict[str, str]:
    return {"en": en, "es": es}


FULL_ROWS = RowsRule(needed=ROWS)
CORNERS = CellsRule(cells=((0, 0), (0, PER_ROW - 1), (ROWS - 1, 0), (ROWS - 1, PER_ROW - 1)))

SPANISH = PrizeList(
    key="linea-bingo",
    names=_names("Line, then Bingo", "Línea y después bingo"),
    prizes=(
        Prize("linea", _names("Line", "Línea"), RowsRule(needed=1)),
        Prize("bingo", _names("Bingo", "Bingo"), FULL_ROWS),
    ),
    open_at_once=False,
    about=_names("Line, then Bingo", "Línea y después bingo"),
)

UK = PrizeList(
    key="lines-house",
    names=_names("One line, two lines, full house", "Una línea, dos líneas, cartón lleno"),
    prizes=(
        Prize("one-line", _names("One line", "Una línea"), RowsRule(needed=1)),
        Prize("two-lines", _names("Two lines", "Dos líneas"), RowsRule(needed=2)),
        Prize("full-house", _names("Full house", "Cartón lleno"), FULL_ROWS),
    ),
    open_at_once=False,
    about=_names("One line, two lines, full house", "Una línea, dos líneas, cartón lleno"),
)

HOUSE = PrizeList(
    key="house",
    names=_names("Full house only", "Solo cartón lleno"),
    prizes=(Prize("full-house", _names("Full house", "Cartón lleno"), FULL_ROWS),),
    open_at_once=False,
    about=_names(
        "Full house only: one prize, all 15 numbers of a ticket (a snowball or jackpot game)",
        "Solo cartón lleno: un premio, los 15 números de un cartón (un pozo o un bote)",
    ),
)

TAMBOLA = PrizeList(
    key="tambola",
    names=_names("Tambola (Housie)", "Tambola (Housie)"),
    prizes=(
        Prize("early-five", _names("Early Five", "Cinco primeros"), CountRule(count=5)),
        Prize("top-line", _names("Top Line", "Línea de arriba"), RowsRule(rows=(0,))),
        Prize("middle-line", _names("Middle Line", "Línea del medio"), RowsRule(rows=(1,))),
        Prize("bottom-line", _names("Bottom Line", "Línea de abajo"), RowsRule(rows=(2,))),
        Prize("four-corners", _names("Four Corners", "Cuatro esquinas"), CORNERS),
        Prize("full-house", _names("Full House", "Cartón lleno"), FULL_ROWS),
    ),
    open_at_once=True,
    about=_names(
        "Tambola (Housie): Early Five, the three lines, Four Corners, Full House, all open at once",
        "Tambola (Housie): cinco primeros, las tres líneas, cuatro esquinas y cartón lleno, todos "
        "abiertos a la vez",
    ),
)

TOMBOLA = PrizeList(
    key="tombola",
    names=_names("Italian Tombola", "Tómbola italiana"),
    prizes=(
        Prize("ambo", _names("Ambo (two in a row)", "Ambo (dos en una fila)"), RowCountRule(2)),
        Prize(
            "terno", _names("Terno (three in a row)", "Terno (tres en una fila)"), RowCountRule(3)
        ),
        Prize(
            "quaterna",
            _names("Quaterna (four in a row)", "Quaterna (cuatro en una fila)"),
            RowCountRule(4),
        ),
        Prize(
            "cinquina",
            _names("Cinquina (five in a row: the row)", "Cinquina (cinco en una fila: la fila)"),
            RowsRule(needed=1),
        ),
        Prize("tombola", _names("Tombola (all 15)", "Tombola (los 15)"), FULL_ROWS),
    ),
    open_at_once=False,
    tabellone=True,
    about=_names(
        "Italian Tombola: Ambo, Terno, Quaterna, Cinquina (2, 3, 4, 5 on one row), then Tombola "
        "(all 15), on the tabellone",
        "Tómbola italiana: Ambo, Terno, Quaterna, Cinquina (2, 3, 4 y 5 en una fila) y después "
        "Tombola (los 15), con el tabellone",
    ),
)

BUILT_IN: dict[str, PrizeList] = {p.key: p for p in (SPANISH, UK, HOUSE, TAMBOLA, TOMBOLA)}
