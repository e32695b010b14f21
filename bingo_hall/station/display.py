"""The public screens: the start page and /display, the projector or TV view of a game.

The display follows the newest active game unless a game id is in the URL, and updates over
Server-Sent Events (api.py); it can speak each call through the browser's speech synthesis.
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request, send_from_directory
from flask_babel import get_locale
from markupsafe import Markup

from ..web.db import get_db
from ..web.instance import hall
from ..web.pages import screen_host, shared, shared_page
from ..web.qr import phone_url, qr_svg
from .games import get_game, newest_active_game
from .snapshots import snapshot
from .variants import game_kind

bp = Blueprint("display", __name__)


@bp.get("/")
def home():
    return render_template("display/home.html", game_id=newest_active_game(get_db()))


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for it on every page: a bingo ball from the package, not a 404 in the log."""
    static = current_app.blueprints["station"].static_folder
    return send_from_directory(static, "favicon.ico", max_age=7 * 24 * 3600)


def _host_url() -> str:
    """The address the screen was opened by, or, past `pages.SCREEN_HOSTS` of them, localhost
    (which `phone_url` turns into the station's LAN address); at the hall's port, where phones
    connect, though the screen was opened on the Maestro's own (`make run`'s big screen is)."""
    if screen_host(request.host) is not None:
        host = request.host
    else:
        host = f"localhost:{request.environ.get('SERVER_PORT', '80')}"
    hall_port = hall(current_app).hall_port
    if hall_port is not None:
        name, colon, port = host.rpartition(":")
        if colon and port.isdigit():  # (an IPv6 host is in brackets: its colons stay)
            host = name
        host = f"{host}:{hall_port}"
    return f"{request.scheme}://{host}/"


def _render(game_id: int | None, follow: bool) -> str:
    """The display with its "phones: join" QR to the phone page (/join, phone.py): the station's
    address now (its LAN address when the screen is browsed as localhost), whatever address the
    cards were printed with. Built once per change (web/pages.py), for every screen."""
    host = _host_url()
    key = ("display", request.path, game_id, str(get_locale()), host)
    return shared_page(key, lambda: _build(game_id, follow, host))


def _build(game_id: int | None, follow: bool, host: str) -> str:
    snap = kind = None
    if game_id is not None:
        conn = get_db()
        snap, kind = snapshot(conn, game_id).to_json(), game_kind(get_game(conn, game_id))
    join = phone_url(host, "/join")
    qr = Markup(qr_svg(join, label=join))  # our own SVG: one path of squares; its title, the URL
    return render_template(
        "display/display.html",
        snap=snap,
        kind=kind,
        follow=follow,
        join_url=join,
        join_qr=qr,
        lang_next=request.path,  # never the query: nothing of the request is in a kept page
    )


@bp.get("/display")
@shared
def follow():
    return _render(newest_active_game(get_db()), True)


@bp.get("/display/<int:game_id>")
def fixed(game_id: int):
    get_game(get_db(), game_id)  # a 404 for no such game, before anything is kept
    return _render(game_id, False)
