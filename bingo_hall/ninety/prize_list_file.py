"""A host's own 90-ball prize list, read from the text of its small TOML file
(`parse_prize_list`) into the engine's `PrizeList` (`prize_rules`), every mistake named for the
host with the file's name first (`PrizeListError`). No I/O: the station reads the file and
passes its text."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from ..errors import LocatedError
from .prize_rules import CellsRule, CountRule, Prize, PrizeList, RowCountRule, RowsRule, Rule
from .tickets import PER_ROW, ROWS

ROW_WORDS = {"top": 0, "middle": 1, "bottom": 2}
POSITION_WORDS = {"first": 0, "middle": PER_ROW // 2, "last": PER_ROW - 1}
MAX_PRIZES = 20


class PrizeListError(LocatedError):
    """A prize list (a host's TOML file) that cannot be played, worded for the host: the
    message names the file (`source`) first, then what is wrong in it."""


def parse_prize_list(text: str, source: str = "prizes.toml") -> PrizeList:
    """A host's prize list from the text of a TOML file; `PrizeListError` names what is wrong.

    The file, in the host's words (rows and positions count from 1, or use top/middle/bottom and
    first/middle/last)::

        key = "diwali"                      # optional; the file's name otherwise
        name = "Diwali Tambola"
        name_es = "Tambola de Diwali"       # optional
        open = true                         # all prizes open at once (false: one after another)

        [[prize]]
        key = "early-five"
        name = "Early Five"
        numbers = 5                         # any 5 numbers of the ticket

        [[prize]]
        key = "top-line"
        name = "Top Line"
        rows = ["top"]                      # that row complete

        [[prize]]
        key = "corners"
        name = "Four Corners"
        cells = [["top", "first"], ["top", "last"], ["bottom", "first"], ["bottom", "last"]]

        [[prize]]
        key = "terno"
        name = "Terno"
        in_a_row = 3                        # 3 numbers called on one row (Italian Tombola)

        [[prize]]
        key = "second-house"
        name = "Second Full House"
        lines = 3                           # how many complete rows (3: the full house)
        after = "full-house"                # opens once that prize is won
        amount = "500"                      # optional: what the ledger pays
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PrizeListError("not a TOML file (%(error)s)", source=source, error=str(exc)) from None
    return replace(_prize_list(data, source), text=text)


@lru_cache(maxsize=32)
def recorded_prize_list(text: str) -> PrizeList:
    """The host's list a game recorded when it started (its TOML), read again: a game's rules
    come from its own record, whatever lists the station that reads it has loaded."""
    return parse_prize_list(text, "the game's recorded prize list")


def _prize_list(data: Mapping[str, Any], source: str) -> PrizeList:
    def fail(template: str, /, **params: Any) -> PrizeListError:
        return PrizeListError(template, source=source, **params)

    unknown = set(data) - {"key", "name", "name_es", "open", "prize"}
    if unknown:
        raise fail(
            "unknown setting %(setting)r (known: key, name, name_es, open, prize)",
            setting=sorted(unknown)[0],
        )
    stem = source.rsplit("/", 1)[-1].removesuffix(".toml")
    key = _text(data.get("key", stem), "key", fail)
    name = _text(data.get("name", key), "name", fail)
    open_at_once = data.get("open", True)
    if not isinstance(open_at_once, bool):
        raise fail("open must be true or false")
    raw = data.get("prize")
    if not isinstance(raw, list) or not raw:
        raise fail("no prizes: add at least one [[prize]] table")
    if len(raw) > MAX_PRIZES:
        raise fail("%(n)s prizes; a game has at most %(most)s", n=len(raw), most=MAX_PRIZES)
    prizes: list[Prize] = []
    for number, entry in enumerate(raw, start=1):
        if not isinstance(entry, dict):
            raise fail("prize %(number)s is not a table", number=number)
        prizes.append(_prize(entry, f"prize {number}", fail))
    keys = [p.key for p in prizes]
    for k in keys:
        if keys.count(k) > 1:
            raise fail("two prizes have the key %(key)r", key=k)
    for p in prizes:
        if p.after is not None and p.after not in keys:
            raise fail(
                "prize %(key)r comes after %(after)r, which is not in the list",
                key=p.key,
                after=p.after,
            )
        if p.after == p.key:
            raise fail("prize %(key)r cannot come after itself", key=p.key)
    _check_no_cycle(prizes, fail)
    return PrizeList(
        key=key,
        names={"en": name, "es": _text(data.get("name_es", name), "name_es", fail)},
        prizes=tuple(prizes),
        open_at_once=open_at_once,
        source=source,
    )


def _check_no_cycle(prizes: Sequence[Prize], fail: Any) -> None:
    after = {p.key: p.after for p in prizes}
    for start in after:
        seen: set[str] = set()
        key: str | None = start
        while key is not None:
            if key in seen:
                raise fail("prize %(key)r waits for itself through 'after'", key=start)
            seen.add(key)
            key = after.get(key)


