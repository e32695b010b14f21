"""The caller pages (PIN login): the Maestro's Draw button, manual entry, undo, rounds, new game
and the Tabla Confrontadora. The buttons call the JSON API (api.py) with the session's CSRF
token, so there is one implementation of every action."""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import format_date
from flask_babel import gettext as _

from ..errors import KitError
from ..manifest import parse_deck
from ..variants import STRIPS, VARIANTS, variant_for
from ..web import book_store as book
from ..web.admission import SMALL_BODY, guest_body
from ..web.db import get_db
from ..web.errors import RequestError, translated
from ..web.security import local_path
from .auth import (
    PinResult,
    caller_required,
    check_pin,
    csrf_ok,
    end_every_login,
    is_caller,
    log_in_session,
)
from .decks import DeckListing, list_decks, store_deck
from .games import get_game, newest_active_game, start_game
from .hall_settings import load as hall_settings
from .prize_lists import host_plans
from .requests import NewGame
from .snapshots import snapshot
from .variants import PLAY, game_kind

bp = Blueprint("caller", __name__, url_prefix="/caller")


def _safe_next(target: str | None) -> str:
    return local_path(target, url_for("caller.index"))


@bp.route("/login", methods=["GET", "POST"])
@guest_body(SMALL_BODY)
def login():
    error, status = None, 200
    if request.method == "GET" and is_caller():
        return redirect(_safe_next(request.args.get("next")))
    if request.method == "POST":
        if not csrf_ok():
            error, status = _("The form had expired. Please type the PIN again."), 400
        else:
            result, wait = check_pin(request.form.get("pin", ""))
            if result == PinResult.OK:
                log_in_session()
                return redirect(_safe_next(request.args.get("next")))
            if result == PinResult.LIMITED:
                error = _("Too many wrong PINs. Try again in %(s)s seconds.", s=wait)
                status = 429
            else:
                error, status = _("Wrong PIN."), 401
    return render_template("caller/login.html", error=error), status


@bp.post("/logout")
@caller_required
def logout():
    end_every_login()
    session.clear()
    return redirect(url_for("display.home"))


@bp.get("/")
@caller_required
def index():
    game_id = newest_active_game(get_db())
    if game_id is None:
        return redirect(url_for("caller.new"))
    return redirect(url_for("caller.game", game_id=game_id))


@bp.route("/new", methods=["GET", "POST"])
@caller_required
def new():
    conn = get_db()
    error, status = None, 200
    if request.method == "POST":
        try:
            created = start_game(conn, NewGame.from_form(request.form))
            return redirect(url_for("caller.game", game_id=created.game_id))
        except RequestError as exc:
            error, status = exc.message(), exc.status
    active = newest_active_game(conn)
    decks = list_decks(conn)
    offered = {variant_for(d.game) for d in decks}
    # the kit's 90-ball plans, then the host's own, when a deck of strips is loaded
    strips = PLAY[STRIPS].plans(host_plans()) if STRIPS in offered else ()
    return render_template(
        "caller/new.html",
        tonight=[d for d in decks if d.tonight],
        earlier=[d for d in decks if not d.tonight],
        chosen=default_deck(decks),
        decks=decks,
        loaded_when={d.deck_id: _when(d) for d in decks},
        error=error,
        active=active,
        plans90=strips,
    ), status


def _when(deck: DeckListing) -> str:
    """When a deck was loaded, as the form says it: the laptop's time for tonight's decks
    ("19:42"), the date for earlier nights' ("20 Nov 2026")."""
    loaded = datetime.fromisoformat(deck.loaded).astimezone()  # the laptop's own clock
    if deck.tonight:
        return loaded.strftime("%H:%M")
    return format_date(loaded.date(), format="medium")


def default_deck(decks: list[DeckListing]) -> str | None:
    """The deck the New game form picks: the last loaded of the kit's main game (the first
    variant: 75-ball cards, which offer Normal and Puntos), tonight's before earlier nights';
    else the last loaded of any game."""
    main = VARIANTS[0]
    for d in sorted(decks, key=lambda d: not d.tonight):  # stable: last loaded first
        if variant_for(d.game) is main:
            return d.deck_id
    return decks[0].deck_id if decks else None


@bp.post("/decks")
@caller_required
def upload_deck():
    """Load a deck file (`*.deck.json`) chosen on the laptop."""
    upload = request.files.get("deck")
    if upload is None or not upload.filename:
        flash(_("Choose a deck file (.deck.json) first."))
        return redirect(url_for("caller.new"))
    try:
        deck = store_deck(get_db(), parse_deck(upload.read()))
        flash(_("Deck %(name)s loaded (%(n)s cards).", name=deck.name, n=len(deck.cards)))
    except RequestError as exc:
        flash(exc.message())
    except KitError as exc:  # the deck file's problem, naming the card
        flash(translated(exc))
    return redirect(url_for("caller.new"))


@bp.get("/games/<int:game_id>")
@caller_required
def game(game_id: int):
    conn = get_db()
    kind = game_kind(get_game(conn, game_id))
    return render_template(
        "caller/game.html",
        snap=snapshot(conn, game_id).to_json(),
        hall=hall_settings(conn),
        kind=kind,
        book_head=book.shown_head(),  # signed now: a photo of the page fixes the book so far
    )
