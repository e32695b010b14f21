"""Clue on the phone: one detective's notebook that deduces.

The rules, the solver and the odds live in `companions.clue`; `view.replay` turns the stored
entries into the panel's view. A table is one detective's private notes: its players are
everyone seated, in seating order, and the first entry says which of them is me.
"""

from __future__ import annotations

from companions.web.registry import Engine, GameKind

from .view import Entry, Settings, replay

KIND = GameKind(
    name="clue",
    title={"es": "Clue", "en": "Clue"},
    min_players=3,
    max_players=6,
    teams=False,
    default_settings={},
    engine=Engine(Settings.from_json, Entry.from_json, replay),
    template="companions/clue.html",
    private=True,
)
