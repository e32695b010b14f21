"""The JSON API (docs/api.md): thin handlers over games.py, calls.py, decks.py and auth.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from flask import Blueprint, Flask, Response, jsonify, request
from flask.typing import ResponseReturnValue

from ..manifest import deck_from_dict
from ..web.admission import SMALL_BODY, Scope, guest_body, on_loop
from ..web.db import get_db
from ..web.errors import RequestError, TooManyRequests, Unauthorized
from ..web.hub import EventStream, Subscription, live_stream
from ..web.inputs import is_ascii_number
from ..web.inputs import json_body as body
from ..web.instance import HallState, hall
from . import autodraw, calls, games, hall_settings, snapshots
from .auth import PinResult, caller_required, check_pin, end_every_login, issue_token
from .decks import list_decks, store_deck
from .events import ROOM_EVENTS
from .requests import MoneyBall, NewGame, Undo, expect_seq, idempotency_key
from .requests import public_input as public_text

P = ParamSpec("P")
R = TypeVar("R")


def _live(view: Callable[P, R]) -> Callable[P, R]:
    """The hub's `live_stream` (it marks the view and returns it), typed: the strict routes keep
    their signatures while the serving stack's hub is at mypy's default mode."""
    live_stream(view)
    return view


bp = Blueprint("api", __name__, url_prefix="/api")

RETRY_MS = 2000  # a bare EventSource would retry after this; the pages (live.js) retry with jitter


def _key(in_body: object) -> str | None:
    """The request's idempotency key: its header, else the body's `idempotency_key`."""
    return idempotency_key(request.headers.get("Idempotency-Key") or in_body)


@bp.post("/login")
@guest_body(SMALL_BODY)
def login() -> ResponseReturnValue:
    data = body(required=True)
    result, wait = check_pin(data.get("pin"))
    if result == PinResult.LIMITED:
        raise TooManyRequests(
            "too many wrong PINs; try again in %(s)s s", s=wait, extra={"retry_after": wait}
        )
    if result == PinResult.WRONG:
        raise Unauthorized("wrong PIN")
    return jsonify(token=issue_token(), token_type="Bearer")


@bp.post("/logout")
@caller_required
def logout() -> ResponseReturnValue:
    """End every login: this token, the caller pages' sessions and every other token."""
    end_every_login()
    return jsonify(logged_out=True)


@bp.get("/decks")
@caller_required
def decks() -> ResponseReturnValue:
    return jsonify(decks=[d.to_json() for d in list_decks(get_db())])


@bp.post("/decks")
@caller_required
def add_deck() -> ResponseReturnValue:
    deck = store_deck(get_db(), deck_from_dict(body(required=True)))
    info = {"deck_id": deck.deck_id, "name": deck.name, "cards": len(deck.cards), "game": deck.game}
    return jsonify(**info, free_centre=deck.free_centre), 201


@bp.get("/hall/settings")
def get_hall_settings() -> ResponseReturnValue:
    return jsonify(hall_settings.load(get_db()).to_json())


@bp.post("/hall/settings")
@caller_required
def set_hall_settings() -> ResponseReturnValue:
    """The night's settings: `lang` (es, en or null) and `traditional_calls` (true/false)."""
    change = hall_settings.SettingsChange.from_json(body(required=True))
    return jsonify(hall_settings.save(get_db(), change).to_json())


@bp.get("/games")
def list_games() -> ResponseReturnValue:
    return jsonify(games=[g.to_json() for g in games.list_games(get_db())])


@bp.post("/games")
@caller_required
def new_game() -> ResponseReturnValue:
    created = games.start_game(get_db(), NewGame.from_json(body(required=True)))
    return jsonify(created.to_json()), 201


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> ResponseReturnValue:
    return jsonify(snapshots.snapshot(get_db(), game_id).to_json())


@bp.post("/games/<int:game_id>/draw")
@on_loop
@caller_required
def draw(game_id: int) -> ResponseReturnValue:
    d = body()
    key = _key(d.get("idempotency_key"))
    return jsonify(
        calls.draw_ball(get_db(), game_id, expect_seq(d.get("expect_seq")), key).to_json()
    )


@bp.post("/games/<int:game_id>/calls")
@on_loop
@caller_required
def enter(game_id: int) -> ResponseReturnValue:
    d = body(required=True)
    if "ball" not in d:
        raise RequestError('send {"ball": n} with the ball from the cage (1-75, or 1-90)')
    ball = d["ball"]
    if isinstance(ball, str) and is_ascii_number(ball.strip(), 2):
        ball = int(ball)  # typed in a form; calls.py checks the range and words the error
    key = _key(d.get("idempotency_key"))
    done = calls.enter_ball(get_db(), game_id, ball, expect_seq(d.get("expect_seq")), key)
    return jsonify(done.to_json()), 201


