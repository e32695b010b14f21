"""The composition root: `create_app` builds the hall's web app from the core services
(`bingo_hall.web`) and the areas, each registered explicitly. See docs/dev/architecture.md.

Configuration, lowest to highest:
1. the defaults (`bingo_hall.web.config`, where every key is declared) and the environment;
2. `instance/config.py` in the instance folder (Flask's `instance_path`), when it exists;
3. `settings`, from the command line (`bingo-hall serve --db ... --pin ...`).
Tests pass `test_config` instead of 2 and 3, as in Flask's tutorial (flaskr). The result is
built once into a frozen `HallConfig` on the app's state (`hall(app).config`).

An area that cannot be imported, or a migration that is missing, stops the start-up with the
error: nothing is skipped in silence.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from .web import book_store as book
from .web import config, db, errors, i18n, inputs, instance, pages, security, static_files


def create_app(
    test_config: dict[str, Any] | None = None,
    *,
    instance_path: str | os.PathLike[str] | None = None,
    settings: dict[str, Any] | None = None,
) -> Flask:
    app = Flask(
        __name__,
        instance_path=str(Path(instance_path).resolve()) if instance_path else None,
        instance_relative_config=True,
        template_folder="web/templates",
        static_folder=None,  # each area serves its own
    )
    folder = Path(app.instance_path)
    if not folder.exists():  # it will hold the session key, the PIN and the demo's deck secret
        folder.mkdir(parents=True, mode=0o700)
    app.config.from_mapping(
        {
            "DATABASE": str(folder / "bingo-hall.sqlite"),
            "CALLER_PIN": None,
            **config.DEFAULTS,  # every key the hall reads is declared in web/config.py
            **config.from_environment(),
            "SESSION_COOKIE_SAMESITE": "Lax",
            "SESSION_COOKIE_HTTPONLY": True,
        }
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_mapping(settings or {})
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance.kept_secret(
            folder, "secret_key", lambda: secrets.token_hex(32)
        )
    if not app.config.get("CALLER_PIN"):
        app.config["CALLER_PIN"] = instance.kept_secret(folder, "caller_pin", instance.new_pin)

    instance.init_app(app, config.HallConfig.from_mapping(app.config))  # built once, frozen
    inputs.init_app(app)  # the bounded <int:...> converter, before any area adds routes
    db.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    security.init_app(app)
    static_files.init_app(app)  # versioned URLs, cached for good by the phones
    pages.init_app(app)  # /display and /join: built once per change, kept by the server's loop
    book.init_app(app)  # the night's book: every area's changes are entries (docs/audit.md)
    _register_areas(app)
    db.init_db(app)
    if not instance.hall(app).config.read_only:  # the public side's process writes nothing
        book.start(book.keeper(app))  # an empty book begins with its genesis entry
    book.station_key(app)  # made once, beside the database
    instance.hall(app).made_with = instance.Recipe(create_app, test_config, instance_path, settings)
    return app


def _register_areas(app: Flask) -> None:
    """Every area the hall has, in the order their routes should match."""
    import companions.web

    companions.web.register(app)
    settings = instance.hall(app).config
    if settings.companions_only:
        return

    from .station import register as register_station
    from .station.ledger import register as register_ledger
    from .station.program import register as register_program
    from .station.verify import register as register_verify

    register_station(app)
    register_verify(app)
    register_ledger(app)
    register_program(app)
    if settings.device_url:
        from firmware_bridge.embedded import register as register_bridge

        register_bridge(app, settings.device_url)


def start_workers() -> None:
    """Start the areas' worker processes in a process that serves pages (`serve`, and the public
    side's process): the table scorekeepers replay a table's history in a process of their own,
    so a flood of score entries never holds the interpreter (companions/web/replays.py). Tests
    and the other command lines do not call it: they replay in the calling thread."""
    from companions.web import replays

    replays.start()


def stop_workers() -> None:
    """End what `start_workers` started. A process whose exit runs its atexit hooks needs no
    call (the pools register their own stop); the public side's process ends as multiprocessing
    ends its children, without them, and would wait forever for a worker still started."""
    from companions.web import replays

    replays.stop()
