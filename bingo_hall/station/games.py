"""Games and rounds over sqlite3: start, public input, next round, end, and the guards and
extenders the station's areas register on them. The snapshot a screen draws itself
from is in snapshots.py; calls (draw, entry, undo) are in calls.py, which builds on
this module.

Every change is committed (BEGIN IMMEDIATE ... COMMIT, synchronous=FULL) before it is published
on the app's event hub, under the app's write lock, so events go out in the order of commits and
a station killed at any moment shows, after a restart, exactly what it acknowledged.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from .. import draw as rules
from ..errors import KitError
from ..seventyfive.specials import SPECIAL_KEYS, check_money_ball, drawn_money_ball
from ..values import JsonValue
from ..web import book_store as book
from ..web.db import write_transaction
from ..web.errors import Conflict, NotFound, RequestError
from ..web.instance import hall
from .decks import get_deck, tell_deck_listeners
from .events import (
    GameEnded,
    GameEvent,
    MoneyBallChosen,
    NextGameStarted,
    PublicInputSet,
    RoundStarted,
)
from .model import Game, Round
from .prize_lists import host_plans
from .requests import NewGame
from .settings import check_keys, rules_from
from .state import CallGuard, SnapshotExtender, UndoGuard, station_state
from .variants import kind_of


def channel(game_id: int) -> tuple[str, int]:
    """The hub channel of a game's screens."""
    return ("game", game_id)


def publish(event: GameEvent) -> None:
    """Tell every screen following the game. Only services call it: after the change is
    committed, still holding the write lock, so events go out in the order of the commits."""
    state = hall()
    if not _holds(state.write_lock):
        raise RuntimeError(f"the {event.NAME!r} event is published outside the write lock")
    state.hub.publish(channel(event.game_id), event.NAME, event.to_json())


def _holds(lock: Any) -> bool:
    """This thread holds the RLock (threading.RLock's own check)."""
    return bool(lock._is_owned())


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


@dataclass(frozen=True)
class GameListing(JsonValue):
    """A game as the station lists it: its deck, its mode (or prize list), how it draws, its
    status, and its current round with the calls that stand in it."""

    game_id: int
    deck_id: str
    deck_name: str
    mode: str
    balls: int
    draw: str
    status: str
    created: str
    round: int
    calls: int


def list_games(conn: sqlite3.Connection) -> list[GameListing]:
    """Every game, newest first (the flashboard bridge follows the newest active one)."""
    rows = conn.execute(
        "SELECT g.*, d.name AS deck_name FROM games g JOIN decks d USING (deck_id) "
        "ORDER BY g.id DESC"
    ).fetchall()
    out = []
    for r in rows:
        rnd = current_round(conn, r["id"])
        out.append(
            GameListing(
                game_id=r["id"],
                deck_id=r["deck_id"],
                deck_name=r["deck_name"],
                mode=r["prizes"] or r["mode"],
                balls=r["balls"],
                draw=r["draw"],
                status=r["status"],
                created=r["created"],
                round=rnd.number,
                calls=len(live_calls(conn, rnd.round_id)),
            )
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
    conn: sqlite3.Connection,
    game_id: int,
    number: int,
    public_input: str | None,
    seed: bytes | None = None,
) -> str:
    """A round committed to a fresh seed, or to `seed` when one is given (a linked game's, which
    every hall of it draws from: `station.linked`)."""
    seed = rules.new_seed() if seed is None else seed
    commitment = rules.commitment(seed)
    conn.execute(
        "INSERT INTO rounds (game_id, number, seed, commitment, public_input) "
        "VALUES (?, ?, ?, ?, ?)",
        (game_id, number, seed.hex(), commitment, public_input),
    )
    committed = {"game_id": game_id, "round": number, "commitment": commitment}
    book.append(conn, "round", {**committed, "public_input": public_input})
    return commitment


@dataclass(frozen=True)
class GameStarted(JsonValue):
    """A game started: its id, and its first round's commitment."""

    game_id: int
    commitment: str
    round: int


@dataclass(frozen=True)
class DrawOpen(JsonValue):
    """The snapshot's `draw_open`: whether a ball may be drawn now."""

    draw_open: bool


def start_game(conn: sqlite3.Connection, new: NewGame) -> GameStarted:
    """Start a game on a loaded deck; round 1 starts with it and its commitment is published.
    One game at a time in a hall: once the new game is accepted, the one being played ends and
    reveals its seed (a refused request changes nothing).

    The deck's variant reads the request (`station.variants`): a 75-ball game plays Normal or
    Puntos, its free centre the deck's unless the host plays the "espacio franco" house rule
    (docs/claims.md); a 90-ball game plays a prize plan.
    """
    with write_transaction(conn) as tx:
        started = write_new_game(conn, new)
        tx.commit()
        game_started(conn, started)
    tell_deck_listeners(get_deck(conn, new.deck_id))
    return started


