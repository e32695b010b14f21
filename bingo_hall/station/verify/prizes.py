"""A game's prizes over SQLite: which are awarded, which can be won now, and
the award that closes one (docs/claims.md, "90 balls" and "Tambola"). The prizes are the game's
`PrizePlan`, data from its variant (`bingo_hall.variants`) and judged by
`bingo_hall.ninety.prize_rules`: línea then bingo (Spanish halls), or one line, two lines, full
house (UK clubs), played one after another; or Tambola (Early Five, the three lines, Four Corners,
Full House) and a host's own lists, every prize open at once.

* a claim names its prize (it may be left out while only one prize can be won) and is stored in
  `claims` (its `line` column holds the prize claimed) with its verdict; one call may complete
  several prizes of one ticket, each claimed on its own;
* an award goes to `prize_awards`: every ticket with a valid claim of the prize made on the
  earliest call on which one was made shares it (claims on the same call were simultaneous; a
  ticket that claimed twice is one winner, by its first claim), and the prize is
  closed: a later claim of it is refused, saying on which call it was won. In a sequence the next
  prize opens. A round ends when the plan is finished (every prize won); the Maestro then starts
  the next round (whose prizes start again) or ends the game.

A false claim has no penalty here: the 1933 rules' penalty (the markers of the line come off) is a
75-ball rule; in the 90-ball game the call simply goes on.

One idea in one module, though it is over 450 lines: the 90-ball game's prizes in a round, over
SQLite. What is awarded, what can be won now, judging a ticket against them and the award that
closes one read and write the same rows (`claims`, `prize_awards`) in one transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...manifest import Deck
from ...ninety.prize_rules import PrizeList, PrizeWon, check_prize_claim, judge_rule
from ...ninety.tickets import Ticket
from ...prize_plan import PrizePlan
from ...values import JsonValue
from ...web import book_store as book
from ...web.db import write_transaction
from ...web.errors import Conflict, RequestError
from ...web.i18n import in_lang
from .. import games, hooks
from ..decks import get_deck
from ..events import PrizeChanged
from ..hooks import Awarded, Winner
from ..model import Game, Round
from ..requests import Award
from ..variants import prize_plan
from . import store
from .awards import still_standing
from .board import AwardedPrize, PrizeBoard, PrizeWinner
from .judged import TicketCheck, WonPrize


@dataclass(frozen=True)
class PrizeState(JsonValue):
    """The `prizes` of the game's snapshot: its `PrizeBoard` and the round's claims."""

    board: PrizeBoard
    claims: tuple[PrizeClaim, ...]

    def to_json(self) -> dict[str, Any]:
        return {**self.board.to_json(), "claims": [c.to_json() for c in self.claims]}


@dataclass(frozen=True)
class PrizeClaim(JsonValue):
    """A claim of the round as the Maestro's list shows it: its prize, on which call, its
    verdict, whether a ball it relied on was undone since, and the ticket's complete rows."""

    claim_id: int
    serial: int
    player: str | None
    prize: str
    at_call: int
    valid: bool
    undone: bool
    complete_rows: tuple[int, ...]


@dataclass(frozen=True)
class PrizeAwarded(JsonValue):
    """The answer to a 90-ball award: the prize, on which call and to whom, and the prizes now."""

    game_id: int
    round: int
    prize: str
    at_call: int
    winners: tuple[PrizeWinner, ...]
    next: str | None
    open: tuple[str, ...]
    finished: bool
    prizes: PrizeState


def awarded(conn: sqlite3.Connection, round_id: int) -> tuple[AwardedPrize, ...]:
    """The round's awarded prizes in order, each with its winners."""
    out: list[AwardedPrize] = []
    for row in conn.execute(
        "SELECT prize, claim_id, serial, player, at_call, made FROM prize_awards "
        "WHERE round_id = ? ORDER BY id",
        (round_id,),
    ):
        winner = PrizeWinner(row["claim_id"], row["serial"], row["player"])
        if out and out[-1].prize == row["prize"]:
            out[-1] = replace(out[-1], winners=(*out[-1].winners, winner))
        else:
            out.append(AwardedPrize(row["prize"], row["at_call"], row["made"], (winner,)))
    return tuple(out)


def _done(conn: sqlite3.Connection, round_id: int) -> list[str]:
    return [a.prize for a in awarded(conn, round_id)]


