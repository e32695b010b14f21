"""The bridge inside the caller station (`bingo-hall serve --device URL`): the same `DeviceLink`
and `Follower` as `bingo-hall bridge`, but fed by the station's in-process event broker and its
game service instead of HTTP, so no PIN or port is needed.

It adds to the app: `app.extensions["bhp_bridge"]` (`.status()`, `.drop()`, `.stop()`),
`GET /api/device` (public, like the display: state only) and `POST /api/device/drop` (caller),
and the template global `bhp_device` that `caller/_device.html` shows on the caller page.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify

from bingo_hall.station import db, events, games
from bingo_hall.station.auth import caller_required
from bingo_hall.station.db import get_db
from bingo_hall.station.errors import StationError

from .follow import Follower, SseParser
from .host import DeviceLink, check_url
from .protocol import BallRefused

IDLE = 1.0  # seconds between looks for a newer game while the followed one is quiet


class BrokerSource:
    """follow.Source over the station's own database and broker."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def _with_db(self, fn, *args: Any) -> Any:
        with self.app.app_context():
            conn = db.connect(self.app.config["DATABASE"])
            try:
                return fn(conn, *args)
            finally:
                conn.close()

    def newest_active(self) -> int | None:
        return self._with_db(games.newest_active_game)

    def snapshot(self, game_id: int) -> dict:
        return self._with_db(games.snapshot, game_id)

    def events(self, game_id: int) -> Iterator[tuple[str, Any]]:
        with self.app.app_context():
            q = events.subscribe(game_id)
        try:
            yield ("snapshot", self.snapshot(game_id))
            parser = SseParser()
            while True:
                try:
                    text = q.get(timeout=IDLE)
                except queue.Empty:
                    yield ("idle", None)
                    continue
                yield from parser.feed(text)
        finally:
            with self.app.app_context():
                events.unsubscribe(game_id, q)

    def enter_ball(self, game_id: int, ball: int, key: str) -> None:
        try:
            self._with_db(games.enter_ball, game_id, ball, None, key)
        except StationError as exc:
            raise BallRefused(str(exc)) from None


class EmbeddedBridge:
    def __init__(self, app: Flask, device_url: str) -> None:
        self.follower = Follower(BrokerSource(app), link=None, poll=0.25)
        self.link = DeviceLink(device_url, on_ball=self.follower.on_ball)
        self.follower.link = self.link
        self._thread = threading.Thread(target=self.follower.run, name="bhp-follow", daemon=True)

    def start(self) -> EmbeddedBridge:
        self.link.start()
        self._thread.start()
        return self

    def status(self) -> dict[str, str]:
        status = self.link.status()
        hello = self.link.hello
        status["drops_balls"] = bool(hello and hello.drops_balls)
        if self.follower.error:
            status["detail"] += f" · {self.follower.error}"
        return status

    def drop(self) -> bool:
        return self.link.drop()

    def stop(self) -> None:
        self.follower.stop()
        self.link.stop()


bp = Blueprint("bhp_device", __name__, url_prefix="/api/device")


@bp.get("")
def device_status():
    return jsonify(current_app.extensions["bhp_bridge"].status())


@bp.post("/drop")
@caller_required
def device_drop():
    bridge = current_app.extensions["bhp_bridge"]
    status = bridge.status()
    if not status["drops_balls"]:
        return jsonify(error="the device has no ball machine"), 409
    conn = get_db()
    gid = games.newest_active_game(conn)
    if gid is None or games.get_game(conn, gid)["draw"] != "manual":
        # the machine's ball becomes a manual call, which only a game drawn by hand takes
        return jsonify(error="start a game drawn by hand (manual) to use the ball machine"), 409
    if not bridge.drop():
        return jsonify(error=f"the ball machine is not ready ({status['state']})"), 409
    return jsonify(bridge.status()), 202


def start_in_station(app: Flask, device_url: str) -> EmbeddedBridge:
    """Run the bridge for the life of the station. Call before the app serves its first request.
    A malformed URL is the user's mistake (KitError: one line, exit 2); a board that is not
    plugged in yet is not: the bridge waits for it."""
    check_url(device_url)
    bridge = EmbeddedBridge(app, device_url)
    app.extensions["bhp_bridge"] = bridge
    if bp.name not in app.blueprints:
        app.register_blueprint(bp)
    app.jinja_env.globals["bhp_device"] = bridge.status
    return bridge.start()
