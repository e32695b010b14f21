"""One error convention for every web area, and the handlers that apply it.

An area raises a `RequestError` (400), `NotFound` (404), `Conflict` (409) or `Unavailable` (503)
with an English message template and named parameters, e.g.
`NotFound("there is no game %(game)s", game=7)`: the convention of `bingo_hall.errors.KitError`,
which every user-facing error shares (the pure rules' and the table games' `EntryError` too).
The template is translated at the edge (`translated`), in the reader's language (each area's
catalog has the Spanish), and `str()` still gives the English sentence for logs and the CLI.

The answer is JSON `{"error": "..."}` (plus any `extra` fields) when the client wants JSON
(`wants_json`), else a page: the error page registered for the URL's area, or the core's own.
Nothing reaches the client as a traceback: the last handler logs the route and the kind of input
and answers a plain 500 message.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from flask import Flask, Response, current_app, jsonify, make_response, render_template, request
from flask_babel import format_decimal, gettext
from werkzeug.exceptions import HTTPException

from ..errors import KitError
from .instance import hall

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class RequestError(KitError):
    """A request the hall refuses. `status` is the HTTP status; `extra` goes into the JSON."""

    status = 400

    def __init__(
        self, template: str, /, *, extra: dict[str, Any] | None = None, **params: Any
    ) -> None:
        self.extra = extra or {}
        super().__init__(template, **params)

    def message(self) -> str:
        """The message in the reader's language (needs a request context)."""
        return translated(self)


class Unauthorized(RequestError):
    """Only the Maestro may do this (log in with the caller PIN)."""

    status = 401


class Forbidden(RequestError):
    status = 403


class NotFound(RequestError):
    status = 404


class Conflict(RequestError):
    """The request clashes with the state (already called, game ended, stale seq)."""

    status = 409


class TooManyRequests(RequestError):
    """Slow down: `extra={"retry_after": seconds}` also becomes the Retry-After header."""

    status = 429


class Unavailable(RequestError):
    """The hall cannot do it now (busy, storage); the client may try again (`retry_after`)."""

    status = 503


def translated(exc: KitError) -> str:
    """The edge: any KitError's template in the reader's language, then filled in (a template
    the catalogs do not have stays English), its decimal numbers as the reader writes them."""
    return exc.text(gettext, number_text)


#: the sizes Babel writes digit by digit; its formatting raises decimal.InvalidOperation from
#: about 1e25 up (and on -1e300), so anything outside is written in scientific notation
_PLAIN = (1e-6, 1e15)


def number_text(value: Decimal | float) -> str:
    """A decimal number in a message, as the reader writes it (`12,5` in Spanish), whatever its
    size: an everyday number by Babel, any other (1e26, -1e300, 1e-9, inf) as Python writes it in
    scientific notation (`1e+26`), never an exception in the middle of an error message."""
    try:
        size = abs(float(value))
        if size == 0 or (math.isfinite(size) and _PLAIN[0] <= size < _PLAIN[1]):
            text: str = format_decimal(value)
            return text
    except (ArithmeticError, ValueError):  # a Babel that still cannot write it
        pass
    return format(value, ".6g")


def wants_json() -> bool:
    """JSON for the API, for JSON bodies, for clients that ask for it, and for scripted changes
    (a POST from fetch() without a form); pages and form posts get a page."""
    if request.path.startswith("/api/") or request.is_json:
        return True
    if request.accept_mimetypes.best == "application/json":
        return True
    return request.method not in ("GET", "HEAD") and request.mimetype not in FORM_TYPES


#: an error's answer: a JSON body or the area's error page, with its status
Answer = tuple[Response | str, int]


def error_response(status: int, message: str, **extra: Any) -> Answer:
    """The one way an error is answered: JSON or the area's error page."""
    if wants_json():
        body = {"error": message, **{k: v for k, v in extra.items() if v is not None}}
        return jsonify(body), status
    return render_template(_page(), status=status, message=message), status


def register_error_page(app: Flask, prefix: str, template: str) -> None:
    """Pages under `prefix` show their errors with `template` (given `status` and `message`)."""
    hall(app).error_pages[prefix] = template


def _page() -> str:
    pages = hall().error_pages
    for prefix in sorted(pages, key=len, reverse=True):
        if request.path.startswith(prefix):
            return pages[prefix]
    return "web/error.html"


HTTP_MESSAGES = {
    400: "The request could not be understood.",
    404: "There is no such page.",
    405: "That action is not allowed here.",
    413: "What was sent is too large.",
    429: "Too many tries; wait a moment.",
}


def init_app(app: Flask) -> None:
    @app.errorhandler(RequestError)
    def request_error(exc: RequestError) -> Response:
        body, status = error_response(exc.status, exc.message(), **exc.extra)
        resp = make_response(body, status)
        if exc.extra.get("retry_after"):
            resp.headers["Retry-After"] = str(exc.extra["retry_after"])
        if status == 401 and request.path.startswith("/api/"):
            resp.headers["WWW-Authenticate"] = "Bearer"
        return resp

    @app.errorhandler(KitError)
    def kit_error(exc: KitError) -> Answer:  # a deck file's or a rule's own words
        return error_response(getattr(exc, "status", 400), translated(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Answer:
        code = exc.code or 500
        text = HTTP_MESSAGES.get(code)
        return error_response(code, gettext(text) if text else (exc.description or exc.name))

    app.register_error_handler(Exception, unexpected)


def unexpected(exc: Exception) -> Answer:
    """The last resort: log the route and the kind of input, answer a plain 500."""
    current_app.logger.error(
        "unexpected error on %s %s (endpoint %s, body %s bytes, %s)",
        request.method,
        request.path,
        request.endpoint,
        request.content_length or 0,
        request.mimetype or "no body",
        exc_info=exc,
    )
    return error_response(
        500, gettext("Something went wrong in the station; nothing was lost. Try again.")
    )
