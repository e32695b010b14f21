"""Verifying cards and settling claims: the public QR pages and the claims API.

* `/c/<deck_id>/<serial>/<sig>` and `/C/...` (QR codes print upper case): anyone on the hall's
  Wi-Fi who scans a card sees it as printed, with the current game's calls marked and the verdict.
  The signature is checked with `bingo_hall.signing.signature_is_valid`; anything that does not
  verify gets the same 404 page, with no card data, whether the deck, the serial or the signature
  was wrong.
* `/api/games/<id>/...`: check, players, claims, award, settings (the Maestro's, behind the PIN),
  scores and record (public: the display shows the scores, and the record is for auditors).

The rules are the pure engines (`seventyfive.claims`, `bingo_hall.ninety.prize_rules`); each route
asks the game's (or the deck's) variant, `variants.ClaimsKind`, how to judge, draw and store a card,
and `service`, `store`, `awards` and `prizes` keep what was decided in SQLite.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from ...errors import KitError
from ...manifest import Deck, is_deck_id
from ...signing import signature_is_valid
from ...web import db as core_db
from ...web.admission import SMALL_BODY, guest_body
from ...web.db import get_db
from ...web.errors import Conflict, NotFound, RequestError
from ...web.inputs import is_ascii_number
from ...web.inputs import json_body as body
from ...web.instance import hall
from ...web.pages import public
from .. import autodraw, games
from ..auth import caller_required
from ..decks import get_deck
from ..model import Game
from ..requests import (
    Award,
    NewClaim,
    NewPlayer,
    RemovePlayer,
    RenamePlayer,
    SettingsChange,
)
from ..requests import name as player_name
from ..requests import serial as parse_serial
from ..state import station_state
from . import asks, awards, card_pages, card_view, on_show, record, schema, service, store
from .card_pages import CardPages
from .judged import Checked
from .variants import Boards, ClaimsKind, claims_kind, claims_of

bp = Blueprint(
    "verify",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/verify/static",
)


def _board_for_snapshot(conn: sqlite3.Connection, game_id: int) -> Boards:
    """Every station snapshot carries the scoreboard (75 balls) or the prizes (90 balls), so a
    screen that reconnects is right."""
    return claims_kind(games.get_game(conn, game_id)).snapshot(conn, game_id)


def _refuse_balls_after_the_win(conn: sqlite3.Connection, game_id: int) -> None:
    """The station's call guard: no ball once the round is won (its variant says when)."""
    game = games.get_game(conn, game_id)
    claims_kind(game).refuse_balls(conn, game, games.current_round(conn, game.game_id))


def _keep_the_calls_an_award_rests_on(
    conn: sqlite3.Connection, game_id: int, position: int
) -> None:
    """The station's undo guard: an awarded prize stands, so the calls it was won on stay (a
    ball drawn after a 90-ball línea can still be taken back, not the línea's own)."""
    game = games.get_game(conn, game_id)
    rnd = games.current_round(conn, game.game_id)
    at = claims_kind(game).awarded_at(conn, rnd)
    if at is not None and position <= at:
        raise Conflict(
            "call %(n)s cannot be undone: a prize of round %(r)s was awarded on it; the award "
            "stands",
            n=position,
            r=rnd.number,
        )


def register(app: Flask) -> None:
    """Add card pages and claims to the station (`bingo_hall.app.create_app` calls this)."""
    core_db.add_migrations(app, "claims", schema.MIGRATIONS)
    app.register_blueprint(bp)
    app.jinja_env.globals["follow_words"] = card_view.follow_words
    app.jinja_env.globals["line_labels"] = card_view.line_labels
    state = station_state(app)
    state.deck_listeners.append(lambda deck: card_pages.announce(app, deck))
    hall(app).loop_pages.append(lambda scope: CardPages.of(app).answer(app, scope))
    hall(app).loop_page_waits.append(lambda scope, loop: CardPages.of(app).waiter(scope, loop))
    hall(app).card_checks.append(lambda path: CardPages.of(app).shows_a_card(app, path))
    with app.app_context():
        games.add_snapshot_extender(_board_for_snapshot)
        games.add_call_guard(_refuse_balls_after_the_win)
        games.add_undo_guard(_keep_the_calls_an_award_rests_on)


