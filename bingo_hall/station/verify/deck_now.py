"""The state every card page of a deck shares (`DeckNow`), read once per change of its game: the
game, its facts, its snapshot as the page's JSON, and the hall's language (card_pages.py keeps
it; ahead.py reads it again before the phones ask)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ...manifest import Deck
from .. import hall_settings, snapshots
from ..model import Game, GameStatus
from ..snapshots import SNAPSHOT_MAX_AGE_S
from . import card_view, page_shell
from .variants import claims_of


@dataclass(frozen=True)
class DeckNow:
    """The state every page of a deck's cards shares, read once per change: the deck's game (the
    newest in play, else the newest finished; None before the first), its facts
    (`ClaimsKind.page_facts`), its round, its snapshot as JSON for the page, and the hall's
    language for a visitor who chose none."""

    published: int  # the hub's count of published events when it was read
    when: float
    house_lang: str | None
    game: Game | None
    facts: Any
    round: int
    state: str
    card_state: str = ""  # `#card-state` without its first key, the serial (`card_state_of`)
    words: tuple[Any, ...] = ()  # what the page's words depend on (card_view.words_key)

    @property
    def game_id(self) -> int | None:
        return None if self.game is None else self.game.game_id

    def fresh(self, published: int, now: float) -> bool:
        return self.published == published and now - self.when < SNAPSHOT_MAX_AGE_S

    @property
    def in_play(self) -> bool:
        return self.game is not None and self.game.status == GameStatus.ACTIVE

    def card_state_of(self, serial: int) -> str:
        """A card's `#card-state`: the game's facts, every card's, with its serial first."""
        return '{"serial":' + str(serial) + "," + self.card_state


def read_now(conn: Any, deck: Deck[Any], published: int) -> DeckNow:
    """The deck's game and its state, read (a handful of queries)."""
    game = card_view.game_for_deck(conn, deck.deck_id)
    house = hall_settings.house_language()
    when = time.monotonic()
    if game is None:
        return DeckNow(published, when, house, None, None, 0, "")
    kind = claims_of(deck.variant)
    snap = snapshots.snapshot(conn, game.game_id)
    facts = kind.page_facts(conn, game)
    rnd = snap.round
    follow = kind.game_facts(game.game_id, rnd, facts)
    words = card_view.words_key(follow, "")
    state = page_shell.html_json(snap.to_json())
    shared = follow.to_json()
    del shared["serial"]  # each card's own, first (`DeckNow.card_state_of`)
    card_state = page_shell.html_json(shared)[1:]
    return DeckNow(published, when, house, game, facts, rnd, state, card_state, words[1:])
