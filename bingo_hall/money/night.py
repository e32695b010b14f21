"""The night's summary as values: for each game and round the cards sold, the money
taken, the prizes and their winners; the totals; what is left for the cause; and each round's
commitment and revealed seed, so anyone can audit the draws. Pure: the station reads it from
SQLite (`bingo_hall.station.ledger.summary`), the PDF (`bingo_hall.printing.ledger_pdf`), the
CSV and the command line's text are made from these values.

What is left for the cause = money taken - prizes awarded - the jackpot still in the pot (set
aside from tonight's takings and carried over to the next night).

At the door and the treasurer's table: each game's paper stock reconciled (issued =
sold + returned + void, every gap named by its serials) and the night's cash: the float, the
count, the payouts paid in cash and the over/short = counted - (float + takings - cash payouts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo

from .cash_count import over_short
from .paper_stock import Reconciled

NIGHT_ENDS = timedelta(hours=6)  # a game started at 01:30 is still the evening before's


def night_of(created: str, tz: tzinfo | None = None) -> str:
    """The night (a date, "2026-11-24") of a game started at `created` (ISO 8601 UTC, as the
    station stores it), in the time zone `tz` (default: the machine's)."""
    at = datetime.fromisoformat(created.replace("Z", "+00:00")).astimezone(tz)
    return (at - NIGHT_ENDS).date().isoformat()


@dataclass(frozen=True)
class Payout:
    prize: str
    serial: int
    player: str | None
    at_call: int
    cents: int
    jackpot: bool
    paid: bool
    cash: bool = True  # paid in cash (when paid)


@dataclass(frozen=True)
class RoundLine:
    round: int
    cards: int
    taken: int
    commitment: str
    seed: str | None  # None until the round is over
    payouts: tuple[Payout, ...]

    @property
    def awarded(self) -> int:
        return sum(p.cents for p in self.payouts)


@dataclass(frozen=True)
class ProgramPlace:
    """A game's place in the night's program: its number of the program's `total`,
    its names by language, and whether the Maestro skipped it."""

    number: int
    total: int
    names: Mapping[str, str]
    skipped: bool = False


@dataclass(frozen=True)
class GameLine:
    game_id: int
    deck: str
    balls: int
    rounds: tuple[RoundLine, ...]
    stock: Reconciled | None = None  # None: the hall did not count this game's paper
    program: ProgramPlace | None = None  # None: a game started by hand, not from a program

    @property
    def cards(self) -> int:
        return sum(r.cards for r in self.rounds)

    @property
    def taken(self) -> int:
        return sum(r.taken for r in self.rounds)

    @property
    def awarded(self) -> int:
        return sum(r.awarded for r in self.rounds)


@dataclass(frozen=True)
class RaffleWin:
    """A raffle prize (`place` 1 drawn first), its winning ticket ("red 7", None if not drawn)
    and the tickets drawn for it before, nobody having claimed them, with the reason."""

    place: int
    prize: str
    ticket: str | None
    redrawn: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class RaffleLine:
    """A raffle of the night: tickets sold, money taken, prizes, its commitment and
    (once revealed) its seed."""

    raffle_id: int
    tickets: int
    taken: int
    commitment: str | None
    seed: str | None
    wins: tuple[RaffleWin, ...]


@dataclass(frozen=True)
class Cash:
    """The night's cash box: the float at the start, the count at the end (None: not counted
    yet) and, for a count by denomination, its notes and coins (value in cents, how many)."""

    float: int
    counted: int | None = None
    pieces: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class PotMove:
    """What one game did to the jackpot pot: the jackpot it set aside from its takings, and
    what its jackpot won took out."""

    game_id: int
    set_aside: int
    won: int


@dataclass(frozen=True)
class Night:
    currency: str
    games: tuple[GameLine, ...]
    carried: int  # the jackpot pot not won tonight, carried to the next night
    corrections: int  # sales voided, with their reasons, in the corrections log
    brought: int = 0  # the jackpot pot brought from earlier nights
    date: str = ""  # the night's date (see `night_of`)
    cash: Cash | None = None  # None: the treasurer gave no float and no count
    #: the night's book: its signed head as people read it (docs/audit.md), "" when unknown
    book_head: str = ""
    raffles: tuple[RaffleLine, ...] = ()
    #: the games that set a jackpot aside or paid one from the pot: where `carried` comes from
    pot_moves: tuple[PotMove, ...] = ()
    #: the names of the prizes of the host's own lists ({key: {"en": ..., "es": ...}}): the
    #: kit's own prizes are named by `prize_names`
    prize_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: the money of night sales (sold once for several games of the program) shared to games
    #: not played: not started yet, or skipped. It is in the night's takings, in no game's.
    unplayed: int = 0
    #: how many more cards the games count than were sold: a night sale's cards play (and are
    #: counted) in every game it covers, but were sold once (negative when none of its games
    #: has started yet)
    repeated_cards: int = 0

    @property
    def cards(self) -> int:
        """The cards sold tonight, each night sale's once."""
        return sum(g.cards for g in self.games) - self.repeated_cards

    @property
    def taken(self) -> int:
        """The night's takings: the cards of every game, the raffle's tickets, and the night
        sales' shares of games not played (each night sale counted once)."""
        return sum(g.taken for g in self.games) + self.raffle_taken + self.unplayed

    @property
    def raffle_taken(self) -> int:
        return sum(r.taken for r in self.raffles)

    @property
    def awarded(self) -> int:
        return sum(g.awarded for g in self.games)

    @property
    def paid(self) -> int:
        return sum(p.cents for g in self.games for r in g.rounds for p in r.payouts if p.paid)

    @property
    def unpaid(self) -> int:
        return self.awarded - self.paid

    @property
    def paid_cash(self) -> int:
        """The payouts paid in cash: what left the box."""
        return sum(
            p.cents for g in self.games for r in g.rounds for p in r.payouts if p.paid and p.cash
        )

    @property
    def expected_cash(self) -> int:
        """What the box should hold: the float, plus the takings, less the cash payouts."""
        return (self.cash.float if self.cash else 0) + self.taken - self.paid_cash

    @property
    def over_short(self) -> int | None:
        """Counted - expected: over (+) or short (-); None until the cash is counted."""
        if self.cash is None or self.cash.counted is None:
            return None
        return over_short(self.cash.counted, self.cash.float, self.taken, self.paid_cash)

    @property
    def left(self) -> int:
        """What is left for the cause: tonight's takings less the prizes, counting the jackpot
        brought from earlier nights in and the one carried to the next night out."""
        return self.taken - self.awarded + self.brought - self.carried
