"""The state of a game's round, kept from its events the way `chess.Board` is kept from moves.

A `RoundState` is a frozen value: the balls of the game (75 or 90), the round being played, its
live calls in order, the calls taken back, the seeds revealed so far and whether the game has
ended. `state.apply(event)` gives the state after one of the station's events, as a value (a
`CallEvent`, `UndoEvent`, `RoundEvent` or `EndEvent`), so a screen, a phone or the station
itself can follow a game from a snapshot and the events that come after it, and two copies fed
the same events are equal. The station's hub publishes its events as JSON: `event_from_json`
reads one into its value at that edge (None for an event of another area, which `apply` takes
as leaving the state as it is), and `RoundState.from_json` reads a snapshot.

It imports no I/O: the station loads one from SQLite (`bingo_hall.station.round_load`) and the
rules modules judge a card or a ticket against `state.balls_called`.

    >>> s = RoundState(balls=75, round=1)
    >>> s = s.apply(CallEvent(round=1, seq=1, ball=12))
    >>> s = s.apply(event_from_json("call", {"round": 1, "seq": 2, "ball": 61}))
    >>> s.apply(UndoEvent(round=1, seq=2, reason="misread")).balls_called
    (12,)
    >>> s.apply(event_from_json("scores", {"round": 1})) is s
    True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .variants import DEFAULT_BALLS


class EventOutOfOrder(ValueError):
    """An event that cannot follow this state (a call seen twice, an undo of a call it does not
    have): the follower missed something and should start again from a snapshot."""


@dataclass(frozen=True)
class Called:
    """A live call: its sequence number in the round, the ball, when it was called (None when it
    came from an event, which carries no time)."""

    seq: int
    ball: int
    at: str | None = None


@dataclass(frozen=True)
class Undone:
    """A call taken back, with the Maestro's reason."""

    seq: int
    ball: int
    reason: str
    at: str | None = None


@dataclass(frozen=True)
class Reveal:
    """A finished round's seed, revealed so anyone can audit its draw (docs/fairness.md)."""

    round: int
    seed: str
    commitment: str
    public_input: str | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Reveal:
        return cls(int(d["round"]), str(d["seed"]), str(d["commitment"]), d.get("public_input"))

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "seed": self.seed,
            "commitment": self.commitment,
            "public_input": self.public_input,
        }


@dataclass(frozen=True)
class CallEvent:
    """A ball called in a round (the station's `call` event): its sequence number and the ball;
    `at`, when it was called, is None when the event carries no time."""

    round: int
    seq: int
    ball: int
    at: str | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CallEvent:
        return cls(int(d["round"]), int(d["seq"]), int(d["ball"]), d.get("at"))


@dataclass(frozen=True)
class UndoEvent:
    """The round's last call taken back (the station's `undo` event), by its sequence number,
    with the Maestro's reason."""

    round: int
    seq: int
    reason: str = ""
    at: str | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> UndoEvent:
        return cls(int(d["round"]), int(d["seq"]), str(d.get("reason") or ""), d.get("at"))


@dataclass(frozen=True)
class RoundEvent:
    """A round begins with the commitment to its seed (the station's `round` event), revealing
    the seed of the round before it; or, with the same round's number, the public input set
    before its first ball."""

    round: int
    commitment: str
    public_input: str | None = None
    previous: Reveal | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RoundEvent:
        previous = d.get("previous")
        return cls(
            int(d["round"]),
            str(d["commitment"]),
            d.get("public_input"),
            Reveal.from_json(previous) if previous else None,
        )


@dataclass(frozen=True)
class EndEvent:
    """The game is over (the station's `end` event): every round's seed, revealed."""

    rounds: tuple[Reveal, ...] = ()

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> EndEvent:
        return cls(tuple(Reveal.from_json(r) for r in d.get("rounds", ())))


#: the events a round follows
Event = CallEvent | UndoEvent | RoundEvent | EndEvent

#: each event's reader, by the name the station publishes it under
_READERS: Mapping[str, Callable[[Mapping[str, Any]], Event]] = {
    "call": CallEvent.from_json,
    "undo": UndoEvent.from_json,
    "round": RoundEvent.from_json,
    "end": EndEvent.from_json,
}


