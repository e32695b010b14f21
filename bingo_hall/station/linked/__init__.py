"""A linked game at the station (docs/linked.md): the Maestro gives the organiser's game file and
types the seed code; the station checks the code against the game's commitment and starts a game
whose first round is committed to the seed the code stands for. From then on it plays like any
game: an auto draw calls the derived order (the round's seed is the linked one, and no public
input is mixed in), a manual game takes the balls from the order `bingo-hall linked order`
prints, the hall's own prizes are claimed and awarded as always.

The hall's result is made once, from its first valid claim that holds the linked figure on its
completing call (or "no winner", when the Maestro closes the game without one), signed with the
station's book key and carrying the book's signed head; it is recorded in the book, so the same
result is given every time it is asked for (two different results from one hall would be
refused by the tally). The game file is recorded in the book too, as a host's prize list is, so
the book says which linked game the night played.

    POST /api/linked/games               {"linked": <game file>, "code": "...", "game": {...}}
                                         (or "organiser": URL instead of the code: fetched from
                                         the organiser's station; "follow": true to follow its
                                         calls live, live.py)
    GET  /api/linked/games/<id>          the linked game as the caller page shows it
    POST /api/linked/games/<id>/follow   follow the organiser's calls (again)
    DELETE /api/linked/games/<id>/follow stop following: the hall goes on from the code
    POST /api/linked/games/<id>/next     the next ball of the order, from the code
    POST /api/linked/games/<id>/result   {} (or {"no_winner": true} to close without one)
    POST /api/linked/games/<id>/send     the result made, POSTed to the organiser
    GET  /api/linked/games/<id>/result   the result made, as a file to send

Routes parse the request into values; the services take the connection and the values.

One idea in one module, though it is over 450 lines: the linked game's routes and the services
they call, each a few lines, from the start to the result sent.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify
from flask.blueprints import BlueprintSetupState
from flask_babel import gettext

from ...audit import StationKey
from ...linked.game import LinkedGame, read_game
from ...linked.keys import Signer
from ...linked.result import HallClaim, HallResult, first_claim, make_result, read_result
from ...linked.seed import check_code, linked_order
from ...money import money
from ...values import JsonValue
from ...variants import variant_for
from ...web import book_store as book
from ...web.db import get_db, write_transaction
from ...web.errors import Conflict, NotFound, RequestError
from ...web.i18n import current_lang
from ...web.inputs import json_body as body
from ..auth import caller_required
from ..decks import get_deck, tell_deck_listeners
from ..games import (
    add_call_guard,
    called_balls,
    current_round,
    game_started,
    get_game,
    live_calls,
    write_new_game,
)
from ..model import DrawMethod
from ..requests import NewGame
from .live import (
    Follow,
    Live,
    Mode,
    Sent,
    enter_from_order,
    fetch_code,
    live_state,
    organiser_url,
    post_result,
    refuse_hand_calls_while_following,
)

#: the book's entries of a linked game: the game file as started, and the result made
STARTED = "linked"
RESULT = "linked.result"
#: a game file lists at most a few thousand halls; its JSON is well under this
MAX_BODY = 2_000_000

bp = Blueprint("linked", __name__, url_prefix="/api/linked")


@dataclass(frozen=True)
class LinkedStart:
    """`POST /api/linked/games`, parsed: the organiser's game, the code typed, the hall's game."""

    game: LinkedGame
    code: str | None
    new: NewGame
    organiser: str | None = None
    follow: bool = False

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> LinkedStart:
        unknown = sorted(set(d) - {"linked", "code", "game", "organiser", "follow"})
        if unknown:
            raise RequestError(
                "%(fields)s: not a field of a linked game; it takes linked, code and game",
                fields=", ".join(unknown),
            )
        linked, code, game = d.get("linked"), d.get("code"), d.get("game")
        organiser, follow = d.get("organiser"), d.get("follow", False)
        if not isinstance(linked, dict | str):
            raise RequestError("send the organiser's game file as `linked`")
        url = None if organiser in (None, "") else organiser_url(organiser)
        if not (isinstance(code, str) and code.strip()) and url is None:
            raise RequestError("type the seed code the organiser gave, as `code`")
        if not isinstance(follow, bool):
            raise RequestError("follow is true or false")
        if follow and url is None:
            raise RequestError("to follow the organiser's calls, give the organiser's address")
        if not isinstance(game, dict):
            raise RequestError("send the hall's game (deck_id, mode, draw) as `game`")
        if game.get("public_input"):
            raise RequestError("a linked game takes no public input: every hall calls one order")
        text = linked if isinstance(linked, str) else json.dumps(linked)
        new = NewGame.from_json(game)
        if follow:  # the organiser's calls are entered as a cage's balls are
            new = replace(new, draw=DrawMethod.MANUAL)
        typed = code.strip() if isinstance(code, str) and code.strip() else None
        return cls(read_game(text), typed, new, url, follow)


@dataclass(frozen=True)
class LinkedStarted(JsonValue):
    """The hall's game of the linked game: its id, its round's commitment (the game's)."""

    game_id: int
    commitment: str
    round: int
    linked: str
    hall: str


def linked_line(game_id: int) -> str:
    """`linked_line(id)` in templates: what the projector and the caller page say of the linked
    game a hall game plays, in the reader's language ("" for any other game). The game file is
    read once per game and kept (it never changes); the card pages never ask."""
    parts = live_state().parts
    if game_id not in parts:
        found = _recorded(get_db(), STARTED, game_id, "file")
        parts[game_id] = None if found is None else read_game(found.document).tiers
    tiers = parts[game_id]
    if tiers is None:
        return ""
    return str(
        gettext(
            "Linked game · national prize %(prize)s · lowest call count wins",
            prize=money(tiers.national, tiers.currency, current_lang()),
        )
    )


def linked_following(game_id: int) -> bool:
    """`linked_following(id)` in templates: the hall game follows the organiser's calls live
    now (a ball typed by the Maestro meanwhile would be off the code's order)."""
    return live_of(game_id).mode == Mode.FOLLOWING


@bp.record_once
def _register(state: BlueprintSetupState) -> None:
    app = state.app
    assert isinstance(app, Flask)  # the station's app, never a Quart or another App
    app.jinja_env.globals["linked_line"] = linked_line
    app.jinja_env.globals["linked_view_of"] = linked_view_of
    app.jinja_env.globals["linked_following"] = linked_following
    with app.app_context():
        add_call_guard(refuse_hand_calls_while_following)


def start_linked_game(
    conn: sqlite3.Connection, start: LinkedStart, key: StationKey
) -> LinkedStarted:
    """Start the hall's game of a linked game, once the code matches the commitment and the
    station's key is one the game registered."""
    game = start.game
    mine = game.hall_by_key(key.fingerprint)
    if mine is None:
        raise Conflict(
            "this station's key %(fp)s is not one the linked game registered: send it to the "
            "organiser before the night",
            fp=key.fingerprint,
        )
    code = start.code
    if code is None:
        assert start.organiser is not None  # from_json asks for one or the other
        code = fetch_code(start.organiser, key.fingerprint)
    seed = check_code(code, game.commitment)
    deck = get_deck(conn, start.new.deck_id)
    if deck.variant is not variant_for(game.balls):
        raise Conflict(
            "the linked game plays %(balls)s balls; the deck %(deck)s is of another game",
            balls=game.balls,
            deck=deck.name,
        )
    with write_transaction(conn) as tx:
        started = write_new_game(conn, start.new, seed)
        entry = {"game_id": started.game_id, "linked": game.game_id, "file": game.to_json()}
        if start.organiser is not None:
            entry["organiser"] = start.organiser
        book.append(conn, STARTED, entry)
        tx.commit()
        game_started(conn, started)
    tell_deck_listeners(deck)
    if start.follow:
        assert start.organiser is not None
        follow(conn, started.game_id, start.organiser, key)
    return LinkedStarted(
        started.game_id, started.commitment, started.round, game.game_id, mine.name
    )


@dataclass(frozen=True)
class _Recorded:
    """A linked game's book entry: its document (the game file, the hall's result) as JSON
    text, for `read_game`/`read_result`, and the organiser's address a game started with."""

    document: str
    organiser: str | None


def _recorded(conn: sqlite3.Connection, kind: str, game_id: int, part: str) -> _Recorded | None:
    for (data,) in conn.execute("SELECT data FROM book WHERE kind = ? ORDER BY seq DESC", (kind,)):
        found = json.loads(data)
        if found.get("game_id") == game_id:
            url = found.get("organiser")
            return _Recorded(json.dumps(found[part]), url if isinstance(url, str) else None)
    return None


def linked_game_of(conn: sqlite3.Connection, game_id: int) -> LinkedGame:
    return _started(conn, game_id)[0]


def _started(conn: sqlite3.Connection, game_id: int) -> tuple[LinkedGame, str | None]:
    """The linked game a hall game plays, and the organiser's address it was started with."""
    get_game(conn, game_id)  # 404 for a game that does not exist
    found = _recorded(conn, STARTED, game_id, "file")
    if found is None:
        raise NotFound("game %(game)s is not a linked game", game=game_id)
    return read_game(found.document), found.organiser


def _order(conn: sqlite3.Connection, game_id: int) -> tuple[int, ...]:
    """The order the hall's code gave: its round's seed is the linked one (start_linked_game)."""
    rnd = current_round(conn, game_id)
    return linked_order(bytes.fromhex(rnd.seed), get_game(conn, game_id).balls)


def follow(conn: sqlite3.Connection, game_id: int, url: str | None, key: StationKey) -> Live:
    """Follow the organiser's calls for the hall's game (again): its draw must be by hand."""
    _, recorded = _started(conn, game_id)
    url = url or recorded
    if url is None:
        raise Conflict("this linked game has no organiser's address to follow")
    game = get_game(conn, game_id)
    if game.draw != DrawMethod.MANUAL or not game.active:
        raise Conflict(
            "only an active game whose balls are entered by hand can follow the organiser"
        )
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    state = live_state()
    with state.lock:
        old = state.follows.get(game_id)
        if old is not None and old.live.mode == Mode.FOLLOWING:
            return old.live
        state.follows[game_id] = Follow(
            app, game_id, url, key.fingerprint, _order(conn, game_id), lambda: None
        )
        started = state.follows[game_id].start()
    return started.live


def stop_following(game_id: int) -> Live:
    state = live_state()
    with state.lock:
        found = state.follows.get(game_id)
    if found is None:
        return Live(Mode.CODE)
    found.stop("the Maestro stopped following: going on from the code")
    return found.live


def live_of(game_id: int) -> Live:
    found = live_state().follows.get(game_id)
    return Live(Mode.CODE) if found is None else found.live


def next_from_code(conn: sqlite3.Connection, game_id: int) -> int:
    """Enter the next ball of the order (the hall goes on from the code); the hall's count."""
    linked_game_of(conn, game_id)
    if live_of(game_id).mode == Mode.FOLLOWING:
        raise Conflict("the station is following the organiser's calls: stop following first")
    if get_game(conn, game_id).draw != DrawMethod.MANUAL:
        raise Conflict("this game draws the order itself: use Draw")
    order = _order(conn, game_id)
    made = len(called_balls(conn, game_id))
    if made >= len(order):
        raise Conflict("all %(n)s balls have been called", n=len(order))
    return enter_from_order(current_app._get_current_object(), game_id, order, made + 1)  # type: ignore[attr-defined]


def send_result(conn: sqlite3.Connection, game_id: int, url: str | None) -> Sent:
    """POST the hall's result to the organiser; what became of it is kept for the page."""
    _, recorded = _started(conn, game_id)
    made = recorded_result(conn, game_id)
    if made is None:
        raise Conflict("make the result first: it is made from the first valid claim")
    url = url or recorded
    sent = (
        Sent("not-sent", "no organiser's address: save it as a file to carry")
        if url is None
        else post_result(url, made.text())
    )
    live_state().sent[game_id] = sent
    return sent


@dataclass(frozen=True)
class LinkedView(JsonValue):
    """The linked game as the caller page shows it."""

    game_id: int
    name: str
    window: str
    hall: str
    organiser: str | None
    live: Live
    next_ball: int | None
    result: Mapping[str, Any] | None
    sent: Sent | None


def linked_view(conn: sqlite3.Connection, game_id: int, key: StationKey) -> LinkedView:
    linked, url = _started(conn, game_id)
    mine = linked.hall_by_key(key.fingerprint)
    order = _order(conn, game_id)
    made = len(called_balls(conn, game_id))
    result = recorded_result(conn, game_id)
    return LinkedView(
        game_id,
        linked.name,
        linked.window.line(),
        "" if mine is None else mine.name,
        url,
        live_of(game_id),
        order[made] if made < len(order) else None,
        None if result is None else {"outcome": str(result.outcome), "count": result.count},
        live_state().sent.get(game_id),
    )


def recorded_result(conn: sqlite3.Connection, game_id: int) -> HallResult | None:
    found = _recorded(conn, RESULT, game_id, "result")
    return None if found is None else read_result(found.document)


def make_hall_result(
    conn: sqlite3.Connection, game_id: int, key: StationKey, no_winner: bool, now: datetime
) -> HallResult:
    """The hall's result, made once and recorded in the book (see the module's docstring)."""
    with write_transaction(conn):
        made = recorded_result(conn, game_id)
        if made is not None:
            return made
        made = _result(conn, game_id, key, no_winner, now)
        book.append(conn, RESULT, {"game_id": game_id, "result": made.to_json()})
    return made


def _result(
    conn: sqlite3.Connection, game_id: int, key: StationKey, no_winner: bool, now: datetime
) -> HallResult:
    linked = linked_game_of(conn, game_id)
    game = get_game(conn, game_id)
    row = conn.execute(
        "SELECT id FROM rounds WHERE game_id = ? AND number = 1", (game_id,)
    ).fetchone()
    calls = [r["ball"] for r in live_calls(conn, row["id"])]
    claims = [
        HallClaim(r["serial"], r["at_call"], _moment(r["made"]))
        for r in conn.execute(
            "SELECT serial, at_call, made FROM claims WHERE round_id = ? AND valid = 1",
            (row["id"],),
        )
    ]
    deck = get_deck(conn, game.deck_id)
    found = first_claim(linked, calls, claims, deck.card)
    mine = linked.hall_by_key(key.fingerprint)
    if mine is None:
        raise Conflict("this station's key is not one the linked game registered")
    signer, head = Signer.of_station(key), key.sign(book.head(conn))
    if found is not None:
        claim, ticket = found
        return make_result(
            linked, mine.name, signer, head, calls[: claim.at_call], claim.at, deck.deck_id, ticket
        )
    if not no_winner:
        raise Conflict(
            "no valid claim holds the linked game's %(pattern)s yet: to send no winner, close "
            "the game without one",
            pattern=linked.pattern,
        )
    return make_result(linked, mine.name, signer, head, calls, now)


def _moment(text: str) -> datetime:
    """A station time ("2026-12-05T20:13:07.412Z") as a moment."""
    return datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)


