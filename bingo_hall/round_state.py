"""The state of a game's round, kept from its events the way `chess.Board` is kept from moves.

A `RoundState` is a frozen value: the balls of the game (75 or 90), the round being played, its
live calls in order, the calls taken back, the seeds revealed so far and whether the game has
ended. `state.apply(name, data)` gives the state after one of the station's events (`call`,
`undo`, `round`, `end`; any other event leaves it as it is), so a screen, a phone or the station
itself can follow a game from a snapshot and the events that come after it, and two copies fed
the same events are equal.

It imports no I/O: the station loads one from SQLite (`bingo_hall.station.round_load`) and the
rules modules judge a card or a ticket against `state.balls_called`.

    >>> s = RoundState(balls=75, round=1)
    >>> s = s.apply("call", {"round": 1, "seq": 1, "ball": 12})
    >>> s = s.apply("call", {"round": 1, "seq": 2, "ball": 61})
    >>> s.apply("undo", {"round": 1, "seq": 2, "ball": 61, "reason": "misread"}).balls_called
    (12,)
"""

from __future__ import annotations

from collections.abc import Mapping
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
    def from_dict(cls, d: Mapping[str, Any]) -> Reveal:
        return cls(d["round"], d["seed"], d["commitment"], d.get("public_input"))

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "seed": self.seed,
            "commitment": self.commitment,
            "public_input": self.public_input,
        }


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

    def apply(self, name: str, data: Mapping[str, Any]) -> RoundState:
        """The state after the event `name` with its data (as published by the station)."""
        if name == "snapshot":
            return RoundState.from_snapshot(data)
        if name == "call":
            return self._called(data)
        if name == "undo":
            return self._undone(data)
        if name == "round":
            return self._round(data)
        if name == "end":
            rounds = tuple(Reveal.from_dict(r) for r in data.get("rounds", ()))
            return replace(self, ended=True, revealed=rounds or self.revealed)
        return self

    def _called(self, data: Mapping[str, Any]) -> RoundState:
        if data["round"] != self.round:
            raise EventOutOfOrder(f"a call of round {data['round']} in round {self.round}")
        seq, ball = int(data["seq"]), int(data["ball"])
        if seq <= self.last_seq or ball in self.balls_called:
            raise EventOutOfOrder(f"call {seq} ({ball}) is not new")
        if not 1 <= ball <= self.balls:
            raise EventOutOfOrder(f"ball {ball} is not one of 1-{self.balls}")
        return replace(self, calls=(*self.calls, Called(seq, ball, data.get("at"))))

    def _undone(self, data: Mapping[str, Any]) -> RoundState:
        if data["round"] != self.round:
            raise EventOutOfOrder(f"an undo of round {data['round']} in round {self.round}")
        last = self.last
        if last is None or last.seq != data["seq"]:
            raise EventOutOfOrder(f"call {data['seq']} is not the last live call")
        taken = Undone(last.seq, last.ball, str(data.get("reason", "")), data.get("at"))
        return replace(self, calls=self.calls[:-1], undone=(*self.undone, taken))

    def _round(self, data: Mapping[str, Any]) -> RoundState:
        if data["round"] == self.round:  # the public input was set before the first ball
            return replace(
                self, commitment=data["commitment"], public_input=data.get("public_input")
            )
        previous = data.get("previous")
        revealed = self.revealed + ((Reveal.from_dict(previous),) if previous else ())
        return RoundState(
            balls=self.balls,
            round=int(data["round"]),
            commitment=data["commitment"],
            public_input=data.get("public_input"),
            revealed=revealed,
        )

    @classmethod
    def from_snapshot(cls, snap: Mapping[str, Any]) -> RoundState:
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
            revealed=tuple(Reveal.from_dict(r) for r in snap.get("revealed", ())),
            ended=snap.get("status") == "ended",
        )
