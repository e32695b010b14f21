"""Israeli Rummy scoring (seed `rummy-burako.es.txt`, "Rummy", "Valor de las fichas" and
"FINAL"; docs/rules.md §5).

A game ends when one player "closes" (lays down every tile); each other player adds up the
tiles left on their rack: a tile is worth its number, a joker left on the rack 50. A match
("un juego") is four games, and the lowest total wins.

Pure: no Flask, no sqlite3. `replay` is the shell's entry point (docs/dev/companion-games.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bingo_hall.values import JsonValue
from companions.errors import EntryError, read_points, tiles_total

#: seed: "Cada ficha numerada vale lo que indica su número ... si queda en el atril ... 50"
TILE_POINTS: dict[str, int] = {**{str(n): n for n in range(1, 14)}, "J": 50}
GAMES_PER_MATCH = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 4

#: a rack as a phone sends it: a count, a sum typed ("12+11+7"), the tiles tapped, or nothing
#: (read by `read_points`, which refuses any other shape in words)
Rack = int | str | Sequence[str | int] | None


def rack_points(tiles: Sequence[str | int]) -> int:
    """What a rack left at the close costs its owner."""
    return tiles_total(tiles, TILE_POINTS)


def _match_length(games: object) -> int:
    if isinstance(games, bool) or not isinstance(games, int):
        raise EntryError("The number of games must be a whole number", field="games")
    if not 1 <= games <= 50:
        raise EntryError("A match has between 1 and 50 games", field="games")
    return games


@dataclass(frozen=True)
class Settings(JsonValue):
    """The table's house rule: the games in a match (four in the seed)."""

    games: int = GAMES_PER_MATCH

    @classmethod
    def from_json(cls, settings: Mapping[str, Any]) -> Settings:
        return cls(_match_length(settings.get("games", GAMES_PER_MATCH)))


@dataclass(frozen=True)
class Entry:
    """One game of the match as stored: the stored entry's `id`, who closed and each rack left
    (`racks`: None when the phone sent something other than an object), each as sent and
    checked by `RummyMatch.play`."""

    id: int | None
    closed_by: Any
    racks: Mapping[str, Rack] | None

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> Entry:
        racks = entry.get("racks") or {}
        return cls(
            entry.get("id"), entry.get("closed_by"), racks if isinstance(racks, dict) else None
        )


@dataclass(frozen=True)
class RummyGame:
    """One game: who closed (None when the stock ran out and nobody did) and each rack's cost."""

    closed_by: str | None
    racks: Mapping[str, int]


@dataclass(frozen=True)
class RummyMatch:
    """A match of `games` games (four in the seed); lowest total wins."""

    players: tuple[str, ...]
    games: tuple[RummyGame, ...] = ()
    length: int = GAMES_PER_MATCH

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise EntryError("Israeli Rummy is played by 2 to 4 players")
        _match_length(self.length)

    def play(self, closed_by: str | None, racks: Mapping[str, Rack] | None) -> RummyMatch:
        """The match after one more game. Racks of the closer are 0; every other player
        still holds tiles, so an empty rack for them is refused as a slip."""
        if self.finished:
            raise EntryError("The match is over. Undo the last game to change it.")
        if closed_by is not None and closed_by not in self.players:
            raise EntryError("Choose who closed", field="closed_by")
        if not isinstance(racks, Mapping):
            raise EntryError("Enter the racks of the players who did not close")
        unknown = set(racks) - set(self.players)
        if unknown:
            raise EntryError("%(player)s is not at this table.", player=min(unknown))
        points: dict[str, int] = {}
        for player in self.players:
            field = f"racks.{player}"
            if player == closed_by:
                if read_points(racks.get(player, 0), TILE_POINTS, field=field):
                    raise EntryError("Whoever closed has no tiles left", field=field)
                points[player] = 0
                continue
            points[player] = read_points(racks.get(player), TILE_POINTS, field=field)
            if points[player] == 0:
                raise EntryError("Enter the tiles left on this rack", field=field)
        return RummyMatch(self.players, (*self.games, RummyGame(closed_by, points)), self.length)

    @property
    def totals(self) -> dict[str, int]:
        return {p: sum(g.racks[p] for g in self.games) for p in self.players}

    @property
    def finished(self) -> bool:
        return len(self.games) >= self.length

    @property
    def winners(self) -> list[str]:
        """The lowest total once the match is over (all of them on a tie)."""
        if not self.finished:
            return []
        low = min(self.totals.values())
        return [p for p, t in self.totals.items() if t == low]


@dataclass(frozen=True)
class GameRow(JsonValue):
    """One game of the match: who closed, each player's rack points, the running totals."""

    id: int | None
    number: int
    closed_by: str | None
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class RummyView(JsonValue):
    """The match as every phone shows it."""

    players: tuple[str, ...]
    games: tuple[GameRow, ...]
    length: int
    totals: tuple[int, ...]
    leaders: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    winner: str | None
    tile_points: Mapping[str, int]


def replay(settings: Settings, players: Sequence[str], entries: Sequence[Entry]) -> RummyView:
    """The shell's entry point: each entry is one game, `{"closed_by": name, "racks": {...}}`."""
    match = RummyMatch(tuple(players), length=settings.games)
    rows = []
    for entry in entries:
        try:
            match = match.play(entry.closed_by, entry.racks)
        except EntryError as exc:
            exc.entry_id = entry.id
            raise
        game = match.games[-1]
        rows.append(
            GameRow(
                id=entry.id,
                number=len(match.games),
                closed_by=game.closed_by,
                points=tuple(game.racks[p] for p in players),
                totals=tuple(match.totals.values()),
            )
        )
    winners = match.winners
    totals = match.totals
    return RummyView(
        players=tuple(players),
        games=tuple(rows),
        length=match.length,
        totals=tuple(totals[p] for p in players),
        leaders=tuple(p for p in players if totals[p] == min(totals.values())) if rows else (),
        finished=match.finished,
        winners=tuple(winners),
        winner=" & ".join(winners) if winners else None,
        tile_points=TILE_POINTS,
    )
