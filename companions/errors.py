"""Errors a player can read, raised by the pure game engines and shown next to the field."""

from __future__ import annotations

from typing import Any

from bingo_hall.errors import KitError


class EntryError(KitError, ValueError):
    """An entry that breaks a rule of the game (or is not a valid entry at all).

    As every KitError: an English template with `%(name)s` placeholders and its parameters,
    translated at the edge. `field` names the form field to flag, and `entry_id` the stored
    entry that fails when a past entry is undone or corrected.
    """

    def __init__(
        self,
        template: str,
        /,
        *,
        field: str | None = None,
        entry_id: int | None = None,
        **params: Any,
    ) -> None:
        self.field = field
        self.entry_id = entry_id
        super().__init__(template, **params)


_MAX_SUM = 100_000


def parse_sum(value: Any, *, field: str | None = None) -> int:
    """A count a player typed: an int, or a sum such as "12+11+7" (how people add a hand up at
    the table). Parsed by hand, never eval'd; negatives and text are refused.

    Raises EntryError naming `field` so the page can show the message next to it.
    """
    if isinstance(value, bool):
        raise EntryError("Type a number", field=field)
    if isinstance(value, int):
        total = value
    elif isinstance(value, str):
        text = value.replace(" ", "")
        if text == "":
            return 0
        parts = text.split("+")
        if not all(p.isascii() and p.isdigit() for p in parts):
            if text.startswith("-"):
                raise EntryError("A count cannot be negative", field=field)
            raise EntryError("Type a number, or a sum like 12+11+7", field=field)
        if any(len(p) > 6 for p in parts):
            raise EntryError("That number is too large", field=field)
        total = sum(int(p) for p in parts)
    elif value is None:
        return 0
    else:
        raise EntryError("Type a number, or a sum like 12+11+7", field=field)
    if total < 0:
        raise EntryError("A count cannot be negative", field=field)
    if total > _MAX_SUM:
        raise EntryError("That number is too large", field=field)
    return total


def tiles_total(tiles: Any, values: dict[str, int], *, field: str | None = None) -> int:
    """The value of a list of tiles ("1".."13", "J") under a game's tile table; how the tile pad
    sends a rack or a hand counted by tapping (Burako and Rummy value the same tiles
    differently, so each passes its own table)."""
    if len(tiles) > 106:  # the whole Rummy/Burako set
        raise EntryError("That is more tiles than the game has", field=field)
    total = 0
    for tile in tiles:
        key = str(tile).strip().upper()
        if key not in values:
            raise EntryError("%(tile)s is not a tile: use 1 to 13 or J", field=field, tile=tile)
        total += values[key]
    return total


def read_points(value: Any, values: dict[str, int], *, field: str | None = None) -> int:
    """Points as people give them: a total or a sum typed ("40+25"), or the tiles tapped."""
    if isinstance(value, list | tuple):
        return tiles_total(value, values, field=field)
    return parse_sum(value, field=field)
