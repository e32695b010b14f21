"""The suite's apps share what werkzeug and Jinja compile (tests/shared_compiles.py): a shared
URL builder must be the very code werkzeug compiles for the rule, and build the same URLs; a kept
template the code Jinja compiles from its source."""

from __future__ import annotations

import shared_compiles
from werkzeug.routing import Map, Rule


def _code(builder) -> tuple:
    code = builder.__code__
    return (code.co_code, code.co_consts, code.co_names, code.co_varnames, builder.__defaults__)


def _consts(code) -> list:
    return [_consts(c) if hasattr(c, "co_code") else c for c in code.co_consts]


def test_every_rule_of_the_hall_gets_the_builder_werkzeug_compiles_for_it(app):
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 50
    for rule in rules:
        for append_unknown in (False, True):
            own = shared_compiles.compile_builder(rule, append_unknown)
            shared = rule._compile_builder(append_unknown)
            assert _code(shared) == _code(own), rule.rule


def test_rules_that_differ_in_a_default_or_a_part_never_share_a_builder():
    def urls(default: int):
        return Map(
            [
                Rule("/a/<int:n>", endpoint="a"),
                Rule("/b/<int:n>", endpoint="b"),
                Rule("/x/<int:n>", defaults={"n": default}, endpoint="x"),
                Rule("/list/", defaults={"page": default}, endpoint="list"),
            ]
        ).bind("hall.local")

    one, two = urls(1), urls(2)
    assert one.build("a", {"n": 7}) == "/a/7"
    assert one.build("b", {"n": 7, "q": "x"}) == "/b/7?q=x"
    assert one.build("x", {"n": 1}) == "/x/1"
    assert two.build("x", {"n": 2}) == "/x/2"
    assert one.build("list", {"page": 1}) == "/list/"
    assert two.build("list", {"page": 2}) == "/list/"


def test_a_kept_template_is_the_code_jinja_compiles_from_its_source(app):
    env = app.jinja_env
    assert env.bytecode_cache is shared_compiles.TEMPLATES
    for name in ("phone/join.html", "verify/_vcard.html", "caller/game.html"):
        env.get_template(name)  # compiled once, or taken from the kept code
        source, filename, _ = env.loader.get_source(env, name)
        kept = env.bytecode_cache.get_bucket(env, name, filename, source)
        own = env.compile(source, name, filename)
        assert kept.code is not None, name
        assert _consts(kept.code) == _consts(own), name
        assert kept.code.co_names == own.co_names, name
