"""The odds of a game's main prize with the cards actually sold, for the
ledger page: the chance that it is won within N calls (the jackpot's N, or the N the host asks
about before setting one) and the expected call of the first win. The estimate is the pure
`bingo_hall.odds` with the game's own deck, pattern and free centre; it is kept per game and
cards sold, so the page reads it again only after a sale."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from typing import Any

from ...errors import KitError
from ...money import PrizeKind
from ...odds import Odds, estimate
from ...seventyfive.patterns import pattern_from_spec
from ...values import JsonValue
from ...web.instance import area_state
from .. import games
from ..decks import get_deck
from ..ledger import prize_store, sale_store
from ..variants import prize_plan

KEPT = 32  # estimates kept per station (a night has a few dozen games)


@dataclass
class OddsState:
    kept: dict[tuple[Any, ...], Odds] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _state() -> OddsState:
    state: OddsState = area_state("program.odds", OddsState)
    return state


@dataclass(frozen=True)
class GameOdds(JsonValue):
    """The figures the ledger page puts in words: the game's main prize, the cards sold and
    the jackpot's number of calls (None without a jackpot); once a card is sold, the chance of
    the prize within `within` calls (a percent, and 1 night in `one_in`: None when no night
    simulated had it), the expected call of the first win, the nights simulated and the balls.
    """

    prize: str
    cards: int
    jackpot_within: int | None
    within: int | None = None
    percent: float | None = None
    one_in: int | None = None
    expected_call: int | None = None
    nights: int | None = None
    balls: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Before a sale, only the prize, the cards (0) and the jackpot's calls."""
        data = super().to_json()
        if not self.cards:
            return {k: data[k] for k in ("prize", "cards", "jackpot_within")}
        return data


def game_odds(conn: sqlite3.Connection, game_id: int, within: int | None = None) -> GameOdds:
    """The odds of the game's main prize with the cards sold; `cards` 0 when none is sold yet."""
    game = games.get_game(conn, game_id)
    plan = prize_plan(game)
    prize = plan.prizes[-1]
    rule = prize_store.rules_of(conn, game_id).get(prize)
    jackpot = rule.within if rule is not None and rule.kind == PrizeKind.JACKPOT else None
    rnd = games.current_round(conn, game_id).number
    serials = sorted(
        {s for r in sale_store.sold(conn, game_id, rnd) for s in range(r.first, r.last + 1)}
    )
    if not serials:
        return GameOdds(prize, 0, jackpot)
    try:
        pattern = pattern_from_spec(game.options.get("pattern"), game.options.get("mask"))
    except KitError:
        pattern = None
    key = (game_id, prize, pattern, game.free_centre, tuple(serials))
    state = _state()
    with state.lock:
        odds = state.kept.get(key)
    if odds is None:
        deck = get_deck(conn, game.deck_id)
        needs = [
            deck.variant.needs(deck.cards[s - 1], plan, prize, pattern, game.free_centre)
            for s in serials
        ]
        odds = estimate(needs, deck.variant.balls)
        with state.lock:
            if len(state.kept) >= KEPT:
                state.kept.pop(next(iter(state.kept)))
            state.kept[key] = odds
    calls = within or jackpot or round(odds.expected_call)
    one_in = odds.one_in(calls)
    return GameOdds(
        prize,
        len(serials),
        jackpot,
        within=calls,
        percent=round(100 * odds.chance_within(calls), 1),
        one_in=None if one_in is None else round(one_in),
        expected_call=round(odds.expected_call),
        nights=odds.nights,
        balls=odds.balls,
    )
