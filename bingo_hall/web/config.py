"""The hall's configuration as one frozen value (`HallConfig`, on the app's `HallState`), built
once by `create_app`: the defaults, then the instance folder's `config.py`, then the command line
(tests pass a `test_config` instead of the last two). Every key the hall reads is declared here,
with its type and default; the environment is read here and nowhere else (`from_environment`).

A key a host may set (in `instance/config.py`, upper case as Flask's) is the field's name in
upper case: `DATABASE`, `CALLER_PIN`, `SECRET_KEY`, `DEVICE_URL`, `MAX_CONTENT_LENGTH`,
`MAX_JSON_BYTES`, ... A tunable is a field too, so a test passes the value it needs
(`create_app({"STREAM_HEARTBEAT_S": 1.0, ...})`) instead of patching a module constant.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..errors import KitError

#: the environment variables the hall reads, and the key each one sets
ENVIRONMENT = {"BINGO_HALL_PIN": "CALLER_PIN"}


def from_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The keys the environment sets (an empty variable sets nothing)."""
    environ = os.environ if environ is None else environ
    return {key: environ[var] for var, key in ENVIRONMENT.items() if environ.get(var)}


@dataclass(frozen=True)
class HallConfig:
    """Every setting the hall reads, typed, with its default."""

    #: the SQLite file (default: `bingo-hall.sqlite` in the instance folder)
    database: str
    #: the Maestro's PIN (default: $BINGO_HALL_PIN, else made once in the instance folder)
    caller_pin: str
    #: signs the session cookies (default: made once in the instance folder)
    secret_key: str
    #: `bingo-hall companions`: the table scorekeepers alone
    companions_only: bool = False
    #: `serve --device`: the flashboard or ball machine (BHP/1)
    device_url: str | None = None
    #: the largest request body (Flask's own limit)
    max_content_length: int = 16 * 1024 * 1024
    #: a JSON body larger than this is refused before parsing (a 3003-card deck is about
    #: 0.6 MB); one endpoint may lower it
    max_json_bytes: int = 2 * 1024 * 1024
    #: a game's screens get a heartbeat comment this often when quiet (a gone screen is noticed)
    stream_heartbeat_s: float = 15.0
    #: a table phone's stream ends after this long; EventSource reconnects to the current view
    companions_stream_seconds: float = 300.0
    #: a table phone's stream sends a comment this often when quiet
    companions_keepalive_s: float = 10.0
    #: how often a followed table's version is re-checked in SQLite (another process's writes)
    companions_poll_s: float = 1.0

    @classmethod
    def keys(cls) -> dict[str, str]:
        """Config key (upper case) -> field name."""
        return {f.name.upper(): f.name for f in fields(cls)}

    @classmethod
    def from_mapping(cls, config: Mapping[str, Any]) -> HallConfig:
        """The declared keys of a Flask config (other keys are Flask's or its extensions')."""
        given = {name: config[key] for key, name in cls.keys().items() if key in config}
        for name in ("database", "caller_pin", "secret_key"):
            if not given.get(name):
                raise KitError("the configuration has no %(key)s", key=name.upper())
        given["caller_pin"] = str(given["caller_pin"])
        return cls(**given)

    def defaults(self) -> dict[str, Any]:
        """The optional keys and their defaults, for Flask's config (`create_app`)."""
        return {
            f.name.upper(): getattr(self, f.name)
            for f in fields(self)
            if f.name not in ("database", "caller_pin", "secret_key")
        }


#: the defaults of the optional keys
DEFAULTS = HallConfig(database="-", caller_pin="-", secret_key="-").defaults()
