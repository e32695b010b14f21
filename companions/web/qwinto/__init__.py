"""Qwinto on the phone: the dice sheet panel for the companions shell.

The rules and the sheet's layout live in `companions.qwinto`; this package only plugs them in.
"""

from __future__ import annotations

from companions import qwinto
from companions.web.registry import Engine, GameKind

KIND = GameKind(
    name="qwinto",
    title={"es": "Qwinto", "en": "Qwinto"},
    min_players=2,
    max_players=6,
    teams=False,
    default_settings=dict(qwinto.DEFAULT_SETTINGS),
    setting_labels={
        "rolls": "Record each roll (active player, dice, sum) and check it",
        "clockwise": "The dice pass clockwise: only the next player may throw "
        "(untick to let anyone throw next)",
    },
    players_hint="Type the players in seating order, going clockwise: the dice pass in this order.",
    engine=Engine(qwinto.Settings.from_json, qwinto.Entry.from_json, qwinto.replay),
    template="companions/qwinto.html",
)
