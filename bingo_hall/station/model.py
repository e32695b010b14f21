"""The station's values at the boundary between the store (SQLite) and the views: frozen
dataclasses for a game, a round and a call, and `StrEnum`s for the fixed sets of values.

Enum members are their JSON and SQL text (`Mode.POINTS == "points"`), so the API and the
database keep the words they always had; `to_json()` gives the API's dict.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from ..cards import call_name


class Mode(StrEnum):
    NORMAL = "normal"  # Bingo Normal: the first line wins
    POINTS = "points"  # Bingo de Puntos: line totals to 1000


class DrawMethod(StrEnum):
    AUTO = "auto"  # the committed order (bingo_hall.draw)
    MANUAL = "manual"  # balls typed from a physical cage


class GameStatus(StrEnum):
    ACTIVE = "active"
    ENDED = "ended"


@dataclass(frozen=True)
class Game:
    game_id: int
    deck_id: str
    mode: Mode
    free_centre: bool
    draw: DrawMethod
    options: dict[str, Any]
    status: GameStatus
    created: str
    ended: str | None

    @classmethod
    def from_row(cls, r: sqlite3.Row) -> Game:
        return cls(
            game_id=r["id"],
            deck_id=r["deck_id"],
            mode=Mode(r["mode"]),
            free_centre=bool(r["free_centre"]),
            draw=DrawMethod(r["draw"]),
            options=json.loads(r["options"]),
            status=GameStatus(r["status"]),
            created=r["created"],
            ended=r["ended"],
        )

    @property
    def active(self) -> bool:
        return self.status == GameStatus.ACTIVE

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Round:
    """A round of a game. `seed` is secret until `revealed` (docs/fairness.md)."""

    round_id: int
    game_id: int
    number: int
    seed: str
    commitment: str
    public_input: str | None
    revealed: bool
    started: str

    @classmethod
    def from_row(cls, r: sqlite3.Row) -> Round:
        return cls(
            round_id=r["id"],
            game_id=r["game_id"],
            number=r["number"],
            seed=r["seed"],
            commitment=r["commitment"],
            public_input=r["public_input"],
            revealed=bool(r["revealed"]),
            started=r["started"],
        )

    def public(self) -> dict[str, Any]:
        """What anyone may see of the round now (never the unrevealed seed)."""
        return {
            "round_id": self.round_id,
            "round": self.number,
            "commitment": self.commitment,
            "public_input": self.public_input,
            "revealed": self.revealed,
        }

    def reveal(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "seed": self.seed,
            "commitment": self.commitment,
            "public_input": self.public_input,
        }


@dataclass(frozen=True)
class Call:
    """A ball called (drawn or entered), as the caller, the screens and the bridge get it."""

    game_id: int
    round: int
    seq: int
    ball: int
    count: int  # live calls in the round, this one included
    left: int
    spoken: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {**_ball_json(self), "spoken": self.spoken}


@dataclass(frozen=True)
class UndoneCall:
    """The last call taken back, with the reason the Maestro gave (the corrections log)."""

    game_id: int
    round: int
    seq: int
    ball: int
    count: int  # live calls left in the round
    left: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {**_ball_json(self), "reason": self.reason}


def _ball_json(c: Call | UndoneCall) -> dict[str, Any]:
    return {
        "game_id": c.game_id,
        "round": c.round,
        "seq": c.seq,
        "ball": c.ball,
        "call": call_name(c.ball),
        "count": c.count,
        "left": c.left,
    }
