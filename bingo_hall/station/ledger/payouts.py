"""Prizes in money: what each prize of the round pays before it starts, the payouts
recorded when a prize is awarded, marking them paid, and the warning for a claim on a card not
sold for the round.

The award and claim paths of the claims area call `on_award` and `on_claim` inside their own
transaction (`bingo_hall.station.hooks`), so a payout is committed with its award or not at all.
The jackpot: every game with a jackpot prize puts its sum into the pot; a full house within the
prize's calls takes the whole pot (split between simultaneous winners), otherwise the normal
prize is paid and the pot rolls over to the next game (`bingo_hall.money.settle`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from ... import money
from ...money import JackpotMode, PrizeKind, PrizeRule
from ...seventyfive.specials import MoneyBallRule
from ...values import JsonValue
from ...web import book_store as book
from ...web.db import write_transaction
from ...web.errors import Conflict, NotFound
from .. import games
from ..hooks import Awarded, Claimed, RecordNote
from . import prize_store, sale_store, store
from .logged import PayoutMarked


def takings(conn: sqlite3.Connection, gid: int) -> dict[int, tuple[int, int]]:
    """(cards, cents) taken per round, each sale counted once (`bingo_hall.money.takings`: a
    sale for the whole game in the round being played when it was made)."""
    return money.takings(s.counted() for s in sale_store.sales(conn, gid))


def round_sales(conn: sqlite3.Connection, gid: int, rnd: int) -> tuple[int, int]:
    """(cards, cents) a round took: what its percentage prizes are shares of, what the ledger
    page and the summary show for it (one count for all three)."""
    return takings(conn, gid).get(rnd, (0, 0))


def set_aside(conn: sqlite3.Connection, gid: int) -> int:
    """What game `gid` puts in the jackpot pot: the sum of its jackpots (its rules now)."""
    rules = prize_store.rules_of(conn, gid).values()
    return sum(rule.jackpot for rule in rules if rule.kind == PrizeKind.JACKPOT)


def won_from_pot(conn: sqlite3.Connection, gid: int) -> int:
    """What the jackpots won in game `gid` took out of the pot."""
    row = conn.execute(
        "SELECT COALESCE(SUM(COALESCE(from_pot, cents)), 0) FROM ledger_payouts "
        "WHERE jackpot = 1 AND game_id = ?",
        (gid,),
    ).fetchone()
    return int(row[0])


def pot(conn: sqlite3.Connection, gid: int) -> int:
    """The jackpot pot when game `gid` plays: the sums of every jackpot of this game and the
    games before it, less the jackpots already paid."""
    games = [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT game_id FROM ledger_prizes WHERE game_id <= ?", (gid,)
        )
    ]
    paid = [
        r[0]
        for r in conn.execute(
            "SELECT COALESCE(from_pot, cents) FROM ledger_payouts WHERE jackpot = 1 "
            "AND game_id <= ?",
            (gid,),
        )
    ]
    return money.jackpot_pot((set_aside(conn, g) for g in games), paid)


@dataclass(frozen=True)
class PrizeNow:
    """A prize of the round as the screens show it: before it is won, the normal prize and,
    for a jackpot with money in its pot, what the winner gets within its calls; once it is
    awarded, what was actually awarded."""

    prize: str
    rule: PrizeRule
    cents: int  # the normal prize on the round's takings so far
    pot: int  # the jackpot pot (JACKPOT only)
    awarded: int | None = None  # what the award paid in all (its winners' shares)
    jackpot_won: bool = False  # the award paid the jackpot

    @property
    def if_jackpot(self) -> int:
        """What the prize pays within the jackpot's calls (`PrizeRule.if_jackpot`)."""
        return self.rule.if_jackpot(self.cents, self.pot) if self.pot else self.cents

    @property
    def jackpot_line(self) -> str | None:
        """How the screens word the jackpot: "more" (on top of the prize), "jackpot" (instead,
        the pot is larger), "prize" (instead, the prize is larger: it is paid); None without a
        jackpot in play."""
        if self.rule.kind != PrizeKind.JACKPOT or self.pot <= 0:
            return None
        if self.rule.mode == JackpotMode.ON_TOP:
            return "more"
        return "jackpot" if self.pot > self.cents else "prize"

    def to_json(self) -> dict[str, Any]:
        return {
            "prize": self.prize,
            **self.rule.to_json(),
            "amount": self.cents,
            "pot": self.pot,
            "if_jackpot": self.if_jackpot,
            "awarded": self.awarded,
            "jackpot_won": self.jackpot_won,
        }


