"""Verifying cards and settling claims (issue 5): the public QR pages and the claims API.

* `/c/<deck_id>/<serial>/<sig>` and `/C/...` (QR codes print upper case): anyone on the hall's
  Wi-Fi who scans a card sees it as printed, with the current game's calls marked and the verdict.
  The signature is checked with `bingo_hall.signing.signature_is_valid`; anything that does not
  verify gets the same 404 page, with no card data, whether the deck, the serial or the signature
  was wrong.
* `/api/games/<id>/...`: check, players, claims, award, settings (the Maestro's, behind the PIN),
  scores and record (public: the display shows the scores, and the record is for auditors).

The rules are the pure engines (`bingo_hall.claims`, `bingo_hall.ticket_claims`); each route asks
the game's (or the deck's) variant, `variants.ClaimsKind`, how to judge, draw and store a card, and
`service`, `store`, `awards` and `prizes` keep what was decided in SQLite.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, render_template, request

from ...errors import KitError
from ...manifest import Deck
from ...signing import signature_is_valid
from ...web import db as core_db
from ...web.db import get_db
from ...web.errors import RequestError
from ...web.inputs import is_ascii_number
from ...web.inputs import json_body as body
from .. import games
from ..auth import caller_required
from ..decks import get_deck
from ..model import Game
from ..requests import Award, NewClaim, NewPlayer
from ..requests import serial as parse_serial
from . import awards, record, schema, service, store
from .judged import Checked
from .variants import ClaimsKind, claims_kind, claims_of

bp = Blueprint(
    "verify",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/verify/static",
)


def _board_for_snapshot(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """Every station snapshot carries the scoreboard (75 balls) or the prizes (90 balls), so a
    screen that reconnects is right."""
    return claims_kind(games.get_game(conn, game_id)).snapshot(conn, game_id)


def register(app: Flask) -> None:
    """Add card pages and claims to the station (`bingo_hall.app.create_app` calls this)."""
    core_db.add_migrations(app, "claims", schema.MIGRATIONS)
    app.register_blueprint(bp)
    with app.app_context():
        games.add_snapshot_extender(_board_for_snapshot)


def _signed_card(conn: sqlite3.Connection, deck_id: str, serial: str, sig: str):
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


def _game_for_deck(conn: sqlite3.Connection, deck_id: str) -> int | None:
    """The game a scanned card belongs to: the newest one in play with its deck, else the
    newest finished one (its final calls are still worth seeing)."""
    row = conn.execute(
        "SELECT id FROM games WHERE deck_id = ? ORDER BY status = 'active' DESC, id DESC LIMIT 1",
        (deck_id,),
    ).fetchone()
    return row[0] if row else None


def _render_card(
    template: str,
    conn: sqlite3.Connection,
    kind: ClaimsKind,
    deck: Deck[Any],
    card: Any,
    game: Game | None,
    checked: Checked | None,
    page: bool = False,
) -> str:
    """The card as its variant draws it, with the verdict itself (`checked`, or None without a
    game); the public page adds what the card's holder is told."""
    extra = kind.drawn(card)
    if page:
        extra.update(kind.page(conn, game.game_id if game else None, card, checked))
    return render_template(
        template,
        deck=deck,
        card=card,
        game=game,
        v=checked,
        grid=kind.grid(card, checked),
        **extra,
    )


@bp.get("/c/<deck_id>/<serial>/<sig>")
@bp.get("/C/<deck_id>/<serial>/<sig>")
def card_page(deck_id: str, serial: str, sig: str):
    conn = get_db()
    found = _signed_card(conn, deck_id, serial, sig)
    if found is None:
        if request.args.get("part") == "verdict":
            return jsonify(error="not a card of this hall"), 404
        return render_template("verify/not_a_card.html"), 404
    deck, card = found
    gid = _game_for_deck(conn, deck.deck_id)
    game = None if gid is None else games.get_game(conn, gid)
    kind = claims_of(deck.variant)
    checked = None if game is None else service.check_for_page(conn, game, card)
    part = request.args.get("part") == "verdict"
    template = kind.card_fragment if part else kind.card_page
    return _render_card(template, conn, kind, deck, card, game, checked, page=True)