def write_new_game(
    conn: sqlite3.Connection, new: NewGame, seed: bytes | None = None
) -> GameStarted:
    """`start_game`'s checks and rows, inside the caller's transaction (and the hall's write
    lock), so that a service that starts a game and sets it up (the program's Next game) commits
    all of it or nothing; the caller calls `game_started` after the commit. `seed`: the first
    round's, when it is not the station's to draw (a linked game's)."""
    deck = get_deck(conn, new.deck_id)
    chosen = kind_of(deck.variant).choose(new, deck, host_plans())
    options = dict(new.options)
    check_keys(options)
    special = sorted(set(options) & set(SPECIAL_KEYS))
    if special and chosen.prizes is not None:  # a game of prizes: 90-ball strips
        raise RequestError(
            "%(key)s: the special games are played with 75-ball cards in Bingo Normal",
            key=special[0],
        )
    seed = rules.new_seed() if seed is None else seed
    if options.get("money_ball") == "draw":  # from the round's seed: its reveal proves it
        options["money_ball"] = drawn_money_ball(seed, deck.variant.balls)
        options["money_ball_drawn"] = True
    rules_from(chosen.mode, chosen.free_centre, options)
    cur = conn.execute(
        "INSERT INTO games (deck_id, mode, free_centre, draw, options, balls, prizes, prize_list) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            deck.deck_id,
            str(chosen.mode),
            int(chosen.free_centre),
            str(new.draw),
            json.dumps(options),
            deck.variant.balls,
            chosen.prizes,
            chosen.prize_list,
        ),
    )
    game_id = cur.lastrowid
    assert game_id is not None  # an INSERT always has a row id
    settings = {"deck_id": deck.deck_id, "mode": str(chosen.mode), "draw": str(new.draw)}
    more = {"free_centre": bool(chosen.free_centre), "options": options}
    played: dict[str, object] = {"balls": deck.variant.balls, "prizes": chosen.prizes}
    if chosen.prize_list is not None:  # the book holds a host's list, so its replay can judge it
        played["prize_list"] = chosen.prize_list
    book.append(conn, "game", {"game_id": game_id, **settings, **more, **played})
    commitment = _new_round(conn, game_id, 1, new.public_input, seed)
    return GameStarted(game_id, commitment, 1)


def game_started(conn: sqlite3.Connection, started: GameStarted) -> None:
    """After a new game's commit: its first round's commitment is published, and the game that
    was being played ends (and reveals its seed). Under the hall's write lock; the caller
    then tells the deck's listeners (`decks.tell_deck_listeners`) outside it."""
    publish(RoundStarted(started.game_id, 1, started.commitment))
    deck = get_game(conn, started.game_id).deck_id
    for old in other_active_games(conn, started.game_id):
        publish(NextGameStarted(old, started.game_id, deck))  # before its end: phones follow
        end_game(conn, old)


@dataclass(frozen=True)
class MoneyBallSet(JsonValue):
    """The game's money ball, now known: typed by the Maestro or drawn from the round's seed."""

    game_id: int
    money_ball: int
    drawn: bool


def set_money_ball(conn: sqlite3.Connection, game_id: int, ball: int | None) -> MoneyBallSet:
    """The money ball of a game that pays one (`money_ball_pays`), before its first ball: `ball`
    as typed, or None to draw it from the round's committed seed (`specials.drawn_money_ball`:
    the seed's reveal shows it). Once known it stays, and the ledger's door sells no more cards
    for the game."""
    with write_transaction(conn) as tx:
        game, rnd = active_round(conn, game_id)
        if game.options.get("money_ball_pays") is None:
            raise Conflict("this game pays no money ball; choose one in the New game form")
        known = game.options.get("money_ball")
        if known is not None:
            raise Conflict("the money ball of this game is already %(ball)s", ball=known)
        if last_seq(conn, rnd.round_id):
            raise Conflict("the money ball is chosen before the first ball")
        drawn = ball is None
        if ball is None:
            ball = drawn_money_ball(bytes.fromhex(rnd.seed), game.balls)
        try:
            ball = check_money_ball(ball, game.balls)
        except KitError as exc:
            raise RequestError("%(problem)s", problem=exc) from None
        options = {**game.options, "money_ball": ball, "money_ball_drawn": drawn}
        conn.execute(
            "UPDATE games SET options = ? WHERE id = ?", (json.dumps(options), game.game_id)
        )
        entry = {"game_id": game.game_id, "round": rnd.number, "money_ball": ball}
        book.append(conn, "money_ball", {**entry, "drawn": drawn})
        tx.commit()
        event = MoneyBallChosen(game.game_id, ball, drawn)
        publish(event)
    return MoneyBallSet(game.game_id, ball, drawn)