def prizes_now(conn: sqlite3.Connection, gid: int) -> list[PrizeNow]:
    """The current round's prizes with their amounts, in the order they are played: what each
    pays now on the round's takings, or, once awarded, what its award paid."""
    game = games.get_game(conn, gid)
    rules = prize_store.rules_of(conn, gid)
    current = games.current_round(conn, gid)
    cents = round_sales(conn, gid, current.number)[1]
    jackpot = pot(conn, gid)
    paid: dict[str, tuple[int, bool]] = {}
    for row in conn.execute(
        "SELECT prize, SUM(cents) AS cents, MAX(jackpot) AS jackpot FROM ledger_payouts "
        "WHERE round_id = ? GROUP BY prize",
        (current.round_id,),
    ):
        paid[row["prize"]] = (row["cents"], bool(row["jackpot"]))
    out = []
    for p in store.game_prizes(game):
        if p not in rules:
            continue
        rule = rules[p]
        awarded, won = paid.get(p, (None, False))
        out.append(
            PrizeNow(
                p,
                rule,
                rule.normal(cents),
                jackpot if rule.kind == PrizeKind.JACKPOT else 0,
                awarded,
                won,
            )
        )
    return out


@dataclass(frozen=True)
class UnsoldCard(JsonValue):
    serial: int
    round: int


@dataclass(frozen=True)
class UnsoldWarning(JsonValue):
    """What a claim's answer gets for a card not sold for its round: the card, and the words."""

    unsold: UnsoldCard
    warning: str


def on_claim(conn: sqlite3.Connection, claim: Claimed) -> UnsoldWarning | None:
    """A claim on a card not sold for its round, when the game's ledger is kept: the warning is
    recorded and goes back to the Maestro with the claim. The Maestro decides."""
    if not sale_store.in_use(conn, claim.game_id):
        return None
    if any(claim.serial in r for r in sale_store.sold(conn, claim.game_id, claim.round)):
        return None
    conn.execute(
        "INSERT INTO ledger_warnings (game_id, round_id, claim_id, serial) VALUES (?, ?, ?, ?)",
        (claim.game_id, claim.round_id, claim.claim_id, claim.serial),
    )
    return UnsoldWarning(
        UnsoldCard(claim.serial, claim.round),
        gettext("Card %(serial)s was not sold for this round", serial=claim.serial),
    )


def on_award(conn: sqlite3.Connection, award: Awarded) -> None:
    """Record what the award pays each winner (who, how much, which card, which call)."""
    rule = prize_store.rules_of(conn, award.game_id).get(award.prize)
    if rule is None:
        return  # a prize the host gave no money
    sales = round_sales(conn, award.game_id, award.round)[1]
    jackpot = pot(conn, award.game_id) if rule.kind == PrizeKind.JACKPOT else 0
    settled = money.settle(rule, sales, jackpot, award.at_call, len(award.winners))
    ball = _won_on_money_ball(conn, award)
    extras = (0,) * len(award.winners)
    if ball is not None:
        game = games.get_game(conn, award.game_id)
        extras = MoneyBallRule.from_word(game.options["money_ball_pays"]).extras(settled.shares)
    shares = zip(award.winners, settled.shares, settled.from_pot, extras, strict=True)
    for w, share, from_pot, bonus in shares:
        cents = share + bonus
        cur = conn.execute(
            "INSERT INTO ledger_payouts (game_id, round_id, prize, claim_id, serial, player, "
            "at_call, cents, jackpot, from_pot, money_ball, bonus) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                award.game_id,
                award.round_id,
                award.prize,
                w.claim_id,
                w.serial,
                w.player,
                award.at_call,
                cents,
                int(settled.jackpot),
                from_pot,
                ball,
                bonus,
            ),
        )
        paid = {"payout_id": cur.lastrowid, "game_id": award.game_id, "round": award.round}
        won = {"prize": award.prize, "claim_id": w.claim_id, "serial": w.serial}
        sums = {"at_call": award.at_call, "cents": cents, "jackpot": settled.jackpot}
        if ball is not None:  # the book says what the money ball added, and on which ball
            sums = {**sums, "money_ball": ball, "money_ball_bonus": bonus}
        book.append(
            conn, "payout", {**paid, **won, **sums, "from_pot": from_pot}, {"player": w.player}
        )


def _won_on_money_ball(conn: sqlite3.Connection, award: Awarded) -> int | None:
    """The money ball, when the award's winning call (its `at_call`-th) is it, in a game that
    pays one (a 75-ball game: a game of strips takes no special game)."""
    game = games.get_game(conn, award.game_id)
    ball = sale_store.money_ball_known(game)
    if ball is None or game.options.get("money_ball_pays") is None:
        return None
    calls = [r["ball"] for r in games.live_calls(conn, award.round_id)]
    won_on = calls[award.at_call - 1] if 0 < award.at_call <= len(calls) else None
    return ball if won_on == ball else None


@dataclass(frozen=True)
class PayoutRow(JsonValue):
    """A payout as the ledger lists it: the prize, who won it on which card and call, the cents
    paid (from the jackpot's pot or not), and its newest mark: `paid` is when it said paid (None
    if not paid), `cash` whether in cash, `unpaid` the reason of a mark that took a payment
    back."""

    payout_id: int
    game_id: int
    round: int
    prize: str
    claim_id: int
    serial: int
    player: str | None
    at_call: int
    cents: int
    jackpot: bool
    at: str
    paid: str | None
    cash: bool
    unpaid: str | None
    #: the money ball, when the prize was won on it, and the bonus it added (cents)
    money_ball: int | None = None
    money_ball_bonus: int = 0


