"""The public screens: the start page and /display, the projector or TV view of a game.

The display follows the newest active game unless a game id is in the URL, and updates over
Server-Sent Events (api.py); it can speak each call through the browser's speech synthesis.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from ..web.db import get_db
from .games import get_game, newest_active_game, snapshot

bp = Blueprint("display", __name__)


@bp.get("/")
def home():
    return render_template("display/home.html", game_id=newest_active_game(get_db()))


@bp.get("/display")
def follow():
    conn = get_db()
    game_id = newest_active_game(conn)
    snap = snapshot(conn, game_id) if game_id is not None else None
    return render_template("display/display.html", snap=snap, follow=True)


@bp.get("/display/<int:game_id>")
def fixed(game_id: int):
    conn = get_db()
    get_game(conn, game_id)
    return render_template("display/display.html", snap=snapshot(conn, game_id), follow=False)
