"""Every page is in Spanish and English: each string the shell, Burako, Rummy and Qwinto show
(templates, page code and the engines' messages) has a Spanish translation in its area's
catalog."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    **dict.fromkeys(("N_", "EntryError", "_l", "Unauthorized", "TooManyRequests")),
}
METHODS = [("**.py", "python"), ("**.html", "jinja2")]

AREAS = {
    "companions/web": [
        "companions/errors.py",
        "companions/web/views.py",
        "companions/web/setup.py",
        "companions/web/store.py",
        "companions/web/changes.py",
        "companions/web/lookup.py",
        "companions/web/app_files.py",
        "companions/web/pins.py",
        "companions/web/templates",
    ],
    "companions/web/burako": ["companions/burako.py", "companions/web/burako"],
    "companions/web/rummy": ["companions/rummy.py", "companions/web/rummy"],
    "companions/web/qwinto": ["companions/qwinto.py", "companions/web/qwinto"],
}


def source_strings(paths):
    found = set()
    for rel in paths:
        path = ROOT / rel
        if path.is_dir():
            items = extract_from_dir(path, METHODS, keywords=KEYWORDS)
            found |= {msg for _file, _line, msg, _comments, _ctx in items}
        else:
            items = extract_from_file("python", path, keywords=KEYWORDS)
            found |= {msg for _line, msg, _comments, _ctx in items}
    return {m if isinstance(m, str) else m[0] for m in found}


@pytest.mark.parametrize("area", AREAS)
def test_every_string_has_a_spanish_translation(area):
    with open(ROOT / area / "translations/es/LC_MESSAGES/messages.po", "rb") as f:
        catalog = read_po(f)
    translated = {m.id for m in catalog if m.id and m.string and not m.fuzzy}
    missing = source_strings(AREAS[area]) - translated
    assert not missing, f"untranslated in {area}: {sorted(missing)}"


def _catalog(area: str):
    with open(ROOT / area / "translations/es/LC_MESSAGES/messages.po", "rb") as f:
        return [m for m in read_po(f) if m.id and m.string]


def _ids(message) -> str:
    return message.id if isinstance(message.id, str) else " ".join(message.id)


def _strings(message) -> str:
    return message.string if isinstance(message.string, str) else " ".join(message.string)


def test_the_companion_catalogs_use_the_glossarys_words():
    """docs/glossary.md, "The table companions": partida is the whole game a table plays; a
    Rummy game is a mano, a Domino rubber a chico; Clue's sugerencia, never the rules sheet's
    sugestión or desprobar."""
    wrong = []
    for m in _catalog("companions/web/domino"):
        mentions_match = "match" in _ids(m).lower()  # the match is the partida
        if "rubber" in _ids(m).lower() and not mentions_match and "partida" in _strings(m).lower():
            wrong.append(f"domino: {_ids(m)!r} -> {_strings(m)!r} (a rubber is a chico)")
    for m in _catalog("companions/web/rummy"):
        if "game" in _ids(m).lower() and "match" not in _ids(m).lower():
            if "partida" in _strings(m).lower():
                wrong.append(f"rummy: {_ids(m)!r} -> {_strings(m)!r} (a game is a mano)")
    for m in _catalog("companions/web/clue"):
        if any(w in _strings(m).lower() for w in ("sugestión", "sugestion", "desprob")):
            wrong.append(f"clue: {_ids(m)!r} -> {_strings(m)!r} (a suggestion is a sugerencia)")
    assert not wrong, "\n".join(wrong)
