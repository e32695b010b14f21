"""Corrections of the ledger's sales over sqlite3: a wrong sale is voided with its reason, never
deleted (and not once a payout has paid its share), and the log of every correction."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from ... import money
from ...values import JsonValue
from ...web.db import write_transaction
from ...web.errors import Conflict, NotFound
from .logged import SaleCorrected
from .prize_store import rules_of
from .sale_store import (
    sales,
)
from .store import log, publish


@dataclass(frozen=True)
class Correction:
    """A sale voided, with its reason."""

    sale_id: int
    game_id: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"sale_id": self.sale_id, "game_id": self.game_id, "reason": self.reason}


def correct(
    conn: sqlite3.Connection, sale_id: int, reason: str, via: str | None = None
) -> Correction:
    """Void a sale, saying why (kept in the corrections log; the route checks the reason with
    `requests.reason_of`); sell the right cards again."""
    with write_transaction(conn) as tx:
        row = conn.execute("SELECT * FROM ledger_sales WHERE id = ?", (sale_id,)).fetchone()
        if row is None:
            raise NotFound("there is no sale %(sale)s", sale=sale_id)
        if conn.execute(
            "SELECT 1 FROM ledger_corrections WHERE sale_id = ?", (sale_id,)
        ).fetchone():
            raise Conflict("sale %(sale)s is already corrected", sale=sale_id)
        _refuse_once_its_share_is_paid(conn, sale_id, row["game_id"])
        conn.execute(
            "INSERT INTO ledger_corrections (sale_id, reason) VALUES (?, ?)",
            (sale_id, reason),
        )
        log(conn, row["game_id"], "correction", SaleCorrected(sale_id, reason), via)
        tx.commit()
        publish(row["game_id"], "correction")
    return Correction(sale_id, row["game_id"], reason)


def _refuse_once_its_share_is_paid(conn: sqlite3.Connection, sale_id: int, gid: int) -> None:
    """A sale whose money is in a round's takings of which a prize was already paid as a share
    (a percentage, or a jackpot's normal prize with one) stays: voided, it would leave the
    round paying more than it finally took (docs/ledger.md)."""
    sale = next(s for s in sales(conn, gid) if s.sale_id == sale_id and s.night is None)
    counts_in = sale.counted().counts_in
    if share_paid(conn, gid, counts_in):
        raise Conflict(
            "sale %(sale)s cannot be voided: round %(round)s already paid a prize as a "
            "share of the money it took, this sale's included",
            sale=sale_id,
            round=counts_in,
        )


def share_paid(conn: sqlite3.Connection, gid: int, rnd: int) -> bool:
    """Whether round `rnd` of game `gid` has paid a prize as a share of its takings: then no
    sale whose money counts in it can be voided."""
    rules = rules_of(conn, gid)
    for row in conn.execute(
        "SELECT DISTINCT p.prize FROM ledger_payouts p JOIN rounds r ON r.id = p.round_id "
        "WHERE p.game_id = ? AND r.number = ?",
        (gid, rnd),
    ):
        rule = rules.get(row["prize"])
        if rule is not None and rule.kind != money.PrizeKind.FIXED and rule.percent > 0:
            return True
    return False


@dataclass(frozen=True)
class CorrectionLine(JsonValue):
    """A line of the corrections log: a sale voided (`kind` "sale"), a night sale voided
    ("night", its id in `sale_id`) or a payout marked not paid after all ("payout"), with its
    reason, when, and what it took back (the fields of another kind are None)."""

    kind: str
    sale_id: int | None
    payout_id: int | None
    reason: str
    made: str
    game_id: int | None
    round: int | None
    serials: str | None
    serial: int | None
    cents: int


def corrections(conn: sqlite3.Connection) -> list[CorrectionLine]:
    """The corrections log of the night, oldest first: sales voided (`kind` "sale"), night
    sales voided (`kind` "night", its id in `sale_id`) and payouts marked not paid after all
    (`kind` "payout"), each with its reason."""
    rows = conn.execute(
        "SELECT 'sale' AS kind, c.sale_id, NULL AS payout_id, c.reason, c.made AS made, s.game_id,"
        " s.round, s.serials, NULL AS serial, s.cents "
        "FROM ledger_corrections c JOIN ledger_sales s ON s.id = c.sale_id "
        "UNION ALL "
        "SELECT 'payout', NULL, m.payout_id, m.reason, m.made, p.game_id, r.number, NULL,"
        " p.serial, p.cents "
        "FROM ledger_paid_marks m JOIN ledger_payouts p ON p.id = m.payout_id "
        "JOIN rounds r ON r.id = p.round_id WHERE m.paid = 0 "
        "UNION ALL "
        "SELECT 'night', v.night_sale_id, NULL, v.reason, v.made, NULL, NULL, n.serials, NULL,"
        " n.cents "
        "FROM ledger_night_voids v JOIN ledger_night_sales n ON n.id = v.night_sale_id "
        "ORDER BY made"
    )
    return [CorrectionLine(**dict(r)) for r in rows]
