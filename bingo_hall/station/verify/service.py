"""Checking a card and storing a claim: one path for every variant. The game's `ClaimsKind`
(`variants.py`) judges; this module holds what all of them share: the write lock, the claims
table, the simultaneous claims on the same call, and the answer's shape.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ...web.db import transaction
from ...web.instance import hall
from .. import games
from ..model import Game
from ..requests import NewClaim
from . import store
from .judged import Checked
from .variants import ClaimsKind, claims_kind


def check(conn: sqlite3.Connection, game_id: int, serial: int) -> tuple[ClaimsKind, Checked]:
    """The verdict on a card now, as the Maestro would give it (nothing is written)."""
    game = games.get_game(conn, game_id)
    kind = claims_kind(game)
    return kind, kind.check(conn, game, store.game_card(conn, game, serial)[1])


def check_for_page(conn: sqlite3.Connection, game: Game, ticket: Any) -> Checked:
    """The verdict on a card of the game's deck, for its public page."""
    return claims_kind(game).check(conn, game, ticket)


def make_claim(conn: sqlite3.Connection, game_id: int, claim: NewClaim) -> dict[str, Any]:
    """A shout, judged by the game's variant against the calls committed so far, and stored with
    its verdict and, for a false 75-ball claim, the penalty (the markers of the line come off)."""
    with hall().write_lock:
        with transaction(conn):
            game = store.active_game(conn, game_id)
            gid = game.game_id
            rnd = games.current_round(conn, gid)
            judged = claims_kind(game).judge_claim(conn, game, rnd, claim)
            check, calls = judged.check, judged.calls
            verdict = check.verdict_json()
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
                    None if judged.penalty is None else json.dumps(judged.penalty),
                ),
            )
            sql = "SELECT COUNT(*) FROM claims WHERE round_id = ? AND at_call = ?"
            args: list[Any] = [rnd.round_id, len(calls)]
            if judged.same_call_line:
                sql += " AND line = ?"
                args.append(judged.line)
            same_call = conn.execute(sql, args).fetchone()[0]
    return {
        "claim_id": cur.lastrowid,
        "game_id": gid,
        "round": rnd.number,
        "serial": check.serial,
        "player": claim.player,
        **judged.extra,
        "valid": check.valid,
        "verdict": verdict,
        "penalty": judged.penalty,
        "simultaneous": same_call,
    }