def _signed_card(
    conn: sqlite3.Connection, deck_id: str, serial: str, sig: str
) -> tuple[Deck[Any], Any] | None:
    """(deck, card) when the URL is one this hall printed, else None (never says which part
    was wrong)."""
    if not is_ascii_number(serial, 6) or len(sig) > 64:
        return None
    try:
        deck = get_deck(conn, deck_id)
    except KitError:
        return None
    if not signature_is_valid(deck.secret, deck.deck_id, int(serial), sig):
        return None
    try:
        return deck, deck.card(int(serial))
    except KitError:
        return None


def _other_deck(conn: sqlite3.Connection, deck_id: str) -> str | None:
    """The deck a refused QR code names, when it is a deck id this station never loaded (a card
    of another night or hall): the page says so, since typing its number here would check
    another card. None when the deck is loaded (then the code itself was changed) or the path
    is not a deck id at all. The code's own words, so nothing of the station is told."""
    if not is_deck_id(deck_id):
        return None
    known = conn.execute("SELECT 1 FROM decks WHERE deck_id = ?", (deck_id,)).fetchone()
    return None if known else deck_id


def _render_card(
    conn: sqlite3.Connection,
    kind: ClaimsKind[Any, Any],
    deck: Deck[Any],
    card: Any,
    game: Game | None,
    checked: Checked | None,
    page: bool = False,
) -> str:
    """The card as its variant draws it with its marks and the verdict itself (`checked`, or
    None without a game); for the card's holder (`page`, its `?part=verdict`), also what they
    are told (the rounds it won, "shout!")."""
    told = kind.page(conn, game.game_id if game else None, card, checked) if page else None
    return render_template(
        kind.card_fragment,
        grid=kind.grid(card, checked),
        deck=deck,
        card=card,
        game=game,
        v=checked,
        player=told and told.player,
        follow=told and told.follow,
        prize_board=told and told.prize_board,
        **kind.drawn(card),
    )


@bp.get("/c/<deck_id>/<serial>/<sig>")
@bp.get("/C/<deck_id>/<serial>/<sig>")
@public
def card_page(deck_id: str, serial: str, sig: str) -> ResponseReturnValue:
    """A card as printed, from what is kept (verify/card_pages.py: the page around it, its
    table, the game's state): card.js marks it and writes the verdict on load, then follows the
    game from its events. The station's server answers it on its event loop while everything
    is kept; here it is built, once, when something is not. `?part=verdict` is the card judged
    now with its marks (what Bingo de Puntos asks for its points)."""
    with station_state().page_gate:  # a storm of phones queues here, not for the CPU
        return _card_page(deck_id, serial, sig)


def _card_page(deck_id: str, serial: str, sig: str) -> ResponseReturnValue:
    conn = get_db()
    found = _signed_card(conn, deck_id, serial, sig)
    if found is None:
        if request.args.get("part") == "verdict":
            return jsonify(error="not a card of this hall"), 404
        return render_template("verify/not_a_card.html", other_deck=_other_deck(conn, deck_id)), 404
    deck, card = found
    kind = claims_of(deck.variant)
    if request.args.get("part") == "verdict":
        game = card_view.game_for_deck(conn, deck.deck_id)
        checked = None if game is None else service.check_for_page(conn, game, card)
        return _render_card(conn, kind, deck, card, game, checked, page=True)
    pages = CardPages.of()
    now = pages.deck_now(conn, deck)
    lang = str(get_locale() or "en")
    return pages.page(deck, card, lang, now, request.path, request.full_path)


@bp.post("/c/<deck_id>/<serial>/<sig>/ask")
@bp.post("/C/<deck_id>/<serial>/<sig>/ask")
@guest_body(SMALL_BODY)
def ask_check(deck_id: str, serial: str, sig: str) -> ResponseReturnValue:
    """A player asks the Maestro for a check from their card's page, without shouting
    (verify/asks.py): only from the card's signed page, judged now, shown on the caller
    page; never a recorded claim. Refused in words past one request per card per call, 3 per
    card and 10 per address a minute."""
    asks.from_the_cards_page(request)
    conn = get_db()
    found = _signed_card(conn, deck_id, serial, sig)
    if found is None:
        raise NotFound("not a card of this hall")
    deck, card = found
    game = card_view.game_for_deck(conn, deck.deck_id)
    ask = asks.ask_check(conn, game, card, request.remote_addr or "")
    return jsonify(ask.to_json()), 201


