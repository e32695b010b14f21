"""Claims, verdicts and scores: what the Maestro decides with the Tabla Confrontadora.

The Tabla Confrontadora is the Maestro's 75-spot checking board; the station's list of calls plays
its part. This module is the whole of docs/rules.md §1 (seed bingo-normal-y-de-puntos) as pure
functions over `cards.Card` and the ordered calls of the current game; the web layer only calls it.

Readings and decisions (the ones docs/rules.md lists, and ours where it is silent):

* Coverage. A square is covered when its number was called in this game. The centre is covered
  from the start when the game's free-centre option is on, whether the card prints a number or
  FREE there; a card printed with FREE has nothing to call, so its centre counts as covered even
  with the option off (the player had no other way to cover it).
* Completed by the last call: the figure is complete now and was not before the newest call
  (so the newest call is one of its numbers). The one case where "the newest call belongs to the
  line" says otherwise is a numbered centre under the free-centre option: calling it completes
  nothing, the free marker already covered it. A line complete before the last call still wins
  (the player missed it) but scores as a single Bingo, never in a Doble.
  With the hall rule "claim on the completing call only" (off by default) such a line no longer
  wins.
* False claim (seed: "QUITAR TODOS los Marcadores de aquella hilera"). The markers of the claimed
  line go, so its squares count as uncovered from then on, including squares it shares with
  other lines and the free centre. A cleared square is covered again only by a ball drawn after
  the penalty; since a ball is drawn once per game, squares already called stay uncovered for
  the rest of the game, exactly as at the table. A claim may name its line; when it does not, the
  line cleared is the one the player was nearest to completing (most covered squares, then the
  first in R1..R5, B..O, D1, D2 order). A claim on a card with any winning line is valid,
  whichever line it named.
* Simultaneous claims are claims made on the same call. The earliest call with a valid claim takes
  the round (the first to shout BINGO stops play); among its claims Normal prefers the highest line
  total, Puntos a Doble over a single and then the higher score; a tie goes to the claim made
  first.
* Puntos: a line scores its total, a central line (R3, N, D1, D2) twice it. When the last call
  completes two or more winning lines (three or four through the centre) it is a Doble over all of
  them: Σ total + 100, or, when any of them is central (Doble Central), Σ total·2·(2 if central)
  + 100. Otherwise the card scores its best single line.
* Maestro: in Puntos the player on the Maestro's left calls next; the seating order is the order
  players were added, going clockwise, so the left is the next player in that order. In Normal the
  Maestro keeps calling unless the option "the winner becomes the next Maestro" is on.
* Sociedad: a player in a team scores for the team, and the team has one total.

One idea in one module, though it is over 450 lines: the rule text of docs/rules.md §1, whose
decisions above (coverage, the completing call, the penalty, simultaneous claims, Puntos, the
Maestro, Sociedad) are read together and each is a few functions here, in that order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ..errors import KitError
from .cards import CENTRE, LINE_CELLS, LINE_NAMES, SIZE, Card
from .pattern_book import FormName
from .patterns import Pattern
from .specials import (
    BookVerdict,
    Parity,
    call_positions,
    check_cards_needed,
    check_money_ball,
    counted_calls,
    odd_even_form,
    on_money_ball,
    parity,
)
from .specials import (
    judge_book as judge_book_cards,
)

Cell = tuple[int, int]


class Mode(StrEnum):
    """How a game is won; the member is the word the API and the database use."""

    NORMAL = "normal"  # Bingo Normal: the first line wins
    POINTS = "points"  # Bingo de Puntos: line totals to the target


class VerdictKind(StrEnum):
    NONE = "none"  # no complete line (or pattern) yet
    BINGO = "bingo"  # Normal, or a single line off the centre in Puntos
    CENTRAL = "central"  # Puntos: a single line through the centre, doubled
    DOBLE = "doble"  # Puntos: the last call completed two or more lines
    DOBLE_CENTRAL = "doble_central"  # a Doble with a line through the centre
    PATTERN = "pattern"  # Normal played with a pattern (four corners, X, ...)


NORMAL = Mode.NORMAL
PUNTOS = Mode.POINTS
MODES = tuple(Mode)
DOBLE_BONUS = 100
DEFAULT_TARGET = 1000
MAX_TARGET = 1_000_000


@dataclass(frozen=True)
class Rules:
    """The options a game is played with (docs/rules.md §1 and the hall's settings)."""

    mode: Mode = NORMAL
    free_centre: bool = False
    completing_call_only: bool = False
    winner_becomes_maestro: bool = False
    target: int = DEFAULT_TARGET
    pattern: Pattern | None = None
    #: special games (seventyfive.specials): the first ball's last digit is wild; only the odd
    #: (even) numbers of a full card count; the money ball, once known; the pattern on N cards
    #: of one book
    wild_number: bool = False
    odd_even: Parity | None = None
    money_ball: int | None = None
    cards_needed: int = 1

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise KitError(
                "unknown mode %(mode)r; use normal or points (Bingo de Puntos)", mode=self.mode
            )
        if (
            isinstance(self.target, bool)
            or not isinstance(self.target, int)
            or not 1 <= self.target <= MAX_TARGET
        ):
            raise KitError(
                "the target must be a whole number of points from 1 to %(n)s", n=MAX_TARGET
            )
        if self.pattern is not None and self.mode != NORMAL:
            raise KitError("patterns are played in Bingo Normal only")
        if self.mode != NORMAL and (self.odd_even or self.wild_number or self.cards_needed > 1):
            raise KitError("special games are played in Bingo Normal only")
        if self.odd_even is not None and self.pattern is not None:
            raise KitError("an odd-even game is its own figure: it takes no pattern")
        if self.odd_even is not None:
            parity(self.odd_even)
        check_cards_needed(self.cards_needed)
        if self.money_ball is not None:
            check_money_ball(self.money_ball)

    def pattern_for(self, card: Card | None) -> Pattern | None:
        """The figure the game's card must show: its pattern, or in an odd-even game the card's
        own numbers of that parity (None for a game of lines, or odd-even without a card)."""
        if self.odd_even is not None and card is not None:
            form = odd_even_form(card, parity(self.odd_even), self.free_centre)
            return Pattern(f"{parity(self.odd_even)}_numbers", (form,))
        return self.pattern


@dataclass(frozen=True)
class Penalty:
    """Markers removed after a false claim: `cells` count as uncovered for balls drawn up to
    call number `after_call` (the number of calls made when the claim was refused)."""

    figure: str
    cells: frozenset[Cell]
    after_call: int


@dataclass(frozen=True)
class Figure:
    """A complete line or pattern on a card, as the verdict reports it."""

    name: str
    numbers: tuple[int, ...]
    total: int
    central: bool
    by_last_call: bool
    #: a pattern's form that is complete (its index in `Pattern.forms`); None for a line
    form: int | None = None
    #: the lines that make that form, when it is lines (double bingo: ("R1", "B")), else ()
    form_lines: tuple[str, ...] = ()
    #: the words naming that form, made from how the book made it ("turned 90°", "top left
    #: corner", "row 1 and column B"); None for a line or a pattern of one form
    form_name: FormName | None = None

    @property
    def single_points(self) -> int:
        """Bingo de Puntos: the margin figure, doubled for a Bingo Central."""
        return self.total * (2 if self.central else 1)

    def to_json(self) -> dict[str, Any]:
        out = {
            "name": self.name,
            "numbers": list(self.numbers),
            "total": self.total,
            "central": self.central,
            "completed_by_last_call": self.by_last_call,
        }
        if self.form is not None:
            out["form"] = self.form
            out["form_lines"] = list(self.form_lines)
            if self.form_name is not None:
                out["form_name"] = {"en": self.form_name.en, "es": self.form_name.es}
        return out


@dataclass(frozen=True)
class Verdict:
    """What the Maestro would say about a card after `calls` balls of the current game."""

    serial: int
    mode: Mode
    calls: int
    last_call: int | None
    marked: frozenset[int]
    covered: frozenset[Cell]
    complete: tuple[Figure, ...]
    winning: tuple[Figure, ...]
    kind: VerdictKind
    points: int | None
    pattern: Pattern | None = field(default=None)
    #: the bingo's winning call is the game's money ball (it pays as the program says)
    money_ball: bool = False
    #: a game that needs its figure on N cards of one book: the book the claim named, judged
    book: BookVerdict | None = None

    @property
    def bingo(self) -> bool:
        if self.book is not None:
            return self.book.bingo
        return bool(self.winning)

    @property
    def doble(self) -> bool:
        return self.kind in (VerdictKind.DOBLE, VerdictKind.DOBLE_CENTRAL)

    def rank(self) -> tuple[int, int]:
        """Higher wins among simultaneous claims: Doble before single, then points or total."""
        if not self.winning:
            return (-1, -1)
        if self.mode == PUNTOS:
            return (1 if self.doble else 0, self.points or 0)
        return (0, max(f.total for f in self.winning))

    def to_json(self) -> dict[str, Any]:
        winning = {f.name for f in self.winning}
        out = {
            "serial": self.serial,
            "mode": self.mode,
            "calls": self.calls,
            "last_call": self.last_call,
            "marked": sorted(self.marked),
            "covered": [[r, c] for r, c in sorted(self.covered)],
            "pattern": None
            if self.pattern is None
            else {"name": self.pattern.name, "mask": self.pattern.mask},
            "lines": [dict(f.to_json(), wins=f.name in winning) for f in self.complete],
            "winning": [f.name for f in self.winning],
            "bingo": self.bingo,
            "kind": self.kind,
            "points": self.points,
        }
        if self.money_ball:
            out["money_ball"] = True
        if self.book is not None:
            out["book"] = {
                "serials": [self.book.serials[0], self.book.serials[-1]],
                "complete": list(self.book.complete),
                "needed": self.book.needed,
            }
        return out


def covered_cells(
    card: Card, calls: Sequence[int], rules: Rules, penalties: Iterable[Penalty] = ()
) -> frozenset[Cell]:
    """The squares a player following the calls would have covered (see the module's rules)."""
    drawn_at = call_positions(calls, rules.wild_number)
    cleared: dict[Cell, int] = {}
    for p in penalties:
        for cell in p.cells:
            cleared[cell] = max(cleared.get(cell, 0), p.after_call)
    out = set()
    for r in range(SIZE):
        for c in range(SIZE):
            number = card.number_at(r, c)
            if (r, c) == CENTRE and (number is None or rules.free_centre):
                if (r, c) not in cleared:
                    out.add((r, c))
                    continue
            if number is None or number not in drawn_at:
                continue
            if drawn_at[number] >= cleared.get((r, c), 0):
                out.add((r, c))
    return frozenset(out)


def _figure(
    card: Card, name: str, cells: Iterable[Cell], by_last_call: bool, form: int | None = None
) -> Figure:
    cells = tuple(cells)
    numbers = tuple(n for r, c in cells if (n := card.number_at(r, c)) is not None)
    return Figure(name, numbers, sum(numbers), CENTRE in cells, by_last_call, form)


def _figures(card: Card | None, rules: Rules) -> list[tuple[str, tuple[Cell, ...]]]:
    pattern = rules.pattern_for(card)
    if pattern is not None:
        return [(pattern.name, tuple(sorted(form))) for form in pattern.forms]
    return [(name, LINE_CELLS[name]) for name in LINE_NAMES]


def figures(rules: Rules) -> list[tuple[str, tuple[Cell, ...]]]:
    """The figures a card can complete under `rules` (each form of the game's pattern, all
    under the pattern's name, else the 12 lines in LINE_NAMES order), each as its name and
    squares: what a phone following its card needs to see that it is complete, while the
    verdict stays `judge`'s."""
    return _figures(None, rules)


def _pattern_figures(
    card: Card, pattern: Pattern, covered: frozenset[Cell], before: frozenset[Cell]
) -> tuple[Figure, ...]:
    """The pattern as one figure: of its complete forms, one completed by the last call if
    any (a form complete before it is a missed bingo, as a line is), then the highest total,
    then the first in book order. The verdict names that form; a card wins the pattern once,
    however many of its forms are complete."""
    done = [
        _figure(card, pattern.name, sorted(form), not form <= before, i)
        for i, form in enumerate(pattern.forms)
        if form <= covered
    ]
    if not done:
        return ()
    best = max(done, key=lambda f: (f.by_last_call, f.total, -(f.form or 0)))
    if len(pattern.forms) == 1:  # the pattern's name says it all
        return (best,)
    form = best.form or 0
    return (
        replace(best, form_lines=lines_of(pattern.forms[form]), form_name=pattern.form_name(form)),
    )


def lines_of(form: frozenset[Cell]) -> tuple[str, ...]:
    """The lines a form is made of, in LINE_NAMES order, when it is exactly some lines together
    (double bingo, a hardway line; how the verdict names the form), else ()."""
    inside = [n for n in LINE_NAMES if form >= frozenset(LINE_CELLS[n])]
    if not inside or frozenset().union(*(LINE_CELLS[n] for n in inside)) != form:
        return ()
    return tuple(inside)


def doble_points(lines: Sequence[Figure]) -> int:
    """Bingo Doble (Σ totals + 100) or, with a central line, Doble Central (every line ×2, the
    central ones ×2 again, + 100): docs/rules.md §1, e.g. 180·2 + 190·4 + 100 = 1220."""
    if any(f.central for f in lines):
        return sum(f.total * 2 * (2 if f.central else 1) for f in lines) + DOBLE_BONUS
    return sum(f.total for f in lines) + DOBLE_BONUS


def judge(
    card: Card, calls: Sequence[int], rules: Rules, penalties: Iterable[Penalty] = ()
) -> Verdict:
    """The verdict on `card` after `calls` (in draw order) of the current game."""
    penalties = tuple(penalties)
    covered = covered_cells(card, calls, rules, penalties)
    before = covered_cells(card, calls[:-1], rules, penalties)
    last = calls[-1] if calls else None
    pattern = rules.pattern_for(card)
    if pattern is not None:
        complete = _pattern_figures(card, pattern, covered, before)
    else:
        complete = tuple(
            _figure(card, name, cells, not all(cell in before for cell in cells))
            for name, cells in _figures(card, rules)
            if all(cell in covered for cell in cells)
        )
    if rules.completing_call_only:
        winning = tuple(f for f in complete if f.by_last_call)
    else:
        winning = complete
    kind, points = VerdictKind.NONE, None
    if winning and pattern is not None:
        kind = VerdictKind.PATTERN
    elif winning and rules.mode == NORMAL:
        kind = VerdictKind.BINGO
    elif winning:
        fresh = [f for f in winning if f.by_last_call]
        if len(fresh) >= 2:
            central = any(f.central for f in fresh)
            kind = VerdictKind.DOBLE_CENTRAL if central else VerdictKind.DOBLE
            points = doble_points(fresh)
        else:
            best = max(winning, key=lambda f: f.single_points)
            kind = VerdictKind.CENTRAL if best.central else VerdictKind.BINGO
            points = best.single_points
    return Verdict(
        serial=card.serial,
        mode=rules.mode,
        calls=len(calls),
        last_call=last,
        marked=card.numbers & counted_calls(calls, rules.wild_number),
        covered=covered,
        complete=complete,
        winning=winning,
        kind=kind,
        points=points,
        pattern=pattern,
        money_ball=bool(winning) and on_money_ball(calls, rules.money_ball),
    )


def judge_book(
    cards: Sequence[Card],
    serial: int,
    calls: Sequence[int],
    rules: Rules,
    penalties: Mapping[int, Iterable[Penalty]] | None = None,
) -> Verdict:
    """A claim on card `serial` in a game that needs its figure on `rules.cards_needed` cards of
    one book: every card of the book (`cards`, the claimed one among them) is judged on the
    calls, each with its own penalties, and the claim's verdict is its own card's with the
    book's (`Verdict.book`: which cards complete the figure; a bingo when enough do, whichever
    card of the book the claim named)."""
    penalties = penalties or {}
    verdicts = {c.serial: judge(c, calls, rules, penalties.get(c.serial, ())) for c in cards}
    own = verdicts[serial]
    book = judge_book_cards(verdicts, {s: v.bingo for s, v in verdicts.items()},
                            rules.cards_needed)  # fmt: skip
    kind = own.kind
    if book.bingo and kind == VerdictKind.NONE:  # the claimed card is not one of them
        kind = VerdictKind.PATTERN if own.pattern is not None else VerdictKind.BINGO
    return replace(own, book=book, kind=kind)


def penalty_for(
    card: Card,
    calls: Sequence[int],
    rules: Rules,
    penalties: Iterable[Penalty] = (),
    line: str | None = None,
) -> Penalty:
    """The markers a false claim removes: the named line, the game's pattern (of a pattern with
    several forms, the form the player was nearest to completing: the one the claim could have
    meant), or the line the player was nearest to completing."""
    pattern = rules.pattern_for(card)
    if pattern is not None:
        if len(pattern.forms) == 1:
            return Penalty(pattern.name, pattern.cells, len(calls))
        covered = covered_cells(card, calls, rules, penalties)
        form = max(pattern.forms, key=lambda f: len(f & covered) - len(f))
        return Penalty(pattern.name, form, len(calls))
    if line is not None:
        name = line.upper()
        if name not in LINE_CELLS:
            raise KitError(
                "unknown line %(line)r; lines are R1-R5, B, I, N, G, O, D1 and D2", line=line
            )
    else:
        name = nearest_figure(card, covered_cells(card, calls, rules, penalties), rules)[0]
    return Penalty(name, frozenset(LINE_CELLS[name]), len(calls))


def nearest_figure(
    card: Card, covered: frozenset[Cell], rules: Rules
) -> tuple[str, tuple[int, ...]]:
    """The line (or the game's pattern) the card is nearest to completing, and the printed
    numbers it still lacks: what the Maestro says to a false claim ("falta el 44"). Ties go to
    the first line in LINE_NAMES order."""
    figures = _figures(card, rules)
    name, cells = max(
        figures,
        key=lambda f: (sum(c in covered for c in f[1]) - len(f[1]), -figures.index(f)),
    )
    missing = tuple(n for r, c in cells if (r, c) not in covered and (n := card.number_at(r, c)))
    return name, missing


@dataclass(frozen=True)
class Claim:
    """A player's BINGO on a card, with the verdict it got when it was made."""

    claim_id: int
    serial: int
    player: str | None
    verdict: Verdict


def settle(claims: Iterable[Claim]) -> Claim | None:
    """The claim that takes the round: the earliest call with a valid claim, then the best rank,
    then the claim made first. None when no claim is valid."""
    valid = [c for c in claims if c.verdict.bingo]
    if not valid:
        return None
    first_call = min(c.verdict.calls for c in valid)
    same_call = [c for c in valid if c.verdict.calls == first_call]
    return max(same_call, key=lambda c: (c.verdict.rank(), -c.claim_id))


@dataclass(frozen=True)
class Side:
    """A scoring side in Bingo de Puntos: a player alone, or a Sociedad (team) of partners."""

    name: str
    members: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Standings:
    sides: tuple[Side, ...]  # highest first
    target: int
    winner: str | None  # the first side to reach or pass the target


def side_of(player: str, teams: Mapping[str, str | None]) -> str:
    """A partner's bingo counts for the Sociedad (seed: "se acredita a AMBOS")."""
    return teams.get(player) or player


def standings(
    players: Sequence[str],
    teams: Mapping[str, str | None],
    awards: Iterable[tuple[str, int]],
    target: int = DEFAULT_TARGET,
) -> Standings:
    """Totals per side from the awards (player, points) in the order they were made."""
    members: dict[str, list[str]] = {}
    for p in players:
        members.setdefault(side_of(p, teams), []).append(p)
    points = dict.fromkeys(members, 0)
    winner = None
    for player, pts in awards:
        side = side_of(player, teams)
        points[side] = points.get(side, 0) + pts
        members.setdefault(side, [player])
        if winner is None and points[side] >= target:
            winner = side
    order = sorted(points, key=lambda s: (-points[s], list(points).index(s)))
    sides = tuple(Side(s, tuple(members[s]), points[s]) for s in order)
    return Standings(sides, target, winner)


def next_maestro(
    seating: Sequence[str], maestro: str | None, winner: str | None, rules: Rules
) -> str | None:
    """Who calls the next round: the player on the Maestro's left in Puntos, the winner in
    Normal with that option, otherwise the same Maestro."""
    if rules.mode == PUNTOS:
        if not seating:
            return maestro
        if maestro is None or maestro not in seating:
            return seating[0]
        return seating[(list(seating).index(maestro) + 1) % len(seating)]
    if rules.winner_becomes_maestro and winner is not None:
        return winner
    return maestro
