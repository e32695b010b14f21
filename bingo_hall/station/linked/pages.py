"""The linked game on the Maestro's pages: the page that starts it (the organiser's file, the
deck, the code typed or fetched, following live or not), and the buttons of its panel on the
game's page (`linked/_caller.html`: stop or go on following, the next ball from the code, the
result made, sent or saved as a file). Forms posted with the login session's CSRF token, each
answered by a redirect to the game's page, as the caller's own forms are; the services are the
API's (`station.linked`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ...errors import KitError
from ...linked.game import LinkedGame, read_game
from ...variants import ByVariant, Cards75, Strips90, variant_for
from ...web import book_store as book
from ...web.db import get_db
from ...web.errors import RequestError, translated
from ..auth import caller_required
from ..decks import list_decks
from ..games import newest_active_game
from ..model import DrawMethod
from ..requests import NewGame
from . import (
    LinkedStart,
    make_hall_result,
    next_from_code,
    send_result,
    start_linked_game,
    stop_following,
)
from . import follow as follow_organiser
from .live import organiser_url

pages = Blueprint(
    "linked_pages", __name__, url_prefix="/caller/linked", template_folder="templates"
)

#: a game file of a few thousand halls is well under this
MAX_FILE = 2_000_000


def _card_game(game: LinkedGame, deck_id: str, draw: DrawMethod) -> NewGame:
    return NewGame(deck_id, "normal", draw=draw, options={"pattern": game.pattern})


def _ticket_game(game: LinkedGame, deck_id: str, draw: DrawMethod) -> NewGame:
    return NewGame(deck_id, "house" if game.pattern == "full-house" else "lines-house", draw=draw)


#: the hall's own game for a linked one: it plays the linked figure, so that a claim on it is
#: the claim the result is made from (a 75-ball Bingo Normal of the pattern; a 90-ball plan that
#: holds the prize)
HALL_GAMES: ByVariant[Callable[[LinkedGame, str, DrawMethod], NewGame]] = ByVariant(
    "linked.pages.HALL_GAMES", {Cards75: _card_game, Strips90: _ticket_game}
)


def _start_from_form(form: Mapping[str, str], upload: bytes) -> LinkedStart:
    if not upload:
        raise RequestError("choose the game file the organiser sent (game.linked.json)")
    if len(upload) > MAX_FILE:
        raise RequestError("this file is too large to be a linked game")
    try:
        game = read_game(upload.decode("utf-8", "replace"))
    except KitError as exc:
        raise RequestError("the game file: %(why)s", why=exc) from None
    how = form.get("how", "typed")
    url = organiser_url(form.get("organiser")) if how in ("fetch", "follow") else None
    code = form.get("code", "").strip() or None
    if how == "typed" and code is None:
        raise RequestError("type the seed code the organiser gave, as `code`")
    draw = DrawMethod.MANUAL if how == "follow" or form.get("draw") == "manual" else DrawMethod.AUTO
    new = HALL_GAMES[variant_for(game.balls)](game, form.get("deck_id", ""), draw)
    return LinkedStart(game, code, new, url, how == "follow")


@pages.route("", methods=["GET", "POST"])
@caller_required
def start() -> ResponseReturnValue:
    conn = get_db()
    error, status = None, 200
    if request.method == "POST":
        upload = request.files.get("linked_file")
        try:
            start = _start_from_form(request.form, upload.read(MAX_FILE + 1) if upload else b"")
            started = start_linked_game(conn, start, book.station_key())
            return redirect(url_for("caller.game", game_id=started.game_id))
        except RequestError as exc:
            error, status = exc.message(), exc.status
        except KitError as exc:  # the game file's or the code's problem, in one line
            error, status = translated(exc), 400
    return render_template(
        "linked/start.html",
        decks=list_decks(conn),
        error=error,
        active=newest_active_game(conn),
        form=request.form,
    ), status


def _back(game_id: int) -> ResponseReturnValue:
    return redirect(url_for("caller.game", game_id=game_id) + "#linked")


def _act(game_id: int, action: Any) -> ResponseReturnValue:
    try:
        action()
    except RequestError as exc:
        flash(exc.message())
    except KitError as exc:
        flash(translated(exc))
    return _back(game_id)


@pages.post("/<int:game_id>/stop")
@caller_required
def stop(game_id: int) -> ResponseReturnValue:
    return _act(game_id, lambda: stop_following(game_id))


@pages.post("/<int:game_id>/follow")
@caller_required
def follow(game_id: int) -> ResponseReturnValue:
    return _act(game_id, lambda: follow_organiser(get_db(), game_id, None, book.station_key()))


@pages.post("/<int:game_id>/next")
@caller_required
def next_ball(game_id: int) -> ResponseReturnValue:
    return _act(game_id, lambda: next_from_code(get_db(), game_id))


@pages.post("/<int:game_id>/result")
@caller_required
def result(game_id: int) -> ResponseReturnValue:
    no_winner = request.form.get("no_winner") == "yes"
    return _act(
        game_id,
        lambda: make_hall_result(
            get_db(), game_id, book.station_key(), no_winner, datetime.now(UTC)
        ),
    )


@pages.post("/<int:game_id>/send")
@caller_required
def send(game_id: int) -> ResponseReturnValue:
    return _act(game_id, lambda: send_result(get_db(), game_id, None))
