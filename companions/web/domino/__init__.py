"""Domino Bingo on the phone: the shell adapter around `companions.domino_bingo`.

The rules, the tile values and the settings all live in the engine; this package only names the
game for the shell and points at its panel (templates/companions/domino.html, static/domino.js).
"""

from companions import domino_bingo
from companions.web.registry import Engine, GameKind

KIND = GameKind(
    name="domino",
    title={"es": "Bingo de dominó", "en": "Domino Bingo"},
    min_players=2,
    max_players=2,
    engine=Engine(
        domino_bingo.Settings.from_json, domino_bingo.Entry.from_json, domino_bingo.replay
    ),
    template="companions/domino.html",
    default_settings=dict(domino_bingo.DEFAULT_SETTINGS),
    players_hint="The first player leads the first hand; then the lead alternates.",
    setting_labels={
        "variant": "Scoring",
        "low_score": "Opponent's score for a single rubber",
        "big_declarations": "Emperor and Invincible give",
        "rubbers_to_win": "Rubbers to win the match",
    },
    setting_choices=domino_bingo.SETTING_CHOICES,
    choice_labels={
        "traditional": "Traditional",
        "berndt": "Berndt (66 points, no bonuses)",
        "points": "Points",
        "rubbers": "Rubbers",
    },
)