def linked_view_of(game_id: int) -> LinkedView | None:
    """`linked_view_of(id)` in templates: the caller page's panel (None: not a linked game)."""
    conn = get_db()
    if _recorded(conn, STARTED, game_id, "file") is None:
        return None
    return linked_view(conn, game_id, book.station_key())


# ---- routes --------------------------------------------------------------------------------


@bp.post("/games")
@caller_required
def start() -> tuple[Response, int]:
    started = start_linked_game(
        get_db(), LinkedStart.from_json(body(required=True, max_bytes=MAX_BODY)), book.station_key()
    )
    return jsonify(started.to_json()), 201


@bp.post("/games/<int:game_id>/result")
@caller_required
def make(game_id: int) -> Response:
    d = body()
    no_winner = d.get("no_winner", False)
    if not isinstance(no_winner, bool):
        raise RequestError("no_winner is true or false")
    made = make_hall_result(get_db(), game_id, book.station_key(), no_winner, datetime.now(UTC))
    return jsonify(made.to_json())


@bp.get("/games/<int:game_id>")
@caller_required
def view(game_id: int) -> Response:
    return jsonify(linked_view(get_db(), game_id, book.station_key()).to_json())


@bp.post("/games/<int:game_id>/follow")
@caller_required
def follow_route(game_id: int) -> Response:
    d = body()
    url = None if d.get("organiser") in (None, "") else organiser_url(d.get("organiser"))
    return jsonify(follow(get_db(), game_id, url, book.station_key()).to_json())


