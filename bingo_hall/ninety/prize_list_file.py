"""A host's own 90-ball prize list, read from the text of its small TOML file
(`parse_prize_list`) into the engine's `PrizeList` (`prize_rules`), every mistake named for the
host with the file's name first (`PrizeListError`). No I/O: the station reads the file and
passes its text."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from ..errors import KitError, LocatedError
from ..toml_table import WHOLE, Problem, Table, is_whole
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

    def problem(template: str, /, *path: str, **params: Any) -> PrizeListError:
        return PrizeListError(template, source=source, **params)

    try:
        data = Table.from_json(tomllib.loads(text), problem)
    except tomllib.TOMLDecodeError as exc:
        raise PrizeListError("not a TOML file (%(error)s)", source=source, error=str(exc)) from None
    return replace(_prize_list(data, source), text=text)


@lru_cache(maxsize=32)
def recorded_prize_list(text: str) -> PrizeList:
    """The host's list a game recorded when it started (its TOML), read again: a game's rules
    come from its own record, whatever lists the station that reads it has loaded."""
    return parse_prize_list(text, "the game's recorded prize list")


LIST_KEYS = ("key", "name", "name_es", "open", "prize")
PRIZE_KEYS = (
    *("key", "name", "name_es", "numbers", "rows", "lines", "cells", "in_a_row"),
    *("after", "amount"),
)
#: the longest name or key a host writes
MAX_TEXT = 60


def _prize_list(data: Table, source: str) -> PrizeList:
    fail = data.fail
    data.only(LIST_KEYS)
    stem = source.rsplit("/", 1)[-1].removesuffix(".toml")
    key = data.text("key", stem, most=MAX_TEXT)
    name = data.text("name", key, most=MAX_TEXT)
    open_at_once = data.boolean("open", True, wrong="open must be true or false")
    entries = data.tables(
        "prize",
        wrong="no prizes: add at least one [[prize]] table",
        item="prize %(number)s is not a table",
    )
    if len(entries) > MAX_PRIZES:
        raise fail("%(n)s prizes; a game has at most %(most)s", n=len(entries), most=MAX_PRIZES)
    prizes = [_prize(entry, number) for number, entry in enumerate(entries, start=1)]
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
        names={"en": name, "es": data.text("name_es", name, most=MAX_TEXT)},
        prizes=tuple(prizes),
        open_at_once=open_at_once,
        source=source,
    )


def _check_no_cycle(prizes: Sequence[Prize], fail: Problem) -> None:
    after = {p.key: p.after for p in prizes}
    for start in after:
        seen: set[str] = set()
        key: str | None = start
        while key is not None:
            if key in seen:
                raise fail("prize %(key)r waits for itself through 'after'", key=start)
            seen.add(key)
            key = after.get(key)


def _prize(given: Table, number: int) -> Prize:
    """One `[[prize]]` table; its problems are named after the prize: its number, then its key."""
    entry = _named(given, f"prize {number}")
    entry.only(PRIZE_KEYS, "%(where)s: unknown setting %(key)r")
    key = entry.text("key", most=MAX_TEXT)
    if not all(c.isalnum() or c in "-_" for c in key):
        raise entry.fail(
            "%(where)s: key %(key)r may hold only letters, digits, '-' and '_'", key=key
        )
    entry = _named(given, f"prize {key!r}")
    fail = entry.fail
    name = entry.text("name", key, most=MAX_TEXT)
    kinds = [k for k in ("numbers", "rows", "lines", "cells", "in_a_row") if k in entry]
    if not kinds:
        raise fail("%(where)s has no rule: give numbers, rows, lines, cells or in_a_row")
    if "in_a_row" in entry and len(kinds) > 1:
        raise fail(
            "%(where)s: in_a_row cannot be combined with %(other)s",
            other=[k for k in kinds if k != "in_a_row"][0],
        )
    if "numbers" in entry and len(kinds) > 1:
        raise fail("%(where)s: numbers cannot be combined with %(other)s", other=kinds[1])
    if "cells" in entry and len(kinds) > 1:
        raise fail(
            "%(where)s: cells cannot be combined with %(other)s",
            other=[k for k in kinds if k != "cells"][0],
        )
    rule: Rule
    if "in_a_row" in entry:
        rule = RowCountRule(entry.integer("in_a_row", low=1, high=PER_ROW))
    elif "numbers" in entry:
        rule = CountRule(entry.integer("numbers", low=1, high=PER_ROW * ROWS))
    elif "cells" in entry:
        rule = CellsRule(_cells(entry))
    else:
        rows = tuple(range(ROWS))
        if "rows" in entry:
            rows = _rows(entry)
        needed = len(rows) if "lines" not in entry and "rows" in entry else 1
        if "lines" in entry:
            needed = entry.integer("lines", low=1, high=len(rows))
        rule = RowsRule(needed=needed, rows=rows)
    after = entry.text("after", most=MAX_TEXT) if "after" in entry else None
    return Prize(
        key=key,
        names={"en": name, "es": entry.text("name_es", name, most=MAX_TEXT)},
        rule=rule,
        after=after,
        amount_cents=_amount(entry.value("amount"), fail) if "amount" in entry else None,
    )


def _named(entry: Table, where: str) -> Table:
    """The prize's table, its problems and its keys named after `where` ("prize 2")."""

    def problem(template: str, /, *path: str, **params: Any) -> KitError:
        return entry.fail(template, *path, where=where, **params)

    return entry.within(problem, f"{where}: ")


