"""What every write of the ledger shares over sqlite3: the action logged
(`ledger_log`, the audit trail, and the night's book), the `ledger` event published after the
commit, as `games.publish` does for calls, and the night's currency. The writes themselves are
price_store (a game's price list), prize_store (what its prizes pay), sale_store (the sales) and
correction_store (a sale voided).

The money rules are the pure `bingo_hall.money`; each write checks a request whole before it
writes anything and writes it in one transaction under the hall's write lock
(`write_transaction`). Nothing is deleted: a wrong sale is voided by a correction with its
reason, a new price or prize rule is a new row.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from ... import money
from ...values import JsonValue
from ...web import book_store as book
from ...web.db import write_transaction
from .. import games
from ..events import LedgerChanged
from ..model import Game
from ..variants import prize_plan
from .logged import CurrencySet
from .requests import money_input


def game_prizes(game: Game) -> tuple[str, ...]:
    """The prizes a game plays, in the order they are won: a 75-ball round has one ("bingo");
    a 90-ball game plays línea then bingo, or one line, two lines, full house. The only place
    the ledger asks what a game plays: the game's variant answers (its prize plan)."""
    return prize_plan(game).prizes


def jackpot_prize(game: Game) -> str:
    """The prize a jackpot can be played on: the full house, the round's last prize."""
    return game_prizes(game)[-1]


def log(
    conn: sqlite3.Connection,
    gid: int | None,
    action: str,
    logged: JsonValue,
    via: str | None,
) -> None:
    """The action in the audit trail and the night's book, with its detail (`logged`)."""
    detail = logged.to_json()
    conn.execute(
        "INSERT INTO ledger_log (game_id, action, detail, via) VALUES (?, ?, ?, ?)",
        (gid, action, json.dumps(detail, ensure_ascii=False), via),
    )
    book.append(conn, "ledger." + action, {"game_id": gid, **detail})


@dataclass(frozen=True)
class LedgerAction(JsonValue):
    """A ledger action of the Maestro in the audit trail: its game (None for the night's), what
    was done, its detail as it was logged (each action logs its own fields), through which
    device, and when."""

    game_id: int | None
    action: str
    detail: dict[str, Any]
    via: str | None
    at: str


def audit_log(conn: sqlite3.Connection) -> list[LedgerAction]:
    """The audit trail: every ledger action of the Maestro, in order."""
    return [
        LedgerAction(r["game_id"], r["action"], json.loads(r["detail"]), r["via"], r["made"])
        for r in conn.execute("SELECT * FROM ledger_log ORDER BY id")
    ]


def publish(gid: int, what: str) -> None:
    """Tell the game's screens the prizes may have changed (they fetch them again). Called
    after the commit, holding the write lock, as every service publishes."""
    games.publish(LedgerChanged(gid, what))


# ---- currency ------------------------------------------------------------------------------


def currency(conn: sqlite3.Connection) -> str:
    row = conn.execute("SELECT value FROM ledger_settings WHERE key = 'currency'").fetchone()
    return row[0] if row else money.DEFAULT_CURRENCY


def set_currency(conn: sqlite3.Connection, value: object, via: str | None = None) -> str:
    """The night's currency (an ISO 4217 code), for every amount the ledger shows."""
    with money_input():
        code = money.check_currency(value)
    with write_transaction(conn) as tx:
        conn.execute(
            "INSERT INTO ledger_settings (key, value) VALUES ('currency', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (code,),
        )
        log(conn, None, "currency", CurrencySet(code), via)
        tx.commit()
        gid = games.newest_active_game(conn)
        if gid is not None:
            publish(gid, "currency")
    return code


# ---- prices --------------------------------------------------------------------------------


# ---- prize rules ---------------------------------------------------------------------------


# ---- sales ---------------------------------------------------------------------------------
