"""Frozen values that cross a boundary (a service's answer, a page's data, an event's body) and
turn into JSON only at the edge: `to_json()` gives their fields, in the order they are declared,
each one turned into JSON in turn (a value by its own `to_json()`, a tuple as a list).

A value is a frozen dataclass that subclasses `JsonValue`; one whose JSON is not its fields
(a key that is not a name, a field left out) writes its own `to_json()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import Field, fields
from typing import Any, ClassVar


def as_json(value: object) -> Any:
    """`value` as JSON data: values by their `to_json()`, tuples and lists as lists, mappings as
    dicts (their values turned in turn), anything else as it is."""
    if isinstance(value, JsonValue):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: as_json(v) for k, v in value.items()}
    return value


class JsonValue:
    """The base of a frozen dataclass whose JSON is its fields, in order."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def to_json(self) -> dict[str, Any]:
        return {f.name: as_json(getattr(self, f.name)) for f in fields(self)}
