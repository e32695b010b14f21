"""The night's ledger: cards sold, prizes from the pot, payouts and the summary.

An area of the station, registered by `bingo_hall.app.create_app`:

* `/caller/ledger`: the Maestro's (or the seller's) ledger page: the night's currency, each
  game's price list and prizes, sales by range or by scanning cards at the door at a price of
  the list, the paper stock issued to sellers, returned and void, corrections with a reason,
  payouts to mark paid, the cash box (float, count, over/short), and the summary (PDF, CSV).
* `/api/ledger/...`, `/api/games/<id>/ledger/...`: the same as JSON; every change is a caller
  action (PIN, CSRF, logged in `ledger_log`).
* `/ledger/games/<id>/prizes`: the round's prizes as the caller page and /display show them
  (a fragment, public, as the display is).

The money rules are the pure `bingo_hall.money`; a claim and an award reach this area through
`bingo_hall.station.hooks`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from flask import Blueprint, Flask, Response, g, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from ...errors import KitError
from ...money import DENOMINATIONS, StockKind, amount_text, coin, money, small_unit
from ...money.night import Night
from ...printing.ledger_pdf import render_summary_pdf
from ...values import JsonValue
from ...web import book_store as book
from ...web import db as core_db
from ...web.db import get_db
from ...web.errors import NotFound, RequestError
from ...web.inputs import json_body as body
from .. import games, hooks
from ..auth import caller_required
from . import (
    cash,
    correction_store,
    night_sales,
    payouts,
    price_store,
    prize_store,
    raffle,
    raffle_schema,
    sale_store,
    schema,
    stock,
    store,
    summary,
)
from .requests import (
    CountRequest,
    FloatRequest,
    NightSaleRequest,
    PriceListRequest,
    PrizesRequest,
    SaleRequest,
    StockRequest,
    reason_of,
)
from .view import cash_now, ledger_view

bp = Blueprint(
    "ledger",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/ledger/static",
)


@dataclass(frozen=True)
class LedgerPart(JsonValue):
    """The snapshot's `ledger`: whether the game has prizes in money (the pages then show them)."""

    ledger: bool


def _ledger_snapshot(conn: sqlite3.Connection, game_id: int) -> LedgerPart:
    """Every snapshot says whether the game has prizes in money."""
    return LedgerPart(bool(prize_store.rules_of(conn, game_id)))


def register(app: Flask) -> None:
    core_db.add_migrations(app, "ledger", schema.MIGRATIONS)
    core_db.add_migrations(app, "raffle", raffle_schema.MIGRATIONS)
    app.register_blueprint(bp)
    app.register_blueprint(raffle.bp)  # the raffle: its takings are the ledger's
    app.jinja_env.filters["money"] = _money
    app.jinja_env.filters["amount"] = _amount
    app.jinja_env.filters["coin"] = _coin
    app.jinja_env.filters["small_unit"] = lambda currency: str(small_unit(currency))
    app.jinja_env.globals["ledger_prizes"] = _prizes_now
    app.jinja_env.globals["ledger_currency"] = lambda: store.currency(get_db())
    with app.app_context():
        hooks.on_claim(payouts.on_claim)
        hooks.on_award(payouts.on_award)
        hooks.on_book(sale_store.book_of_card)
        hooks.on_record(payouts.record_notes)
        hooks.on_record(stock.record_notes)
        hooks.on_record(cash.record_notes)
        games.add_snapshot_extender(_ledger_snapshot)


def _money(cents: int, currency: str) -> str:
    """`{{ cents | money(currency) }}`: an amount as the page's reader writes it."""
    locale = get_locale()
    return money(cents, currency, locale.language if locale else "en")


def _amount(cents: int) -> str:
    """`{{ cents | amount }}`: an amount in an input box, in the form `money` shows it."""
    locale = get_locale()
    return amount_text(cents, locale.language if locale else "en")


def _coin(cents: int, currency: str) -> str:
    """`{{ cents | coin(currency) }}`: a note or coin of the cash count as the treasurer
    writes it ("50p", "£5.00")."""
    locale = get_locale()
    return coin(cents, currency, locale.language if locale else "en")


def _prizes_now(game_id: int) -> list[payouts.PrizeNow]:
    """`ledger_prizes(game_id)` in templates: the round's prizes (caller page, /display)."""
    return payouts.prizes_now(get_db(), game_id)


def _reason(template: str) -> str:
    """The reason a correction's body gives (`requests.reason_of`); `template` asks for it."""
    return reason_of(body(required=True).get("reason"), template)


def _via() -> str | None:
    via: str | None = g.get("caller_via")
    return via