def event_from_json(name: str, data: object) -> Event | None:
    """The event the station published as `name` with its JSON `data`, as a value; None for an
    event a round does not follow (scores, claims, the ledger...). `data` is what the stream
    gave, not yet known to be an object: one that is not, or that lacks a field, raises
    TypeError or KeyError (a follower takes it as a missed event and reads a snapshot)."""
    read = _READERS.get(name)
    if read is None:
        return None
    if not isinstance(data, Mapping):
        raise TypeError(f"the data of a {name} event is not an object")
    return read(data)


@dataclass(frozen=True)
class RoundState:
    balls: int = DEFAULT_BALLS
    round: int = 1
    commitment: str = ""
    public_input: str | None = None
    calls: tuple[Called, ...] = ()
    undone: tuple[Undone, ...] = ()
    revealed: tuple[Reveal, ...] = ()
    ended: bool = False

    @property
    def balls_called(self) -> tuple[int, ...]:
        """The live calls' balls in the order called: what a card is judged against."""
        return tuple(c.ball for c in self.calls)

    @property
    def last(self) -> Called | None:
        return self.calls[-1] if self.calls else None

    @property
    def last_seq(self) -> int:
        """The round's last sequence number, undone calls included (0 before the first ball)."""
        return max([c.seq for c in self.calls] + [u.seq for u in self.undone], default=0)

    @property
    def left(self) -> int:
        return self.balls - len(self.calls)

    def apply(self, event: Event | None) -> RoundState:
        """The state after `event` (None, an event of another area, leaves it as it is)."""
        if isinstance(event, CallEvent):
            return self._called(event)
        if isinstance(event, UndoEvent):
            return self._undone(event)
        if isinstance(event, RoundEvent):
            return self._round(event)
        if isinstance(event, EndEvent):
            return replace(self, ended=True, revealed=event.rounds or self.revealed)
        return self

    def _called(self, e: CallEvent) -> RoundState:
        if e.round != self.round:
            raise EventOutOfOrder(f"a call of round {e.round} in round {self.round}")
        if e.seq <= self.last_seq or e.ball in self.balls_called:
            raise EventOutOfOrder(f"call {e.seq} ({e.ball}) is not new")
        if not 1 <= e.ball <= self.balls:
            raise EventOutOfOrder(f"ball {e.ball} is not one of 1-{self.balls}")
        return replace(self, calls=(*self.calls, Called(e.seq, e.ball, e.at)))

    def _undone(self, e: UndoEvent) -> RoundState:
        if e.round != self.round:
            raise EventOutOfOrder(f"an undo of round {e.round} in round {self.round}")
        last = self.last
        if last is None or last.seq != e.seq:
            raise EventOutOfOrder(f"call {e.seq} is not the last live call")
        taken = Undone(last.seq, last.ball, e.reason, e.at)
        return replace(self, calls=self.calls[:-1], undone=(*self.undone, taken))

    def _round(self, e: RoundEvent) -> RoundState:
        if e.round == self.round:  # the public input was set before the first ball
            return replace(self, commitment=e.commitment, public_input=e.public_input)
        return RoundState(
            balls=self.balls,
            round=e.round,
            commitment=e.commitment,
            public_input=e.public_input,
            revealed=self.revealed + ((e.previous,) if e.previous else ()),
        )

    @classmethod
    def from_json(cls, snap: Mapping[str, Any]) -> RoundState:
        """The state a station snapshot (`GET /api/games/<id>`, the first event of a stream)
        describes."""
        return cls(
            balls=int(snap.get("balls") or DEFAULT_BALLS),
            round=int(snap["round"]),
            commitment=snap.get("commitment") or "",
            public_input=snap.get("public_input"),
            calls=tuple(Called(c["seq"], c["ball"], c.get("at")) for c in snap.get("calls", ())),
            undone=tuple(
                Undone(u["seq"], u["ball"], u.get("reason") or "", u.get("at"))
                for u in snap.get("undone", ())
            ),
            revealed=tuple(Reveal.from_json(r) for r in snap.get("revealed", ())),
            ended=snap.get("status") == "ended",
        )
