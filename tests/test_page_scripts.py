"""The pages' own scripts are ES modules (issue 25): loaded with type="module", they share what they
share by import, never through globals on `window`, and there is one `el` and one `fill` (in
bingo_hall/web/static/dom.js). The service worker is not a page script; the vendored jsQR is a
library's own classic script."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_MODULES = {"sw.js", "jsQR.js"}
SHARED = ROOT / "bingo_hall" / "web" / "static" / "dom.js"


def page_scripts() -> list[Path]:
    found = [
        p
        for area in ("bingo_hall", "companions")
        for p in (ROOT / area).rglob("static/**/*.js")
        if "vendor" not in p.parts and p.name not in NOT_MODULES
    ]
    assert len(found) >= 20, found  # the station's, the claims area's and the companions'
    return sorted(found)


def script_tags() -> list[tuple[Path, str]]:
    tags = []
    for area in ("bingo_hall", "companions"):
        for html in (ROOT / area).rglob("templates/**/*.html"):
            for tag in re.findall(r"<script\b[^>]*\bsrc=[^>]*>", html.read_text(), re.S):
                tags.append((html, tag))
    return tags


def test_every_page_script_is_loaded_as_a_module():
    loaded = [
        (html.name, tag)
        for html, tag in script_tags()
        if not any(name in tag for name in NOT_MODULES)
    ]
    assert len(loaded) >= 15
    classic = [(name, tag) for name, tag in loaded if 'type="module"' not in tag]
    assert classic == []


def test_no_page_script_puts_a_global_on_window():
    assigned = re.compile(r"\bwindow\.[A-Za-z_$][\w$]*\s*=[^=]")
    offenders = [
        f"{p.relative_to(ROOT)}: {line.strip()}"
        for p in page_scripts()
        for line in p.read_text().splitlines()
        if assigned.search(line)
    ]
    assert offenders == []


def test_one_el_and_one_fill_for_every_page():
    own = re.compile(r"\bfunction\s+(el|fill|fmt)\s*\(|\b(el|fill|fmt)\s*[=:]\s*(function\b|\()")
    copies = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in page_scripts()
        if p != SHARED
        for m in own.finditer(p.read_text())
    ]
    assert copies == []
    assert re.search(r"export function el\(", SHARED.read_text())
    assert re.search(r"export function fill\(", SHARED.read_text())


def url_of(path: Path) -> str:
    """Where the station or the companions serve a static file."""
    rel = path.relative_to(ROOT).as_posix()
    for folder, url in STATIC_URLS:
        if rel.startswith(folder):
            return url + rel[len(folder) :]
    game, _, name = rel.removeprefix("companions/web/").partition("/static/")
    return f"/t/static/{game}/{name}"


def file_of(url: str) -> Path:
    for folder, prefix in STATIC_URLS:
        if url.startswith(prefix) and (ROOT / folder / url[len(prefix) :]).is_file():
            return ROOT / folder / url[len(prefix) :]
    game, _, name = url.removeprefix("/t/static/").partition("/")
    return ROOT / "companions" / "web" / game / "static" / name


STATIC_URLS = [
    ("bingo_hall/web/static/", "/web/static/"),
    ("bingo_hall/station/static/", "/static/"),
    ("bingo_hall/station/verify/static/", "/verify/static/"),
    ("bingo_hall/station/ledger/static/", "/ledger/static/"),
    ("companions/web/static/", "/t/static/"),
]


def test_modules_import_only_files_that_exist():
    """A module's import path is a URL, absolute or relative to the module's own URL."""
    missing = []
    for p in page_scripts():
        for spec in re.findall(r'^import\s[^"]*"([^"]+)";', p.read_text(), re.M):
            url = posixpath.normpath(posixpath.join(posixpath.dirname(url_of(p)), spec))
            if not file_of(url).is_file():
                missing.append(f"{p.relative_to(ROOT)} imports {spec}")
    assert missing == []


def shipped_scripts() -> list[Path]:
    """Every script the kit serves that is its own (page modules and the service worker)."""
    found = [
        p
        for area in ("bingo_hall", "companions")
        for p in (ROOT / area).rglob("*.js")
        if "vendor" not in p.parts
    ]
    assert any(p.name == "sw.js" for p in found) and len(found) >= 25, found
    return sorted(found)


LIVE = ROOT / "bingo_hall" / "web" / "static" / "live.js"


def test_only_live_js_opens_an_event_source():
    """live.js owns the live stream and its reconnecting, for the station's pages, the card
    pages and the companions: no other script opens an EventSource of its own."""
    opened = re.compile(r"\bnew\s+(window\.)?EventSource\b")
    owners = [
        p.relative_to(ROOT).as_posix() for p in shipped_scripts() if opened.search(p.read_text())
    ]
    assert owners == [LIVE.relative_to(ROOT).as_posix()]


def test_every_script_is_written_in_one_version_of_the_language():
    """One version of JavaScript everywhere (ES2017+, as the station's modules): no `var`
    declarations, which only the companions' older ES5 scripts had."""
    declared = re.compile(r"(^|[;{(]|\bfor\s*\()\s*var\s+[A-Za-z_$]")
    offenders = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
        for p in shipped_scripts()
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if declared.search(line)
    ]
    assert offenders == []
