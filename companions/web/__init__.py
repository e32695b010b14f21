"""The companions blueprint: the shared-table shell on the phone.

The shell owns tables, players, storage, live updates, undo and correction; each game brings its
pure engine and a panel template (docs/dev/companion-games.md). Game packages live beside this
file (`companions/web/<game>/`); their `templates/` folders join the blueprint's template search
path and their `static/` folders are served at `/t/static/<game>/...`.
"""

from __future__ import annotations

from flask import Flask

from companions.errors import EntryError

from . import app_files, views  # noqa: F401 (their routes register themselves on bp)
from .blueprint import HERE, bp

__all__ = ["HERE", "bp", "register"]


def register(app: Flask) -> None:
    """Add the table scorekeepers at /t (`bingo_hall.app.create_app` calls this)."""
    from bingo_hall.web import db, errors, guest_write

    from .. import schema

    db.add_migrations(app, "companions", schema.MIGRATIONS)
    guest_write.init_app(app, schema.TABLES)  # what the phones' process may write for guests
    app.register_blueprint(bp)
    if app.config.get("COMPANIONS_ONLY"):
        # `bingo-hall companions` serves nothing else: its start is the tables' page, so "/"
        # (typed by hand, or the error pages' "Back to the start") leads there.
        app.add_url_rule("/", "companions_start", views.to_the_tables)
    errors.register_error_page(app, "/t/", "companions/missing.html")
    app.register_error_handler(EntryError, views.entry_error)
    with app.app_context():
        views.kinds()  # every game package, imported now: a missing one fails the start-up
