"""What each prize of a game pays over sqlite3: the prize rules set for it, or the amounts its
prize list carries (`listed_amounts`), set in one transaction and logged (`store.log`)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from ... import money
from ...errors import KitError
from ...money import PrizeKind, PrizeRule
from ...web.db import write_transaction
from ...web.errors import RequestError
from .. import games
from ..model import Game
from ..variants import prize_plan
from .logged import PrizesSet
from .requests import PrizesRequest
from .store import game_prizes, jackpot_prize, log, publish


def listed_amounts(game: Game) -> dict[str, PrizeRule]:
    """What the game's prize list says each prize pays (`amount = "500"` in a host's prize
    file, docs/claims.md): a fixed sum, until the ledger sets the prize another rule."""
    try:
        listed = prize_plan(game).prize_list
    except KitError:  # the host's list left the prizes folder: the ledger's own rules stand
        return {}
    if listed is None:
        return {}
    return {
        p.key: PrizeRule(PrizeKind.FIXED, cents=p.amount_cents)
        for p in listed.prizes
        if p.amount_cents is not None
    }


def rules_of(conn: sqlite3.Connection, gid: int) -> dict[str, PrizeRule]:
    """The game's prize rules now: the newest row of each prize, else the sum its prize list
    names."""
    out: dict[str, PrizeRule] = listed_amounts(games.get_game(conn, gid))
    for row in conn.execute(
        "SELECT prize, rule FROM ledger_prizes WHERE game_id = ? ORDER BY id", (gid,)
    ):
        rule = json.loads(row["rule"])
        if rule is None:  # set back to no money prize
            out.pop(row["prize"], None)
        else:
            out[row["prize"]] = money.rule_from_json(rule)
    return out


@dataclass(frozen=True)
class Prizes:
    """A game's prize rules in money now, by prize."""

    game_id: int
    rules: tuple[tuple[str, PrizeRule], ...]

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "prizes": {p: r.to_json() for p, r in self.rules}}


def set_prizes(
    conn: sqlite3.Connection, game_id: int, req: PrizesRequest, via: str | None = None
) -> Prizes:
    """The rules of some or all of the game's prizes, all checked before any is saved; None
    sets a prize back to no money prize (any rule it had is superseded, not deleted)."""
    with write_transaction(conn) as tx:
        prizes = write_prizes(conn, game_id, req, via)
        tx.commit()
        publish(prizes.game_id, "prizes")
    return prizes


def write_prizes(
    conn: sqlite3.Connection, game_id: int, req: PrizesRequest, via: str | None = None
) -> Prizes:
    """`set_prizes`'s checks and rows, inside the caller's transaction; the caller publishes
    "prizes" for the game after the commit."""
    game = games.get_game(conn, game_id)
    plays = game_prizes(game)
    new: dict[str, PrizeRule | None] = {}
    for prize, rule in req.prizes:
        if prize not in plays:
            raise RequestError(
                "this game plays %(prizes)s, not %(prize)s", prizes=", ".join(plays), prize=prize
            )
        new[prize] = rule
        if rule is not None and rule.kind == PrizeKind.JACKPOT and prize != jackpot_prize(game):
            raise RequestError(
                "a jackpot is played on the full house (%(prize)s), the round's last prize",
                prize=jackpot_prize(game),
            )
    rules = {**rules_of(conn, game.game_id), **new}
    kept = {p: r for p, r in rules.items() if r is not None}
    share = sum(r.percent for r in kept.values())
    if share > 100:
        raise RequestError(
            "the prizes would share %(pct)s %% of the sales, more than 100 %%",
            pct=share,
        )
    specs = {p: None if r is None else r.to_json() for p, r in new.items()}
    for prize, spec in specs.items():
        conn.execute(
            "INSERT INTO ledger_prizes (game_id, prize, rule) VALUES (?, ?, ?)",
            (game.game_id, prize, json.dumps(spec)),
        )
    log(conn, game.game_id, "prizes", PrizesSet(tuple(new.items())), via)
    return Prizes(game.game_id, tuple(kept.items()))
