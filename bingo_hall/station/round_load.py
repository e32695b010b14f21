"""A game's round read from SQLite once: the game, its current round and the pure
`bingo_hall.round_state.RoundState` (live calls, undone calls, revealed seeds).

One request reads this once and builds what it answers from it (the card page, the snapshot, a
check, a claim, the scores), instead of asking the database for the game and its calls again in
each helper: three queries (four with the revealed seeds).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ..round_state import Called, Reveal, RoundState, Undone
from ..web.errors import NotFound
from .model import Game, Round


@dataclass(frozen=True)
class LoadedRound:
    game: Game
    round: Round
    state: RoundState

    @property
    def calls(self) -> list[int]:
        return list(self.state.balls_called)


def load_round(
    conn: sqlite3.Connection, game_id: int, game: Game | None = None, *, revealed: bool = False
) -> LoadedRound:
    """The game (read unless given), its newest round and the round's calls. `revealed` also
    reads the seeds of the rounds already revealed (the snapshot shows them)."""
    if game is None:
        row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound("there is no game %(game)s", game=game_id)
        game = Game.from_row(row)
    row = conn.execute(
        "SELECT * FROM rounds WHERE game_id = ? ORDER BY number DESC LIMIT 1", (game.game_id,)
    ).fetchone()
    if row is None:
        raise NotFound("game %(game)s has no round", game=game.game_id)
    rnd = Round.from_row(row)
    calls, undone = [], []
    for c in conn.execute(
        "SELECT seq, ball, called_at, undone_at, undo_reason FROM calls "
        "WHERE round_id = ? ORDER BY seq",
        (rnd.round_id,),
    ):
        if c["undone_at"] is None:
            calls.append(Called(c["seq"], c["ball"], c["called_at"]))
        else:
            undone.append(Undone(c["seq"], c["ball"], c["undo_reason"] or "", c["undone_at"]))
    reveals: list[Reveal] = []
    if revealed:
        for r in conn.execute(
            "SELECT * FROM rounds WHERE game_id = ? AND revealed = 1 ORDER BY number",
            (game.game_id,),
        ):
            reveals.append(Round.from_row(r).reveal())
    state = RoundState(
        balls=game.balls,
        round=rnd.number,
        commitment=rnd.commitment,
        public_input=rnd.public_input,
        calls=tuple(calls),
        undone=tuple(undone),
        revealed=tuple(reveals),
        ended=not game.active,
    )
    return LoadedRound(game, rnd, state)
