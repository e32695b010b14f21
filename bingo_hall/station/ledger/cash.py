"""Cash for the night: the float in the box at the start and the cash counted at the
end, as a total or by notes and coins of the night's currency. The payouts paid in cash are the
payouts marked paid in cash (`payouts.mark_paid`). The over/short is worked out in the summary
(`bingo_hall.money.night.Night.over_short`): counted - (float + takings - cash payouts).

Each figure belongs to the night it was given in (`bingo_hall.money.night.night_of`). The newest of
each kind counts; a second one is a correction and says why. Nothing is deleted.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ... import money
from ...money.night import Cash, night_of
from ...web.db import write_transaction
from ...web.errors import RequestError
from .. import games
from ..hooks import RecordNote
from . import store
from .logged import CashCounted
from .requests import CountRequest, FloatRequest, money_input


@dataclass(frozen=True)
class CashEntry:
    """A float or a count as given: its amount, the notes and coins of a count by
    denomination, and the reason of a figure given again."""

    cash_id: int
    night: str
    kind: str  # "float" or "count"
    cents: int
    pieces: tuple[tuple[int, int], ...]
    reason: str | None
    made: str

    def to_json(self) -> dict[str, Any]:
        return {
            "cash_id": self.cash_id,
            "night": self.night,
            "kind": self.kind,
            "cents": self.cents,
            "pieces": {str(v): n for v, n in self.pieces},
            "reason": self.reason,
            "at": self.made,
        }


def tonight() -> str:
    return night_of(datetime.now(UTC).isoformat())


def entries(conn: sqlite3.Connection, night: str) -> list[CashEntry]:
    rows = conn.execute("SELECT * FROM ledger_cash WHERE night = ? ORDER BY id", (night,))
    return [
        CashEntry(
            r["id"],
            r["night"],
            r["kind"],
            r["cents"],
            tuple((int(v), int(n)) for v, n in json.loads(r["pieces"])),
            r["reason"],
            r["made"],
        )
        for r in rows
    ]


def box(conn: sqlite3.Connection, night: str) -> Cash | None:
    """The night's float and count (the newest of each), None when neither was given."""
    given = entries(conn, night)
    floats = [e for e in given if e.kind == "float"]
    counts = [e for e in given if e.kind == "count"]
    if not floats and not counts:
        return None
    count = counts[-1] if counts else None
    return Cash(
        floats[-1].cents if floats else 0,
        None if count is None else count.cents,
        () if count is None else count.pieces,
    )


#: a figure given again without its reason (one message each, so each translates whole)
_GIVEN = {
    "float": "the float is already given tonight: say why it is given again",
    "count": "the count is already given tonight: say why it is given again",
}


def _save(
    conn: sqlite3.Connection, kind: str, count: money.Count, reason: str, via: str | None
) -> CashEntry:
    night = tonight()
    with write_transaction(conn) as tx:
        again = conn.execute(
            "SELECT 1 FROM ledger_cash WHERE night = ? AND kind = ?", (night, kind)
        ).fetchone()
        if again and not reason:
            raise RequestError(_GIVEN[kind])
        cur = conn.execute(
            "INSERT INTO ledger_cash (night, kind, cents, pieces, reason) VALUES (?, ?, ?, ?, ?)",
            (night, kind, count.cents, json.dumps(count.pieces), reason or None),
        )
        cash_id = cur.lastrowid
        detail = CashCounted(night, count.cents, count.pieces, reason)
        store.log(conn, None, f"cash {kind}", detail, via)
        tx.commit()
        gid = games.newest_active_game(conn)
        if gid is not None:
            store.publish(gid, "cash")
    return next(e for e in entries(conn, night) if e.cash_id == cash_id)


def set_float(conn: sqlite3.Connection, req: FloatRequest, via: str | None = None) -> CashEntry:
    """The float in the box at the start of tonight."""
    return _save(conn, "float", money.Count(req.cents), req.reason, via)


def count(conn: sqlite3.Connection, req: CountRequest, via: str | None = None) -> CashEntry:
    """The cash counted at the end of tonight: a total, or notes and coins of the night's
    currency (a denomination it does not have is refused, and nothing is saved)."""
    with money_input():
        counted = money.parse_count(req.amount, req.pieces, store.currency(conn))
    return _save(conn, "count", counted, req.reason, via)


def record_notes(conn: sqlite3.Connection, round_id: int) -> list[RecordNote]:
    """The game record's notes of a round: the float and the counts given meanwhile (round 1
    also holds those given earlier that night)."""
    from .stock import round_window

    gid, _n, start, until = round_window(conn, round_id)
    created = conn.execute("SELECT created FROM games WHERE id = ?", (gid,)).fetchone()[0]
    code = store.currency(conn)
    out = []
    for e in entries(conn, night_of(created)):
        made = e.made[:19]
        if (start is not None and made < start) or (until is not None and made >= until):
            continue
        detail = f"{e.kind} {money.money(e.cents, code)}"
        if e.pieces:
            detail += " (" + ", ".join(f"{n} x {money.money(v, code)}" for v, n in e.pieces) + ")"
        detail += f": {e.reason}" if e.reason else ""
        out.append(RecordNote(at=e.made, event="cash", detail=detail))
    return out
