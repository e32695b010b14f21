"""Request input turned into checked values, in one place for every area.

A request body is read as JSON only after it has passed, on the raw bytes, a size limit and a
nesting-depth limit (Python's json parser recurses, so 50,000 opening brackets would end in a
RecursionError, not a 400). The text must be UTF-8, and the parsed value must hold no lone
surrogate (JSON allows `"\\ud800"`, which SQLite and hashing cannot encode), no string longer
than `MAX_TEXT` and no integer outside SQLite's signed 64-bit range. Numbers a person types
(balls, serials, settings) must be ASCII digits: `"²"` and `"①"` pass `str.isdigit()` but not
`int()`.

Every refusal is a `RequestError` (400) whose message names the field, as `extra={"field": ...}`
too, so a phone can flag the input. Route ids use the `int` converter registered here, bounded
to SQLite's row ids, so `/api/games/11111111111111111111` is a 404 like any unknown game.
The limits are documented in docs/api.md.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from flask import Flask, request
from werkzeug.routing import IntegerConverter, Map

from .config import DEFAULT
from .errors import RequestError
from .instance import hall

#: arrays and objects nested deeper than this are refused before parsing (a deck needs 3)
MAX_DEPTH = 32
#: values (numbers, strings, lists, objects) a body may hold, counted before parsing: a
#: 3003-card deck holds about 80,000; 700,000 empty lists in 2 MB would cost Python a second
MAX_VALUES = 200_000
#: the same for a guest's body: a score entry or a table's setup holds a few dozen
GUEST_VALUES = 2_000
#: the longest string a JSON body may hold anywhere (fields have their own, shorter limits)
MAX_TEXT = 10_000
#: SQLite's INTEGER is a signed 64-bit number
SQLITE_MAX = 2**63 - 1
SQLITE_MIN = -(2**63)

#: a JSON string, or an unterminated one up to the end: every match that starts succeeds and
#: nothing backtracks (possessive), so the scan stays linear on any bytes
_STRINGS = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")
#: what a body must hold for a string or number in it to be refused: a surrogate escape or a
#: number of 19 digits or more (strict UTF-8 decoding lets no raw surrogate through)
_SUSPECT = re.compile(r"\\u[dD][89a-fA-F]|[0-9]{19}")
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")


class SQLiteInt(IntegerConverter):
    """`<int:...>` in every route: ASCII digits, at most 19 of them, at most SQLite's largest
    row id; anything else does not match the route (a 404, never an overflow)."""

    regex = r"[0-9]{1,19}"

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", SQLITE_MAX)
        super().__init__(map, *args, **kwargs)


def init_app(app: Flask) -> None:
    """Register the bounded `int` converter. Call before any area adds its routes."""
    app.url_map.converters["int"] = SQLiteInt


def nesting_depth(raw: bytes) -> int:
    """How deep arrays and objects nest in a JSON text, counted on the bytes (strings skipped),
    so that hostile nesting is refused without recursing."""
    return _depth(_STRINGS.sub(b"", raw))


def _depth(bare: bytes) -> int:
    brackets = bare.translate(None, _BRACKETS)
    if not brackets:
        return 0
    steps = (1 if b in b"[{" else -1 for b in brackets)
    return max(accumulate(steps))


def _values(bare: bytes) -> int:
    """At least as many as the values in a JSON text (each is a separator or an opening)."""
    return bare.count(b",") + bare.count(b"[") + bare.count(b"{") + 1


@dataclass(frozen=True)
class JsonBudget:
    """What a JSON body may cost before it is parsed: its bytes, how many values it holds and
    how deep its lists and objects nest. Checked on the bytes in C (a count of
    separators; strings are skipped only when that count is over), so that refusing a body
    costs far less than parsing it, and parsing what passes is bounded."""

    size: int
    values: int = MAX_VALUES
    depth: int = MAX_DEPTH

    def over(self, raw: bytes) -> str | None:
        """ "size", "values" or "depth": the first bound `raw` passes, or None."""
        if len(raw) > self.size:
            return "size"
        bare = raw
        if _values(raw) > self.values:  # strings may hold the separators: count without them
            bare = _STRINGS.sub(b"", raw)
            if _values(bare) > self.values:
                return "values"
        elif raw.count(b"[") + raw.count(b"{") <= self.depth:
            return None
        if _depth(bare) > self.depth:
            return "depth"
        return None


class PayloadTooLarge(RequestError):
    status = 413


def json_body(required: bool = False, max_bytes: int | None = None) -> dict[str, Any]:
    """The JSON object in the request body, checked; `{}` for an empty body unless `required`.
    `max_bytes` lowers the app's limit (`MAX_JSON_BYTES`) for one endpoint."""
    limit = hall().config.max_json_bytes
    limit = min(limit, max_bytes or limit)
    too_large = PayloadTooLarge("the request body is larger than %(n)s bytes", n=limit)
    if (request.content_length or 0) > limit:
        raise too_large
    raw = request.get_data(cache=True)
    if len(raw) > limit:
        raise too_large
    if not raw.strip():
        if required:
            raise RequestError("send a JSON object in the request body")
        return {}
    return parse_json(raw, JsonBudget(limit))


