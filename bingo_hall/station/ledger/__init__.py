"""The night's ledger (issue 27): cards sold, prizes from the pot, payouts and the summary.

An area of the station, registered by `bingo_hall.app.create_app`:

* `/caller/ledger`: the Maestro's (or the seller's) ledger page: the night's currency, each
  game's price and prizes, sales by range or by scanning cards at the door, corrections with a
  reason, payouts to mark paid, and the summary (PDF, CSV).
* `/api/ledger/...`, `/api/games/<id>/ledger/...`: the same as JSON; every change is a caller
  action (PIN, CSRF, logged in `ledger_log`).
* `/ledger/games/<id>/prizes`: the round's prizes as the caller page and /display show them
  (a fragment, public, as the display is).

The money rules are the pure `bingo_hall.ledger`; a claim and an award reach this area through
`bingo_hall.station.hooks`.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Blueprint, Flask, Response, g, jsonify, render_template, request
from flask_babel import get_locale

from ...errors import KitError
from ...ledger import money
from ...night import Night
from ...printing.ledger_pdf import render_summary_pdf
from ...web import db as core_db
from ...web.db import get_db
from ...web.errors import NotFound, RequestError
from ...web.inputs import json_body as body
from .. import games, hooks
from ..auth import caller_required
from . import payouts, raffle, raffle_schema, schema, store, summary

bp = Blueprint(
    "ledger",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/ledger/static",
)


def _ledger_snapshot(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """Every snapshot says whether the game has prizes in money (the pages then show them)."""
    return {"ledger": bool(store.rules_of(conn, game_id))}


def register(app: Flask) -> None:
    core_db.add_migrations(app, "ledger", schema.MIGRATIONS)
    core_db.add_migrations(app, "raffle", raffle_schema.MIGRATIONS)
    app.register_blueprint(bp)
    app.register_blueprint(raffle.bp)  # the raffle (issue 37): its takings are the ledger's
    app.jinja_env.filters["money"] = _money
    app.jinja_env.globals["ledger_prizes"] = _prizes_now
    app.jinja_env.globals["ledger_currency"] = lambda: store.currency(get_db())
    with app.app_context():
        hooks.on_claim(payouts.on_claim)
        hooks.on_award(payouts.on_award)
        hooks.on_record(payouts.record_notes)
        games.add_snapshot_extender(_ledger_snapshot)


def _money(cents: int, currency: str) -> str:
    """`{{ cents | money(currency) }}`: an amount as the page's reader writes it."""
    locale = get_locale()
    return money(cents, currency, locale.language if locale else "en")


def _prizes_now(game_id: int) -> list[payouts.PrizeNow]:
    """`ledger_prizes(game_id)` in templates: the round's prizes (caller page, /display)."""
    return payouts.prizes_now(get_db(), game_id)


def _via() -> str | None:
    return g.get("caller_via")


def _night() -> Night:
    try:
        return summary.night(get_db(), request.args.get("night") or None)
    except KitError as exc:
        raise NotFound(
            "there were no games on the night of %(date)s", date=request.args.get("night")
        ) from exc


def _lang() -> str:
    lang = request.args.get("lang") or request.accept_languages.best_match(["es", "en"]) or "en"
    if lang not in ("es", "en"):
        raise RequestError("the summary comes in es or en")
    return lang


def state(conn: sqlite3.Connection, gid: int) -> dict[str, Any]:
    """A game's ledger: price, prizes now, sales, payouts and warnings."""
    game = games.get_game(conn, gid)
    price = store.price_of(conn, gid)
    rnd = games.current_round(conn, gid).number
    cards, cents = payouts.round_sales(conn, gid, rnd)
    return {
        "game_id": gid,
        "currency": store.currency(conn),
        "round": rnd,
        "active": game.active,
        "plays": list(store.game_prizes(game)),
        "price": None if price is None else {"cents": price.cents, "book": price.book},
        "round_sales": {"cards": cards, "cents": cents},
        "prizes": [p.to_json() for p in payouts.prizes_now(conn, gid)],
        "sales": [s.to_json() for s in store.sales(conn, gid)],
        "payouts": payouts.payouts(conn, gid),
        "warnings": payouts.warnings(conn, gid),
    }


# ---- the Maestro's pages -------------------------------------------------------------------


