"""Spanish and English for every page (Flask-Babel, .po catalogs compiled by `make`).

The language comes from `?lang=`, then the `lang` cookie set by the switch (`/lang/<code>`), then
the hall's default for pages that have no choice yet (an area registers where it keeps it with
`set_default_language`; the station keeps it in its database: `serve --lang`, the caller page),
then the browser's Accept-Language. English is the source language; Spanish lives in one catalog per
area: every folder named `translations` inside bingo_hall/, companions/ or firmware_bridge/
(`<area>/translations/es/LC_MESSAGES/messages.po`), merged by Flask-Babel. Game terms that are names
(Tabla Confrontadora, Maestro, Bingo de Puntos, canasta, muerto) are never translated.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any
from urllib.parse import parse_qs, urlsplit

from flask import Blueprint, Flask, make_response, redirect, request
from flask.typing import ResponseReturnValue
from flask_babel import Babel, get_locale
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie

from ..machine.catalogs import catalog_dirs
from ..prize_names import known_names, prize_name
from ..seventyfive.pattern_book import kit_book
from .errors import RequestError
from .instance import area_state
from .security import local_path

LANGUAGES = ("es", "en")

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    lang = request.args.get("lang") or request.cookies.get("lang")
    if lang in LANGUAGES:
        return lang
    sources: dict[str, Callable[[], str | None]] = area_state("i18n", dict)
    source = sources.get("default")
    try:
        house = source() if source else None
    except (sqlite3.Error, RequestError):  # e.g. the error page of a lost database: ask the browser
        house = None
    if house in LANGUAGES:
        return house
    return request.accept_languages.best_match(LANGUAGES) or "en"


def languages_asked(scope: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """What a request asks for, read from its ASGI scope as `select_locale` reads a Flask
    request (for pages answered on the server's loop, with no request): the language it names
    (`?lang=`, else the `lang` cookie; None unless one of LANGUAGES) and the browser's best
    match of LANGUAGES (None: none)."""
    headers = dict(scope.get("headers", ()))
    query = scope.get("query_string", b"")
    return _asked(query, headers.get(b"cookie"), headers.get(b"accept-language", b"")[:256])


@functools.lru_cache(maxsize=512)
def _asked(query: bytes, cookie: bytes | None, accept: bytes) -> tuple[str | None, str | None]:
    """`languages_asked` from the request's parts (a join storm's phones send a few distinct
    ones: each is read once)."""
    named = (parse_qs(query.decode("latin-1"), keep_blank_values=True).get("lang") or [""])[0]
    if not named and cookie:
        named = parse_cookie(cookie.decode("latin-1")).get("lang", "")
    browser = parse_accept_header(accept.decode("latin-1"), LanguageAccept).best_match(LANGUAGES)
    return (named if named in LANGUAGES else None), browser


def locale_of(scope: Mapping[str, Any], house: str | None) -> str:
    """`select_locale` for an ASGI scope: the language named, the hall's, the browser's, English."""
    named, browser = languages_asked(scope)
    return named or (house if house in LANGUAGES else None) or browser or "en"


def set_default_language(app: Flask, source: Callable[[], str | None]) -> None:
    """`source()` gives the hall's language for a page with no ?lang= or cookie (None: ask the
    browser). Called in a request, so it may read the database."""
    sources: dict[str, Callable[[], str | None]] = area_state("i18n", dict, app)
    sources["default"] = source


@bp.route("/lang/<code>")
def switch(code: str) -> ResponseReturnValue:
    """The language switch: remember the choice and go back where the user was."""
    if code not in LANGUAGES:
        return {"error": f"unknown language {code!r}; use es or en"}, 404
    resp = make_response(redirect(local_path(request.args.get("next") or _came_from())))
    resp.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax")
    return resp


def _came_from() -> str | None:
    """The page the switch was clicked on, when the Referer names this station."""
    ref = urlsplit(request.referrer or "")
    if ref.netloc != request.host:
        return None
    return ref.path + ("?" + ref.query if ref.query else "")


def in_lang(names: Mapping[str, str]) -> str:
    """A name given as data in several languages ({"en": ..., "es": ...}, such as a host's prize
    list), in the reader's language, else in English."""
    lang = str(get_locale() or "en")
    return names.get(lang) or names.get("en") or next(iter(names.values()), "")


def current_lang() -> str:
    """The page's language ("es", "en")."""
    return str(get_locale() or "en")


def known_prize(key: str) -> str:
    """`known_prize(key)` in templates: a prize's or pattern's name in the reader's language,
    for a page that has only its key (a ledger row, a payout); never the key where the kit
    knows a name (`bingo_hall.prize_names`)."""
    return prize_name(key, current_lang())


def known_prize_names() -> dict[str, str]:
    """`known_prize_names()` in templates: every prize and pattern the kit knows, by key, named
    in the reader's language (the names a page's script falls back on)."""
    return {key: known_prize(key) for key in known_names()}


def pattern_book_names() -> Mapping[str, str]:
    """`pattern_book_names()` in templates: the pattern book's patterns by key, in the book's
    order, named in the reader's language (the caller page's choice of pattern). Made once per
    language: the kit's book and its names are fixed, and a card page's labels ask for it twice
    per line name (verify/_labels.html), each time for every pattern of the book."""
    lang = current_lang()
    names = _BOOK_NAMES.get(lang)
    if names is None:
        made = {entry.key: prize_name(entry.key, lang) for entry in kit_book()}
        names = _BOOK_NAMES[lang] = MappingProxyType(made)  # shared: read-only
    return names


#: `pattern_book_names` by language
_BOOK_NAMES: dict[str, Mapping[str, str]] = {}


def init_app(app: Flask) -> None:
    dirs = catalog_dirs()
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", ";".join(dirs))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    Babel(app, locale_selector=select_locale)
    app.register_blueprint(bp)
    app.jinja_env.globals["in_lang"] = in_lang
    app.jinja_env.globals["known_prize"] = known_prize
    app.jinja_env.globals["known_prize_names"] = known_prize_names
    app.jinja_env.globals["pattern_book_names"] = pattern_book_names
    app.jinja_env.filters["in_lang_filter"] = in_lang

    @app.context_processor
    def _lang() -> dict[str, str | tuple[str, ...]]:
        return {"current_lang": str(get_locale() or "en"), "LANGUAGES": LANGUAGES}
