"""Games and rounds over sqlite3: start, public input, next round, end, and the snapshot a
screen draws itself from (issue 4). Calls (draw, entry, undo) are in calls.py, which builds on
this module.

Every change is committed (BEGIN IMMEDIATE ... COMMIT, synchronous=FULL) before it is published
on the app's event hub, under the app's write lock, so events go out in the order of commits and
a station killed at any moment shows, after a restart, exactly what it acknowledged.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .. import draw as rules
from ..web.db import transaction
from ..web.errors import Conflict, NotFound
from ..web.instance import hall
from . import phrases
from .decks import get_deck
from .model import Game, Round
from .requests import NewGame
from .settings import check_keys, rules_from
from .spoken import call_label, spoken_both
from .state import station_state
from .variants import kind_of


def channel(game_id: int) -> tuple[str, int]:
    """The hub channel of a game's screens."""
    return ("game", game_id)


#: events for the hall's screens (the projector, the caller page) only: a phone following its
#: card (`/api/games/<id>/events?view=card`) does not take them, so with a thousand phones a
#: claim checked by the Maestro costs the phones nothing
ROOM_EVENTS = frozenset({"verdict"})


def publish(game_id: int, event: str, data: dict[str, Any]) -> None:
    """Tell every screen following the game. Call it only after the change is committed."""
    hall().hub.publish(channel(game_id), event, data)


def get_game(conn: sqlite3.Connection, game_id: int) -> Game:
    """The game's settings and status. Raises NotFound (404) for an unknown game."""
    row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFound("there is no game %(game)s", game=game_id)
    return Game.from_row(row)


def current_round(conn: sqlite3.Connection, game_id: int) -> Round:
    """The round being played (the newest)."""
    row = conn.execute(
        "SELECT * FROM rounds WHERE game_id = ? ORDER BY number DESC LIMIT 1", (game_id,)
    ).fetchone()
    if row is None:
        raise NotFound("game %(game)s has no round", game=game_id)
    return Round.from_row(row)


def active_round(conn: sqlite3.Connection, game_id: int) -> tuple[Game, Round]:
    """The game and its round, for a change: 409 once the game has ended."""
    game = get_game(conn, game_id)
    if not game.active:
        raise Conflict("game %(game)s has ended; start a new game", game=game.game_id)
    return game, current_round(conn, game.game_id)


def live_calls(conn: sqlite3.Connection, round_id: int) -> list[sqlite3.Row]:
    """The round's calls in order, undone ones left out (seq, ball, source, called_at)."""
    return conn.execute(
        "SELECT seq, ball, source, called_at FROM calls "
        "WHERE round_id = ? AND undone_at IS NULL ORDER BY seq",
        (round_id,),
    ).fetchall()


def last_seq(conn: sqlite3.Connection, round_id: int) -> int:
    """The round's last sequence number, undone calls included (0 before the first ball)."""
    row = conn.execute("SELECT MAX(seq) FROM calls WHERE round_id = ?", (round_id,)).fetchone()
    return row[0] or 0


def called_balls(conn: sqlite3.Connection, game_id: int) -> list[int]:
    """The current round's balls in the order called, undone calls left out."""
    get_game(conn, game_id)
    return [r["ball"] for r in live_calls(conn, current_round(conn, game_id).round_id)]


