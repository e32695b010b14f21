"""A stored entry read into a game's frozen `Entry` value, field by field (`EntryFields`): each
field as the phone sent it (None where it said nothing), for the rule that reads it to check. An
engine's `Entry.from_json` refuses first, in its own words, an entry that is not a JSON object."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

E = TypeVar("E", bound="EntryFields")


class EntryFields:
    """A frozen dataclass whose `from_json` reads each of its fields by its name."""

    @classmethod
    def from_json(cls: type[E], entry: Mapping[str, Any]) -> E:
        names = (f.name for f in fields(cls))  # type: ignore[arg-type]
        return cls(**{n: entry.get(n) for n in names})
