"""Israeli Rummy at the table: the shell's GameKind for `companions.rummy`."""

from flask_babel import lazy_gettext as _l

from companions import rummy
from companions.web.registry import Engine, GameKind

KIND = GameKind(
    name="rummy",
    title={"es": "Rummy israelí", "en": "Israeli Rummy"},
    min_players=rummy.MIN_PLAYERS,
    max_players=rummy.MAX_PLAYERS,
    default_settings={"games": rummy.GAMES_PER_MATCH},
    setting_labels={"games": _l("Games in the match")},
    engine=Engine(rummy.Settings.from_json, rummy.Entry.from_json, rummy.replay),
    template="companions/rummy.html",
)