@bp.get("/api/games/<int:game_id>/asks")
@caller_required
def asked(game_id: int) -> ResponseReturnValue:
    """The current round's requests for a check from the phones (the caller page lists them)."""
    conn = get_db()
    rnd = games.current_round(conn, game_id)
    return jsonify(asks=[a.to_json() for a in asks.Asks.of().pending(game_id, rnd.number)])


@bp.post("/api/games/<int:game_id>/asks/<serial>/seen")
@caller_required
def ask_seen(game_id: int, serial: str) -> ResponseReturnValue:
    """The Maestro has looked at the card's request for a check ("Look" or "Dismiss" on the
    caller page): it leaves the page's notice. The round's requests, as `GET .../asks`."""
    conn = get_db()
    rnd = games.current_round(conn, game_id)
    asks.looked_at(game_id, parse_serial(serial))
    return jsonify(asks=[a.to_json() for a in asks.Asks.of().pending(game_id, rnd.number)])


@bp.route("/api/games/<int:game_id>/check/<serial>", methods=["GET", "POST"])
@caller_required
def check(game_id: int, serial: str) -> ResponseReturnValue:
    """The Maestro's typed or scanned serial: the verdict as JSON, or `?format=html` for the
    caller page. A scanned card also sends `deck` and `sig` from its QR path, checked here, and
    `prize` the prize the Maestro chose (judged for it, as the claim will be).
    GET only reads; POST (with the CSRF token) also shows the verdict on the hall screens (a
    `verdict` event): a link can never put a verdict on the big screen."""
    conn = get_db()
    _check_scanned(conn, game_id, serial)
    show = request.method == "POST"  # a GET only reads
    # the player the Maestro chose in the claims form, so the room hears whose card it is
    player = player_name(request.args.get("player"), required=False)
    prize = request.args.get("prize") or None  # the prize the Maestro chose (Tambola)
    if show:  # the room is shown a claim: no ball meanwhile
        autodraw.pause(game_id, autodraw.Pause.CLAIM)
    kind, checked = service.check(
        conn, game_id, parse_serial(serial), show=show, player=player, prize=prize
    )
    if show:  # shown to the room: the card's request, if it asked, has been seen to
        asks.looked_at(game_id, parse_serial(serial))
    if request.args.get("format") == "html":
        game = games.get_game(conn, game_id)
        deck = get_deck(conn, game.deck_id)
        return _render_card(conn, kind, deck, checked.ticket, game, checked)
    return jsonify(checked.to_json())


@bp.get("/api/games/<int:game_id>/shown")
def shown_now(game_id: int) -> ResponseReturnValue:
    """The newest card the hall's screens were shown in this game, as its `verdict` event said
    with the number of calls it was judged on (a screen that reconnects shows it again while no
    call came since), or null. Public: the screens' stream said as much."""
    on = on_show.shown_cards().newest(game_id)
    return jsonify(on.to_json() if on else None)


@bp.get("/api/games/<int:game_id>/shown/<key>")
def shown_card(game_id: int, key: str) -> ResponseReturnValue:
    """A card the hall's screens were shown (the `drawn` key of its `verdict` event, or "r<n>":
    the card that won round n, its final board), drawn as every view draws it, in the screen's
    language. Public and read-only: only a card the screens showed can be drawn."""
    on = on_show.find(get_db(), game_id, key)
    if on is None:
        raise NotFound("that card is not on the hall's screens")
    card = on.checked.ticket
    grid = on.kind.grid(card, on.checked)
    return render_template(
        on.kind.shown_table, card=card, grid=grid, v=on.checked, **on.kind.drawn(card)
    )


