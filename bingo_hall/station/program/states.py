"""What the night's program's services answer and keep (store.py): a program game as the
station keeps it (`Entry`), the list the caller page shows (`GameLine`, `ProgramState`), the game
in play that Next game would end (`InPlay`), and the answers of Next game, Skip and Insert."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...money.program import ProgramGame
from ...money.program_words import figure_name
from ...values import JsonValue


@dataclass(frozen=True)
class Entry:
    """A game of the loaded program as the station keeps it."""

    entry_id: int
    position: int
    status: str
    game_id: int | None
    inserted: bool
    game: ProgramGame

    def line(self, lang: str = "en") -> GameLine:
        """The game as the caller page and the API list it, in `lang`."""
        return GameLine(
            self.position,
            self.game.name(lang),
            figure_name(self.game, lang),
            self.game.balls,
            self.status,
            self.game_id,
            self.inserted,
            self.game.interval,
        )


@dataclass(frozen=True)
class GameLine(JsonValue):
    """A game of the program on the caller page's list: its number, name and figure in the
    page's language, its status and the station game it became."""

    number: int
    name: str
    figure: str
    balls: int
    status: str
    game_id: int | None
    inserted: bool
    interval: int


@dataclass(frozen=True)
class ProgramName(JsonValue):
    name: str
    source: str


@dataclass(frozen=True)
class ProgramState(JsonValue):
    """The night's program (None before one is loaded), its games, the number of the game in
    play and of the next waiting one; `resumed` is a load's answer only (the same file loaded
    again goes on where it was)."""

    program: ProgramName | None
    games: tuple[GameLine, ...] = ()
    playing: int | None = None
    next: int | None = None
    resumed: bool | None = None
    in_play: InPlay | None = None  # what Next game would end, while its prize is not won

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "program": None if self.program is None else self.program.to_json(),
            "games": [g.to_json() for g in self.games],
        }
        if self.program is not None:
            out |= {"playing": self.playing, "next": self.next}
            out["in_play"] = None if self.in_play is None else self.in_play.to_json()
        if self.resumed is not None:
            out["resumed"] = self.resumed
        return out


@dataclass(frozen=True)
class InPlay(JsonValue):
    """A game being played: it has calls in its round and the round's prize is not won yet, so
    Next game would end it for good (an ended game cannot be restarted)."""

    game_id: int
    number: int | None  # its place in the program, if it is one of the program's games
    name: str | None
    calls: int

    def label(self) -> str:
        return str(self.number if self.number is not None else self.game_id)


@dataclass(frozen=True)
class Started(JsonValue):
    """Next game's answer: the station game started, and the program's game it plays."""

    game_id: int
    number: int
    name: str


@dataclass(frozen=True)
class Skipped(JsonValue):
    """Skip's answer: the number of the game skipped, and the game started after it (None at
    the end of the program)."""

    skipped: int
    started: Started | None


@dataclass(frozen=True)
class Inserted(JsonValue):
    """Insert's answer: the new game's number, the game it copies and its name."""

    number: int
    copy: int
    name: str
