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
    POST /api/linked/games/<id>/result   {} (or {"no_winner": true} to close without one)
    GET  /api/linked/games/<id>/result   the result made, as a file to send

Routes parse the request into values; the services take the connection and the values.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, jsonify

from ...audit import StationKey
from ...linked.game import LinkedGame, read_game
from ...linked.keys import Signer
from ...linked.result import HallClaim, HallResult, first_claim, make_result, read_result
from ...linked.seed import check_code
from ...values import JsonValue
from ...variants import variant_for
from ...web import book_store as book
from ...web.db import get_db, write_transaction
from ...web.errors import Conflict, NotFound, RequestError
from ...web.inputs import json_body as body
from ..auth import caller_required
from ..decks import get_deck, tell_deck_listeners
from ..games import game_started, get_game, live_calls, write_new_game
from ..requests import NewGame

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
    code: str
    new: NewGame

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> LinkedStart:
        unknown = sorted(set(d) - {"linked", "code", "game"})
        if unknown:
            raise RequestError(
                "%(fields)s: not a field of a linked game; it takes linked, code and game",
                fields=", ".join(unknown),
            )
        linked, code, game = d.get("linked"), d.get("code"), d.get("game")
        if not isinstance(linked, dict | str):
            raise RequestError("send the organiser's game file as `linked`")
        if not isinstance(code, str):
            raise RequestError("type the seed code the organiser gave, as `code`")
        if not isinstance(game, dict):
            raise RequestError("send the hall's game (deck_id, mode, draw) as `game`")
        if game.get("public_input"):
            raise RequestError("a linked game takes no public input: every hall calls one order")
        text = linked if isinstance(linked, str) else json.dumps(linked)
        return cls(read_game(text), code, NewGame.from_json(game))


@dataclass(frozen=True)
class LinkedStarted(JsonValue):
    """The hall's game of the linked game: its id, its round's commitment (the game's)."""

    game_id: int
    commitment: str
    round: int
    linked: str
    hall: str


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
    seed = check_code(start.code, game.commitment)
    deck = get_deck(conn, start.new.deck_id)
    if deck.variant is not variant_for(game.balls):
        raise Conflict(
            "the linked game plays %(balls)s balls; the deck %(deck)s is of another game",
            balls=game.balls,
            deck=deck.name,
        )
    with write_transaction(conn) as tx:
        started = write_new_game(conn, start.new, seed)
        book.append(
            conn,
            STARTED,
            {"game_id": started.game_id, "linked": game.game_id, "file": game.to_json()},
        )
        tx.commit()
        game_started(conn, started)
    tell_deck_listeners(deck)
    return LinkedStarted(
        started.game_id, started.commitment, started.round, game.game_id, mine.name
    )


def _recorded(conn: sqlite3.Connection, kind: str, game_id: int) -> Mapping[str, Any] | None:
    for (data,) in conn.execute("SELECT data FROM book WHERE kind = ? ORDER BY seq DESC", (kind,)):
        found = json.loads(data)
        if found.get("game_id") == game_id:
            return dict(found)
    return None


def linked_game_of(conn: sqlite3.Connection, game_id: int) -> LinkedGame:
    get_game(conn, game_id)  # 404 for a game that does not exist
    found = _recorded(conn, STARTED, game_id)
    if found is None:
        raise NotFound("game %(game)s is not a linked game", game=game_id)
    return read_game(json.dumps(found["file"]))


def recorded_result(conn: sqlite3.Connection, game_id: int) -> HallResult | None:
    found = _recorded(conn, RESULT, game_id)
    return None if found is None else read_result(json.dumps(found["result"]))


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


@bp.get("/games/<int:game_id>/result")
@caller_required
def result(game_id: int) -> Response:
    made = recorded_result(get_db(), game_id)
    if made is None:
        linked_game_of(get_db(), game_id)  # 404 for a game that is not linked
        raise NotFound("game %(game)s has no result yet", game=game_id)
    answer = Response(made.text(), mimetype="application/json")
    hall_name = "".join(c if c.isascii() and c.isalnum() else "-" for c in made.hall)
    name = f"result-{hall_name}-{made.game[:8]}.json"
    answer.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return answer
