"""Hands-free calling: the station draws a ball every N seconds (3 to 60) by itself.

The ticker lives in the station, one thread per game, not in the caller page: a reloaded page, a
second tab or a laptop whose screen went to sleep does not stop it or start a second one, and the
page only shows its state (the snapshot's `autodraw`, kept live by `autodraw` events). It is not
kept across a restart of the station: a station that comes back by itself must not call balls to
a hall nobody is watching, so after a restart it is off until the Maestro starts it again.

Each ball goes through `calls.draw_ball`, as the Draw button's does (committed, then published,
under the write lock), so every rule of the draw holds. The ticker pauses by itself:

* when a claim is being checked (a check shown to the room, a claim recorded);
* when the round is won (the award), or the draw is refused (no ball between the award and
  Next round, every ball called);

and the Maestro pauses and resumes it (Space or the button). Resuming starts a full interval.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from flask import Flask

from ..values import JsonValue
from ..web import db
from ..web.errors import Conflict, RequestError
from ..web.instance import current_flask, hall
from . import calls, games
from .events import AutoDrawChanged
from .model import DrawMethod
from .state import station_state

MIN_EVERY, MAX_EVERY = 3, 60
log = logging.getLogger(__name__)


class Pause(StrEnum):
    """Why the ticker is paused (the caller page words each)."""

    MAESTRO = "maestro"
    CLAIM = "claim"
    WON = "won"
    NEW_ROUND = "new_round"  # was WON: Next round was pressed, the room waits for Resume
    ALL_CALLED = "all_called"


@dataclass(frozen=True)
class AutoDraw(JsonValue):
    """A game's automatic draw as the screens show it: off, running, or paused and why."""

    every: int | None = None
    paused: Pause | None = None
    running: bool = False
    next_at: float | None = None  # Unix time of the next ball while running

    def to_json(self) -> dict[str, Any]:
        state = "running" if self.running else "paused" if self.paused else "off"
        left = None if self.next_at is None else max(0.0, round(self.next_at - time.time(), 1))
        return {
            "state": state,
            "every": self.every,
            "reason": None if self.paused is None else str(self.paused),
            "next_at": self.next_at,
            # seconds to the next ball when this was written (a screen's clock may differ)
            "next_in": left,
        }


OFF = AutoDraw()


class Ticker:
    """One game's ticker: a daemon thread that draws when the interval is up and it is running."""

    def __init__(self, app: Flask, game_id: int, every: int) -> None:
        self.app, self.game_id, self.every = app, game_id, every
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.paused: Pause | None = None
        self.stopped = False
        self.next_at = time.time() + every
        self.thread = threading.Thread(target=self._run, name=f"autodraw-{game_id}", daemon=True)

    def view(self) -> AutoDraw:
        with self.lock:
            if self.stopped:
                return OFF
            running = self.paused is None
            return AutoDraw(self.every, self.paused, running, self.next_at if running else None)

    def _run(self) -> None:
        while True:
            with self.lock:
                if self.stopped:
                    return
                delay = None if self.paused else max(0.0, self.next_at - time.time())
            self.wake.wait(delay)
            self.wake.clear()
            with self.lock:
                due = not self.stopped and self.paused is None and time.time() >= self.next_at
            if due:
                self._draw()

    def _draw(self) -> None:
        with self.app.app_context():
            try:
                conn = db.app_connection(self.app)
            except Exception:  # the hall's database went away (a test's, or a disk error)
                log.exception("automatic draw of game %s stopped", self.game_id)
                _stop(self.app, self.game_id)
                return
            try:
                calls.draw_ball(conn, self.game_id)
                with self.lock:
                    self.next_at = time.time() + self.every
            except RequestError:
                self._refused(conn)
            except Exception:
                log.exception("automatic draw of game %s stopped", self.game_id)
                _stop(self.app, self.game_id)
            finally:
                conn.close()

    def _refused(self, conn: sqlite3.Connection) -> None:
        """The draw was refused: the game ended (stop), or the round is over (pause)."""
        game = games.get_game(conn, self.game_id)
        if not game.active:
            _stop(self.app, self.game_id)
            return
        left = game.balls - len(games.called_balls(conn, self.game_id))
        _set_paused(self, Pause.ALL_CALLED if left == 0 else Pause.WON)


def _tickers(app: Flask | None = None) -> dict[int, Ticker]:
    return station_state(app).tickers


@dataclass(frozen=True)
class AutoDrawPart(JsonValue):
    """The snapshot's `autodraw`."""

    autodraw: AutoDraw


def _publish(ticker: Ticker | None, game_id: int) -> AutoDraw:
    """Tell the caller pages, under the write lock as every game event (its order among the
    calls is the order of the changes)."""
    with hall().write_lock:
        data = ticker.view() if ticker else OFF
        games.publish(AutoDrawChanged(game_id, data))
    return data


