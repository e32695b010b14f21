"""Every live event of a game, as a frozen value: what changed, for the screens that follow it.

A service makes one of these after its commit and publishes it, still holding the write lock
(`games.publish`), so the screens see changes in the order of the commits. Routes never publish.
`NAME` is the SSE event name the pages listen for (`tests/station/test_event_names.py` compares
it with the JavaScript); several values may share a name when the pages treat them alike
(a new round and a round's public input are both `round`).

To add an event: a frozen dataclass here with `NAME`, `game_id` and `to_json()`, listed in
`EVENT_TYPES`; publish it from the service that commits the change; listen for `NAME` in the page.
Set `ROOM_ONLY` when only the hall's screens take it (a phone following its card skips it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..round_state import Reveal
from ..values import JsonValue
from .model import Call, UndoneCall

JSON = dict[str, Any]


@dataclass(frozen=True)
class GameEvent:
    """The base of a game's events: its channel is the game's, its data `to_json()`."""

    NAME: ClassVar[str] = ""
    #: only the hall's screens (the projector, the caller page) take it, not the phones
    ROOM_ONLY: ClassVar[bool] = False

    game_id: int

    def to_json(self) -> JSON:
        raise NotImplementedError


@dataclass(frozen=True)
class RoundStarted(GameEvent):
    """A new round with its committed seed: round 1 when the game starts, then each "Next
    round" (with the previous round's revealed seed)."""

    NAME: ClassVar[str] = "round"

    round: int
    commitment: str
    public_input: str | None = None
    previous: Reveal | None = None

    def to_json(self) -> JSON:
        if self.previous is None:
            return {"round": self.round, "commitment": self.commitment}
        return {
            "round": self.round,
            "commitment": self.commitment,
            "public_input": self.public_input,
            "previous": self.previous.to_json(),
        }


@dataclass(frozen=True)
class PublicInputSet(GameEvent):
    """A player's public input for the round, before its first ball (docs/fairness.md)."""

    NAME: ClassVar[str] = "round"

    round: int
    commitment: str
    public_input: str | None

    def to_json(self) -> JSON:
        return {
            "round": self.round,
            "commitment": self.commitment,
            "public_input": self.public_input,
        }


@dataclass(frozen=True)
class MoneyBallChosen(GameEvent):
    """The game's money ball is known (typed, or drawn from the round's seed): the screens name
    it in the special game's line, and the door sells no more cards for the game."""

    NAME: ClassVar[str] = "money_ball"

    money_ball: int
    drawn: bool

    def to_json(self) -> JSON:
        return {"money_ball": self.money_ball, "drawn": self.drawn}


@dataclass(frozen=True)
class GameEnded(GameEvent):
    """The game is over; every round's seed is revealed."""

    NAME: ClassVar[str] = "end"

    seed: str
    round: int
    rounds: tuple[Reveal, ...]

    def to_json(self) -> JSON:
        return {
            "seed": self.seed,
            "round": self.round,
            "rounds": [r.to_json() for r in self.rounds],
        }


@dataclass(frozen=True)
class CallMade(GameEvent):
    """A ball was called (drawn, or entered from a cage or the ball machine)."""

    NAME: ClassVar[str] = "call"

    call: Call

    def to_json(self) -> JSON:
        return self.call.to_json()


@dataclass(frozen=True)
class CallUndone(GameEvent):
    """The Maestro took back the last call."""

    NAME: ClassVar[str] = "undo"

    undone: UndoneCall

    def to_json(self) -> JSON:
        return self.undone.to_json()


@dataclass(frozen=True)
class ClaimRecorded(GameEvent):
    """A claim was judged and stored (the claims API's answer, as the caller got it)."""

    NAME: ClassVar[str] = "claim"

    claim: JsonValue

    def to_json(self) -> JSON:
        return self.claim.to_json()


@dataclass(frozen=True)
class VerdictShown(GameEvent):
    """A checked card or a recorded claim on the hall's screens, as its variant shows it
    (`ClaimsKind.shown`): the card or ticket as printed with its marks, the verdict and, for a
    false 75-ball claim, the penalty."""

    NAME: ClassVar[str] = "verdict"
    ROOM_ONLY: ClassVar[bool] = True

    shown: JsonValue

    def to_json(self) -> JSON:
        return self.shown.to_json()


@dataclass(frozen=True)
class BoardChanged(GameEvent):
    """What a game's claims stand at after a player, a setting, a claim or an award changed it:
    the scores of a 75-ball game, the prizes of a 90-ball one (each variant names its own)."""

    board: JsonValue

    def to_json(self) -> JSON:
        return self.board.to_json()


@dataclass(frozen=True)
class ScoresChanged(BoardChanged):
    """The 75-ball scoreboard."""

    NAME: ClassVar[str] = "scores"


@dataclass(frozen=True)
class PrizeChanged(BoardChanged):
    """A 90-ball game's prizes (the prize being played, the winners)."""

    NAME: ClassVar[str] = "prize"


@dataclass(frozen=True)
class AutoDrawChanged(GameEvent):
    """The automatic draw started, paused (and why), resumed or stopped (`autodraw.py`): the
    caller page shows it; the phones do not need it."""

    NAME: ClassVar[str] = "autodraw"
    ROOM_ONLY: ClassVar[bool] = True

    state: JsonValue

    def to_json(self) -> JSON:
        return self.state.to_json()


@dataclass(frozen=True)
class LedgerChanged(GameEvent):
    """The round's prizes in money may have changed (a sale, a prize rule, a correction, a
    payout, the currency): the caller page and the display fetch the prize line again
    (the ledger, `bingo_hall.station.ledger`)."""

    NAME: ClassVar[str] = "ledger"

    changed: str

    def to_json(self) -> JSON:
        return {"changed": self.changed}


@dataclass(frozen=True)
class CheckAsked(GameEvent):
    """A card asked for a check from its phone (verify/asks.py): the caller page lists it with the
    card's verdict. Not a claim; /display does not show it (the Maestro shows the card if they
    choose), and the phones skip it."""

    NAME: ClassVar[str] = "ask"
    ROOM_ONLY: ClassVar[bool] = True

    ask: Mapping[str, Any]

    def to_json(self) -> JSON:
        return dict(self.ask)


@dataclass(frozen=True)
class NextGameStarted(GameEvent):
    """The hall has started its next game (Next game, or a new game): told on the channel of
    the game it ends, so that a phone following a card there follows the hall on its own (the
    same card, where its deck plays the new game)."""

    NAME: ClassVar[str] = "next"

    next_game: int
    deck_id: str

    def to_json(self) -> JSON:
        return {"game_id": self.next_game, "deck_id": self.deck_id}


#: every kind of game event (the pages listen for their names)
EVENT_TYPES: tuple[type[GameEvent], ...] = (
    RoundStarted,
    PublicInputSet,
    MoneyBallChosen,
    GameEnded,
    NextGameStarted,
    CallMade,
    CallUndone,
    ClaimRecorded,
    VerdictShown,
    ScoresChanged,
    PrizeChanged,
    AutoDrawChanged,
    LedgerChanged,
    CheckAsked,
)

#: the names a phone following its card skips (`/api/games/<id>/events?view=card`)
ROOM_EVENTS = frozenset(e.NAME for e in EVENT_TYPES if e.ROOM_ONLY)
#: every event name a game's stream carries, besides the `snapshot` it starts with
EVENT_NAMES = frozenset(e.NAME for e in EVENT_TYPES)
