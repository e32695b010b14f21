"""Players at the table: rename one (a typo, or a move to another team) and take one
off the table. Seating players is `store.add_player`.

A rename is the same person with the right name: every claim, award and Maestro turn of the game
follows it, so the scoreboard, the big screen and the record all read the new name. Taking off a
player who has won nothing forgets them; one who has won asks first (`confirm`) and then only
leaves the seating: the row stays (`left_at`), so their points keep their name and side in the
scoreboard and the record.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ...values import JsonValue
from ...web import book_store as book
from ...web.db import write_transaction
from ...web.errors import Conflict, NotFound
from ..requests import RemovePlayer, RenamePlayer
from .store import active_game, players, save_settings, settings_of


def _seated(conn: sqlite3.Connection, gid: int, name: str) -> None:
    if not any(p.name == name for p in players(conn, gid)):
        raise NotFound("%(name)s is not at the table in this game", name=name)


def wins(conn: sqlite3.Connection, gid: int, name: str) -> tuple[int, int]:
    """(rounds won, points won) by a player in the game."""
    row = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(points), 0) FROM awards WHERE game_id = ? AND player = ?",
        (gid, name),
    ).fetchone()
    return row[0], row[1]


@dataclass(frozen=True)
class Renamed(JsonValue):
    game_id: int
    name: str
    team: str | None
    was: str


@dataclass(frozen=True)
class Removed(JsonValue):
    game_id: int
    name: str
    kept: bool  # they had won: off the table, still in the record


def rename(conn: sqlite3.Connection, game_id: int, change: RenamePlayer) -> Renamed:
    """The player's name now to the right one (and their team, when the change says one)."""
    old, new = change.name, change.new_name
    with write_transaction(conn):
        game = active_game(conn, game_id)
        gid = game.game_id
        _seated(conn, gid, old)
        row = conn.execute(
            "SELECT team FROM players WHERE game_id = ? AND name = ?", (gid, old)
        ).fetchone()
        team = row["team"] if change.keeps_team else change.team
        if (
            new != old
            and conn.execute(
                "SELECT 1 FROM players WHERE game_id = ? AND name = ?", (gid, new)
            ).fetchone()
        ):
            raise Conflict("%(name)s is already playing in this game", name=new)
        conn.execute(
            "UPDATE players SET name = ?, team = ? WHERE game_id = ? AND name = ?",
            (new, team, gid, old),
        )
        for table, column in (
            ("claims", "player"),
            ("awards", "player"),
            ("awards", "side"),
            ("awards", "maestro"),
            ("awards", "next_maestro"),
            ("prize_awards", "player"),
        ):
            conn.execute(
                f"UPDATE {table} SET {column} = ? WHERE game_id = ? AND {column} = ?",
                (new, gid, old),
            )
        if settings_of(conn, gid)[1] == old:
            save_settings(conn, gid, maestro=new)
        book.append(
            conn, "player.rename", {"game_id": gid}, {"player": old, "now": new, "team": team}
        )
    return Renamed(gid, new, team, old)


def remove(conn: sqlite3.Connection, game_id: int, change: RemovePlayer) -> Removed:
    """Take the player off the table (`confirm`: when they have won)."""
    name, confirm = change.name, change.confirm
    with write_transaction(conn):
        game = active_game(conn, game_id)
        gid = game.game_id
        _seated(conn, gid, name)
        rounds = wins(conn, gid, name)[0]
        if rounds and not confirm:
            raise Conflict(
                "%(name)s has won in this game: confirm to take them off the table; their "
                "wins stay on the scoreboard and in the record",
                name=name,
            )
        seating = [p.name for p in players(conn, gid)]
        if rounds:
            conn.execute(
                "UPDATE players SET left_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') "
                "WHERE game_id = ? AND name = ?",
                (gid, name),
            )
        else:
            conn.execute("DELETE FROM players WHERE game_id = ? AND name = ?", (gid, name))
        if settings_of(conn, gid)[1] == name:  # the Maestro leaves: the next seat calls
            left = [p for p in seating if p != name]
            after = seating[seating.index(name) + 1 :] + seating[: seating.index(name)]
            save_settings(conn, gid, maestro=after[0] if left else None)
        book.append(conn, "player.remove", {"game_id": gid, "kept": bool(rounds)}, {"player": name})
    return Removed(gid, name, bool(rounds))
