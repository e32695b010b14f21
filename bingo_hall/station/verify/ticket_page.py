"""The web side of a 90-ball ticket: its QR page (`/c/` and `/C/`, as printed: 3 x 9 with blanks,
the called numbers marked, complete rows marked and named), the Maestro's typed-serial check and
claims. The verify blueprint's routes hand a 90-ball game to these functions; the rules are in
`tickets90` and the pure `bingo_hall.ticket_claims`.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import jsonify, render_template, request

from ...manifest import Deck
from ...tickets import ROW_NAMES, Ticket
from .. import games
from ..decks import get_deck
from ..model import Game
from ..round_load import load_round
from . import card_view, tickets90


def ticket_grid(ticket: Ticket, v: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Row by row: the row's name, total and completeness, and its 9 cells (None = blank)."""
    marked = set(v["marked"]) if v else set()
    last = v["last_call"] if v else None
    complete = set(v["complete_rows"]) if v else set()
    return [
        {
            "name": ROW_NAMES[r],
            "total": sum(n for n in row if n is not None),
            "complete": ROW_NAMES[r] in complete,
            "cells": [
                {"n": n, "covered": n in marked, "last": n is not None and n == last} for n in row
            ],
        }
        for r, row in enumerate(ticket.grid)
    ]


def _render(template: str, deck: Deck, ticket: Ticket, game: Game | None, v, follow=None) -> str:
    return render_template(
        template,
        deck=deck,
        card=ticket,
        game=game,
        v=v,
        grid=ticket_grid(ticket, v),
        follow=follow,
    )


def card_page(conn: sqlite3.Connection, deck: Deck, ticket: Ticket, game: Game | None):
    """The signed QR's page for a ticket (the signature was checked by the caller), read once;
    the page then follows the game from its events (static/card.js)."""
    v, follow = None, None
    if game is not None:
        loaded = load_round(conn, game.game_id, game)
        v = tickets90.judged(conn, loaded, ticket)
        follow = card_view.follow_ticket(loaded, ticket, v)
    if request.args.get("part") == "verdict":
        return _render("verify/_ticket_fragment.html", deck, ticket, game, v)
    return _render("verify/ticket.html", deck, ticket, game, v, follow)


def shown_ticket(v: dict[str, Any], claim: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the hall screens show of a checked ticket or a recorded claim (the `verdict` event,
    as a 75-ball card's, with `game` 90): the ticket as printed with its marks and the verdict for
    the prize being played. A false 90-ball claim costs nothing, so there is no penalty."""
    return {
        "source": "claim" if claim else "check",
        "game": 90,
        "serial": v["serial"],
        "round": (claim or v)["round"],
        "player": claim["player"] if claim else None,
        "valid": v["valid"],
        "penalty": None,
        "verdict": v,
    }


def check(conn: sqlite3.Connection, game_id: int, serial: Any):
    """The Maestro's typed or scanned serial: the verdict as JSON, or `?format=html` for the
    caller page; shown on the hall screens too unless `?quiet=1`."""
    ticket, v = tickets90.check(conn, game_id, serial)
    if request.args.get("quiet") != "1":
        games.publish(game_id, "verdict", shown_ticket(v))
    if request.args.get("format") == "html":
        game = games.get_game(conn, game_id)
        deck = get_deck(conn, game.deck_id)
        return _render("verify/_ticket_fragment.html", deck, ticket, game, v)
    return jsonify(v)


def claim(conn: sqlite3.Connection, game_id: int, data: dict[str, Any]):
    made = tickets90.make_claim(conn, game_id, data)
    games.publish(made["game_id"], "claim", made)
    games.publish(made["game_id"], "verdict", shown_ticket(made["verdict"], made))
    games.publish(made["game_id"], "prize", tickets90.prize_state(conn, made["game_id"]))
    return jsonify(made), 201
