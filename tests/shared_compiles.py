"""The tests' apps share what werkzeug and Jinja compile.

Werkzeug compiles two URL builders for every rule of every app it makes (an `ast` tree, then
`compile`): about three quarters of `create_app`'s time. The suite makes a thousand apps of the
same hundred rules. A builder is a pure function of its rule's trace (the rule's static and
dynamic parts), the defaults it folds in, and whether it appends unknown arguments; it reads the
rule's converters through the rule it is bound to, at each call. So apps whose rules agree on
those can share one builder, and the suite compiles each once. A station makes one app per
process: production never loads this module. `test_shared_compiles.py` checks that a shared
builder is the code werkzeug itself compiles for each rule.

Each app's Jinja environment compiles every template it renders, too. `TEMPLATES` is Jinja's own
bytecode cache (`Environment.bytecode_cache`), kept in memory for the session: a template is
compiled once, and Jinja checks the source's checksum before it uses the kept code."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from jinja2.bccache import Bucket, BytecodeCache
from werkzeug.routing.rules import Rule

compile_builder = Rule._compile_builder
_shared: dict[Hashable, Callable[..., tuple[str, str]]] = {}


def builder_key(rule: Rule, append_unknown: bool) -> Hashable:
    """What a rule's builder is made from: its trace, and each default as its URL text."""
    defaults: dict[str, Any] = rule.defaults or {}
    converters = rule._converters
    folded = tuple(
        sorted(
            (name, converters[name].to_url(value) if name in converters else repr(value))
            for name, value in defaults.items()
        )
    )
    return (append_unknown, tuple(rule._trace), folded)


def _shared_builder(self: Rule, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
    key = builder_key(self, append_unknown)
    found = _shared.get(key)
    if found is None:
        found = _shared[key] = compile_builder(self, append_unknown)
    return found


def install() -> None:
    Rule._compile_builder = _shared_builder  # type: ignore[method-assign]


class _KeptTemplates(BytecodeCache):
    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.kept.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = _KeptTemplates()
