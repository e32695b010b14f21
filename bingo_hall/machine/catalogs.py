"""Where the Spanish catalogs are, and a translation of them outside any web request.

Every area keeps its words in a `translations` folder (`<area>/translations/es/LC_MESSAGES/
messages.po`, compiled by `make catalogs`). The pages read them through Flask-Babel
(`web.i18n`); the command line reads the same compiled catalogs here, without Flask, so a
message has one Spanish text wherever it is shown.
"""

from __future__ import annotations

import gettext
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from babel.support import Translations

_AREAS = ("bingo_hall", "companions", "firmware_bridge")


@cache
def catalog_dirs() -> tuple[str, ...]:
    """Every area's `translations` folder (the Makefile and the wheel build compile the same set).

    Each package is found where Python imports it from (a clone or site-packages), without
    importing it, so the catalogs are found however the kit was installed. Looked up once per
    process: the installed tree does not change while it runs."""
    found = []
    for package in _AREAS:
        spec = find_spec(package)
        roots = spec.submodule_search_locations if spec else None
        for root in roots or ():
            found += sorted(p for p in Path(root).rglob("translations") if p.is_dir())
    return tuple(str(p) for p in found)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """Every area's compiled catalog for `lang`, merged as Flask-Babel merges them (English,
    the source language, has none: its messages are the msgids)."""
    merged: Translations | None = None
    for folder in catalog_dirs():
        mo = Path(folder) / lang / "LC_MESSAGES" / "messages.mo"
        if not mo.is_file():
            continue
        with mo.open("rb") as f:
            catalog = Translations(f)
        if merged is None:
            merged = catalog
        else:
            merged.merge(catalog)
    return merged if merged is not None else gettext.NullTranslations()
