"""The caller station: a Flask app built the flaskr way (../shared/STYLE.md).

`create_app(test_config=None)` builds the app; there is no global app object and no import-time
side effect. Each area is a blueprint: caller, display, verify, api (this package) and companions
(the table scorekeepers, `companions.web`). The rules live in pure modules; this is an adapter.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from .. import i18n
from ..errors import KitError
from . import auth, db
from .errors import StationError


def _secret_key(instance: Path) -> str:
    """A per-installation session key, kept in the instance folder so logins survive restarts."""
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except OSError:
        key = secrets.token_hex(32)
        path.write_text(key)
        path.chmod(0o600)
        return key


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    instance = Path(app.instance_path)
    if test_config is not None and "INSTANCE_PATH" in test_config:
        instance = Path(test_config["INSTANCE_PATH"])
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=str(instance / "bingo-hall.sqlite"),
        CALLER_PIN=os.environ.get("BINGO_HALL_PIN") or f"{secrets.randbelow(10**6):06d}",
        COMPANIONS_ONLY=False,
        MAX_CONTENT_LENGTH=16 * 1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    app.config["INSTANCE_DIR"] = str(instance)

    db.init_app(app)
    i18n.init_app(app)
    auth.init_app(app)
    _error_pages(app)

    from companions.web import bp as companions_bp

    app.register_blueprint(companions_bp)
    if not app.config["COMPANIONS_ONLY"]:
        _register_station(app)
    return app


def _register_station(app: Flask) -> None:
    """The bingo blueprints, each registered if its module exists."""
    import importlib

    for name in ("caller", "display", "verify", "api"):
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue  # area not built yet
            raise
        blueprint = getattr(module, "bp", None)
        if blueprint is not None:  # a package still being written has no blueprint yet
            app.register_blueprint(blueprint)


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def _error_pages(app: Flask) -> None:
    """Bad input gets a 4xx as JSON {"error": ...} on the API or a readable page, never a 500
    traceback."""

    def answer(status: int, message: str):
        if _wants_json():
            return jsonify(error=message), status
        return render_template("station/error.html", status=status, message=message), status

    @app.errorhandler(KitError)
    def kit_error(exc: KitError):
        if isinstance(exc, StationError):  # a template: say it in the Maestro's language
            return answer(exc.status, _(exc.template, **exc.params))
        return answer(getattr(exc, "status", 400), str(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        messages = {
            404: _("There is no such page."),
            405: _("That action is not allowed here."),
            413: _("What was sent is too large."),
        }
        return answer(exc.code or 500, messages.get(exc.code or 0, exc.description or exc.name))

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        app.logger.exception("unexpected error")
        return answer(500, _("Something went wrong in the station; nothing was lost. Try again."))