@dataclass(frozen=True)
class TicketFacts:
    """What every ticket's page of a game is drawn from besides its ticket (read once per change
    of the game): the prize list, the prizes' list as a page draws it before any award, and the
    prizes each ticket has won in the game, by serial."""

    rules: PrizeList | None
    board: PrizeBoard
    won: dict[int, tuple[WonPrize, ...]]


def ticket_facts(conn: sqlite3.Connection, game: Game) -> TicketFacts:
    """One query for who won what, whatever the number of tickets."""
    plan = prize_plan(game)
    won: dict[int, tuple[WonPrize, ...]] = {}
    for row in conn.execute(
        "SELECT pa.serial, pa.prize, r.number FROM prize_awards pa "
        "JOIN rounds r ON r.id = pa.round_id WHERE pa.game_id = ? ORDER BY pa.id",
        (game.game_id,),
    ):
        won[row["serial"]] = (*won.get(row["serial"], ()), WonPrize(row["prize"], row["number"]))
    return TicketFacts(plan.prize_list, _board(plan, ()), won)


def won_by(conn: sqlite3.Connection, game_id: int, serial: int) -> tuple[WonPrize, ...]:
    """The prizes a ticket has won in the game, in order, each with its round's number."""
    rows = conn.execute(
        "SELECT pa.prize, r.number FROM prize_awards pa JOIN rounds r ON r.id = pa.round_id "
        "WHERE pa.game_id = ? AND pa.serial = ? ORDER BY pa.id",
        (game_id, serial),
    )
    return tuple(WonPrize(row["prize"], row["number"]) for row in rows)


def refuse_balls_once_all_won(conn: sqlite3.Connection, game: Game, rnd: Round) -> None:
    """No ball after the round's last prize is awarded (the plan is finished: in a sequence its
    last prize, in Tambola every prize), until the Maestro starts the next round."""
    if prize_plan(game).finished(_done(conn, rnd.round_id)):
        raise Conflict(
            "no more balls: every prize of round %(n)s has been awarded; press Next round to "
            "play on, or end the game",
            n=rnd.number,
        )


def awarded_at(conn: sqlite3.Connection, rnd: Round) -> int | None:
    """The call count of the round's latest prize award (None before the first)."""
    row = conn.execute(
        "SELECT MAX(at_call) FROM prize_awards WHERE round_id = ?", (rnd.round_id,)
    ).fetchone()
    return None if row[0] is None else int(row[0])


def current_prize(conn: sqlite3.Connection, game: Game, round_id: int) -> str | None:
    """The prize being played now (in Tambola the first open one); None once the round's last
    prize is awarded."""
    return prize_plan(game).next_prize(_done(conn, round_id))


def prize_name(plan: PrizePlan, key: str) -> str:
    """A prize's name in the reader's language (the plan's data: the kit's or the host's)."""
    names = plan.names().get(key)
    return in_lang(names) if names else key


def _named(plan: PrizePlan, key: str) -> str:
    """A prize as a refusal names it: the room's name and the key a request names it by."""
    name = prize_name(plan, key)
    return key if name == key else f"{name} [{key}]"  # "Terno (three in a row) [terno]"


def judge_ticket(
    conn: sqlite3.Connection,
    game: Game,
    rnd: Round,
    ticket: Ticket,
    prize: str | None = None,
    *,
    calls: Sequence[int] | None = None,
    won: tuple[WonPrize, ...] = (),
) -> TicketCheck:
    """The ticket judged now for `prize`, or, without one, for the open prize it holds first
    (else the first open prize; once all are won, the plan's last), with every open prize it
    holds: what a check shows and a claim stores. `calls` when the caller has read them."""
    plan = prize_plan(game)
    rules = plan.prize_list
    if rules is None:
        raise RequestError("this game has no 90-ball prizes")
    called = list(games.called_balls(conn, game.game_id) if calls is None else calls)
    won_now = awarded(conn, rnd.round_id)
    done = [a.prize for a in won_now]
    facts = won_facts(won_now)
    held = rules.held(ticket, called, done, facts)
    if prize is None:
        open_now = plan.open_prizes(done)
        prize = held[0].key if held else open_now[0] if open_now else plan.prizes[-1]
    verdict = check_prize_claim(rules, ticket, called, prize, done, facts)
    return TicketCheck(
        game.game_id,
        rnd.number,
        ticket,
        rules.prize(prize),
        verdict,
        tuple(called),
        held,
        plan.finished(done),
        won,
        rules,
        _board(plan, won_now),
    )


