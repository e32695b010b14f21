"""The night's summary read from the station's database (`bingo_hall.night` values): every game
of the database is one night's, in the order played. Money is counted once: a sale for a whole
game (every round) counts in its first round. Used by the pages (PDF, CSV) and by
`bingo-hall ledger`."""

from __future__ import annotations

import sqlite3

from ...night import GameLine, Night, Payout, RoundLine
from . import payouts, store


def night(conn: sqlite3.Connection) -> Night:
    lines = []
    paid_out = payouts.payouts(conn)
    for g in conn.execute(
        "SELECT g.id, g.balls, d.name FROM games g JOIN decks d USING (deck_id) ORDER BY g.id"
    ).fetchall():
        rounds = []
        taken = payouts.takings(conn, g["id"])
        for r in conn.execute(
            "SELECT number, commitment, seed, revealed FROM rounds WHERE game_id = ? "
            "ORDER BY number",
            (g["id"],),
        ).fetchall():
            cards, cents = taken.get(r["number"], (0, 0))
            won = tuple(
                Payout(
                    p["prize"],
                    p["serial"],
                    p["player"],
                    p["at_call"],
                    p["cents"],
                    p["jackpot"],
                    p["paid"] is not None,
                )
                for p in paid_out
                if p["game_id"] == g["id"] and p["round"] == r["number"]
            )
            seed = r["seed"] if r["revealed"] else None
            rounds.append(RoundLine(r["number"], cards, cents, r["commitment"], seed, won))
        lines.append(GameLine(g["id"], g["name"], g["balls"], tuple(rounds)))
    last = lines[-1].game_id if lines else 0
    carried = payouts.pot(conn, last) if lines else 0
    corrected = conn.execute("SELECT COUNT(*) FROM ledger_corrections").fetchone()[0]
    return Night(store.currency(conn), tuple(lines), carried, corrected)