@dataclass(frozen=True)
class SaleWarning(JsonValue):
    """A claim on a card that was not sold for its round."""

    round: int
    claim_id: int
    serial: int
    at: str


def payouts(conn: sqlite3.Connection, gid: int | None = None) -> list[PayoutRow]:
    """Every payout (of one game if given), in the order awarded: `paid` is when its newest mark
    said paid (None if not paid), `unpaid` the reason of a mark that took a payment back."""
    sql = (
        "SELECT p.*, r.number AS round, d.paid AS paid_now, d.made AS marked, d.reason, "
        "d.cash "
        "FROM ledger_payouts p JOIN rounds r ON r.id = p.round_id "
        "LEFT JOIN ledger_paid_marks d ON d.id = "
        "(SELECT MAX(id) FROM ledger_paid_marks WHERE payout_id = p.id)"
    )
    rows = conn.execute(
        sql + (" WHERE p.game_id = ?" if gid else "") + " ORDER BY p.id", (gid,) if gid else ()
    )
    return [
        PayoutRow(
            payout_id=r["id"],
            game_id=r["game_id"],
            round=r["round"],
            prize=r["prize"],
            claim_id=r["claim_id"],
            serial=r["serial"],
            player=r["player"],
            at_call=r["at_call"],
            cents=r["cents"],
            jackpot=bool(r["jackpot"]),
            money_ball=r["money_ball"],
            money_ball_bonus=r["bonus"],
            at=r["made"],
            paid=r["marked"] if r["paid_now"] else None,
            cash=bool(r["paid_now"]) and bool(r["cash"]),
            unpaid=r["reason"] if r["paid_now"] == 0 else None,
        )
        for r in rows
    ]


@dataclass(frozen=True)
class Mark:
    """A payout marked paid (in cash, or not: a cheque, a transfer) or, with the reason, marked
    not paid after all."""

    payout_id: int
    paid: bool
    cash: bool = True
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"payout_id": self.payout_id, "paid": self.paid}
        if self.paid:
            out["cash"] = self.cash
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def mark_paid(
    conn: sqlite3.Connection, payout_id: int, cash: bool = True, via: str | None = None
) -> Mark:
    """The winner has the money: the payout is marked paid, in cash unless said otherwise
    (once; a mistake is corrected by `mark_unpaid`, never by deleting the mark)."""
    mark = Mark(payout_id, True, cash)
    _mark(conn, mark, via)
    return mark


def mark_unpaid(
    conn: sqlite3.Connection, payout_id: int, reason: str, via: str | None = None
) -> Mark:
    """A payout marked paid by mistake is marked not paid, saying why (the route checks the
    reason): a new mark, kept with the reason in the audit trail, as a sale's correction is."""
    mark = Mark(payout_id, False, reason=reason)
    _mark(conn, mark, via)
    return mark


def _mark(conn: sqlite3.Connection, mark: Mark, via: str | None) -> None:
    payout_id, paid, reason = mark.payout_id, mark.paid, mark.reason
    with write_transaction(conn) as tx:
        row = conn.execute("SELECT * FROM ledger_payouts WHERE id = ?", (payout_id,)).fetchone()
        if row is None:
            raise NotFound("there is no payout %(n)s", n=payout_id)
        last = conn.execute(
            "SELECT paid FROM ledger_paid_marks WHERE payout_id = ? ORDER BY id DESC LIMIT 1",
            (payout_id,),
        ).fetchone()
        if paid and last is not None and last["paid"]:
            raise Conflict("payout %(n)s is already marked paid", n=payout_id)
        if not paid and (last is None or not last["paid"]):
            raise Conflict("payout %(n)s is not marked paid", n=payout_id)
        conn.execute(
            "INSERT INTO ledger_paid_marks (payout_id, paid, reason, cash) VALUES (?, ?, ?, ?)",
            (payout_id, int(paid), reason, int(mark.cash)),
        )
        detail = PayoutMarked(payout_id, row["cents"], mark.cash if paid else None, reason)
        store.log(conn, row["game_id"], "paid" if paid else "unpaid", detail, via)
        tx.commit()
        store.publish(row["game_id"], "paid" if paid else "unpaid")


def warnings(conn: sqlite3.Connection, gid: int) -> list[SaleWarning]:
    rows = conn.execute(
        "SELECT w.*, r.number AS round FROM ledger_warnings w JOIN rounds r ON r.id = w.round_id "
        "WHERE w.game_id = ? ORDER BY w.id",
        (gid,),
    )
    return [SaleWarning(r["round"], r["claim_id"], r["serial"], r["made"]) for r in rows]


def record_notes(conn: sqlite3.Connection, round_id: int) -> list[RecordNote]:
    """The game record's notes of a round: each claim on a card not sold for it."""
    rows = conn.execute(
        "SELECT claim_id, serial, made FROM ledger_warnings WHERE round_id = ? ORDER BY id",
        (round_id,),
    )
    return [
        RecordNote(
            at=r["made"],
            event="warning",
            detail=f"claim {r['claim_id']}: card not sold for this round",
            serial=r["serial"],
        )
        for r in rows
    ]