def _check_scanned(conn: sqlite3.Connection, game_id: int, serial: str) -> None:
    """A scanned QR path names its deck and carries its signature: both must be this game's."""
    deck_id, sig = request.args.get("deck"), request.args.get("sig")
    if deck_id is None and sig is None:
        return
    game = games.get_game(conn, game_id)
    if deck_id != game.deck_id:
        raise RequestError("this card is from another deck, not the one of game %(n)s", n=game_id)
    if _signed_card(conn, deck_id, serial, sig or "") is None:
        raise RequestError("this card's code does not verify: it was not printed by this hall")


@bp.get("/api/games/<int:game_id>/players")
def list_players(game_id: int) -> ResponseReturnValue:
    conn = get_db()
    games.get_game(conn, game_id)
    return jsonify(players=[p.to_json() for p in store.players(conn, game_id)])


@bp.post("/api/games/<int:game_id>/players")
@caller_required
def add_player(game_id: int) -> ResponseReturnValue:
    conn = get_db()
    added = service.add_player(conn, game_id, NewPlayer.from_json(body(required=True)))
    return jsonify(added.to_json()), 201


@bp.post("/api/games/<int:game_id>/players/rename")
@caller_required
def rename_player(game_id: int) -> ResponseReturnValue:
    """{"name", "new_name", "team"?}: the player's claims, wins and turns follow the new name."""
    change = RenamePlayer.from_json(body(required=True))
    return jsonify(service.rename_player(get_db(), game_id, change).to_json())


@bp.post("/api/games/<int:game_id>/players/remove")
@caller_required
def remove_player(game_id: int) -> ResponseReturnValue:
    """{"name", "confirm"?}: off the table; one who has won needs `confirm` and stays in the
    record."""
    change = RemovePlayer.from_json(body(required=True))
    return jsonify(service.remove_player(get_db(), game_id, change).to_json())


@bp.post("/api/games/<int:game_id>/settings")
@caller_required
def settings(game_id: int) -> ResponseReturnValue:
    change = SettingsChange.from_json(body(required=True))
    return jsonify(service.update_settings(get_db(), game_id, change).to_json())


@bp.post("/api/games/<int:game_id>/claims")
@caller_required
def claim(game_id: int) -> ResponseReturnValue:
    conn = get_db()
    autodraw.pause(game_id, autodraw.Pause.CLAIM)  # no ball while the claim is judged
    claimed = NewClaim.from_json(body(required=True))
    made = service.make_claim(conn, game_id, claimed)
    asks.looked_at(game_id, claimed.serial)  # its request, if it asked, is seen to
    return jsonify(made.to_json()), 201


@bp.post("/api/games/<int:game_id>/award")
@caller_required
def award(game_id: int) -> ResponseReturnValue:
    conn = get_db()
    kind = claims_kind(games.get_game(conn, game_id))
    done = kind.award(conn, game_id, Award.from_json(body()))
    _pause_once_won(conn, game_id)
    return jsonify(done.to_json())


def _pause_once_won(conn: sqlite3.Connection, game_id: int) -> None:
    """After an award the automatic draw stops with the game (the Puntos target reached), or
    pauses when the round is won (the call guard refuses a ball)."""
    if not games.get_game(conn, game_id).active:
        autodraw.stop(game_id)
        return
    try:
        games.check_call_allowed(conn, game_id)
    except Conflict:
        autodraw.pause(game_id, autodraw.Pause.WON)


@bp.get("/api/games/<int:game_id>/scores")
def scores(game_id: int) -> ResponseReturnValue:
    return jsonify(awards.scores(get_db(), game_id).to_json())


@bp.get("/api/games/<int:game_id>/record")
@bp.get("/api/games/<int:game_id>/record.<fmt>")
def game_record(game_id: int, fmt: str = "json") -> ResponseReturnValue:
    """The record as JSON, or CSV with `.csv` or `?format=csv` (a spreadsheet opens it)."""
    fmt = request.args.get("format", fmt)
    if fmt not in ("json", "csv"):
        raise RequestError("the record comes as json or csv")
    rec = record.record(get_db(), game_id)
    name = f"bingo-game-{rec.game.game_id}-record.{fmt}"
    if fmt == "csv":
        resp = Response(record.record_csv(rec), mimetype="text/csv")
    else:
        resp = jsonify(rec.to_json())
    if request.args.get("download"):
        resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp
