"""The caller station: the Maestro's caller pages, the big screen, the JSON API and (in
`verify/`) card pages and claims. An area of the web app: `register(app)` adds it, and
`bingo_hall.app.create_app` calls that. The rules live in pure modules; this is an adapter.
"""

from __future__ import annotations

from flask import Blueprint, Flask

from ..web import db as core_db
from ..web import errors, i18n
from ..web.instance import hall
from . import (
    api,
    auth,
    autodraw,
    caller,
    display,
    games,
    hall_settings,
    linked,
    phone,
    phrases,
    prize_lists,
    schema,
)

#: the station's templates and its static files (served at /static/)
assets = Blueprint(
    "station",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
)


def register(app: Flask) -> None:
    core_db.add_migrations(app, "station", schema.MIGRATIONS)
    auth.init_app(app)
    for blueprint in (assets, caller.bp, display.bp, phone.bp, api.bp, linked.bp):
        app.register_blueprint(blueprint)
    hall(app).loop_streams.append(lambda scope: api.game_stream_on_loop(app, scope))
    errors.register_error_page(app, "/", "station/error.html")
    i18n.set_default_language(app, hall_settings.house_language)
    phrases.init_app(app)
    prize_lists.init_app(app)
    with app.app_context():
        games.add_snapshot_extender(autodraw.snapshot_part)
        games.add_snapshot_extender(games.draw_open_part)