def _night() -> Night:
    try:
        return summary.night(get_db(), request.args.get("night") or None, book.station_key())
    except KitError as exc:
        raise NotFound(
            "there were no games on the night of %(date)s", date=request.args.get("night")
        ) from exc


def _lang() -> str:
    lang = request.args.get("lang") or request.accept_languages.best_match(["es", "en"]) or "en"
    if lang not in ("es", "en"):
        raise RequestError("the summary comes in es or en")
    return lang


# ---- the Maestro's pages -------------------------------------------------------------------


@bp.get("/caller/ledger")
@caller_required
def page() -> ResponseReturnValue:
    conn = get_db()
    listed = games.list_games(conn)
    asked = request.args.get("game", type=int)
    gid = asked or games.newest_active_game(conn) or (listed[0].game_id if listed else None)
    led = None
    if gid is not None:
        led = ledger_view(conn, gid).to_json()
        # a 90-ball game's door sells tickets, not cards: the page names the game's paper
        led["layout"] = games.get_game(conn, gid).variant.layout
        led["prizes_now"] = payouts.prizes_now(conn, gid)
        led["rules"] = {p: r.to_json() for p, r in prize_store.rules_of(conn, gid).items()}
    return render_template(
        "ledger/page.html",
        games=listed,
        led=led,
        door=None if gid is None else night_sales.door(conn, gid),
        night_sales=[n.to_json() for n in night_sales.night_sales(conn)],
        night_payouts=summary.night_payouts(conn),
        log=correction_store.corrections(conn),
        nights=summary.nights(conn),
        currency=store.currency(conn),
        cash=cash_now(conn),
        denominations=DENOMINATIONS.get(store.currency(conn), ()),
    )


@bp.get("/ledger/games/<int:game_id>/prizes")
def prizes_fragment(game_id: int) -> ResponseReturnValue:
    """The round's prizes, for the caller page and /display ("Línea: 15,00 € · Bingo: 52,50 €");
    `?short=1`: each prize by its name alone, without its gloss ("Ambo", not "Ambo (two in a
    row)"), for the projector's side of a 90-ball board."""
    conn = get_db()
    games.get_game(conn, game_id)
    return render_template(
        "ledger/_prize_line.html",
        prizes=payouts.prizes_now(conn, game_id),
        currency=store.currency(conn),
        short=request.args.get("short") == "1",
    )


@bp.get("/caller/ledger/summary.<fmt>")
@caller_required
def summary_file(fmt: str) -> ResponseReturnValue:
    """The summary of the newest night, or `?night=2026-11-24`."""
    lang = _lang()
    night = _night()
    if fmt == "pdf":
        resp = Response(render_summary_pdf(night, lang), mimetype="application/pdf")
    elif fmt == "csv":
        from ...money.night_csv import summary_csv

        resp = Response(summary_csv(night, lang), mimetype="text/csv")
    else:
        raise RequestError("the summary comes as pdf or csv")
    if request.args.get("download"):
        resp.headers["Content-Disposition"] = f'attachment; filename="night-summary.{fmt}"'
    return resp


# ---- the JSON API --------------------------------------------------------------------------


@bp.get("/api/games/<int:game_id>/ledger")
@caller_required
def game_ledger(game_id: int) -> ResponseReturnValue:
    return jsonify(ledger_view(get_db(), game_id).to_json())


@bp.post("/api/ledger/currency")
@caller_required
def set_currency() -> ResponseReturnValue:
    return jsonify(
        currency=store.set_currency(get_db(), body(required=True).get("currency"), _via())
    )


@bp.post("/api/games/<int:game_id>/ledger/prices")
@bp.post("/api/games/<int:game_id>/ledger/price")  # the older form: a list of one price
@caller_required
def set_prices(game_id: int) -> ResponseReturnValue:
    req = PriceListRequest.from_json(body(required=True))
    return jsonify(price_store.set_prices(get_db(), game_id, req, _via()).to_json())


@bp.post("/api/games/<int:game_id>/ledger/prizes")
@caller_required
def set_prizes(game_id: int) -> ResponseReturnValue:
    req = PrizesRequest.from_json(body(required=True))
    return jsonify(prize_store.set_prizes(get_db(), game_id, req, _via()).to_json())


@bp.post("/api/games/<int:game_id>/ledger/sales")
@caller_required
def sell(game_id: int) -> ResponseReturnValue:
    req = SaleRequest.from_json(body(required=True))
    return jsonify(sale_store.sell(get_db(), game_id, req, _via()).to_json()), 201


@bp.post("/api/ledger/night-sales")
@caller_required
def sell_night() -> ResponseReturnValue:
    """Cards sold once for several games of the program (`{"games": "1-4"}` or "night")."""
    req = NightSaleRequest.from_json(body(required=True))
    return jsonify(night_sales.sell(get_db(), req, _via()).to_json()), 201


