"""Games, rounds and calls over sqlite3: the station's service layer (issue 4).

Every change is committed (BEGIN IMMEDIATE ... COMMIT, synchronous=FULL) before it is published,
so a station killed at any moment shows, after a restart, exactly the calls it acknowledged. A
write lock keeps the order of events the same as the order of commits. Drawing, entering and
undoing calls live in calls.py; the draw rules in the pure module `bingo_hall.draw`.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any

from .. import draw as rules
from ..cards import call_name
from . import events
from .db import transaction
from .decks import get_deck
from .errors import Conflict, NotFound, StationError
from .spoken import spoken_both

MODES = ("normal", "points")
DRAWS = ("auto", "manual")
MAX_PUBLIC_INPUT = 200
MAX_REASON = 200

write_lock = threading.RLock()


def _game_row(conn: sqlite3.Connection, game_id: Any) -> sqlite3.Row:
    try:
        gid = int(game_id)
    except (TypeError, ValueError):
        raise NotFound("there is no game %(game)s", game=repr(game_id)) from None
    row = conn.execute("SELECT * FROM games WHERE id = ?", (gid,)).fetchone()
    if row is None:
        raise NotFound("there is no game %(game)s", game=gid)
    return row


def get_game(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """The game's settings and status. Raises NotFound (404) for an unknown game."""
    r = _game_row(conn, game_id)
    return {
        "game_id": r["id"],
        "deck_id": r["deck_id"],
        "mode": r["mode"],
        "free_centre": bool(r["free_centre"]),
        "draw": r["draw"],
        "options": json.loads(r["options"]),
        "status": r["status"],
        "created": r["created"],
        "ended": r["ended"],
    }


def _round_row(conn: sqlite3.Connection, game_id: int) -> sqlite3.Row:
    row = conn.execute(
        "SELECT * FROM rounds WHERE game_id = ? ORDER BY number DESC LIMIT 1", (game_id,)
    ).fetchone()
    if row is None:
        raise NotFound("game %(game)s has no round", game=game_id)
    return row


def current_round(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """The round being played: number, commitment, public input (never the unrevealed seed)."""
    _game_row(conn, game_id)
    r = _round_row(conn, game_id)
    return {
        "round_id": r["id"],
        "round": r["number"],
        "commitment": r["commitment"],
        "public_input": r["public_input"],
        "revealed": bool(r["revealed"]),
    }


def _live_calls(conn: sqlite3.Connection, round_id: int) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT seq, ball, source, called_at FROM calls "
        "WHERE round_id = ? AND undone_at IS NULL ORDER BY seq",
        (round_id,),
    ).fetchall()


def _last_seq(conn: sqlite3.Connection, round_id: int) -> int:
    row = conn.execute("SELECT MAX(seq) FROM calls WHERE round_id = ?", (round_id,)).fetchone()
    return row[0] or 0


def called_balls(conn: sqlite3.Connection, game_id: int) -> list[int]:
    """The current round's balls in the order called, undone calls left out."""
    _game_row(conn, game_id)
    return [r["ball"] for r in _live_calls(conn, _round_row(conn, game_id)["id"])]