@bp.post("/games/<int:game_id>/undo")
@on_loop
@caller_required
def undo(game_id: int) -> ResponseReturnValue:
    d = body(required=True)
    undo = Undo.from_json(d, request.headers.get("Idempotency-Key") or d.get("idempotency_key"))
    return jsonify(calls.undo_last(get_db(), game_id, undo).to_json())


@bp.post("/games/<int:game_id>/autodraw")
@caller_required
def auto_draw(game_id: int) -> ResponseReturnValue:
    """The automatic draw: {"action": "start", "every": N (3-60 s)}, "pause", "resume", "stop"."""
    command = autodraw.Command.from_json(body(required=True))
    return jsonify(autodraw.command(get_db(), game_id, command).to_json())


@bp.post("/games/<int:game_id>/public-input")
@caller_required
def public_input(game_id: int) -> ResponseReturnValue:
    d = body(required=True)
    done = games.set_public_input(get_db(), game_id, public_text(d.get("public_input")))
    return jsonify(done.to_json())


@bp.post("/games/<int:game_id>/money-ball")
@caller_required
def money_ball(game_id: int) -> ResponseReturnValue:
    """The game's money ball, before its first ball: {"ball": 17}, or {"draw": true}."""
    chosen = MoneyBall.from_json(body(required=True))
    return jsonify(games.set_money_ball(get_db(), game_id, chosen.ball).to_json())


@bp.post("/games/<int:game_id>/rounds")
@caller_required
def next_round(game_id: int) -> ResponseReturnValue:
    d = body()
    text = public_text(d.get("public_input"))
    started = games.start_next_round(get_db(), game_id, text)
    autodraw.round_started(game_id)
    return jsonify(started.to_json()), 201


@bp.post("/games/<int:game_id>/end")
@caller_required
def end(game_id: int) -> ResponseReturnValue:
    ended = games.end_game(get_db(), game_id)
    autodraw.stop(game_id)
    return jsonify({"game_id": ended.game_id, **ended.to_json()})


@bp.get("/games/<int:game_id>/events")
@_live
def game_events(game_id: int) -> ResponseReturnValue:
    # Under the station's server the stream is written by the event loop: an open screen holds
    # no thread, so there is no limit on screens to keep threads free for the Maestro.
    sub = hall().hub.subscribe(games.channel(game_id))
    try:
        first = snapshots.snapshot_event(get_db, game_id)  # built once per change (404: no game)
    except BaseException:
        sub.close()
        raise
    answer: Response = _game_stream(hall(), sub, first, request.args.get("view")).response()
    return answer


#: the `view` a card's page opens its game's stream with: it skips the room's events
CARD_VIEW = "card"


def _game_stream(state: HallState, sub: Subscription, first: str, view: str | None) -> EventStream:
    """A game's stream from its `first` event: a card's page (`view=card`) skips the events only
    the room's screens show."""
    skip = ROOM_EVENTS if view == CARD_VIEW else frozenset()
    heartbeat_s = state.config.stream_heartbeat_s  # a gone screen is noticed
    return EventStream(sub, first, retry_ms=RETRY_MS, heartbeat_s=heartbeat_s, skip=skip)


#: the queries the pages open a game's stream with (live.js: none; card.js: view=card), which the
#: event loop answers itself; any other goes to the view
_LOOP_QUERIES: dict[bytes, str | None] = {b"": None, b"view=card": CARD_VIEW}


def game_stream_on_loop(app: Flask, scope: Scope) -> EventStream | None:
    """`game_events` opened on the server's event loop, without Flask, a worker or SQL, when the
    game's snapshot is kept and current (`snapshots.kept_snapshot_event`): in a join storm every
    phone opens its card's stream within seconds, and all of them share one snapshot. The same
    stream as the view's, or None: the view answers (a game not seen yet, a snapshot to read
    again, a 404, any other query)."""
    parts = scope.get("path", "").split("/")  # "", "api", "games", id, "events"
    if len(parts) != 5 or parts[1:3] != ["api", "games"] or parts[4] != "events":
        return None
    query, number = scope.get("query_string", b""), parts[3]
    if query not in _LOOP_QUERIES or not is_ascii_number(number, 12) or number != str(int(number)):
        return None
    view = _LOOP_QUERIES[query]
    state = hall(app)
    sub = state.hub.subscribe(games.channel(int(number)), held=True)  # first, as the view does
    first = snapshots.kept_snapshot_event(app, int(number))
    if first is None:
        sub.close()
        return None
    return _game_stream(state, sub, first, view)
