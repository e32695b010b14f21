"""Every station page is in Spanish and English: each string the caller pages, the big screen,
the card pages and the claims panel show (templates and the messages of errors) has a Spanish
translation in its area's catalog, plural forms included (no "1 bolas cantadas")."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "N_": None,
    "RequestError": None,
    "NotFound": None,
    "Conflict": None,
}
METHODS = [("**.py", "python"), ("**.html", "jinja2")]
# Flask-Babel merges every area's catalog (web.i18n), so a page's string may be in any of them;
# the claims area's own strings must be in its own.
ALL = [
    str(p.relative_to(ROOT))
    for top in ("bingo_hall", "companions", "firmware_bridge")
    for p in sorted((ROOT / top).rglob("translations"))
    if p.is_dir()
]
AREAS = {
    "bingo_hall/station/verify": ["bingo_hall/station/verify"],
    "bingo_hall/station/ledger": ["bingo_hall/station/ledger"],
    "bingo_hall/station": [p.removesuffix("/translations") for p in ALL],
}


def source_strings(folder: Path) -> set:
    items = extract_from_dir(folder, METHODS, keywords=KEYWORDS)
    return {msg for _file, _line, msg, _comments, _ctx in items}


@pytest.mark.parametrize("area", AREAS)
def test_every_station_string_has_a_spanish_translation(area):
    translated = set()
    for folder in AREAS[area]:
        with open(ROOT / folder / "translations/es/LC_MESSAGES/messages.po", "rb") as f:
            translated |= {
                m.id
                for m in read_po(f)
                if m.id and not m.fuzzy and (all(m.string) if isinstance(m.id, tuple) else m.string)
            }
    missing = source_strings(ROOT / area) - translated
    assert not missing, f"untranslated in {area}: {sorted(missing, key=str)}"