def parse_json(raw: bytes, budget: JsonBudget | None = None) -> dict[str, Any]:
    """Bytes -> a checked JSON object (see the module's docstring for what is refused), parsed
    only within `budget` (by default: the default MAX_JSON_BYTES, MAX_VALUES, MAX_DEPTH)."""
    budget = budget or JsonBudget(DEFAULT.max_json_bytes)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RequestError("the request body is not UTF-8 text") from None
    over = budget.over(raw)
    if over == "size":
        raise PayloadTooLarge("the request body is larger than %(n)s bytes", n=budget.size)
    if over == "values":
        raise RequestError("the request body holds more than %(n)s values", n=budget.values)
    if over == "depth":
        raise RequestError(
            "the request body nests deeper than %(n)s levels of lists and objects", n=budget.depth
        )
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except _NotFinite:
        raise RequestError("the request body holds a number too large to keep") from None
    except (ValueError, RecursionError):  # RecursionError: not reachable past the depth check
        raise RequestError("malformed JSON in the request body") from None
    if not isinstance(data, dict):
        raise RequestError("the request body must be a JSON object")
    if len(text) > MAX_TEXT or _SUSPECT.search(text):  # else no string or number can be wrong
        check_value(data)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _NotFinite(ValueError):
    pass


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent: `1e400` would be Python's infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise _NotFinite(text)
    return value


def check_value(value: Any) -> None:
    """Every key, string and number inside a parsed body: text without lone surrogates and at
    most MAX_TEXT long, integers inside SQLite's range. The error names the field
    (`players[2]`, `settings.target`)."""
    found = _problem(value)
    if found is None:
        return
    path, problem = found
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    if not field:  # the body itself (not an object): said in words, not with an English "field"
        if problem == "number":
            raise RequestError("the request body is a number too large to keep")
        raise RequestError(
            "the request body is not valid text, or longer than %(n)s characters", n=MAX_TEXT
        )
    if problem == "number":
        raise RequestError(
            "%(field)s is a number too large to keep", field=_short(field), extra=_f(field)
        )
    check_text(_at(value, path), field)


def _problem(value: Any) -> tuple[list[str | int], str] | None:
    """(path, "number" | "text") of the first bad value, or None. json.loads makes only exact
    str, int, float, bool, None, list and dict, so `type() is` is enough; the paths are built
    only for the bad value, so a 3003-card deck is walked in a few milliseconds."""
    kind = type(value)
    if kind is str:
        return ([], "text") if len(value) > MAX_TEXT or _SURROGATE.search(value) else None
    if kind is int:
        return None if SQLITE_MIN <= value <= SQLITE_MAX else ([], "number")
    if kind is dict:
        for key, item in value.items():
            if _problem(key) is not None:
                return [key], "text"
            if (found := _problem(item)) is not None:
                return [key, *found[0]], found[1]
    elif kind is list:
        if value and all(type(x) is int for x in value):  # a row of numbers: checked in C
            if SQLITE_MIN <= min(value) and max(value) <= SQLITE_MAX:
                return None
        for i, item in enumerate(value):
            if (found := _problem(item)) is not None:
                return [i, *found[0]], found[1]
    return None


def _at(value: Any, path: list[str | int]) -> Any:
    """The value at `path`; a path ending in a dict key that is itself the bad text gives
    the key."""
    for step in path[:-1]:
        value = value[step]
    last = path[-1]
    if isinstance(value, dict) and _problem(last) is not None:
        return last
    return value[last]


def check_text(text: str, field: str, max_len: int = MAX_TEXT) -> str:
    """Text that can be stored and shown: no lone surrogate, at most `max_len` characters."""
    if _SURROGATE.search(text):
        raise RequestError(
            "%(field)s is not valid text (it holds a lone surrogate)",
            field=_short(field),
            extra=_f(field),
        )
    if len(text) > max_len:
        raise RequestError(
            "%(field)s is longer than %(n)s characters",
            field=_short(field),
            n=max_len,
            extra=_f(field),
        )
    return text


def is_ascii_number(text: str, max_digits: int = 19) -> bool:
    """`text` is 1 to `max_digits` ASCII digits (what `int()` takes and SQLite keeps)."""
    return text.isascii() and text.isdigit() and len(text) <= max_digits


def _short(field: str) -> str:
    """The field's name as the message shows it: short, and printable even when the name itself
    is the hostile part."""
    field = _SURROGATE.sub("\ufffd", field)
    return field if len(field) <= 60 else field[:57] + "..."


def _f(field: str) -> dict[str, str]:
    return {"field": _short(field)} if field else {}
