"""What the Maestro asks of the program, parsed once at the route into small frozen values (as
the station's `bingo_hall.station.requests` and the ledger's `ledger/requests.py`): a program
file to load, a game to insert. The routes (JSON API and caller form alike) build these; the
services in `store.py` take them and never a raw dict. Parsing checks the shape of each field;
whether game `copy` is on the program is the service's question.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...web.errors import RequestError

MAX_NAME = 40
MAX_SOURCE = 100


@dataclass(frozen=True)
class LoadRequest:
    """`{"text": "...", "source": "night.toml"}`: a program file's text and its name (the text
    itself is checked by `store.load`, which the caller page's upload and `serve --program` use
    too)."""

    text: object
    source: str = "program.toml"

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> LoadRequest:
        source = d.get("source") or "program.toml"
        if not isinstance(source, str) or len(source) > MAX_SOURCE:
            raise RequestError("the source is the file's name, at most 100 characters")
        return cls(d.get("text"), source)


@dataclass(frozen=True)
class InsertRequest:
    """`{"copy": 2, "name": "Corners again"}`: insert a copy of game `copy` of the program (its
    number, or the form's text of it; None when it is no number) with its own `name`, if
    given (None: the copied game's)."""

    copy: int | None
    name: str | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> InsertRequest:
        copy, name = d.get("copy"), d.get("name")
        if name is not None and (not isinstance(name, str) or len(name.strip()) > MAX_NAME):
            raise RequestError("a game's name is text of at most %(n)s characters", n=MAX_NAME)
        return cls(_number(copy), name.strip() or None if name is not None else None)


def _number(value: object) -> int | None:
    """A game's number: a whole number, or its digits as the form sends them."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None
