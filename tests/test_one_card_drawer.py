"""A card's and a ticket's table are drawn in one place (issue 25: "the card drawn in one
place"): the macros of bingo_hall/station/verify/templates/verify/_vcard.html. Every view asks
it: the card and ticket pages, the Maestro's check, the hall screens (GET .../shown/<key>); the
pages' scripts only mark the squares. This fails on a second drawer: a template, a script or
a Python module that writes a card square (`<td class="sq`, or a script that makes cells and
names the class `sq`) or a card table (`vcard` on a table it makes)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DRAWER = Path("bingo_hall/station/verify/templates/verify/_vcard.html")
SOURCES = ("bingo_hall", "companions", "firmware_bridge", "card_templates")

#: a card's squares or table written as markup (a template, a script's innerHTML, Python)
MARKUP = {
    "a card square in markup": re.compile(r"""<td\s+class=["']?sq\b"""),
    "a card table in markup": re.compile(r"""<table\s+class=["']?vcard\b"""),
}
#: a script that makes cells (or tables) and names the squares' (or the card's) class
MAKES = {
    "card squares made in a script": (
        re.compile(r"""(?:\bel|createElement)\(\s*["']td["']"""),
        re.compile(r"""["'`]sq\b"""),
    ),
    "a card table made in a script": (
        re.compile(r"""(?:\bel|createElement)\(\s*["']table["']"""),
        re.compile(r"""["'`][^"'`\n]*\bvcard\b"""),
    ),
}


def second_drawers(root: Path) -> list[str]:
    """Every file under `root` (but the one drawer) that draws a card's table or squares."""
    found = []
    for top in SOURCES:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in {".html", ".js", ".py"} or "vendor" in path.parts:
                continue
            rel = path.relative_to(root)
            if rel == DRAWER:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [f"{rel}: {what}" for what, draws in MARKUP.items() if draws.search(text)]
            if path.suffix == ".js":
                found += [
                    f"{rel}: {what}"
                    for what, (makes, names) in MAKES.items()
                    if makes.search(text) and names.search(text)
                ]
    return found


def test_the_card_is_drawn_by_one_template_that_every_view_uses():
    assert second_drawers(ROOT) == []
    drawer = (ROOT / DRAWER).read_text(encoding="utf-8")
    assert MARKUP["a card square in markup"].search(drawer)  # the drawer is where it says
    users = [
        p.name
        for p in (ROOT / DRAWER.parent).glob("*.html")
        if 'from "verify/_vcard.html" import' in p.read_text(encoding="utf-8")
    ]
    assert sorted(users) == [
        "_card_fragment.html",
        "_card_shown.html",
        "_card_table.html",  # the QR page's kept table (issue 32: drawn ahead of need)
        "_ticket_fragment.html",
        "_ticket_shown.html",
        "_ticket_table.html",
    ]


def test_the_check_finds_a_card_drawn_a_second_time(tmp_path):
    """The check can fail: each way a second drawer was (or could be) written is caught."""
    drawers = {
        "screen.js": 'const table = el("table", "vcard");\n',
        "ticket.js": 'const table = el("table", "vcard ticket90");\n',
        "cell.js": 'tr.appendChild(el("td", cls, String(n))); let cls = "sq";\n',
        "square.js": 'row.appendChild(el("td", "sq covered", "7"));\n',
        "made.js": 't = document.createElement("table"); t.className = "vcard";\n',
        "html.js": 'box.innerHTML = `<table class="vcard"><tr><td class="sq">1</td>`;\n',
        "_copy.html": '<td class="sq{{ " covered" if sq.covered }}">{{ sq.n }}</td>\n',
        "draw.py": "cell = f'<td class=\"sq {cls}\">{n}</td>'\n",
    }
    folder = tmp_path / "bingo_hall" / "station" / "static"
    folder.mkdir(parents=True)
    (tmp_path / "bingo_hall" / "marks.js").write_text(
        'td.classList.toggle("covered", on); document.querySelectorAll("table.vcard td.sq");\n'
    )
    for name, text in drawers.items():
        (folder / name).write_text(text)
    found = {line.split(":")[0].rsplit("/", 1)[-1] for line in second_drawers(tmp_path)}
    assert found == set(drawers)  # and marking squares (marks.js) is not drawing them
