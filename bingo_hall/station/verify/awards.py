"""Settling a round and the scoreboard: the award, points per side, who is Maestro next.

`seventyfive.claims.settle` picks the winner and `standings` adds up the sides; this file stores
the award. The round's final board then stays on the screens, with the winner, until the Maestro
presses "Next round" (`POST /api/games/<id>/rounds`): the room checks its cards against it. In
Puntos, reaching the target ends the game; the award is stored first, so a crash between the two
is finished by the next award request instead of awarding twice.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...manifest import Deck
from ...seventyfive import claims as rules
from ...seventyfive.specials import Specials, money_ball_won_words
from ...values import JsonValue
from ...web import book_store as book
from ...web.db import write_transaction
from ...web.errors import Conflict
from .. import games, hooks
from ..decks import get_deck
from ..events import ScoresChanged
from ..model import Round
from ..round_load import load_round
from ..settings import pattern_names_of
from ..specials_view import game_specials
from ..spoken import spoken_pattern_won_both
from ..variants import prize_plan
from . import store
from .store import RulesShown


@dataclass(frozen=True)
class Side(JsonValue):
    """A side on the scoreboard (a player, or a Sociedad) and its points or wins."""

    name: str
    members: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class SeatedPlayer(JsonValue):
    name: str
    team: str | None


@dataclass(frozen=True)
class ClaimRow(JsonValue):
    """A claim on the scoreboard: its stored verdict's kind and points."""

    claim_id: int
    serial: int
    player: str | None
    at_call: int
    valid: bool
    undone: bool  # made on a call the Maestro has since undone
    kind: str | None
    points: int | None
    penalty: Any  # the stored penalty (PenaltyShown's JSON), or None


@dataclass(frozen=True)
class AwardRow(JsonValue):
    """A round's award on the scoreboard."""

    round: int
    claim_id: int
    serial: int
    player: str | None
    side: str | None
    kind: str | None
    points: int
    maestro: str | None
    next_maestro: str | None
    at: str


@dataclass(frozen=True)
class FinalBoard(JsonValue):
    """The current round's award with the winning card's verdict as it was judged."""

    round: int
    serial: int
    player: str | None
    side: str | None
    kind: str | None
    points: int
    verdict: Any  # the stored verdict's JSON
    #: the room's announcement of a round won with a pattern: its name and the form completed
    spoken: dict[str, str] | None = None
    #: what the room is told when the bingo was won on the game's money ball (None: it was not)
    money_ball: Mapping[str, str] | None = None


@dataclass(frozen=True)
class Scores(JsonValue):
    """The 75-ball scoreboard (`scores`)."""

    game_id: int
    mode: str
    round: int
    settings: RulesShown
    sides: tuple[Side, ...]
    winner: str | None
    maestro: str | None
    next_maestro: str | None
    players: tuple[SeatedPlayer, ...]
    claims: tuple[ClaimRow, ...]
    awards: tuple[AwardRow, ...]
    awarded: FinalBoard | None


@dataclass(frozen=True)
class RoundAwarded(JsonValue):
    """The answer to a 75-ball award: the award, whether the game is over, the scoreboard."""

    award: AwardRow
    finished: bool
    scores: Scores


def _round_claims(
    conn: sqlite3.Connection, deck: Deck[Any], round_id: int, r: rules.Rules, live: list[int]
) -> list[rules.Claim]:
    """The round's valid claims, re-judged on the calls each one saw (so settling is reproducible
    from the record). A claim made on a call the Maestro has since undone no longer counts: the
    ball it relied on was never really drawn."""
    out = []
    for row in conn.execute(
        "SELECT id, serial, player, calls, json_extract(verdict, '$.book.serials') AS book "
        "FROM claims WHERE round_id = ? AND valid = 1 ORDER BY id",
        (round_id,),
    ):
        calls = json.loads(row["calls"])
        if not still_standing(calls, live):
            continue
        if r.cards_needed > 1 and row["book"]:  # the book the claim was judged on
            first, last = json.loads(row["book"])
            cards = [deck.card(s) for s in range(first, last + 1)]
            book_pens = {
                c.serial: store.penalties(conn, round_id, c.serial, before=row["id"]) for c in cards
            }
            verdict = rules.judge_book(cards, row["serial"], calls, r, book_pens)
            out.append(rules.Claim(row["id"], row["serial"], row["player"], verdict))
            continue
        card = deck.card(row["serial"])
        pens = store.penalties(conn, round_id, row["serial"], before=row["id"])
        verdict = rules.judge(card, calls, r, pens)
        out.append(rules.Claim(row["id"], row["serial"], row["player"], verdict))
    return out


