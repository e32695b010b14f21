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

from ..round_state import Reveal
from ..seventyfive.claims import Mode
from ..variants import DEFAULT_BALLS, Variant, variant_for
from .spoken import call_label


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
    balls: int = DEFAULT_BALLS  # 90 for a deck of strips (the manifest's `game`)
    prizes: str | None = None  # the 90-ball prize plan's key (mode); None in the 75-ball game
    prize_list: str | None = None  # a host's own prize list, as recorded (TOML); else None

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
            balls=r["balls"],
            prizes=r["prizes"] or None,
            prize_list=r["prize_list"],
        )

    @property
    def active(self) -> bool:
        return self.status == GameStatus.ACTIVE

    @property
    def variant(self) -> Variant[Any]:
        """The kind of game it plays, from its balls (its deck's manifest `game`)."""
        return variant_for(self.balls)

    def to_json(self) -> dict[str, Any]:
        """The API's game: a 90-ball game's `mode` is its prize plan (docs/api.md)."""
        whole = {**asdict(self), "mode": self.prizes or self.mode}
        del whole["prize_list"]  # the plan is named by `mode`; its TOML is the record's
        return whole


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

    def reveal(self) -> Reveal:
        """The round's seed as a finished round reveals it (docs/fairness.md)."""
        return Reveal(self.number, self.seed, self.commitment, self.public_input)


class _BallJson:
    """What a call and an undone call share in JSON: the game, round, ball and counts."""

    game_id: int
    round: int
    seq: int
    ball: int
    count: int
    left: int
    call: str

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "round": self.round,
            "seq": self.seq,
            "ball": self.ball,
            "call": self.call or call_label(self.ball),
            "count": self.count,
            "left": self.left,
        }


@dataclass(frozen=True)
class Call(_BallJson):
    """A ball called (drawn or entered), as the caller, the screens and the bridge get it."""

    game_id: int
    round: int
    seq: int
    ball: int
    count: int  # live calls in the round, this one included
    left: int
    spoken: dict[str, str]
    call: str = ""  # as screens write it ("N 31", or "87" in the 90-ball game)

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "spoken": self.spoken}


@dataclass(frozen=True)
class UndoneCall(_BallJson):
    """The last call taken back, with the reason the Maestro gave (the corrections log)."""

    game_id: int
    round: int
    seq: int
    ball: int
    count: int  # live calls left in the round
    left: int
    reason: str
    call: str = ""

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "reason": self.reason}
