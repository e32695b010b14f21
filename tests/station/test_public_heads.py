"""Which requests the phones' process forwards to the Maestro's (`HallApp.forwarded`) is decided
for every request on the hall's port. A path's first part tells it at once where every page under
it is public or none is (`public_heads`); else the path is matched. Either way the answer must be
the one matching the path against the app's rules gives."""

from __future__ import annotations

from werkzeug.routing import IntegerConverter

from bingo_hall.web.dispatch import HallApp, _public_view, public_heads
from bingo_hall.web.pages import PUBLIC


def _paths(app) -> list[str]:
    """A GET path for every rule a GET can reach (its variables filled in)."""
    adapter = app.url_map.bind("station")
    paths = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        values = {
            name: 7 if isinstance(conv, IntegerConverter) else "abc"
            for name, conv in rule._converters.items()
        }
        paths.append(adapter.build(rule.endpoint, values, method="GET"))
    return paths


def _scope(path: str) -> dict:
    return {"type": "http", "method": "GET", "path": path, "headers": [], "query_string": b""}


def test_every_page_is_sorted_as_matching_its_path_sorts_it(app):
    server = HallApp(app)
    paths = _paths(app)
    assert len(paths) > 50
    for path in paths:
        matched = server.statics.serves(_scope(path)) or _public_view(server.view_of(_scope(path)))
        assert server.is_public(_scope(path)) == matched, path


def test_a_card_page_is_known_public_by_its_first_part_and_the_callers_pages_are_not(app):
    heads = public_heads(app)
    assert heads["c"] is True  # /c/<deck>/<serial>/<sig>: a card's page
    assert heads["caller"] is False
    assert "api" not in heads  # the streams are public, the rest of the API is not: matched


def test_a_rule_whose_first_part_is_a_variable_turns_the_shortcut_off(app):
    @app.get("/<word>/public-test")
    def anything(word: str) -> str:
        return word

    setattr(anything, PUBLIC, True)
    assert public_heads(app) == {}