@bp.get("/caller/ledger")
@caller_required
def page():
    conn = get_db()
    listed = games.list_games(conn)
    asked = request.args.get("game", type=int)
    gid = asked or games.newest_active_game(conn) or (listed[0]["game_id"] if listed else None)
    led = None
    if gid is not None:
        led = state(conn, gid)
        led["prizes_now"] = payouts.prizes_now(conn, gid)
        led["rules"] = {p: r.to_json() for p, r in store.rules_of(conn, gid).items()}
    return render_template(
        "ledger/page.html",
        games=listed,
        led=led,
        log=store.corrections(conn),
        nights=summary.nights(conn),
        currency=store.currency(conn),
    )


@bp.get("/ledger/games/<int:game_id>/prizes")
def prizes_fragment(game_id: int):
    """The round's prizes, for the caller page and /display ("Línea: 15,00 € · Bingo: 52,50 €")."""
    conn = get_db()
    games.get_game(conn, game_id)
    return render_template(
        "ledger/_prize_line.html",
        prizes=payouts.prizes_now(conn, game_id),
        currency=store.currency(conn),
    )


@bp.get("/caller/ledger/summary.<fmt>")
@caller_required
def summary_file(fmt: str):
    """The summary of the newest night, or `?night=2026-11-24`."""
    lang = _lang()
    night = _night()
    if fmt == "pdf":
        resp = Response(render_summary_pdf(night, lang), mimetype="application/pdf")
    elif fmt == "csv":
        from ...night import summary_csv

        resp = Response(summary_csv(night, lang), mimetype="text/csv")
    else:
        raise RequestError("the summary comes as pdf or csv")
    if request.args.get("download"):
        resp.headers["Content-Disposition"] = f'attachment; filename="night-summary.{fmt}"'
    return resp


# ---- the JSON API --------------------------------------------------------------------------


@bp.get("/api/games/<int:game_id>/ledger")
@caller_required
def game_ledger(game_id: int):
    return jsonify(state(get_db(), game_id))


@bp.post("/api/ledger/currency")
@caller_required
def set_currency():
    return jsonify(store.set_currency(get_db(), body(required=True).get("currency"), _via()))


@bp.post("/api/games/<int:game_id>/ledger/price")
@caller_required
def set_price(game_id: int):
    return jsonify(store.set_price(get_db(), game_id, body(required=True), _via()))


@bp.post("/api/games/<int:game_id>/ledger/prizes")
@caller_required
def set_prizes(game_id: int):
    return jsonify(store.set_prizes(get_db(), game_id, body(required=True), _via()))


@bp.post("/api/games/<int:game_id>/ledger/sales")
@caller_required
def sell(game_id: int):
    return jsonify(store.sell(get_db(), game_id, body(required=True), _via())), 201


@bp.post("/api/ledger/sales/<int:sale_id>/correct")
@caller_required
def correct(sale_id: int):
    return jsonify(store.correct(get_db(), sale_id, body(required=True).get("reason"), _via()))


@bp.post("/api/ledger/payouts/<int:payout_id>/paid")
@caller_required
def paid(payout_id: int):
    return jsonify(payouts.mark_paid(get_db(), payout_id, _via()))


@bp.post("/api/ledger/payouts/<int:payout_id>/unpaid")
@caller_required
def unpaid(payout_id: int):
    """A payout marked paid by mistake: marked not paid, with the reason (nothing is deleted)."""
    reason = body(required=True).get("reason")
    return jsonify(payouts.mark_unpaid(get_db(), payout_id, reason, _via()))


@bp.get("/api/ledger/log")
@caller_required
def audit_log():
    """Every ledger action of the night in order: what, when, and through what (page or token)."""
    return jsonify(log=store.audit_log(get_db()))


@bp.get("/api/ledger/summary")
@caller_required
def summary_json():
    night = _night()
    return jsonify(
        night=night.date,
        brought=night.brought,
        currency=night.currency,
        cards=night.cards,
        taken=night.taken,
        awarded=night.awarded,
        paid=night.paid,
        carried=night.carried,
        left=night.left,
        games=[
            {"game_id": gl.game_id, "cards": gl.cards, "taken": gl.taken, "awarded": gl.awarded}
            for gl in night.games
        ],
    )
