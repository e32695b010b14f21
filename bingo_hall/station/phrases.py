"""Traditional calls as data: `traditional_calls.toml` in the package, overridden number by
number by the same file in the station's instance folder (docs/station.md). Read once when the
station starts, so a broken file is a one-line error at start-up, not a surprise mid-game.
"""

from __future__ import annotations

import sqlite3
import tomllib
from pathlib import Path

from flask import Flask

from ..errors import KitError
from ..web.instance import area_state
from . import hall_settings
from .spoken import Phrases

FILE = "traditional_calls.toml"
PACKAGED = Path(__file__).with_name(FILE)
MAX_PHRASE = 60
LANGS = ("es", "en")


def parse(text: str, where: str) -> Phrases:
    """{lang: {ball: nickname}} from a TOML text; KitError names the file and the problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise KitError("%(where)s: not valid TOML (%(exc)s)", where=where, exc=exc) from None
    out: dict[str, dict[int, str]] = {}
    for lang, table in data.items():
        if lang not in LANGS or not isinstance(table, dict):
            raise KitError(
                "%(where)s: sections are [es] and [en], not [%(lang)s]", where=where, lang=lang
            )
        out[lang] = {}
        for key, phrase in table.items():
            if not key.isdigit() or not 1 <= int(key) <= 90:
                raise KitError(
                    '%(where)s: [%(lang)s] "%(key)s" is not a ball number from 1 to 90',
                    where=where,
                    lang=lang,
                    key=key,
                )
            if not isinstance(phrase, str) or len(phrase) > MAX_PHRASE:
                raise KitError(
                    '%(where)s: [%(lang)s] "%(key)s" must be text of at most %(n)s characters',
                    where=where,
                    lang=lang,
                    key=key,
                    n=MAX_PHRASE,
                )
            out[lang][int(key)] = phrase.strip()
    return out


def load(instance_path: str | Path) -> Phrases:
    """The packaged calls with the hall's own file laid over them ("" silences a number)."""
    merged = parse(PACKAGED.read_text("utf-8"), str(PACKAGED))
    own = Path(instance_path) / FILE
    if own.is_file():
        for lang, table in parse(own.read_text("utf-8"), str(own)).items():
            merged.setdefault(lang, {}).update(table)
    return {lang: {b: p for b, p in t.items() if p} for lang, t in merged.items()}


def init_app(app: Flask) -> None:
    area_state("phrases", lambda: load(app.instance_path), app)


def current(conn: sqlite3.Connection) -> Phrases | None:
    """The nicknames to say after each number, or None while traditional calls are off."""
    if not hall_settings.load(conn).traditional_calls:
        return None
    return area_state("phrases", dict)
