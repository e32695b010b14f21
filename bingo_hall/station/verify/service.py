"""Checking a card and storing a claim: one path for every variant. The game's `ClaimsKind`
(`variants.py`) judges; this module holds what all of them share: the write lock, the claims
table, the simultaneous claims on the same call, and the answer's shape.

It also tells the room (`bingo_hall.station.events`): a claim, a check shown on the screens, a
player seated or a setting changed is published here, after the commit and before the write
lock is let go, so the screens see them in the order of the commits, between the calls they
were judged on. The routes never publish.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from ...values import JsonValue
from ...web import book_store as book
from ...web.db import transaction, write_transaction
from ...web.instance import hall
from .. import games, hooks
from ..events import ClaimRecorded, ScoresChanged, VerdictShown
from ..hooks import Claimed
from ..model import Game
from ..requests import NewClaim, NewPlayer, RemovePlayer, RenamePlayer, SettingsChange
from . import awards, on_show, players, store
from .awards import Scores
from .judged import Checked
from .variants import ClaimMade, ClaimsKind, ClaimVerdict, claims_kind


@dataclass(frozen=True)
class WithScores(JsonValue):
    """A change at the table (`done`: a player seated, renamed or removed, a setting changed)
    and the scoreboard after it, which the screens were sent too."""

    done: JsonValue
    scores: Scores

    def to_json(self) -> dict[str, Any]:
        return {**self.done.to_json(), "scores": self.scores.to_json()}


def check(
    conn: sqlite3.Connection,
    game_id: int,
    serial: int,
    *,
    show: bool = False,
    player: str | None = None,
    prize: str | None = None,
) -> tuple[ClaimsKind[Any, Any], Checked]:
    """The verdict on a card now, as the Maestro would give it (nothing is written), for the
    `prize` the Maestro chose (a claim of it is judged for the same); `show` puts it on the
    hall's screens (a `verdict` event, its card kept for them to draw, `shown`), naming the
    `player` the Maestro chose."""
    with hall().write_lock if show else nullcontext():
        game = games.get_game(conn, game_id)
        kind = claims_kind(game)
        checked = kind.check(conn, game, store.game_card(conn, game, serial)[1], prize)
        if show:
            shown = kind.shown(checked, checked.round, checked.valid).naming(player)
            data = on_show.show(game.game_id, kind, checked, shown, shown.verdict["calls"])
            with transaction(conn):
                told = {"game_id": game.game_id, "round": checked.round, "valid": checked.valid}
                book.append(conn, "shown", {**told, "serial": checked.ticket.serial})
            games.publish(VerdictShown(game.game_id, data))
    return kind, checked


def check_for_page(conn: sqlite3.Connection, game: Game, ticket: Any) -> Checked:
    """The verdict on a card of the game's deck, for its public page."""
    checked: Checked = claims_kind(game).check(conn, game, ticket)
    return checked


def make_claim(conn: sqlite3.Connection, game_id: int, claim: NewClaim) -> ClaimMade:
    """A shout, judged by the game's variant against the calls committed so far, and stored with
    its verdict and, for a false 75-ball claim, the penalty (the markers of the line come off).
    The room is told: the claim, its verdict on the screens, then the scores or prizes."""
    with write_transaction(conn) as tx:
        game = store.active_game(conn, game_id)
        gid = game.game_id
        rnd = games.current_round(conn, gid)
        kind = claims_kind(game)
        if claim.add_player and claim.player not in store.seated(conn, gid)[0]:
            # a name typed on the spot: seated now, as the players' form seats (never as
            # the Maestro), and with the claim, or not at all when the claim is refused
            store.seat_player(conn, game, NewPlayer(claim.player or "", maestro=False))
        judged = kind.judge_claim(conn, game, rnd, claim)
        check, calls = judged.check, judged.calls
        verdict = check.verdict_value().to_json()
        cur = conn.execute(
            "INSERT INTO claims (game_id, round_id, serial, player, line, at_call, calls, "
            "valid, verdict, penalty) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                gid,
                rnd.round_id,
                check.serial,
                claim.player,
                judged.line,
                len(calls),
                json.dumps(calls),
                int(check.valid),
                json.dumps(verdict),
                None if judged.penalty is None else json.dumps(judged.penalty.to_json()),
            ),
        )
        sql = "SELECT COUNT(*) FROM claims WHERE round_id = ? AND at_call = ?"
        args: list[Any] = [rnd.round_id, len(calls)]
        if judged.same_call_line:
            sql += " AND line = ?"
            args.append(judged.line)
        same_call = conn.execute(sql, args).fetchone()[0]
        claim_id = cur.lastrowid
        assert claim_id is not None  # an INSERT always sets it
        at = {"game_id": gid, "round": rnd.number, "claim_id": claim_id, "at_call": len(calls)}
        said = {"serial": check.serial, "line": judged.line, "valid": check.valid}
        if "book" in verdict:  # a game of N cards of one book: the book it judged
            said["book"] = verdict["book"]["serials"]
        book.append(conn, "claim", {**at, **said}, {"player": claim.player})
        claimed = Claimed(gid, rnd.round_id, rnd.number, claim_id, check.serial)
        extra = hooks.claimed(conn, claimed)  # the ledger's warning for a card not sold
        tx.commit()
        made = ClaimMade(
            claim_id,
            gid,
            rnd.number,
            check.serial,
            claim.player,
            judged.prize,
            check.valid,
            verdict,
            judged.penalty,
            same_call,
            extra,
        )
        games.publish(ClaimRecorded(gid, made))
        claimed_verdict = ClaimVerdict(check.serial, rnd.number, check.verdict_value())
        shown = kind.shown(claimed_verdict, rnd.number, check.valid, made)
        shown = on_show.show(gid, kind, check, shown, len(calls), claim_id)
        games.publish(VerdictShown(gid, shown))
        games.publish(kind.board_event(gid, kind.board(conn, gid)))
    return made


def add_player(conn: sqlite3.Connection, game_id: int, player: NewPlayer) -> WithScores:
    """A player seated; the answer and the screens get the new scoreboard."""
    with hall().write_lock:
        added = store.add_player(conn, game_id, player)
        return WithScores(added, _tell_scores(conn, added.game_id))


def update_settings(conn: sqlite3.Connection, game_id: int, change: SettingsChange) -> WithScores:
    """The claims settings changed; the answer and the screens get the new scoreboard."""
    with hall().write_lock:
        changed = store.update_settings(conn, game_id, change)
        return WithScores(changed, _tell_scores(conn, changed.game_id))


def rename_player(conn: sqlite3.Connection, game_id: int, change: RenamePlayer) -> WithScores:
    """A player's name or team fixed (`players.rename`); the screens get the new scoreboard."""
    with hall().write_lock:
        renamed = players.rename(conn, game_id, change)
        return WithScores(renamed, _tell_scores(conn, renamed.game_id))


def remove_player(conn: sqlite3.Connection, game_id: int, change: RemovePlayer) -> WithScores:
    """A player taken off the table (`players.remove`); the screens get the new scoreboard."""
    with hall().write_lock:
        removed = players.remove(conn, game_id, change)
        return WithScores(removed, _tell_scores(conn, removed.game_id))


def _tell_scores(conn: sqlite3.Connection, game_id: int) -> Scores:
    board = awards.scores(conn, game_id)
    games.publish(ScoresChanged(game_id, board))
    return board