def list_games(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every game, newest first (the flashboard bridge follows the newest active one)."""
    rows = conn.execute(
        "SELECT g.*, d.name AS deck_name FROM games g JOIN decks d USING (deck_id) "
        "ORDER BY g.id DESC"
    ).fetchall()
    out = []
    for r in rows:
        rnd = current_round(conn, r["id"])
        out.append(
            {
                "game_id": r["id"],
                "deck_id": r["deck_id"],
                "deck_name": r["deck_name"],
                "mode": r["prizes"] or r["mode"],
                "balls": r["balls"],
                "draw": r["draw"],
                "status": r["status"],
                "created": r["created"],
                "round": rnd.number,
                "calls": len(live_calls(conn, rnd.round_id)),
            }
        )
    return out


def newest_active_game(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT id FROM games WHERE status = 'active' ORDER BY id DESC").fetchone()
    return row[0] if row else None


def other_active_games(conn: sqlite3.Connection, game_id: int) -> list[int]:
    """The games still being played besides `game_id`, oldest first."""
    rows = conn.execute(
        "SELECT id FROM games WHERE status = 'active' AND id != ? ORDER BY id", (game_id,)
    )
    return [row[0] for row in rows]


def _new_round(
    conn: sqlite3.Connection, game_id: int, number: int, public_input: str | None
) -> str:
    seed = rules.new_seed()
    commitment = rules.commitment(seed)
    conn.execute(
        "INSERT INTO rounds (game_id, number, seed, commitment, public_input) "
        "VALUES (?, ?, ?, ?, ?)",
        (game_id, number, seed.hex(), commitment, public_input),
    )
    return commitment


def start_game(conn: sqlite3.Connection, new: NewGame) -> dict[str, Any]:
    """Start a game on a loaded deck; round 1 starts with it and its commitment is published.
    One game at a time in a hall: once the new game is accepted, the one being played ends and
    reveals its seed (a refused request changes nothing).

    The deck's variant reads the request (`station.variants`): a 75-ball game plays Normal or
    Puntos, its free centre the deck's unless the host plays the "espacio franco" house rule
    (docs/claims.md); a 90-ball game plays a prize plan.
    """
    deck = get_deck(conn, new.deck_id)
    chosen = kind_of(deck.variant).choose(new, deck)
    options = dict(new.options)
    check_keys(options)
    rules_from(chosen.mode, chosen.free_centre, options)
    with hall().write_lock:
        with transaction(conn):
            cur = conn.execute(
                "INSERT INTO games (deck_id, mode, free_centre, draw, options, balls, prizes) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    deck.deck_id,
                    str(chosen.mode),
                    int(chosen.free_centre),
                    str(new.draw),
                    json.dumps(options),
                    deck.variant.balls,
                    chosen.prizes,
                ),
            )
            game_id = cur.lastrowid
            assert game_id is not None
            commitment = _new_round(conn, game_id, 1, new.public_input)
        publish(game_id, "round", {"round": 1, "commitment": commitment})
        for old in other_active_games(conn, game_id):
            end_game(conn, old)
    return {"game_id": game_id, "commitment": commitment, "round": 1}


def set_public_input(conn: sqlite3.Connection, game_id: int, text: str | None) -> dict[str, Any]:
    """A player's public input, accepted only before the round's first ball (docs/fairness.md)."""
    with hall().write_lock:
        with transaction(conn):
            game, rnd = active_round(conn, game_id)
            if last_seq(conn, rnd.round_id):
                raise Conflict("the public input can only be set before the first ball")
            conn.execute("UPDATE rounds SET public_input = ? WHERE id = ?", (text, rnd.round_id))
        data = {"round": rnd.number, "commitment": rnd.commitment, "public_input": text}
        publish(game.game_id, "round", data)
    return data


def start_next_round(
    conn: sqlite3.Connection, game_id: int, public_input: str | None = None
) -> dict[str, Any]:
    """Close the round (revealing its seed) and commit a new seed: Bingo de Puntos plays a round
    per bingo, scores carrying over, until someone reaches 1000 (docs/claims.md)."""
    with hall().write_lock:
        with transaction(conn):
            game, rnd = active_round(conn, game_id)
            conn.execute("UPDATE rounds SET revealed = 1 WHERE id = ?", (rnd.round_id,))
            commitment = _new_round(conn, game.game_id, rnd.number + 1, public_input)
        data = {
            "round": rnd.number + 1,
            "commitment": commitment,
            "public_input": public_input,
            "previous": rnd.reveal(),
        }
        publish(game.game_id, "round", data)
    return data


def _rounds(conn: sqlite3.Connection, game_id: int, revealed_only: bool = False) -> list[Round]:
    sql = "SELECT * FROM rounds WHERE game_id = ?" + (" AND revealed = 1" if revealed_only else "")
    return [Round.from_row(r) for r in conn.execute(sql + " ORDER BY number", (game_id,))]


def end_game(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """End the game and reveal the seed of every round, so anyone can run `bingo-hall audit`."""
    with hall().write_lock:
        with transaction(conn):
            game, rnd = active_round(conn, game_id)
            conn.execute("UPDATE rounds SET revealed = 1 WHERE game_id = ?", (game.game_id,))
            conn.execute(
                "UPDATE games SET status = 'ended', "
                "ended = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
                (game.game_id,),
            )
            rounds = _rounds(conn, game.game_id)
        data = {"seed": rnd.seed, "round": rnd.number, "rounds": [r.reveal() for r in rounds]}
        publish(game.game_id, "end", data)
    return {"game_id": game.game_id, **data}


def add_snapshot_extender(fn) -> None:
    """`fn(conn, game_id) -> dict` is merged into every snapshot of this app (claims adds
    `scores`). Call it while the area registers (inside an app context)."""
    extenders = station_state().snapshot_extenders
    if fn not in extenders:
        extenders.append(fn)


def snapshot(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """Everything a screen needs to draw itself from nothing (sent first on every SSE connect)."""
    game = get_game(conn, game_id)
    gid = game.game_id
    rnd = current_round(conn, gid)
    deck = get_deck(conn, game.deck_id)
    live = live_calls(conn, rnd.round_id)
    n = game.balls
    calls = [
        {"seq": r["seq"], "ball": r["ball"], "call": call_label(r["ball"], n), "at": r["called_at"]}
        for r in live
    ]
    undone = conn.execute(
        "SELECT seq, ball, undo_reason, undone_at FROM calls "
        "WHERE round_id = ? AND undone_at IS NOT NULL ORDER BY seq",
        (rnd.round_id,),
    ).fetchall()
    last = calls[-1] if calls else None
    snap = {
        **game.to_json(),
        "deck": {
            "deck_id": deck.deck_id,
            "name": deck.name,
            "cards": len(deck.cards),
            "free_centre": deck.free_centre,
            "game": deck.game,
        },
        "round": rnd.number,
        "commitment": rnd.commitment,
        "public_input": rnd.public_input,
        "calls": calls,
        "last": last,
        "spoken": spoken_both(last["ball"], n, phrases.current(conn)) if last else None,
        "last_seq": last_seq(conn, rnd.round_id),
        "count": len(calls),
        "left": n - len(calls),
        "undone": [
            {
                "seq": r["seq"],
                "ball": r["ball"],
                "call": call_label(r["ball"], n),
                "reason": r["undo_reason"],
                "at": r["undone_at"],
            }
            for r in undone
        ],
        "revealed": [r.reveal() for r in _rounds(conn, gid, revealed_only=True)],
    }
    for extend in list(station_state().snapshot_extenders):
        snap.update(extend(conn, gid))
    return snap
