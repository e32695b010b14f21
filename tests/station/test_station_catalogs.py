"""Every station page is in Spanish and English: each string the caller pages, the big screen,
the card pages and the claims panel show (templates and the messages of errors) has a Spanish
translation in its area's catalog, plural forms included (no "1 bolas cantadas")."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
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
    "bingo_hall/station/program": ["bingo_hall/station/program"],
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


#: the pure rules whose messages the station's pages show: a setting the Maestro changes, and
#: a deck file the caller uploads (the manifest, each variant's cards and tickets, the deck)
PURE_SHOWN = [
    "bingo_hall/seventyfive/claims.py",
    "bingo_hall/seventyfive/patterns.py",
    "bingo_hall/manifest.py",
    "bingo_hall/variants.py",
    "bingo_hall/seventyfive/cards.py",
    "bingo_hall/ninety/tickets.py",
    "bingo_hall/ninety/strips.py",
    "bingo_hall/seventyfive/deck.py",
    "bingo_hall/draw.py",
]
#: how the pure rules raise: a KitError (DeckError, DrawError) template, or `_need(cond, template)`
PURE_KEYWORDS = {"KitError": None, "DeckError": None, "DrawError": None, "_need": (2,)}


def test_the_pure_rules_messages_the_station_shows_have_a_spanish_translation():
    """A KitError's template is translated at the edge: the claims settings' messages are in the
    station's catalog (plain English templates; a message built with an f-string is not one)."""
    with open(ROOT / "bingo_hall/station/translations/es/LC_MESSAGES/messages.po", "rb") as f:
        translated = {m.id for m in read_po(f) if m.id and m.string and not m.fuzzy}
    found = set()
    for rel in PURE_SHOWN:
        items = extract_from_file("python", ROOT / rel, keywords=PURE_KEYWORDS)
        found |= {msg for _line, msg, _comments, _ctx in items}
    assert "patterns are played in Bingo Normal only" in found
    assert "the deck needs a name" in found  # a `_need` check's message
    assert "card %(serial)s: number %(n)s appears twice" in found
    missing = found - translated
    assert not missing, f"untranslated: {sorted(missing)}"
