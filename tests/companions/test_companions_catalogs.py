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