@bp.get("/api/ledger/night-sales")
@caller_required
def list_night_sales() -> ResponseReturnValue:
    """The loaded program's night sales, voided ones included."""
    return jsonify(night_sales=[n.to_json() for n in night_sales.night_sales(get_db())])


@bp.post("/api/ledger/night-sales/<int:night_sale_id>/void")
@caller_required
def void_night_sale(night_sale_id: int) -> ResponseReturnValue:
    reason = _reason("say why the sale is corrected (at most %(n)s characters)")
    return jsonify(night_sales.void(get_db(), night_sale_id, reason, _via()).to_json())


@bp.get("/api/ledger/payouts")
@caller_required
def night_payouts() -> ResponseReturnValue:
    """Every payout of the night in one list (`?night=2026-11-24`; default: the newest)."""
    night = _night()
    return jsonify(
        night=night.date, payouts=[p.to_json() for p in summary.night_payouts(get_db(), night.date)]
    )


@bp.post("/api/ledger/sales/<int:sale_id>/correct")
@caller_required
def correct(sale_id: int) -> ResponseReturnValue:
    reason = _reason("say why the sale is corrected (at most %(n)s characters)")
    return jsonify(correction_store.correct(get_db(), sale_id, reason, _via()).to_json())


@bp.post("/api/games/<int:game_id>/ledger/stock/<kind>")
@caller_required
def stock_entry(game_id: int, kind: str) -> ResponseReturnValue:
    """`issue` (to a seller), `return` (unsold) or `void` (with the reason)."""
    if kind not in tuple(StockKind):
        raise NotFound("stock is issued, returned or void, not %(kind)s", kind=kind)
    req = StockRequest.from_json(StockKind(kind), body(required=True))
    return jsonify(stock.record(get_db(), game_id, req, _via()).to_json()), 201


@bp.post("/api/ledger/stock/<int:stock_id>/correct")
@caller_required
def correct_stock(stock_id: int) -> ResponseReturnValue:
    reason = _reason("say why the stock entry is corrected (at most %(n)s characters)")
    return jsonify(stock.correct(get_db(), stock_id, reason, _via()).to_json())


@bp.post("/api/ledger/cash/float")
@caller_required
def cash_float() -> ResponseReturnValue:
    req = FloatRequest.from_json(body(required=True))
    return jsonify(cash.set_float(get_db(), req, _via()).to_json()), 201


@bp.post("/api/ledger/cash/count")
@caller_required
def cash_count() -> ResponseReturnValue:
    req = CountRequest.from_json(body(required=True))
    return jsonify(cash.count(get_db(), req, _via()).to_json()), 201


@bp.post("/api/ledger/payouts/<int:payout_id>/paid")
@caller_required
def paid(payout_id: int) -> ResponseReturnValue:
    """Paid in cash unless `{"cash": false}` (a cheque, a transfer)."""
    in_cash = body().get("cash", True)
    if not isinstance(in_cash, bool):
        raise RequestError("cash is true or false")
    return jsonify(payouts.mark_paid(get_db(), payout_id, in_cash, _via()).to_json())


@bp.post("/api/ledger/payouts/<int:payout_id>/unpaid")
@caller_required
def unpaid(payout_id: int) -> ResponseReturnValue:
    """A payout marked paid by mistake: marked not paid, with the reason (nothing is deleted)."""
    reason = _reason("say why the payout was not paid after all (at most %(n)s characters)")
    return jsonify(payouts.mark_unpaid(get_db(), payout_id, reason, _via()).to_json())


@bp.get("/api/ledger/log")
@caller_required
def audit_log() -> ResponseReturnValue:
    """Every ledger action of the night in order: what, when, and through what (page or token)."""
    return jsonify(log=[e.to_json() for e in store.audit_log(get_db())])


@bp.get("/api/ledger/summary")
@caller_required
def summary_json() -> ResponseReturnValue:
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
        unplayed=night.unplayed,
        cash=None
        if night.cash is None
        else {
            "float": night.cash.float,
            "counted": night.cash.counted,
            "pieces": {str(v): n for v, n in night.cash.pieces},
            "paid_cash": night.paid_cash,
            "expected": night.expected_cash,
            "over_short": night.over_short,
        },
        games=[
            {
                "game_id": gl.game_id,
                "cards": gl.cards,
                "taken": gl.taken,
                "awarded": gl.awarded,
                "stock": None
                if gl.stock is None
                else {
                    "issued": gl.stock.issued,
                    "sold": gl.stock.sold,
                    "returned": gl.stock.returned,
                    "void": gl.stock.void,
                    "missing": gl.stock.missing,
                },
            }
            for gl in night.games
        ],
    )