def list_games(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every game, newest first (the flashboard bridge follows the newest active one)."""
    rows = conn.execute(
        "SELECT g.*, d.name AS deck_name FROM games g JOIN decks d USING (deck_id) "
        "ORDER BY g.id DESC"
    ).fetchall()
    out = []
    for r in rows:
        rnd = _round_row(conn, r["id"])
        out.append(
            {
                "game_id": r["id"],
                "deck_id": r["deck_id"],
                "deck_name": r["deck_name"],
                "mode": r["mode"],
                "draw": r["draw"],
                "status": r["status"],
                "created": r["created"],
                "round": rnd["number"],
                "calls": len(_live_calls(conn, rnd["id"])),
            }
        )
    return out


def newest_active_game(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT id FROM games WHERE status = 'active' ORDER BY id DESC").fetchone()
    return row[0] if row else None


def _check_public_input(text: Any) -> str | None:
    if text is None or text == "":
        return None
    if not isinstance(text, str) or len(text) > MAX_PUBLIC_INPUT:
        raise StationError(
            "the public input is text of at most %(n)s characters", n=MAX_PUBLIC_INPUT
        )
    return text


def _new_round(conn: sqlite3.Connection, game_id: int, number: int, public_input: str | None):
    seed = rules.new_seed()
    commitment = rules.commitment(seed)
    conn.execute(
        "INSERT INTO rounds (game_id, number, seed, commitment, public_input) "
        "VALUES (?, ?, ?, ?, ?)",
        (game_id, number, seed.hex(), commitment, public_input),
    )
    return commitment


def create_game(
    conn: sqlite3.Connection,
    deck_id: Any,
    mode: Any = "normal",
    free_centre: Any = None,
    draw: Any = "auto",
    options: Any = None,
    public_input: Any = None,
) -> dict[str, Any]:
    """Start a game on a loaded deck; round 1 starts with it and its commitment is published.

    `free_centre` defaults to the deck's: a deck printed with FREE always plays it free; a deck
    with a number in the centre may play the "espacio franco" house rule (RULES-NOTES §1).
    """
    if not isinstance(deck_id, str):
        raise StationError("deck_id is required (see GET /api/decks)")
    deck = get_deck(conn, deck_id)
    if mode not in MODES:
        raise StationError("mode must be 'normal' or 'points'")
    if draw not in DRAWS:
        raise StationError("draw must be 'auto' or 'manual'")
    if free_centre is None:
        free_centre = deck.free_centre
    if not isinstance(free_centre, bool):
        raise StationError("free_centre must be true or false")
    if deck.free_centre and not free_centre:
        raise StationError("this deck has FREE printed in the centre, so free_centre must be true")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise StationError("options must be a JSON object")
    public_input = _check_public_input(public_input)
    with write_lock:
        with transaction(conn):
            cur = conn.execute(
                "INSERT INTO games (deck_id, mode, free_centre, draw, options) "
                "VALUES (?, ?, ?, ?, ?)",
                (deck_id, mode, int(free_centre), draw, json.dumps(options)),
            )
            game_id = cur.lastrowid
            commitment = _new_round(conn, game_id, 1, public_input)
        events.publish(game_id, "round", {"round": 1, "commitment": commitment})
    return {"game_id": game_id, "commitment": commitment, "round": 1}


def _active_round(conn: sqlite3.Connection, game_id: Any) -> tuple[sqlite3.Row, sqlite3.Row]:
    game = _game_row(conn, game_id)
    if game["status"] != "active":
        raise Conflict("game %(game)s has ended; start a new game", game=game["id"])
    return game, _round_row(conn, game["id"])


def set_public_input(conn: sqlite3.Connection, game_id: Any, text: Any) -> dict[str, Any]:
    """A player's public input, accepted only before the round's first ball (docs/fairness.md)."""
    text = _check_public_input(text)
    with write_lock:
        with transaction(conn):
            game, rnd = _active_round(conn, game_id)
            if _last_seq(conn, rnd["id"]):
                raise Conflict("the public input can only be set before the first ball")
            conn.execute("UPDATE rounds SET public_input = ? WHERE id = ?", (text, rnd["id"]))
        data = {"round": rnd["number"], "commitment": rnd["commitment"], "public_input": text}
        events.publish(game["id"], "round", data)
    return data


def _reveal(rnd: sqlite3.Row) -> dict[str, Any]:
    return {
        "round": rnd["number"],
        "seed": rnd["seed"],
        "commitment": rnd["commitment"],
        "public_input": rnd["public_input"],
    }


def start_next_round(conn: sqlite3.Connection, game_id: Any, public_input: Any = None) -> dict:
    """Close the round (revealing its seed) and commit a new seed: Bingo de Puntos plays a round
    per bingo, scores carrying over, until someone reaches 1000 (RULES-NOTES §1)."""
    public_input = _check_public_input(public_input)
    with write_lock:
        with transaction(conn):
            game, rnd = _active_round(conn, game_id)
            conn.execute("UPDATE rounds SET revealed = 1 WHERE id = ?", (rnd["id"],))
            commitment = _new_round(conn, game["id"], rnd["number"] + 1, public_input)
        data = {
            "round": rnd["number"] + 1,
            "commitment": commitment,
            "public_input": public_input,
            "previous": _reveal(rnd),
        }
        events.publish(game["id"], "round", data)
    return data


def end_game(conn: sqlite3.Connection, game_id: Any) -> dict[str, Any]:
    """End the game and reveal the seed of every round, so anyone can run `bingo-hall audit`."""
    with write_lock:
        with transaction(conn):
            game, rnd = _active_round(conn, game_id)
            conn.execute("UPDATE rounds SET revealed = 1 WHERE game_id = ?", (game["id"],))
            conn.execute(
                "UPDATE games SET status = 'ended', "
                "ended = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
                (game["id"],),
            )
            rows = conn.execute(
                "SELECT * FROM rounds WHERE game_id = ? ORDER BY number", (game["id"],)
            ).fetchall()
        data = {"seed": rnd["seed"], "round": rnd["number"], "rounds": [_reveal(r) for r in rows]}
        events.publish(game["id"], "end", data)
    return {"game_id": game["id"], **data}


def snapshot(conn: sqlite3.Connection, game_id: Any) -> dict[str, Any]:
    """Everything a screen needs to draw itself from nothing (sent first on every SSE connect)."""
    game = get_game(conn, game_id)
    gid = game["game_id"]
    rnd = _round_row(conn, gid)
    deck = get_deck(conn, game["deck_id"])
    live = _live_calls(conn, rnd["id"])
    calls = [
        {"seq": r["seq"], "ball": r["ball"], "call": call_name(r["ball"]), "at": r["called_at"]}
        for r in live
    ]
    undone = conn.execute(
        "SELECT seq, ball, undo_reason, undone_at FROM calls "
        "WHERE round_id = ? AND undone_at IS NOT NULL ORDER BY seq",
        (rnd["id"],),
    ).fetchall()
    revealed = conn.execute(
        "SELECT * FROM rounds WHERE game_id = ? AND revealed = 1 ORDER BY number", (gid,)
    ).fetchall()
    last = calls[-1] if calls else None
    snap = {
        **game,
        "deck": {
            "deck_id": deck.deck_id,
            "name": deck.name,
            "cards": len(deck.cards),
            "free_centre": deck.free_centre,
        },
        "round": rnd["number"],
        "commitment": rnd["commitment"],
        "public_input": rnd["public_input"],
        "calls": calls,
        "last": last,
        "spoken": spoken_both(last["ball"]) if last else None,
        "last_seq": _last_seq(conn, rnd["id"]),
        "count": len(calls),
        "left": rules.BALLS - len(calls),
        "undone": [
            {
                "seq": r["seq"],
                "ball": r["ball"],
                "call": call_name(r["ball"]),
                "reason": r["undo_reason"],
                "at": r["undone_at"],
            }
            for r in undone
        ],
        "revealed": [_reveal(r) for r in revealed],
    }
    return events.extend_snapshot(conn, gid, snap)


# Drawing, entering and undoing live in calls.py; other areas call them through games too.
def draw_ball(conn, game_id, expect_seq=None, key=None) -> dict[str, Any]:
    from .calls import draw_ball as draw

    return draw(conn, game_id, expect_seq, key)


def enter_ball(conn, game_id, ball, expect_seq=None, key=None) -> dict[str, Any]:
    from .calls import enter_ball as enter

    return enter(conn, game_id, ball, expect_seq, key)


def undo_last(conn, game_id, reason, seq=None, key=None) -> dict[str, Any]:
    from .calls import undo_last as undo

    return undo(conn, game_id, reason, seq, key)
