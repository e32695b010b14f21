"""The pages answered on the server's loop (card pages, /display, /join) pick their language
from the raw request as `web/i18n.select_locale` picks it from a Flask request: one rule, read
two ways, must agree on every combination a phone can send."""

from __future__ import annotations

import itertools

from bingo_hall.web import i18n

QUERIES = ["", "lang=es", "lang=en", "lang=zz", "lang=", "lang=en&lang=es", "x=1"]
COOKIES = [None, "lang=es", "lang=en", "lang=zz", "other=1; lang=es", 'lang="en"']
HOUSES = [None, "es", "en"]
ACCEPTS = [None, "es-AR,es;q=0.9", "en-GB", "fr", "fr;q=0.9, es;q=0.5"]


def test_the_loop_reads_a_request_s_language_as_flask_does(app):
    for query, cookie, house, accept in itertools.product(QUERIES, COOKIES, HOUSES, ACCEPTS):
        headers = [(b"host", b"station")]
        if cookie is not None:
            headers.append((b"cookie", cookie.encode()))
        if accept is not None:
            headers.append((b"accept-language", accept.encode()))
        scope = {"type": "http", "query_string": query.encode(), "headers": headers}
        environ = {k.decode().upper().replace("-", "_"): v.decode() for k, v in headers}
        environ = {("HTTP_" + k): v for k, v in environ.items()}
        with app.test_request_context("/", query_string=query, environ_base=environ):
            i18n.set_default_language(app, lambda house=house: house)
            flask_says = i18n.select_locale()
        assert i18n.locale_of(scope, house) == flask_says, (query, cookie, house, accept)
