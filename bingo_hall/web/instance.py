"""What one app holds (`HallState`, in `app.extensions["bingo_hall"]`) and the instance folder's
files.

The instance folder is Flask's (`create_app(instance_path=...)`); it keeps the database, the
session key and the caller PIN, each made once and then reused, so a restarted station keeps its
logins and the PIN the Maestro already has.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, current_app

from .config import HallConfig
from .hub import EventHub, EventStream

EXTENSION = "bingo_hall"


@dataclass(frozen=True)
class Recipe:
    """How an app was made (its factory and `create_app`'s arguments), so that another process
    can make the same one (the phones' process's, web/phones_process.py). Picklable: the factory
    by name."""

    factory: Callable[..., Flask]
    test_config: dict[str, Any] | None
    instance_path: Any
    settings: dict[str, Any] | None

    def make(self, **overrides: Any) -> Flask:
        """The same app again, with `overrides` (configuration keys) on top."""
        if self.test_config is not None:
            return self.factory({**self.test_config, **overrides}, instance_path=self.instance_path)
        settings = {**(self.settings or {}), **overrides}
        return self.factory(instance_path=self.instance_path, settings=settings)


@dataclass
class HallState:
    """Everything one app keeps between requests. Nothing of it lives in a module global, so
    two apps in one process (tests, benchmarks) never share subscribers, caches or locks."""

    #: the configuration, built once by create_app (web/config.py)
    config: HallConfig
    #: the live events' hub, its queues sized by the config (STREAM_QUEUE_SIZE)
    hub: EventHub = field(init=False)
    #: serialises the station's writes, so events go out in the order of their commits
    write_lock: threading.RLock = field(default_factory=threading.RLock)
    #: every area's SQL migrations (area name -> its append-only list), see db.py
    migrations: dict[str, list[str]] = field(default_factory=dict)
    #: URL prefix -> the template of that area's error page, see errors.py
    error_pages: dict[str, str] = field(default_factory=dict)
    #: the connection held open for the app's life, and the database file's (device, inode)
    #: at start-up (see db.py: storage failures)
    db_keeper: sqlite3.Connection | None = None
    db_identity: tuple[int, int] | None = None
    db_lost_logged: bool = False
    #: connections a request gave back, for the next requests (db.py: get_db, close_db)
    db_idle: list[sqlite3.Connection] = field(default_factory=list)
    #: the station's checkpointer copies the WAL into the file, never a request (db.Checkpointer)
    checkpoints_apart: bool = False
    #: does a request carry a valid caller credential? (headers -> bool; the station's auth
    #: sets it; the server asks it on the event loop to give the Maestro its own workers)
    credential_check: Callable[[Any], bool] | None = None
    #: pages the server may answer on its event loop from memory: `fn(scope) -> body or None`
    #: (None: the request goes to the app). Each runs on the loop, so it must read no database
    #: and render no template (the card pages: station/verify/card_pages.py)
    loop_pages: list[Callable[[dict[str, Any]], bytes | None]] = field(default_factory=list)
    #: for a page the loop could not answer because what it shares is not current yet:
    #: `fn(scope, loop) -> a future done when it is made current, or None` (None: the request
    #: goes to the app, which makes it). Each runs on the loop (the card pages' thread ahead).
    loop_page_waits: list[Callable[[dict[str, Any], Any], Any]] = field(default_factory=list)
    #: (a request's path) -> is it a valid card's page? (the areas that print cards add theirs;
    #: the server keeps room for phones showing one, admission.Trial)
    card_checks: list[Callable[[str], bool]] = field(default_factory=list)
    #: live streams the server may open on its event loop from what is kept: `fn(scope) ->
    #: EventStream or None` (None: the stream's view opens it in a worker). Each runs on the
    #: loop: no database, no template (a game's stream: station/api.py `game_stream_on_loop`)
    loop_streams: list[Callable[[dict[str, Any]], EventStream | None]] = field(default_factory=list)
    #: what each area keeps (its name -> its own object), made on first use by `area_state`
    areas: dict[str, Any] = field(default_factory=dict)
    #: how the app was made (create_app sets it), for the phones' process (web/phones_process.py)
    made_with: Recipe | None = None
    #: the hall's port (the one on the cards, where phones connect), when the station's server
    #: serves it beside the Maestro's own port: a big screen opened on the Maestro's port shows
    #: phones the hall's (station_server.Server sets it; None: the port a request came in on)
    hall_port: int | None = None
    #: called when the server stops (the phones' process ends its workers there)
    on_stop: list[Callable[[], None]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.hub = EventHub(self.config.stream_queue_size)

    def area(self, name: str, make: Callable[[], Any]) -> Any:
        with self._lock:
            if name not in self.areas:
                self.areas[name] = make()
            return self.areas[name]


def init_app(app: Flask, config: HallConfig) -> HallState:
    state = HallState(config)
    app.extensions[EXTENSION] = state
    return state


def current_flask() -> Flask:
    """The app behind `current_app`, for work that outlives the request (a thread, a later
    call)."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]  # werkzeug's proxy has it
    return app


def hall(app: Flask | None = None) -> HallState:
    """The state of `app` (default: the current app)."""
    state: HallState = (app or current_app).extensions[EXTENSION]
    return state


_S = TypeVar("_S")


def area_state(name: str, make: Callable[[], _S], app: Flask | None = None) -> _S:
    """An area's own state on the app (`make()` builds it the first time)."""
    state: _S = hall(app).area(name, make)
    return state


def kept_secret(folder: Path, name: str, make: Callable[[], str]) -> str:
    """The contents of `folder/name`, made by `make()` and written (mode 600) the first time."""
    path = Path(folder) / name
    try:
        text = path.read_text().strip()
        if text:
            return text
    except OSError:
        pass
    value = make()
    path.write_text(value)
    path.chmod(0o600)
    return value


def new_pin() -> str:
    """A six-digit caller PIN."""
    return f"{secrets.randbelow(10**6):06d}"
