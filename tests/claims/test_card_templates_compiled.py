"""The card pages' thread ahead compiles the card page's templates when it starts, so the first
game's pages (rendered by that thread when the game starts, while its join storm arrives) do not
pay for Jinja's compiling as well."""

from __future__ import annotations

import pytest
from testkit import eventually

from bingo_hall.station.verify import card_pages
from bingo_hall.station.verify.card_pages import CardPages


@pytest.fixture
def ahead(app):
    pages = CardPages.of(app)
    pages.ahead = card_pages.Ahead(app, pages)
    pages.ahead.start()
    yield pages.ahead
    pages.ahead.stop()
    pages.ahead = None


def _compiled(app) -> set[str]:
    """The names of the templates Jinja has compiled and keeps (its cache: (loader, name))."""
    return {key[1] for key in list(app.jinja_env.cache.keys())}


def test_the_card_pages_templates_are_compiled_when_the_thread_ahead_starts_before_any_game(
    app, ahead
):
    page = {"verify/card.html", "verify/ticket.html", "station/base.html", "verify/_follow.html"}
    eventually(lambda: page <= _compiled(app))