@bp.get("/api/games/<int:game_id>/check/<serial>")
@caller_required
def check(game_id: int, serial: str):
    """The Maestro's typed or scanned serial: the verdict as JSON, or `?format=html` for the
    caller page. A scanned card also sends `deck` and `sig` from its QR path, checked here. The
    verdict is shown on the hall screens at once (a `verdict` event) unless `?quiet=1`."""
    conn = get_db()
    _check_scanned(conn, game_id, serial)
    kind, checked = service.check(conn, game_id, parse_serial(serial))
    if request.args.get("quiet") != "1":
        shown = kind.shown(checked.to_json(), checked.round, checked.valid)
        games.publish(checked.game_id, "verdict", shown)
    if request.args.get("format") == "html":
        game = games.get_game(conn, game_id)
        deck = get_deck(conn, game.deck_id)
        return _render_card(kind.card_fragment, conn, kind, deck, checked.ticket, game, checked)
    return jsonify(checked.to_json())


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
def list_players(game_id: int):
    conn = get_db()
    games.get_game(conn, game_id)
    return jsonify(players=store.players(conn, game_id))


def _publish_scores(conn: sqlite3.Connection, gid: int) -> dict[str, Any]:
    board = awards.scores(conn, gid)
    games.publish(gid, "scores", board)
    return board


@bp.post("/api/games/<int:game_id>/players")
@caller_required
def add_player(game_id: int):
    conn = get_db()
    added = store.add_player(conn, game_id, NewPlayer.from_json(body(required=True)))
    return jsonify({**added, "scores": _publish_scores(conn, added["game_id"])}), 201


@bp.post("/api/games/<int:game_id>/settings")
@caller_required
def settings(game_id: int):
    conn = get_db()
    changed = store.update_settings(conn, game_id, body(required=True))
    return jsonify({**changed, "scores": _publish_scores(conn, changed["game_id"])})


@bp.post("/api/games/<int:game_id>/claims")
@caller_required
def claim(game_id: int):
    conn = get_db()
    made = service.make_claim(conn, game_id, NewClaim.from_json(body(required=True)))
    gid = made["game_id"]
    kind = claims_kind(games.get_game(conn, gid))
    games.publish(gid, "claim", made)
    shown = kind.shown(
        {**made["verdict"], "round": made["round"]}, made["round"], made["valid"], made
    )
    games.publish(gid, "verdict", shown)
    games.publish(gid, kind.board_event, kind.board(conn, gid))
    return jsonify(made), 201


@bp.post("/api/games/<int:game_id>/award")
@caller_required
def award(game_id: int):
    conn = get_db()
    kind = claims_kind(games.get_game(conn, game_id))
    return jsonify(kind.award(conn, game_id, Award.from_json(body())))


@bp.get("/api/games/<int:game_id>/scores")
def scores(game_id: int):
    return jsonify(awards.scores(get_db(), game_id))


@bp.get("/api/games/<int:game_id>/record")
@bp.get("/api/games/<int:game_id>/record.<fmt>")
def game_record(game_id: int, fmt: str = "json"):
    """The record as JSON, or CSV with `.csv` or `?format=csv` (a spreadsheet opens it)."""
    fmt = request.args.get("format", fmt)
    if fmt not in ("json", "csv"):
        raise RequestError("the record comes as json or csv")
    rec = record.record(get_db(), game_id)
    name = f"bingo-game-{rec['game_id']}-record.{fmt}"
    if fmt == "csv":
        resp = Response(record.record_csv(rec), mimetype="text/csv")
    else:
        resp = jsonify(rec)
    if request.args.get("download"):
        resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp
