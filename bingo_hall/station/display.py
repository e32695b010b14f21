"""The public screens: the start page and /display, the projector or TV view of a game.

The display follows the newest active game unless a game id is in the URL, and updates over
Server-Sent Events (api.py); it can speak each call through the browser's speech synthesis.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template, request, send_from_directory
from markupsafe import Markup

from ..web.db import get_db
from ..web.qr import phone_url, qr_svg
from .games import get_game, newest_active_game, snapshot
from .variants import PlayKind, game_kind

bp = Blueprint("display", __name__)


@bp.get("/")
def home():
    return render_template("display/home.html", game_id=newest_active_game(get_db()))


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for it on every page: a bingo ball from the package, not a 404 in the log."""
    static = current_app.blueprints["station"].static_folder
    return send_from_directory(static, "favicon.ico", max_age=7 * 24 * 3600)


def _render(snap: dict[str, Any] | None, kind: PlayKind | None, follow: bool) -> str:
    """The display with its "phones: join" QR to the phone page (/join, phone.py): the station's
    address now (its LAN address when the screen is browsed as localhost), whatever address the
    cards were printed with."""
    join = phone_url(request.host_url, "/join")
    qr = Markup(qr_svg(join))  # our own SVG: one path of squares, no user text
    return render_template(
        "display/display.html", snap=snap, kind=kind, follow=follow, join_url=join, join_qr=qr
    )


@bp.get("/display")
def follow():
    conn = get_db()
    game_id = newest_active_game(conn)
    if game_id is None:
        return _render(None, None, True)
    return _render(snapshot(conn, game_id), game_kind(get_game(conn, game_id)), True)


@bp.get("/display/<int:game_id>")
def fixed(game_id: int):
    conn = get_db()
    kind = game_kind(get_game(conn, game_id))
    return _render(snapshot(conn, game_id), kind, False)
