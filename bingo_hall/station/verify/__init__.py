"""Verifying cards and settling claims (issue 5): the public QR pages and the claims API.

* `/c/<deck_id>/<serial>/<sig>` and `/C/...` (QR codes print upper case): anyone on the hall's
  Wi-Fi who scans a card sees it as printed, with the current game's calls marked and the verdict.
  The signature is checked with `bingo_hall.signing.signature_is_valid`; anything that does not
  verify gets the same 404 page, with no card data, whether the deck, the serial or the signature
  was wrong.
* `/api/games/<id>/...`: check, players, claims, award, settings (the Maestro's, behind the PIN),
  scores and record (public: the display shows the scores, and the record is for auditors).

The rules are in `bingo_hall.claims`; `store` and `awards` keep them in SQLite.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, render_template, request

from ...cards import LINE_CELLS, SIZE, Card
from ...errors import KitError
from ...signing import signature_is_valid
from ...web import db as core_db
from ...web.db import get_db
from ...web.errors import RequestError
from ...web.inputs import is_ascii_number
from ...web.inputs import json_body as body
from .. import games
from ..auth import caller_required
from ..decks import get_deck
from . import awards, record, schema, store, ticket_page, tickets90

bp = Blueprint(
    "verify",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/verify/static",
)


def _scores_for_snapshot(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """Every station snapshot carries the scoreboard, so a screen that reconnects is right."""
    if tickets90.is_ninety(conn, game_id):
        return {"scores": None}  # a 90-ball game has prizes instead (tickets90.prize_state)
    try:
        return {"scores": awards.scores(conn, game_id)}
    except KitError:
        return {"scores": None}


def register(app: Flask) -> None:
    """Add card pages and claims to the station (`bingo_hall.app.create_app` calls this)."""
    core_db.add_migrations(app, "claims", schema.MIGRATIONS)
    app.register_blueprint(bp)
    with app.app_context():
        games.add_snapshot_extender(_scores_for_snapshot)
        games.add_snapshot_extender(tickets90.snapshot_prizes)


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


def card_grid(card: Card, v: dict[str, Any] | None) -> list[list[dict[str, Any]]]:
    """The card as printed, square by square, with what the verdict says about each square."""
    covered = {tuple(rc) for rc in v["covered"]} if v else set()
    winning = {cell for name in v["winning"] for cell in _cells(v, name)} if v else set()
    last = v["last_call"] if v else None
    need = set(_pattern_cells(v["pattern"]["mask"])) if v and v["pattern"] else set()
    return [
        [
            {
                "n": card.number_at(r, c),
                "covered": (r, c) in covered,
                "last": last is not None and card.number_at(r, c) == last,
                "wins": (r, c) in winning,
                "need": (r, c) in need,
            }
            for c in range(SIZE)
        ]
        for r in range(SIZE)
    ]


def _pattern_cells(mask: str) -> list[tuple[int, int]]:
    rows = mask.split("/")
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "1"]


def _cells(v: dict[str, Any], name: str):
    return _pattern_cells(v["pattern"]["mask"]) if v["pattern"] else LINE_CELLS[name]


def _render_card(template: str, deck, card: Card, game, v, board=None) -> str:
    return render_template(
        template,
        deck=deck,
        card=card,
        game=game,
        v=v,
        grid=card_grid(card, v),
        lines=card.lines_by_name,
        player=board,
    )


def _player_view(board: dict[str, Any] | None, serial: int, v) -> dict[str, Any]:
    """What the player holding the card is told: the rounds this card won (with the points),
    and "shout!" while it has a bingo in a round not yet awarded (the page never claims)."""
    if board is None:
        return {"won": [], "shout": False}
    won = [a for a in board["awards"] if a["serial"] == serial]
    return {
        "won": won,
        "puntos": board["mode"] == "points",
        "shout": bool(v and v["bingo"]) and board["awarded"] is None,
    }


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
    if deck.game == 90:
        return ticket_page.card_page(conn, deck, card, gid)
    verdict, game, board = None, None, None
    if gid is not None:
        game = games.get_game(conn, gid)
        verdict = store.check(conn, gid, card.serial).to_json()
        board = awards.scores(conn, gid)
    seen = _player_view(board, card.serial, verdict)
    if request.args.get("part") == "verdict":
        return _render_card("verify/_card_fragment.html", deck, card, game, verdict, seen)
    return _render_card("verify/card.html", deck, card, game, verdict, seen)


@bp.get("/api/games/<int:game_id>/check/<serial>")
@caller_required
def check(game_id: int, serial: str):
    """The Maestro's typed or scanned serial: the verdict as JSON, or `?format=html` for the
    caller page. A scanned card also sends `deck` and `sig` from its QR path, checked here. The
    verdict is shown on the hall screens at once (a `verdict` event) unless `?quiet=1`."""
    conn = get_db()
    _check_scanned(conn, game_id, serial)
    if tickets90.is_ninety(conn, game_id):
        return ticket_page.check(conn, game_id, serial)
    checked = store.check(conn, game_id, serial)
    if request.args.get("quiet") != "1":
        games.publish(checked.game_id, "verdict", shown_verdict(checked.to_json()))
    if request.args.get("format") == "html":
        game = games.get_game(conn, game_id)
        deck = get_deck(conn, game.deck_id)
        return _render_card(
            "verify/_card_fragment.html", deck, checked.card, game, checked.to_json()
        )
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


def shown_verdict(verdict: dict[str, Any], claim: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the hall screens show of a checked card or a recorded claim (the `verdict` event):
    the card as printed with its marks, the verdict and, for a false claim, the penalty."""
    return {
        "source": "claim" if claim else "check",
        "serial": verdict["serial"],
        "round": verdict["round"],
        "player": claim["player"] if claim else None,
        "valid": verdict["bingo"],
        "penalty": claim["penalty"] if claim else None,
        "verdict": verdict,
    }


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
    added = store.add_player(conn, game_id, body(required=True))
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
    if tickets90.is_ninety(conn, game_id):
        return ticket_page.claim(conn, game_id, body(required=True))
    made = store.make_claim(conn, game_id, body(required=True))
    games.publish(made["game_id"], "claim", made)
    shown = {**made["verdict"], "round": made["round"]}
    games.publish(made["game_id"], "verdict", shown_verdict(shown, made))
    _publish_scores(conn, made["game_id"])
    return jsonify(made), 201


@bp.post("/api/games/<int:game_id>/award")
@caller_required
def award(game_id: int):
    conn = get_db()
    if tickets90.is_ninety(conn, game_id):
        return jsonify(tickets90.award(conn, game_id, body()))
    settled = awards.award(conn, game_id)
    games.publish(settled["scores"]["game_id"], "scores", settled["scores"])
    return jsonify(settled)


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