def won_facts(won_now: Sequence[AwardedPrize]) -> dict[str, PrizeWon]:
    """The round's awards as the pure rules judge a prize that comes after another: on which
    call each was won and by which tickets."""
    return {
        a.prize: PrizeWon(a.prize, a.at_call, frozenset(w.serial for w in a.winners))
        for a in won_now
    }


def _board(plan: PrizePlan, won_now: tuple[AwardedPrize, ...]) -> PrizeBoard:
    """The round's prizes as the screens list them: each prize, who won it, which are open."""
    done = [a.prize for a in won_now]
    return PrizeBoard(
        mode=plan.mode,
        order=str(plan.order),
        sequence=tuple(plan.prizes),
        names=plan.names(),
        plan_names=plan.list_names(),
        tabellone=plan.prize_list is not None and plan.prize_list.tabellone,
        awarded=won_now,
        open=tuple(plan.open_prizes(done)),
        first_open=tuple(plan.open_prizes([])),  # what a new round opens
        current=plan.next_prize(done),
        finished=plan.finished(done),
    )


def prize_state(conn: sqlite3.Connection, game_id: int) -> PrizeState:
    """The `prizes` of the game's snapshot: the plan (its prizes, their names, in sequence or
    open at once), what is awarded, what can be won now, and whether the round is finished."""
    game = games.get_game(conn, game_id)
    rnd = games.current_round(conn, game.game_id)
    plan = prize_plan(game)
    board = _board(plan, awarded(conn, rnd.round_id))
    return PrizeState(board, claims_this_round(conn, game, rnd))


def playing(conn: sqlite3.Connection, game: Game, rnd: Round, asked: str | None) -> str:
    """The prize a claim or an award is for: the one it names, which must be open now, or,
    when it names none, the only one that is. 409 once the round's last prize is awarded, for a
    prize already won (saying on which call) and for one not open yet (a doubled click must not
    act on the next prize)."""
    plan = prize_plan(game)
    won = {a.prize: a.at_call for a in awarded(conn, rnd.round_id)}
    open_now = plan.open_prizes(list(won))
    if not open_now:
        raise Conflict("every prize of this round has been awarded; start the next round")
    asked = check_prize_name(plan, asked)
    if asked is None:
        if len(open_now) > 1:
            raise RequestError(
                "name the prize: %(names)s are open (%(keys)s)",
                names=", ".join(prize_name(plan, p) for p in open_now),
                keys=", ".join(open_now),
            )
        return open_now[0]
    sequence = plan.prize_list is None or not plan.prize_list.open_at_once
    if asked in won and sequence:
        raise Conflict(
            "%(asked)s is not the prize being played, %(prize)s is: "
            "it was already won on call %(n)s",
            asked=_named(plan, asked),
            prize=_named(plan, open_now[0]),
            n=won[asked],
        )
    if asked in won:
        raise Conflict(
            "%(prize)s was already won on call %(n)s",
            prize=prize_name(plan, asked),
            n=won[asked],
        )
    if asked not in open_now and sequence:
        raise Conflict(
            "%(asked)s is not the prize being played, %(prize)s is",
            asked=_named(plan, asked),
            prize=_named(plan, open_now[0]),
        )
    if asked not in open_now:
        raise Conflict(
            "%(asked)s is not open yet: it opens once %(after)s is won",
            asked=prize_name(plan, asked),
            after=prize_name(plan, str(plan.prize(asked).after)),
        )
    return asked


def _standing_claims(
    conn: sqlite3.Connection,
    deck: Deck[Any],
    plan: PrizePlan,
    round_id: int,
    prize: str,
    live: list[int],
) -> list[sqlite3.Row]:
    """The round's valid claims of `prize` whose calls are still the start of the live calls,
    re-judged on the calls each one saw."""
    rule = plan.prize(prize).rule
    out = []
    for row in conn.execute(
        "SELECT id, serial, player, at_call, calls FROM claims "
        "WHERE round_id = ? AND line = ? AND valid = 1 ORDER BY id",
        (round_id, prize),
    ):
        calls = json.loads(row["calls"])
        holds = judge_rule(rule, deck.card(row["serial"]), set(calls)).holds
        if still_standing(calls, live) and holds:
            out.append(row)
    return out