def still_standing(claim_calls: list[int], live: list[int]) -> bool:
    """The calls a claim saw are still the start of the round's live calls (none undone)."""
    return live[: len(claim_calls)] == claim_calls


def award(conn: sqlite3.Connection, game_id: int) -> RoundAwarded:
    """Settle the round by the rules, credit the points and pass the Maestro on; in Puntos,
    reaching the target ends the game. The next round is the Maestro's explicit step."""
    with write_transaction(conn) as tx:
        game = store.active_game(conn, game_id)
        gid = game.game_id
        rnd = games.current_round(conn, gid)
        done = conn.execute("SELECT id FROM awards WHERE round_id = ?", (rnd.round_id,)).fetchone()
        if done is not None and not _target_reached(conn, gid):
            raise Conflict(
                "round %(n)s is already awarded; press Next round to play on", n=rnd.number
            )
        if done is None:  # else: awarded, then stopped before the game was ended
            r = store.game_rules(conn, game)
            deck = get_deck(conn, game.deck_id)
            live = games.called_balls(conn, gid)
            win = rules.settle(_round_claims(conn, deck, rnd.round_id, r, live))
            if win is None:
                raise Conflict("no valid claim to award in this round")
            names, teams = store.seated(conn, gid)
            maestro = store.settings_of(conn, gid)[1]
            nxt = rules.next_maestro(names, maestro, win.player, r)
            conn.execute(
                "INSERT INTO awards (game_id, round_id, claim_id, serial, player, side, kind, "
                "points, maestro, next_maestro) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    gid,
                    rnd.round_id,
                    win.claim_id,
                    win.serial,
                    win.player,
                    rules.side_of(win.player, teams) if win.player else None,
                    win.verdict.kind,
                    win.verdict.points or 0,
                    maestro,
                    nxt,
                ),
            )
            store.save_settings(conn, gid, maestro=nxt)
            won_by = {
                "claim_id": win.claim_id,
                "serial": win.serial,
                "calls": win.verdict.calls,
            }
            got = {"kind": str(win.verdict.kind), "points": win.verdict.points or 0}
            book.append(
                conn,
                "award",
                {"game_id": gid, "round": rnd.number, **won_by, **got},
                {"player": win.player},
            )
            won = (hooks.Winner(win.claim_id, win.serial, win.player),)
            (prize,) = prize_plan(game).prizes  # one bingo a round
            done = hooks.Awarded(gid, rnd.round_id, rnd.number, prize, win.verdict.calls, won)
            hooks.awarded(conn, done)
        tx.commit()
        board = scores(conn, gid)
        award_row = board.awards[-1]
        finished = board.winner is not None
        if finished:
            games.end_game(conn, gid)
            board = scores(conn, gid)
        games.publish(ScoresChanged(gid, board))
    return RoundAwarded(award_row, finished, board)


def refuse_balls_once_awarded(conn: sqlite3.Connection, rnd: Round) -> None:
    """No ball between "Award the round" and "Next round": the final board stays as judged."""
    if conn.execute("SELECT 1 FROM awards WHERE round_id = ?", (rnd.round_id,)).fetchone():
        raise Conflict(
            "no more balls: round %(n)s has been awarded; press Next round to play on",
            n=rnd.number,
        )


def awarded_at(conn: sqlite3.Connection, rnd: Round) -> int | None:
    """The call count the round's award was won at (None before the award)."""
    row = conn.execute(
        "SELECT c.at_call FROM awards a JOIN claims c ON c.id = a.claim_id WHERE a.round_id = ?",
        (rnd.round_id,),
    ).fetchone()
    return None if row is None else int(row[0])


def _target_reached(conn: sqlite3.Connection, gid: int) -> bool:
    return scores(conn, gid).winner is not None