@bp.delete("/games/<int:game_id>/follow")
@caller_required
def unfollow(game_id: int) -> Response:
    linked_game_of(get_db(), game_id)
    return jsonify(stop_following(game_id).to_json())


@bp.post("/games/<int:game_id>/next")
@caller_required
def next_ball(game_id: int) -> Response:
    return jsonify(count=next_from_code(get_db(), game_id))


@bp.post("/games/<int:game_id>/send")
@caller_required
def send(game_id: int) -> Response:
    d = body()
    url = None if d.get("organiser") in (None, "") else organiser_url(d.get("organiser"))
    return jsonify(send_result(get_db(), game_id, url).to_json())


@bp.get("/games/<int:game_id>/result")
@caller_required
def result(game_id: int) -> Response:
    made = recorded_result(get_db(), game_id)
    if made is None:
        linked_game_of(get_db(), game_id)  # 404 for a game that is not linked
        raise NotFound("game %(game)s has no result yet", game=game_id)
    if game_id not in live_state().sent or live_state().sent[game_id].state != "sent":
        live_state().sent[game_id] = Sent("file")
    answer = Response(made.text(), mimetype="application/json")
    hall_name = "".join(c if c.isascii() and c.isalnum() else "-" for c in made.hall)
    name = f"result-{hall_name}-{made.game[:8]}.json"
    answer.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return answer
