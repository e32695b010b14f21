"""The night's summary read from the station's database (`bingo_hall.money.night` values). A station
keeps its database from one club night to the next, so the games are grouped by night
(`night_of`: the evening they started); the summary is one night's, the newest by default.
Money is counted once: a sale for the whole game (every round) counts in the round being played
when it was made (`bingo_hall.money.takings`)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from ...audit import StationKey
from ...errors import KitError
from ...money.night import GameLine, Night, Payout, PotMove, ProgramPlace, RoundLine, night_of
from ...web import book_store as book
from . import cash, night_sales, payouts, raffle_store, sale_store, stock, store


def _games(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT g.id, g.balls, g.created, d.name FROM games g JOIN decks d USING (deck_id) "
        "ORDER BY g.id"
    ).fetchall()


def nights(conn: sqlite3.Connection) -> list[str]:
    """The nights with games or a raffle, newest first."""
    held = {night_of(g["created"]) for g in _games(conn)}
    held |= {night_of(r.created) for r in raffle_store.raffles(conn)}
    held |= {night_of(r[0]) for r in conn.execute("SELECT made FROM ledger_night_sales")}
    return sorted(held, reverse=True)


def program_place(conn: sqlite3.Connection, game_id: int) -> ProgramPlace | None:
    """The game's place in the night's program, or None for a game started by hand:
    read from the program's own table, with the names as the program gave them."""
    row = conn.execute(
        "SELECT program_id, position, spec, status FROM program_games WHERE game_id = ?",
        (game_id,),
    ).fetchone()
    if row is None:
        return None
    total = conn.execute(
        "SELECT COUNT(*) FROM program_games WHERE program_id = ?", (row["program_id"],)
    ).fetchone()[0]
    spec = json.loads(row["spec"])
    names = {"en": spec.get("name", ""), "es": spec.get("name_es", spec.get("name", ""))}
    return ProgramPlace(row["position"], total, names, row["status"] == "skipped")


def _book_head(conn: sqlite3.Connection, key: StationKey | None) -> str:
    """The book's head signed now, for the summary's foot ("" without a key or a book). The key
    is the caller's to give (the station's, or the one kept beside the database for the command
    line): the summary never reaches for a running app."""
    try:
        return "" if key is None else key.sign(book.head(conn)).figures()
    except sqlite3.OperationalError:  # a database from before the book, read as it is
        return ""


def night(
    conn: sqlite3.Connection, date: str | None = None, key: StationKey | None = None
) -> Night:
    """One night's summary: `date` ("2026-11-24"), by default the newest night."""
    known = nights(conn)
    if date is None:
        date = known[0] if known else ""
    elif not known:
        raise KitError("no games on the night of %(date)s; no night has games yet", date=date)
    elif date not in known:
        raise KitError(
            "no games on the night of %(date)s; the nights are: %(names)s",
            date=date,
            names=", ".join(known),
        )
    games = [g for g in _games(conn) if night_of(g["created"]) == date]
    paid_out = payouts.payouts(conn)
    lines = []
    for g in games:
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
                    p.prize,
                    p.serial,
                    p.player,
                    p.at_call,
                    p.cents,
                    p.jackpot,
                    p.paid is not None,
                    p.cash or p.paid is None,
                )
                for p in paid_out
                if p.game_id == g["id"] and p.round == r["number"]
            )
            seed = r["seed"] if r["revealed"] else None
            rounds.append(RoundLine(r["number"], cards, cents, r["commitment"], seed, won))
        lines.append(
            GameLine(
                g["id"],
                g["name"],
                g["balls"],
                tuple(rounds),
                stock.reconciled(conn, g["id"]),
                program_place(conn, g["id"]),
            )
        )
    brought = carried = 0
    if games:
        brought = payouts.pot(conn, games[0]["id"] - 1)  # what earlier nights left in the pot
        carried = payouts.pot(conn, games[-1]["id"])
    # where the pot carried over comes from: each game's jackpot set aside, and what was won
    moves = tuple(
        PotMove(g["id"], payouts.set_aside(conn, g["id"]), payouts.won_from_pot(conn, g["id"]))
        for g in games
    )
    corrected = sum(
        1
        for g in games
        for sale in sale_store.sales(conn, g["id"])
        if sale.void and sale.night is None
    )
    corrected += sum(1 for sale in night_sales.night_sales(conn, date) if sale.void)
    raffles = tuple(
        raffle_store.night_line(conn, r)
        for r in raffle_store.raffles(conn)
        if night_of(r.created) == date
    )
    return Night(
        store.currency(conn),
        tuple(lines),
        carried,
        corrected,
        brought,
        date,
        cash.box(conn, date) if date else None,
        book_head=_book_head(conn, key),
        raffles=raffles,
        pot_moves=tuple(m for m in moves if m.set_aside or m.won),
        prize_names=_host_prize_names(conn, [g["id"] for g in games]),
        unplayed=night_sales.unplayed(conn, date) if date else 0,
        repeated_cards=night_sales.repeated_cards(conn, date) if date else 0,
    )


