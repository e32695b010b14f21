"""The installable app's files: the web manifest, the service worker, and the shell's and the
game packages' static files."""

from __future__ import annotations

from flask import current_app, send_from_directory, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from .blueprint import HERE, bp


@bp.route("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    body = {
        "name": gettext("Bingo Hall table scores"),
        "short_name": gettext("Scores"),
        "start_url": url_for("companions.index"),
        "scope": url_for("companions.index"),
        "display": "standalone",
        "background_color": "#14161c",
        "theme_color": "#14161c",
        "icons": [
            {
                "src": url_for("companions.static_file", filename=f"icon-{n}.png"),
                "sizes": f"{n}x{n}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for n in (192, 512)
        ],
    }
    return current_app.response_class(
        current_app.json.dumps(body), mimetype="application/manifest+json"
    )


@bp.route("/sw.js")
def service_worker() -> ResponseReturnValue:
    resp = send_from_directory(HERE / "static", "sw.js", mimetype="text/javascript")
    resp.headers["Service-Worker-Allowed"] = url_for("companions.index")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.route("/static/<path:filename>")
def static_file(filename: str) -> ResponseReturnValue:
    """The shell's own files, or `/t/static/<game>/<file>` from a game package's static/."""
    head, _, rest = filename.partition("/")
    game_static = HERE / head / "static"
    if rest and head.isidentifier() and game_static.is_dir():
        return send_from_directory(game_static, rest)
    return send_from_directory(HERE / "static", filename)