def _set_paused(ticker: Ticker, reason: Pause | None) -> None:
    with ticker.lock:
        ticker.paused = reason
        if reason is None:
            ticker.next_at = time.time() + ticker.every
    ticker.wake.set()
    with ticker.app.app_context():
        _publish(ticker, ticker.game_id)


def _stop(app: Flask, game_id: int) -> None:
    ticker = _tickers(app).pop(game_id, None)
    if ticker is not None:
        with ticker.lock:
            ticker.stopped = True
        ticker.wake.set()
        with app.app_context():
            _publish(None, game_id)


def _check_every(every: Any) -> int:
    if isinstance(every, str) and every.strip().isdigit():
        every = int(every)
    if isinstance(every, bool) or not isinstance(every, int) or not MIN_EVERY <= every <= MAX_EVERY:
        raise RequestError(
            "the automatic draw calls a ball every %(lo)s to %(hi)s seconds",
            lo=MIN_EVERY,
            hi=MAX_EVERY,
        )
    return int(every)


def _can_draw(conn: sqlite3.Connection, game_id: int) -> None:
    """The draw's own refusals, before the ticker runs: a game drawn by hand, an ended game, a
    round won (the call guards), every ball called."""
    game, _rnd = games.active_round(conn, game_id)
    if game.draw != DrawMethod.AUTO:
        raise Conflict(
            "this game is drawn by hand: the automatic draw needs a game the station draws"
        )
    games.check_call_allowed(conn, game.game_id)
    if len(games.called_balls(conn, game.game_id)) >= game.balls:
        raise Conflict("all %(n)s balls have been called", n=game.balls)


def state(game_id: int) -> AutoDraw:
    ticker = _tickers().get(game_id)
    return ticker.view() if ticker else OFF


def start(conn: sqlite3.Connection, game_id: int, every: Any) -> AutoDraw:
    """Start (or restart with a new interval) the game's automatic draw."""
    every = _check_every(every)
    _can_draw(conn, game_id)
    app = current_flask()
    old = _tickers().get(game_id)
    if old is not None:
        _stop(app, game_id)
    ticker = Ticker(app, game_id, every)
    _tickers()[game_id] = ticker
    ticker.thread.start()
    return _publish(ticker, game_id)


def pause(game_id: int, reason: Pause = Pause.MAESTRO) -> AutoDraw:
    """Pause the automatic draw (nothing to do when it is off)."""
    ticker = _tickers().get(game_id)
    if ticker is not None:
        _set_paused(ticker, reason)
    return state(game_id)


def round_started(game_id: int) -> None:
    """Next round: a ticker paused because the round was won now waits for Resume in the new
    round (the status no longer asks for Next round). Paused by the Maestro, it stays so."""
    ticker = _tickers().get(game_id)
    if ticker is not None and ticker.view().paused in (Pause.WON, Pause.ALL_CALLED):
        _set_paused(ticker, Pause.NEW_ROUND)


def resume(conn: sqlite3.Connection, game_id: int) -> AutoDraw:
    """Go on drawing, a full interval from now; refused in words when no ball may be drawn."""
    ticker = _tickers().get(game_id)
    if ticker is None:
        raise Conflict("the automatic draw is off: start it first")
    _can_draw(conn, game_id)
    _set_paused(ticker, None)
    return state(game_id)


def stop(game_id: int) -> AutoDraw:
    _stop(current_flask(), game_id)
    return OFF


def snapshot_part(conn: sqlite3.Connection, game_id: int) -> AutoDrawPart:
    """Snapshot extender: the game's `autodraw` (off once the game has ended, however it ended:
    the Maestro's End, a new game, the Puntos target reached)."""
    if game_id in _tickers() and not games.get_game(conn, game_id).active:
        stop(game_id)
    return AutoDrawPart(state(game_id))


@dataclass(frozen=True)
class Command:
    """`POST /api/games/<id>/autodraw`: {"action": "start", "every": N}, or "pause", "resume",
    "stop"."""

    action: Literal["start", "pause", "resume", "stop"]
    every: int | None = None  # seconds between draws, for "start"

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Command:
        action = d.get("action")
        if action == "start":
            return cls("start", _check_every(d.get("every")))
        if action == "pause" or action == "resume" or action == "stop":
            return cls(action)
        raise RequestError("action is start (with every), pause, resume or stop")


def command(conn: sqlite3.Connection, game_id: int, asked: Command) -> AutoDraw:
    """Do what the Maestro asked of the game's automatic draw."""
    games.get_game(conn, game_id)
    if asked.action == "start":
        return start(conn, game_id, asked.every)
    if asked.action == "pause":
        return pause(game_id)
    if asked.action == "resume":
        return resume(conn, game_id)
    return stop(game_id)
