"""The raffle's pages and API, part of the ledger area (it counts the takings):

* `/caller/raffle`: the Maestro's page: the price, tickets sold by colour and range, the prizes,
  then Close the sales and commit, Draw, Nobody claims (redraw, with the reason), Reveal.
* `/raffle`: the big screen: the prizes, the winners as they are drawn, the commitment, and the
  seed at the end; it follows `/raffle/events` (the state first, then each change).
* `/api/raffle...`: the same as JSON; every change is a caller action (PIN, CSRF).
"""

from __future__ import annotations

from flask import Blueprint, g, jsonify, render_template

from ...web.db import get_db
from ...web.hub import EventStream, live_stream, sse
from ...web.inputs import json_body as body
from ...web.instance import hall
from ..auth import caller_required
from . import raffle_store
from .raffle_store import CHANNEL
from .requests import (
    RaffleCommitRequest,
    RafflePrizeRequest,
    RaffleRedrawRequest,
    RaffleSaleRequest,
    RaffleStartRequest,
)

bp = Blueprint("raffle", __name__, template_folder="templates")
RETRY_MS = 3000


def _via() -> str | None:
    return g.get("caller_via")


@bp.get("/caller/raffle")
@caller_required
def page():
    conn = get_db()
    return render_template("ledger/raffle.html", raffle=raffle_store.state(conn))


@bp.get("/raffle")
def screen():
    return render_template("ledger/raffle_screen.html", raffle=raffle_store.state(get_db()))


@bp.get("/raffle/events")
@live_stream
def events():
    sub = hall().hub.subscribe(CHANNEL)
    try:
        first = sse("snapshot", raffle_store.state(get_db()).to_json())
    except BaseException:
        sub.close()
        raise
    return EventStream(
        sub, first, retry_ms=RETRY_MS, heartbeat_s=hall().config.stream_heartbeat_s
    ).response()


@bp.get("/api/raffle")
def state():
    return jsonify(raffle_store.state(get_db()).to_json())


@bp.post("/api/raffle")
@caller_required
def start():
    return jsonify(
        raffle_store.start(
            get_db(), RaffleStartRequest.from_json(body(required=True)), _via()
        ).to_json()
    ), 201


@bp.post("/api/raffle/sales")
@caller_required
def sell():
    return jsonify(
        raffle_store.sell(
            get_db(), RaffleSaleRequest.from_json(body(required=True)), _via()
        ).to_json()
    ), 201


@bp.post("/api/raffle/prizes")
@caller_required
def add_prize():
    return jsonify(
        raffle_store.add_prize(
            get_db(), RafflePrizeRequest.from_json(body(required=True)), _via()
        ).to_json()
    ), 201


@bp.post("/api/raffle/commit")
@caller_required
def commit():
    return jsonify(
        raffle_store.commit(get_db(), RaffleCommitRequest.from_json(body() or {}), _via()).to_json()
    )


@bp.post("/api/raffle/draw")
@caller_required
def draw():
    return jsonify(raffle_store.draw_next(get_db(), _via()).to_json())


@bp.post("/api/raffle/unclaimed")
@caller_required
def unclaimed():
    return jsonify(
        raffle_store.unclaimed(
            get_db(), RaffleRedrawRequest.from_json(body(required=True)), _via()
        ).to_json()
    )


@bp.post("/api/raffle/reveal")
@caller_required
def reveal():
    return jsonify(raffle_store.reveal(get_db(), _via()).to_json())
