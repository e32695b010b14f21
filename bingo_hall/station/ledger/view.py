"""What the ledger page and `GET /api/games/<id>/ledger` show of a game, and tonight's cash box,
as frozen values; the routes turn them into JSON (`to_json`) at the edge."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from ...money import Reconciled, format_serials
from ...money.night import Cash, Night
from .. import games
from . import cash, payouts, price_store, sale_store, stock, store, summary
from .payouts import PayoutRow, SaleWarning


@dataclass(frozen=True)
class LedgerView:
    """A game's ledger: its price list, its paper stock, the round's takings, the prizes now,
    sales, payouts and warnings."""

    game_id: int
    currency: str
    round: int
    active: bool
    plays: tuple[str, ...]
    prices: price_store.PriceList
    price_names: dict[int, str]
    stock: tuple[stock.StockLine, ...]
    reconciled: Reconciled | None
    round_sales: tuple[int, int]  # cards, cents
    prizes: tuple[payouts.PrizeNow, ...]
    sales: tuple[sale_store.Sale, ...]
    payouts: tuple[PayoutRow, ...]
    warnings: tuple[SaleWarning, ...]

    def to_json(self) -> dict[str, Any]:
        st = self.reconciled
        return {
            "game_id": self.game_id,
            "currency": self.currency,
            "round": self.round,
            "active": self.active,
            "plays": list(self.plays),
            "prices": [p.to_json() for p in self.prices.prices],
            "price_names": self.price_names,
            "stock": [s.to_json() for s in self.stock],
            "reconciled": None
            if st is None
            else {
                "issued": st.issued,
                "sold": st.sold,
                "returned": st.returned,
                "void": st.void,
                "gaps": [
                    {"seller": g.seller, "serials": format_serials(g.serials)} for g in st.gaps
                ],
            },
            "round_sales": {"cards": self.round_sales[0], "cents": self.round_sales[1]},
            "prizes": [p.to_json() for p in self.prizes],
            "sales": [s.to_json() for s in self.sales],
            "payouts": [p.to_json() for p in self.payouts],
            "warnings": [w.to_json() for w in self.warnings],
        }


def ledger_view(conn: sqlite3.Connection, gid: int) -> LedgerView:
    game = games.get_game(conn, gid)
    rnd = games.current_round(conn, gid).number
    return LedgerView(
        gid,
        store.currency(conn),
        rnd,
        game.active,
        tuple(store.game_prizes(game)),
        price_store.price_list(conn, gid),
        price_store.price_names(conn, gid),
        tuple(stock.lines(conn, gid)),
        stock.reconciled(conn, gid),
        payouts.round_sales(conn, gid, rnd),
        tuple(payouts.prizes_now(conn, gid)),
        tuple(sale_store.sales(conn, gid)),
        tuple(payouts.payouts(conn, gid)),
        tuple(payouts.warnings(conn, gid)),
    )


@dataclass(frozen=True)
class CashNow:
    """Tonight's cash box as the page shows it: the figures given (float and counts, in order),
    the newest of each, and tonight's summary (its over/short) once tonight has a game."""

    entries: tuple[cash.CashEntry, ...]
    box: Cash | None
    night: Night | None


def cash_now(conn: sqlite3.Connection) -> CashNow:
    tonight = cash.tonight()
    night = summary.night(conn) if tonight in summary.nights(conn) else None
    night = night if night is not None and night.date == tonight else None
    return CashNow(tuple(cash.entries(conn, tonight)), cash.box(conn, tonight), night)