def scores(conn: sqlite3.Connection, game_id: int) -> Scores:
    """The scoreboard: per side (player or Sociedad) the points in Puntos, the wins in Normal;
    who calls now and who calls next; this round's claims; every award so far."""
    loaded = load_round(conn, game_id)  # the game, its round and its calls, read once
    game = loaded.game
    gid = game.game_id
    r = store.game_rules(conn, game)
    # a program's own pattern, named as its file does
    own = pattern_names_of(game.options.get("pattern_names"))
    names, teams = store.seated(conn, gid)
    maestro = store.settings_of(conn, gid)[1]
    rows = conn.execute(
        "SELECT a.*, r.number FROM awards a JOIN rounds r ON r.id = a.round_id "
        "WHERE a.game_id = ? ORDER BY a.id",
        (gid,),
    ).fetchall()
    puntos = r.mode == rules.PUNTOS
    tallies = [(a["player"], a["points"] if puntos else 1) for a in rows if a["player"]]
    st = rules.standings(names, teams, tallies, r.target if puntos else 10**9)
    rnd = loaded.round
    live = loaded.calls
    claims = conn.execute(
        "SELECT id, serial, player, at_call, calls, valid, penalty, "
        "json_extract(verdict, '$.kind') AS kind, json_extract(verdict, '$.points') AS points "
        "FROM claims WHERE round_id = ? ORDER BY id",
        (rnd.round_id,),
    ).fetchall()
    awarded = next((a for a in rows if a["round_id"] == rnd.round_id), None)
    return Scores(
        gid,
        r.mode,
        rnd.number,
        RulesShown.of(r, own),
        tuple(Side(s.name, tuple(s.members), s.points) for s in st.sides),
        st.winner if puntos else None,
        maestro,
        rules.next_maestro(names, maestro, None, r) if puntos else None,
        tuple(SeatedPlayer(n, teams[n]) for n in names),
        tuple(_claim_row(c, live) for c in claims),
        tuple(
            AwardRow(
                a["number"],
                a["claim_id"],
                a["serial"],
                a["player"],
                a["side"],
                a["kind"],
                a["points"],
                a["maestro"],
                a["next_maestro"],
                a["made"],
            )
            for a in rows
        ),
        None if awarded is None else _final_board(conn, awarded, own, game_specials(game)),
    )


def _claim_row(c: sqlite3.Row, live: list[int]) -> ClaimRow:
    """A claim on the scoreboard: its stored verdict's kind and points (the verdict is read
    once; only those two fields are needed, so SQLite extracts them)."""
    return ClaimRow(
        c["id"],
        c["serial"],
        c["player"],
        c["at_call"],
        bool(c["valid"]),
        not still_standing(json.loads(c["calls"]), live),
        c["kind"],
        c["points"],
        json.loads(c["penalty"]) if c["penalty"] else None,
    )


def _final_board(
    conn: sqlite3.Connection,
    a: sqlite3.Row,
    own: Mapping[str, Mapping[str, str]],
    special: Specials,
) -> FinalBoard:
    """The current round's award with the winning card as it was judged: the screens keep it
    up, so players can check their own cards, until the Maestro starts the next round."""
    row = conn.execute("SELECT verdict FROM claims WHERE id = ?", (a["claim_id"],)).fetchone()
    verdict = json.loads(row["verdict"]) if row else None
    return FinalBoard(
        a["number"],
        a["serial"],
        a["player"],
        a["side"],
        a["kind"],
        a["points"],
        verdict,
        _pattern_won(verdict, own),
        _money_ball_won(verdict, special),
    )


def _money_ball_won(verdict: Any, special: Specials) -> Mapping[str, str] | None:
    """The room's words for a bingo whose winning call (the verdict's last call, as judged) is
    the game's money ball; the ledger pays it as the rule says (ledger/payouts.py)."""
    last = (verdict or {}).get("last_call")
    ball, rule = special.money_ball, special.money_ball_rule
    if rule is None or ball is None or not (verdict or {}).get("bingo") or last != ball:
        return None
    return money_ball_won_words(rule, ball)


def _pattern_won(verdict: Any, own: Mapping[str, Mapping[str, str]]) -> dict[str, str] | None:
    """The announcement of a round won with a pattern, from its stored verdict: the pattern's
    name and the words of the form the winning figure completed."""
    pattern = (verdict or {}).get("pattern")
    if not pattern:
        return None
    won = [f for f in verdict.get("lines", ()) if f.get("wins")]
    form = won[0].get("form_name") if won else None
    return spoken_pattern_won_both(pattern["name"], form, own)
