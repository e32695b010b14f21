"""The bridge inside the caller station (`bingo-hall serve --device URL`): the same `DeviceLink`
and `Follower` as `bingo-hall bridge`, but fed by the app's event hub (the events as values, no
SSE text) and the station's game service instead of HTTP, so no PIN or port is needed.

An area of the web app, registered by `bingo_hall.app.create_app` when `DEVICE_URL` is set. It
adds: the bridge in the app's state (`bridge(app)`: `.status()`, `.drop()`, `.stop()`),
`GET /api/device` (public, like the display: state only) and `POST /api/device/drop` (caller),
and the template global `bhp_device` that `caller/_device.html` shows on the caller page.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from flask import Blueprint, Flask, Response, jsonify

from bingo_hall.station import calls, games, snapshots
from bingo_hall.station.auth import caller_required
from bingo_hall.station.model import DrawMethod
from bingo_hall.web import db
from bingo_hall.web.db import get_db
from bingo_hall.web.errors import Conflict, RequestError
from bingo_hall.web.instance import area_state, hall

from .follow import Follower
from .host import DeviceLink, check_url
from .protocol import BallRefused

T = TypeVar("T")

IDLE = 1.0  # seconds between looks for a newer game while the followed one is quiet


class BrokerSource:
    """follow.Source over the station's own database and broker."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def _with_db(self, fn: Callable[..., T], *args: Any) -> T:
        with self.app.app_context():
            conn = db.connect(hall(self.app).config.database)
            try:
                return fn(conn, *args)
            finally:
                conn.close()

    def newest_active(self) -> int | None:
        return self._with_db(games.newest_active_game)

    def snapshot(self, game_id: int) -> dict[str, Any]:
        snap = self._with_db(snapshots.snapshot, game_id)
        return snap.to_json()  # the wire shape follow.py reads

    def events(self, game_id: int) -> Iterator[tuple[str, Any]]:
        sub = hall(self.app).hub.subscribe(games.channel(game_id))
        try:
            yield ("snapshot", self.snapshot(game_id))
            while not sub.closed:
                event = sub.get(timeout=IDLE)
                yield ("idle", None) if event is None else (event.name, event.data)
        finally:
            sub.close()

    def enter_ball(self, game_id: int, ball: int, key: str) -> None:
        try:
            self._with_db(calls.enter_ball, game_id, ball, None, key)
        except RequestError as exc:
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

    def status(self) -> dict[str, str | bool]:
        status: dict[str, str | bool] = dict(self.link.status())
        hello = self.link.hello
        status["drops_balls"] = bool(hello and hello.drops_balls)
        if self.follower.error:
            status["detail"] = f"{status['detail']} · {self.follower.error}"
        return status

    def drop(self) -> bool:
        return self.link.drop()

    def stop(self) -> None:
        self.follower.stop()
        self.link.stop()


bp = Blueprint("bhp_device", __name__, url_prefix="/api/device")


def bridge(app: Flask | None = None) -> EmbeddedBridge:
    """The app's bridge (only when the station runs with a device)."""
    return area_state("bridge", _no_bridge, app)


def _no_bridge() -> EmbeddedBridge:
    raise RuntimeError("this station runs without a device")


@bp.get("")
def device_status() -> Response:
    return jsonify(bridge().status())


@bp.post("/drop")
@caller_required
def device_drop() -> tuple[Response, int]:
    link = bridge()
    status = link.status()
    if not status["drops_balls"]:
        raise Conflict("the device has no ball machine")
    conn = get_db()
    gid = games.newest_active_game(conn)
    if gid is None or games.get_game(conn, gid).draw != DrawMethod.MANUAL:
        # the machine's ball becomes a manual call, which only a game drawn by hand takes
        raise Conflict("start a game drawn by hand (manual) to use the ball machine")
    games.check_call_allowed(conn, gid)  # no ball between an award and Next round
    if not link.drop():
        raise Conflict("the ball machine is not ready (%(state)s)", state=status["state"])
    return jsonify(link.status()), 202


def register(app: Flask, device_url: str) -> EmbeddedBridge:
    """Run the bridge for the life of the station (`create_app` calls this when `DEVICE_URL` is
    set, before the app serves its first request). A malformed URL is the user's mistake
    (KitError: one line, exit 2); a board that is not plugged in yet is not: the bridge waits."""
    check_url(device_url)
    made = EmbeddedBridge(app, device_url)
    area_state("bridge", lambda: made, app)
    if bp.name not in app.blueprints:
        app.register_blueprint(bp)
    app.jinja_env.globals["bhp_device"] = made.status
    return made.start()