def _host_prize_names(conn: sqlite3.Connection, game_ids: list[int]) -> dict[str, dict[str, str]]:
    """The names of the prizes of the host's own lists the night's games played, from each
    game's own record (a key the kit's lists have keeps the kit's name)."""
    from ...prize_names import known_names
    from ..games import get_game
    from ..variants import prize_plan

    kit = known_names()
    names: dict[str, dict[str, str]] = {}
    for gid in game_ids:
        listed = prize_plan(get_game(conn, gid)).prize_list
        if listed is not None and listed.text:
            names |= {p.key: dict(p.names) for p in listed.prizes if p.key not in kit}
    return names


@dataclass(frozen=True)
class NightPayout:
    """A payout in the night's one list: its game (the program's number and name when it was
    one of the program's), round, prize, ticket, amount, and whether it is paid."""

    payout_id: int
    game_id: int
    number: int | None  # the game's number in the program
    names: dict[str, str]  # the program's names of the game, by language
    round: int
    prize: str
    serial: int
    player: str | None
    at_call: int
    cents: int
    jackpot: bool
    paid: str | None  # when its newest mark said paid
    cash: bool
    unpaid: str | None  # the reason of a mark that took a payment back
    money_ball: int | None = None  # the money ball the bingo was won on
    money_ball_bonus: int = 0  # what it added (in `cents`)

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names.get("en", "")

    def to_json(self) -> dict[str, Any]:
        return {
            "payout_id": self.payout_id,
            "game_id": self.game_id,
            "number": self.number,
            "name": self.name("en") or None,
            "round": self.round,
            "prize": self.prize,
            "serial": self.serial,
            "player": self.player,
            "at_call": self.at_call,
            "cents": self.cents,
            "jackpot": self.jackpot,
            "paid": self.paid,
            "cash": self.cash,
            "unpaid": self.unpaid,
            "money_ball": self.money_ball,
            "money_ball_bonus": self.money_ball_bonus,
        }


def night_payouts(conn: sqlite3.Connection, date: str | None = None) -> list[NightPayout]:
    """Every payout of the night (`date`, by default the newest), in the order awarded: the
    treasurer's one list, whatever game each was won in."""
    known = nights(conn)
    date = date or (known[0] if known else "")
    tonight = {g["id"] for g in _games(conn) if night_of(g["created"]) == date}
    places = {gid: program_place(conn, gid) for gid in tonight}
    out = []
    for p in payouts.payouts(conn):
        if p.game_id not in tonight:
            continue
        place = places[p.game_id]
        out.append(
            NightPayout(
                p.payout_id,
                p.game_id,
                None if place is None else place.number,
                {} if place is None else dict(place.names),
                p.round,
                p.prize,
                p.serial,
                p.player,
                p.at_call,
                p.cents,
                p.jackpot,
                p.paid,
                p.cash,
                p.unpaid,
                p.money_ball,
                p.money_ball_bonus,
            )
        )
    return out