def _whole(value: object, low: int, high: int, what: str, fail: Problem) -> int:
    if not is_whole(value, low, high):
        raise fail(WHOLE, what=what, low=low, high=high)
    return value


def _row(value: object, what: str, fail: Problem) -> int:
    if isinstance(value, str) and value.lower() in ROW_WORDS:
        return ROW_WORDS[value.lower()]
    return _whole(value, 1, ROWS, what, fail) - 1


def _rows(entry: Table) -> tuple[int, ...]:
    value, fail = entry.value("rows"), entry.fail
    if not isinstance(value, list) or not value:
        raise fail('%(where)s: rows must be a list such as ["top"] or [1, 3]')
    what = entry.named(f"a row (top, middle, bottom or 1-{ROWS})")
    rows = tuple(_row(v, what, fail) for v in value)
    if len(set(rows)) != len(rows):
        raise fail("%(where)s: a row is listed twice")
    return tuple(sorted(rows))


def _cells(entry: Table) -> tuple[tuple[int, int], ...]:
    value, fail = entry.value("cells"), entry.fail
    if not isinstance(value, list) or not value:
        raise fail('%(where)s: cells must be a list such as [["top", "first"]]')
    cells: list[tuple[int, int]] = []
    for cell in value:
        if not isinstance(cell, list) or len(cell) != 2:
            raise fail('%(where)s: a cell is [row, position], such as ["top", "last"]')
        row = _row(cell[0], entry.named(f"a cell's row (top, middle, bottom or 1-{ROWS})"), fail)
        pos = cell[1]
        if isinstance(pos, str) and pos.lower() in POSITION_WORDS:
            position = POSITION_WORDS[pos.lower()]
        else:
            what = entry.named(f"a cell's position (first, middle, last or 1-{PER_ROW})")
            position = _whole(pos, 1, PER_ROW, what, fail) - 1
        if (row, position) in cells:
            raise fail("%(where)s: a cell is listed twice")
        cells.append((row, position))
    return tuple(cells)


def _amount(value: object, fail: Problem) -> int:
    """Integer cents from "500", "12.50" or 500; never a float (money is exact)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise fail('%(where)s: amount must be written as text, such as "12.50", or a whole number')
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise fail("%(where)s: amount %(value)r is not a sum of money", value=value) from None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise fail("%(where)s: amount must be zero or more, with at most 2 decimals")
    if amount > 10_000_000:
        raise fail("%(where)s: amount is larger than 10,000,000")
    return int(amount * 100)
