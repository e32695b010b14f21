"""Burako at the table: the shell's GameKind for `companions.burako`."""

from flask_babel import lazy_gettext as _l

from companions import burako
from companions.web.registry import Engine, GameKind

KIND = GameKind(
    name="burako",
    title={"es": "Burako", "en": "Burako"},
    min_players=2,
    max_players=4,
    teams=True,
    team_count=2,
    team_size=2,
    default_settings={
        "target": burako.DEFAULT_TARGET,
        "muerto_bonus": True,
        "negative_without_canasta": False,
    },
    setting_labels={
        "target": _l("Points to win"),
        "muerto_bonus": _l("+100 for taking the muerto"),
        "negative_without_canasta": _l("Without a canasta, the tiles laid down count against"),
    },
    engine=Engine(burako.Rules.from_json, burako.Entry.from_json, burako.replay),
    template="companions/burako.html",
)
