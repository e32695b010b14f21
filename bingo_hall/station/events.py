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
    previous: Mapping[str, Any] | None = None

    def to_json(self) -> JSON:
        if self.previous is None:
            return {"round": self.round, "commitment": self.commitment}
        return {
            "round": self.round,
            "commitment": self.commitment,
            "public_input": self.public_input,
            "previous": dict(self.previous),
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
class GameEnded(GameEvent):
    """The game is over; every round's seed is revealed."""

    NAME: ClassVar[str] = "end"

    seed: str
    round: int
    rounds: tuple[Mapping[str, Any], ...]

    def to_json(self) -> JSON:
        return {"seed": self.seed, "round": self.round, "rounds": [dict(r) for r in self.rounds]}


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

    claim: Mapping[str, Any]

    def to_json(self) -> JSON:
        return dict(self.claim)


@dataclass(frozen=True)
class VerdictShown(GameEvent):
    """A checked card or a recorded claim on the hall's screens: the card as printed with its
    marks, the verdict and, for a false 75-ball claim, the penalty. `game` is 90 for a ticket."""

    NAME: ClassVar[str] = "verdict"
    ROOM_ONLY: ClassVar[bool] = True

    source: str  # "check" or "claim"
    serial: int
    round: int
    player: str | None
    valid: bool
    penalty: Mapping[str, Any] | None
    verdict: Mapping[str, Any]
    balls: int = 75

    @classmethod
    def of_card(
        cls, game_id: int, verdict: Mapping[str, Any], claim: Mapping[str, Any] | None = None
    ) -> VerdictShown:
        """A 75-ball card checked (`claim` None) or claimed."""
        return cls(
            game_id=game_id,
            source="claim" if claim else "check",
            serial=verdict["serial"],
            round=verdict["round"],
            player=claim["player"] if claim else None,
            valid=verdict["bingo"],
            penalty=claim["penalty"] if claim else None,
            verdict=verdict,
        )

    @classmethod
    def of_ticket(
        cls, game_id: int, verdict: Mapping[str, Any], claim: Mapping[str, Any] | None = None
    ) -> VerdictShown:
        """A 90-ball ticket checked or claimed: the verdict for the prize being played (a false
        90-ball claim costs nothing, so there is no penalty)."""
        return cls(
            game_id=game_id,
            source="claim" if claim else "check",
            serial=verdict["serial"],
            round=(claim or verdict)["round"],
            player=claim["player"] if claim else None,
            valid=verdict["valid"],
            penalty=None,
            verdict=verdict,
            balls=90,
        )

    def to_json(self) -> JSON:
        head: JSON = {"source": self.source}
        if self.balls != 75:
            head["game"] = self.balls
        return {
            **head,
            "serial": self.serial,
            "round": self.round,
            "player": self.player,
            "valid": self.valid,
            "penalty": None if self.penalty is None else dict(self.penalty),
            "verdict": dict(self.verdict),
        }


@dataclass(frozen=True)
class ScoresChanged(GameEvent):
    """The 75-ball scoreboard after a player, a setting, a claim or an award changed it."""

    NAME: ClassVar[str] = "scores"

    board: Mapping[str, Any]

    def to_json(self) -> JSON:
        return dict(self.board)


@dataclass(frozen=True)
class PrizeChanged(GameEvent):
    """A 90-ball game's prizes after a claim or an award (the prize being played, the winners)."""

    NAME: ClassVar[str] = "prize"

    state: Mapping[str, Any]

    def to_json(self) -> JSON:
        return dict(self.state)


#: every kind of game event (the pages listen for their names)
EVENT_TYPES: tuple[type[GameEvent], ...] = (
    RoundStarted,
    PublicInputSet,
    GameEnded,
    CallMade,
    CallUndone,
    ClaimRecorded,
    VerdictShown,
    ScoresChanged,
    PrizeChanged,
)

#: the names a phone following its card skips (`/api/games/<id>/events?view=card`)
ROOM_EVENTS = frozenset(e.NAME for e in EVENT_TYPES if e.ROOM_ONLY)
#: every event name a game's stream carries, besides the `snapshot` it starts with
EVENT_NAMES = frozenset(e.NAME for e in EVENT_TYPES)