def set_public_input(conn: sqlite3.Connection, game_id: int, text: str | None) -> PublicInputSet:
    """A player's public input, accepted only before the round's first ball (docs/fairness.md)."""
    with write_transaction(conn) as tx:
        game, rnd = active_round(conn, game_id)
        if last_seq(conn, rnd.round_id):
            raise Conflict("the public input can only be set before the first ball")
        conn.execute("UPDATE rounds SET public_input = ? WHERE id = ?", (text, rnd.round_id))
        changed = {"game_id": game.game_id, "round": rnd.number, "public_input": text}
        book.append(conn, "public_input", changed)
        tx.commit()
        event = PublicInputSet(game.game_id, rnd.number, rnd.commitment, text)
        publish(event)
    return event


def start_next_round(
    conn: sqlite3.Connection, game_id: int, public_input: str | None = None
) -> RoundStarted:
    """Close the round (revealing its seed) and commit a new seed: Bingo de Puntos plays a round
    per bingo, scores carrying over, until someone reaches 1000 (docs/claims.md)."""
    with write_transaction(conn) as tx:
        game, rnd = active_round(conn, game_id)
        conn.execute("UPDATE rounds SET revealed = 1 WHERE id = ?", (rnd.round_id,))
        _book_reveal(conn, rnd)
        commitment = _new_round(conn, game.game_id, rnd.number + 1, public_input)
        tx.commit()
        event = RoundStarted(game.game_id, rnd.number + 1, commitment, public_input, rnd.reveal())
        publish(event)
    return event


def _book_reveal(conn: sqlite3.Connection, rnd: Round) -> None:
    """The round's seed into the book, as it is revealed."""
    book.append(conn, "reveal", {"game_id": rnd.game_id, "round": rnd.number, "seed": rnd.seed})


def _rounds(conn: sqlite3.Connection, game_id: int, revealed_only: bool = False) -> list[Round]:
    sql = "SELECT * FROM rounds WHERE game_id = ?" + (" AND revealed = 1" if revealed_only else "")
    return [Round.from_row(r) for r in conn.execute(sql + " ORDER BY number", (game_id,))]


def end_game(conn: sqlite3.Connection, game_id: int) -> GameEnded:
    """End the game and reveal the seed of every round, so anyone can run `bingo-hall audit`."""
    with write_transaction(conn) as tx:
        game, rnd = active_round(conn, game_id)
        for hidden in _rounds(conn, game.game_id):
            if not hidden.revealed:
                _book_reveal(conn, hidden)
        conn.execute("UPDATE rounds SET revealed = 1 WHERE game_id = ?", (game.game_id,))
        book.append(conn, "end", {"game_id": game.game_id})
        conn.execute(
            "UPDATE games SET status = 'ended', "
            "ended = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
            (game.game_id,),
        )
        rounds = _rounds(conn, game.game_id)
        tx.commit()
        event = GameEnded(game.game_id, rnd.seed, rnd.number, tuple(r.reveal() for r in rounds))
        publish(event)
    return event


def add_snapshot_extender(fn: SnapshotExtender) -> None:
    """`fn(conn, game_id) -> JsonValue` is merged into every snapshot of this app (claims adds
    `scores`). Call it while the area registers (inside an app context)."""
    extenders = station_state().snapshot_extenders
    if fn not in extenders:
        extenders.append(fn)


def add_call_guard(fn: CallGuard) -> None:
    """`fn(conn, game_id)` is asked before every ball is called (drawn, entered by hand or from
    the ball machine), inside the call's transaction; it raises a Conflict to refuse it (claims
    refuses balls between an award and Next round). Call it while the area registers."""
    guards = station_state().call_guards
    if fn not in guards:
        guards.append(fn)


def check_call_allowed(conn: sqlite3.Connection, game_id: int) -> None:
    """Raise the Conflict of the first guard that refuses a ball now."""
    for guard in list(station_state().call_guards):
        guard(conn, game_id)


def draw_open_part(conn: sqlite3.Connection, game_id: int) -> DrawOpen:
    """Snapshot extender: `draw_open`, whether a ball may be drawn now (the game in play, a ball
    left, no guard refusing it: the round won), so the caller page's Draw is dim when it would
    be refused."""
    game = get_game(conn, game_id)
    if not game.active or len(called_balls(conn, game_id)) >= game.balls:
        return DrawOpen(False)
    try:
        check_call_allowed(conn, game_id)
    except Conflict:
        return DrawOpen(False)
    return DrawOpen(True)


def add_undo_guard(fn: UndoGuard) -> None:
    """`fn(conn, game_id, position)` is asked before the round's last call (the `position`-th)
    is taken back, inside the undo's transaction; it raises a Conflict to refuse it (claims
    refuses to take back a call an award rests on). Call it while the area registers."""
    guards = station_state().undo_guards
    if fn not in guards:
        guards.append(fn)


def check_undo_allowed(conn: sqlite3.Connection, game_id: int, position: int) -> None:
    """Raise the Conflict of the first guard that refuses taking back the `position`-th call."""
    for guard in list(station_state().undo_guards):
        guard(conn, game_id, position)