def _prize(entry: Mapping[str, Any], where: str, fail: Any) -> Prize:
    known = {
        *("key", "name", "name_es", "numbers", "rows", "lines", "cells", "in_a_row"),
        *("after", "amount"),
    }
    unknown = set(entry) - known
    if unknown:
        raise fail(
            "%(where)s: unknown setting %(setting)r", where=where, setting=sorted(unknown)[0]
        )
    key = _text(entry.get("key"), f"{where}: key", fail)
    if not all(c.isalnum() or c in "-_" for c in key):
        raise fail(
            "%(where)s: key %(key)r may hold only letters, digits, '-' and '_'",
            where=where,
            key=key,
        )
    where = f"prize {key!r}"
    name = _text(entry.get("name", key), f"{where}: name", fail)
    kinds = [k for k in ("numbers", "rows", "lines", "cells", "in_a_row") if k in entry]
    if not kinds:
        raise fail(
            "%(where)s has no rule: give numbers, rows, lines, cells or in_a_row", where=where
        )
    if "in_a_row" in entry and len(kinds) > 1:
        raise fail(
            "%(where)s: in_a_row cannot be combined with %(other)s",
            where=where,
            other=[k for k in kinds if k != "in_a_row"][0],
        )
    if "numbers" in entry and len(kinds) > 1:
        raise fail(
            "%(where)s: numbers cannot be combined with %(other)s", where=where, other=kinds[1]
        )
    if "cells" in entry and len(kinds) > 1:
        raise fail(
            "%(where)s: cells cannot be combined with %(other)s",
            where=where,
            other=[k for k in kinds if k != "cells"][0],
        )
    rule: Rule
    if "in_a_row" in entry:
        rule = RowCountRule(_whole(entry["in_a_row"], 1, PER_ROW, f"{where}: in_a_row", fail))
    elif "numbers" in entry:
        rule = CountRule(_whole(entry["numbers"], 1, PER_ROW * ROWS, f"{where}: numbers", fail))
    elif "cells" in entry:
        rule = CellsRule(_cells(entry["cells"], where, fail))
    else:
        rows = tuple(range(ROWS))
        if "rows" in entry:
            rows = _rows(entry["rows"], where, fail)
        needed = len(rows) if "lines" not in entry and "rows" in entry else 1
        if "lines" in entry:
            needed = _whole(entry["lines"], 1, len(rows), f"{where}: lines", fail)
        rule = RowsRule(needed=needed, rows=rows)
    after = entry.get("after")
    if after is not None:
        after = _text(after, f"{where}: after", fail)
    return Prize(
        key=key,
        names={"en": name, "es": _text(entry.get("name_es", name), f"{where}: name_es", fail)},
        rule=rule,
        after=after,
        amount_cents=_amount(entry["amount"], where, fail) if "amount" in entry else None,
    )


def _text(value: Any, what: str, fail: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise fail("%(what)s must be a non-empty text", what=what)
    if len(value) > 60:
        raise fail("%(what)s is longer than 60 characters", what=what)
    return value.strip()


def _whole(value: Any, low: int, high: int, what: str, fail: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail(
            "%(what)s must be a whole number from %(low)s to %(high)s",
            what=what,
            low=low,
            high=high,
        )
    return int(value)


def _row(value: Any, what: str, fail: Any) -> int:
    if isinstance(value, str) and value.lower() in ROW_WORDS:
        return ROW_WORDS[value.lower()]
    return _whole(value, 1, ROWS, what, fail) - 1


def _rows(value: Any, where: str, fail: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise fail('%(where)s: rows must be a list such as ["top"] or [1, 3]', where=where)
    rows = tuple(_row(v, f"{where}: a row (top, middle, bottom or 1-{ROWS})", fail) for v in value)
    if len(set(rows)) != len(rows):
        raise fail("%(where)s: a row is listed twice", where=where)
    return tuple(sorted(rows))


def _cells(value: Any, where: str, fail: Any) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list) or not value:
        raise fail('%(where)s: cells must be a list such as [["top", "first"]]', where=where)
    cells: list[tuple[int, int]] = []
    for cell in value:
        if not isinstance(cell, list) or len(cell) != 2:
            raise fail('%(where)s: a cell is [row, position], such as ["top", "last"]', where=where)
        row = _row(cell[0], f"{where}: a cell's row (top, middle, bottom or 1-{ROWS})", fail)
        pos = cell[1]
        if isinstance(pos, str) and pos.lower() in POSITION_WORDS:
            position = POSITION_WORDS[pos.lower()]
        else:
            what = f"{where}: a cell's position (first, middle, last or 1-{PER_ROW})"
            position = _whole(pos, 1, PER_ROW, what, fail) - 1
        if (row, position) in cells:
            raise fail("%(where)s: a cell is listed twice", where=where)
        cells.append((row, position))
    return tuple(cells)


def _amount(value: Any, where: str, fail: Any) -> int:
    """Integer cents from "500", "12.50" or 500; never a float (money is exact)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise fail(
            '%(where)s: amount must be written as text, such as "12.50", or a whole number',
            where=where,
        )
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise fail(
            "%(where)s: amount %(value)r is not a sum of money", where=where, value=value
        ) from None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise fail("%(where)s: amount must be zero or more, with at most 2 decimals", where=where)
    if amount > 10_000_000:
        raise fail("%(where)s: amount is larger than 10,000,000", where=where)
    return int(amount * 100)
