"""The page around a card or a ticket on its QR page: the station's layout, the
title, the heading, the page's words for card.js, and the card's place. It is the same for every
card of a game in a language, so it is rendered once with placeholders and kept, cut at its
placeholders; a page is then the kept parts joined with each card's own values.

The placeholders are plain letters, which neither HTML escaping nor URL quoting changes. The
values put in their place are escaped here as the template would have escaped them, and they are
put in by one join over the kept parts: a value is never searched for placeholders, so nothing a
request carries (its path, its query string) can reach one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from markupsafe import escape

#: the placeholders of a kept shell, by name
NAMES = ("SERIAL", "STRIP", "PATH", "NEXT", "CARD", "STATE", "TABLE")
SERIAL, STRIP, PATH, NEXT, CARD, STATE, TABLE = (f"Qx{n}xQ" for n in NAMES)
_TOKEN = re.compile("Qx(" + "|".join(NAMES) + ")xQ")


@dataclass(frozen=True)
class Placeholder:
    """What the page's templates read of the card (card.html, ticket.html, the fragments), as
    placeholders."""

    serial: str = SERIAL
    strip: str = STRIP


@dataclass(frozen=True)
class Shell:
    """A rendered page cut at its placeholders: literal text, a placeholder's name, literal text,
    and so on (`re.split` with one group)."""

    parts: tuple[str, ...]

    @classmethod
    def cut(cls, text: str) -> Shell:
        return cls(tuple(_TOKEN.split(text)))

    def fill(self, values: dict[str, str]) -> str:
        """The page with each placeholder given its value (by name, e.g. "SERIAL")."""
        parts = self.parts
        out = [parts[0]]
        for i in range(1, len(parts), 2):
            out.append(values[parts[i]])
            out.append(parts[i + 1])
        return "".join(out)

    @property
    def size(self) -> int:
        return sum(len(p) for p in self.parts)


def html_json(data: Any) -> str:
    """JSON to sit in a `<script type="application/json">` block, escaped as Jinja's `tojson`
    escapes it (no `<`, `>`, `&` or `'` that could end the block)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("'", "\\u0027")
    )


def values(card: Any, path: str, full_path: str) -> dict[str, str]:
    """The card's own values in its page: its serial (and strip), its path (the verdict's URL),
    and the page's own URL for the language links' `next`, quoted as Jinja's `urlencode`."""
    return {
        "SERIAL": str(card.serial),
        "STRIP": str(getattr(card, "strip", "")),
        "PATH": str(escape(path)),
        "NEXT": quote(full_path.rstrip("?"), safe="/"),
    }
