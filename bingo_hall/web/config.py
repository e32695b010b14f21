"""The hall's configuration as one frozen value (`HallConfig`, on the app's `HallState`), built
once by `create_app`: the defaults, then the instance folder's `config.py`, then the command line
(tests pass a `test_config` instead of the last two). Every key the hall reads is declared here,
with its type and default; the environment is read here and nowhere else (`from_environment`).

A key a host may set (in `instance/config.py`, upper case as Flask's) is the field's name in
upper case: `DATABASE`, `CALLER_PIN`, `SECRET_KEY`, `DEVICE_URL`, `MAX_CONTENT_LENGTH`,
`MAX_JSON_BYTES`, ... A tunable is a field too (the server's worker pools and connection bounds,
the companions' table bounds), so a test passes the value it needs
(`create_app({"STREAM_HEARTBEAT_S": 1.0, ...})`, or `@pytest.mark.hall_config(IDLE_S=4)` for the
`app` fixture) instead of patching a module constant. A number must be positive (a whole one
where the default is): a bad one stops the start-up with one line naming the key.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..errors import KitError

#: the environment variables the hall reads, and the key each one sets
ENVIRONMENT = {"BINGO_HALL_PIN": "CALLER_PIN"}

#: the keys a hall cannot run without (no default)
REQUIRED = ("database", "caller_pin", "secret_key")


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
    #: the phones' process (web/phones_process.py): its database connections refuse every write
    #: (SQLite's query_only), it makes no tables and starts no device; changes go to the Maestro's
    read_only: bool = False
    #: `serve`, `demo`: no phones' process (web/phones_process.py): one process serves both
    #: ports, as on a platform without unix sockets (`serve --one-process`)
    one_process: bool = False
    #: the phones' process runs this much nicer than the station's (os.nice): a lower CPU
    #: priority, so the Maestro's requests are served first (web/phones_process.py). A small
    #: step: the Maestro is kept apart by the process itself (an interpreter of its own); at 10
    #: the phones lost to anything else at normal priority on the laptop (a browser, the
    #: display), 1000 phones' join p99 went from 152 ms (3) to 1.8 s (10) and some missed the
    #: blip's end
    public_nice: int = 3
    #: answers name the process that served them (X-Bingo-Hall-Served-By: its pid); tests only
    served_by_header: bool = False
    #: the largest request body (Flask's own limit)
    max_content_length: int = 16 * 1024 * 1024
    #: a JSON body larger than this is refused before parsing (a 3003-card deck is about
    #: 0.6 MB); one endpoint may lower it
    max_json_bytes: int = 2 * 1024 * 1024
    #: a game's screens get a heartbeat comment this often when quiet (a gone screen is noticed)
    stream_heartbeat_s: float = 15.0
    #: events a screen may have waiting (its socket full) before it is dropped; it reconnects
    #: and starts again from a snapshot
    stream_queue_size: int = 256
    #: a table phone's stream ends after this long; its page (live.js) reconnects to the view
    companions_stream_seconds: float = 300.0
    #: a table phone's stream sends a comment this often when quiet
    companions_keepalive_s: float = 10.0
    #: how often a followed table's version is re-checked in SQLite (another process's writes)
    companions_poll_s: float = 1.0
    #: a table keeps at most this many entries (undone ones included): a long Burako night is
    #: about 30 hands, a Clue notebook a few hundred marks
    companions_max_entries: int = 1000
    #: ... and at most this many bytes of entries and of their kept old versions
    companions_max_table_bytes: int = 2_000_000
    #: old versions kept per entry when it is corrected; older ones are dropped
    companions_max_revisions: int = 20

    # --- the server (`bingo_hall.web.server`, `admission`); `serve --threads` sets THREADS ---
    #: worker threads for the guests' reads: pages, card refreshes, claim checks
    threads: int = 16
    #: worker threads for changes (POST, ...), a pool for the guests and one for the Maestro,
    #: so that card pages refreshing after a call never queue ahead of the next draw
    action_threads: int = 4
    #: worker threads for the Maestro's reads (the laptop's pages, a logged-in tablet's)
    maestro_threads: int = 8
    #: worker threads that open live streams (read the snapshot); never the Maestro's
    stream_openers: int = 4
    #: seconds a connection may stay idle before or between requests (whole seconds: uvicorn's
    #: keep-alive timeout)
    idle_s: int = 15
    #: the head of a request (request line and headers): at most this many bytes and headers,
    #: all of it within HEAD_S of its first byte (common servers allow 8-16 KB)
    max_head_bytes: int = 16 * 1024
    max_headers: int = 100
    head_s: float = 10.0
    #: seconds a connection's socket may stay full (the client reads nothing) before it is cut
    send_stall_s: float = 20.0
    #: seconds a page the event loop found not current may wait there for what is being made
    #: current for it (the card pages' thread ahead), before the app builds it instead
    page_wait_s: float = 1.0
    #: the largest body a guest may send (a score entry is at most 32 KB; a login or a table's
    #: setup 4 KB, admission.SMALL_BODY); the Maestro's limit is MAX_CONTENT_LENGTH
    max_guest_body: int = 64 * 1024
    #: seconds a guest has to send a whole body, and the Maestro (a deck over a slow Wi-Fi)
    body_s: float = 10.0
    maestro_body_s: float = 60.0
    #: open files wanted (the soft limit is raised towards it): each screen holds a socket
    wanted_files: int = 8192
    #: open connections one guest address may hold (a phone needs a handful; 64 leaves room
    #: for about ten phones behind one address, a guest network that shares one)
    connections_per_address: int = 64
    #: requests one guest address may make per second, on average (admission.RequestPace: past
    #: the burst, the next waits its turn; a phone's page and its files are a dozen, and ten
    #: phones behind one address loading at once fit in the burst)
    requests_per_address_s: float = 50.0
    request_burst: int = 200
    #: open files always left to the laptop's connections, the database and the logs: every
    #: guest connection together stays this far below the open-files limit
    kept_for_laptop: int = 1024
    #: the share of the guests' connections that anonymous ones never fill: kept for phones
    #: whose first request shows a valid card (its page, or its page's files and stream, which
    #: name it in their Referer), so guests reconnecting on a loop cannot keep them out
    kept_for_cards: float = 0.25
    #: the full garbage collection (`server.QuietCollector`): once the Maestro has been quiet
    #: this long, at most this often, and at the latest after this long whatever happens
    gc_quiet_s: float = 2.0
    gc_every_s: float = 30.0
    gc_latest_s: float = 300.0

    @classmethod
    def keys(cls) -> dict[str, str]:
        """Config key (upper case) -> field name."""
        return {f.name.upper(): f.name for f in fields(cls)}

    @classmethod
    def from_mapping(cls, config: Mapping[str, Any]) -> HallConfig:
        """The declared keys of a Flask config (other keys are Flask's or its extensions')."""
        given = {name: config[key] for key, name in cls.keys().items() if key in config}
        for name in REQUIRED:
            if not given.get(name):
                raise KitError("the configuration has no %(key)s", key=name.upper())
        given["caller_pin"] = str(given["caller_pin"])
        for name, value in given.items():
            given[name] = _checked(name, value)
        return cls(**given)


def _checked(name: str, value: Any) -> Any:
    """A tunable (a number by default) must be a positive number: a host's `IDLE_S = "15"` or
    `THREADS = 0` in config.py stops the start-up with the key's name, not later with a
    traceback. An integer key takes a whole number; a seconds key takes either."""
    default = _DEFAULT_VALUES.get(name)
    if not isinstance(default, int | float) or isinstance(default, bool):
        return value
    whole = isinstance(default, int)
    number = isinstance(value, int) if whole else isinstance(value, int | float)
    if number and not isinstance(value, bool) and value > 0:
        return value if whole else float(value)
    if whole:
        raise KitError(
            "the configuration's %(key)s must be a positive whole number, not %(value)r",
            key=name.upper(),
            value=value,
        )
    raise KitError(
        "the configuration's %(key)s must be a positive number of seconds, not %(value)r",
        key=name.upper(),
        value=value,
    )


#: the hall's settings with every default (the required keys are placeholders)
DEFAULT = HallConfig(database="-", caller_pin="-", secret_key="-")
_DEFAULT_VALUES = {f.name: getattr(DEFAULT, f.name) for f in fields(HallConfig)}
#: the optional keys (upper case) and their defaults, for Flask's config (`create_app`)
DEFAULTS = {name.upper(): value for name, value in _DEFAULT_VALUES.items() if name not in REQUIRED}