def _to_award(
    conn: sqlite3.Connection,
    game: Game,
    rnd: Round,
    asked: str | None,
    deck: Deck[Any],
    live: list[int],
) -> tuple[str, list[sqlite3.Row]]:
    """The prize an award settles and its standing valid claims. Without a name, the only open
    prize with a standing claim (in a sequence, the prize being played)."""
    plan = prize_plan(game)
    if asked is None:
        done = _done(conn, rnd.round_id)
        claimed = [
            (p, rows)
            for p in plan.open_prizes(done)
            if (rows := _standing_claims(conn, deck, plan, rnd.round_id, p, live))
        ]
        if len(claimed) > 1:
            raise RequestError(
                "name the prize to award: %(names)s have valid claims (%(keys)s)",
                names=", ".join(prize_name(plan, p) for p, _ in claimed),
                keys=", ".join(p for p, _ in claimed),
            )
        if claimed:
            return claimed[0]
        if len(plan.open_prizes(done)) > 1:
            raise Conflict("no valid claim of an open prize to award")
    prize = playing(conn, game, rnd, asked)
    return prize, _standing_claims(conn, deck, plan, rnd.round_id, prize, live)


def one_per_ticket(claims: Iterable[sqlite3.Row]) -> list[sqlite3.Row]:
    """The winners of a prize: one per ticket, by its first claim. A ticket that claims the
    prize again on the same call (one claim per row that holds it, or a doubled click) is one
    winner still, so its second claim adds no share."""
    seen: set[int] = set()
    out = []
    for row in claims:
        if row["serial"] not in seen:
            seen.add(row["serial"])
            out.append(row)
    return out


def award(conn: sqlite3.Connection, game_id: int, request: Award) -> PrizeAwarded:
    """Award a prize that can be won now to its first valid claims, which closes it."""
    with write_transaction(conn) as tx:
        game = store.active_game(conn, game_id)
        gid = game.game_id
        rnd = games.current_round(conn, gid)
        deck = get_deck(conn, game.deck_id)
        live = games.called_balls(conn, gid)
        prize, valid = _to_award(conn, game, rnd, request.prize, deck, live)
        if not valid:
            raise Conflict(
                "no valid claim of the %(prize)s to award",
                prize=prize_name(prize_plan(game), prize),
            )
        first = min(row["at_call"] for row in valid)
        winners = one_per_ticket(row for row in valid if row["at_call"] == first)
        for row in winners:
            conn.execute(
                "INSERT INTO prize_awards (game_id, round_id, prize, claim_id, serial, "
                "player, at_call) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (gid, rnd.round_id, prize, row["id"], row["serial"], row["player"], first),
            )
        won = tuple(Winner(w["id"], w["serial"], w["player"]) for w in winners)
        settled = {"game_id": gid, "round": rnd.number, "prize": str(prize), "at_call": first}
        seats = [{"claim_id": w.claim_id, "serial": w.serial} for w in won]
        book.append(
            conn, "prize", {**settled, "winners": seats}, {"players": [w.player for w in won]}
        )
        hooks.awarded(conn, Awarded(gid, rnd.round_id, rnd.number, str(prize), first, won))
        tx.commit()
        state = prize_state(conn, gid)
        games.publish(PrizeChanged(gid, state))
    return PrizeAwarded(
        gid,
        rnd.number,
        prize,
        first,
        tuple(PrizeWinner(w["id"], w["serial"], w["player"]) for w in winners),
        state.board.current,
        state.board.open,
        state.board.finished,
        state,
    )


def claims_this_round(conn: sqlite3.Connection, game: Game, rnd: Round) -> tuple[PrizeClaim, ...]:
    """The round's claims, newest last, for the Maestro's list."""
    live = games.called_balls(conn, game.game_id)
    rows = conn.execute(
        "SELECT id, serial, player, line, at_call, calls, valid, "
        "json_extract(verdict, '$.complete_rows') AS complete_rows FROM claims "
        "WHERE round_id = ? ORDER BY id",
        (rnd.round_id,),
    ).fetchall()
    return tuple(
        PrizeClaim(
            claim_id=r["id"],
            serial=r["serial"],
            player=r["player"],
            prize=r["line"],
            at_call=r["at_call"],
            valid=bool(r["valid"]),
            undone=not still_standing(json.loads(r["calls"]), live),
            complete_rows=tuple(json.loads(r["complete_rows"] or "[]")),
        )
        for r in rows
    )


def check_prize_name(plan: PrizePlan, value: str | None) -> str | None:
    """The `prize` a request names (so a doubled request cannot act on the next prize): one of
    the plan's prizes."""
    if value is None:
        return None
    if value not in plan.prizes:
        raise RequestError("prize is one of %(names)s", names=", ".join(plan.prizes))
    return value
