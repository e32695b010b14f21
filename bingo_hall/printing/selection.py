"""Reading `--serials 1-40,55`: which cards of a deck to print (a reprint of a lost card, or the
first tables of a big night)."""

from __future__ import annotations

import re

from ..errors import KitError

_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_serials(text: str, deck_size: int) -> list[int]:
    """Serials in the order given, each once. Ranges are inclusive: "1-3,7" is 1, 2, 3, 7."""
    out: list[int] = []
    seen: set[int] = set()
    for part in text.split(","):
        match = _PART.match(part)
        if not match:
            raise KitError(
                "--serials: %(part)r is not a serial or a range like 1-40", part=part.strip()
            )
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if first > last:
            raise KitError(
                "--serials: the range %(first)s-%(last)s runs backwards", first=first, last=last
            )
        for serial in (first, last):
            if not 1 <= serial <= deck_size:
                raise KitError(
                    "--serials: %(serial)s is outside this deck's cards 1-%(deck_size)s",
                    serial=serial,
                    deck_size=deck_size,
                )
        for serial in range(first, last + 1):
            if serial not in seen:
                seen.add(serial)
                out.append(serial)
    return out
