"""The rules sheet of the kit, in the kit's own words, from the 1933 Parker Brothers rules (seed
bingo-normal-y-de-puntos.es.txt) as docs/rules.md §1 reads them, including its decisions (3 or 4
lines completed at once count as a Bingo Doble; a missed line still wins but never as a Doble).

The text lives in `rules_<lang>.md` so it can be proof-read without reading code: blocks are
separated by blank lines; "# " is the title, "## " a section, "- " a list item, anything else a
paragraph. Text may use <b> and <i> (reportlab paragraph markup).
"""

from __future__ import annotations

from pathlib import Path

from ..variants import DEFAULT_BALLS, variant_for

Block = tuple[str, str]
_DIR = Path(__file__).resolve().parent
_KINDS = (("## ", "h2"), ("# ", "h1"), ("- ", "li"))


def rules_blocks(lang: str, game: int = DEFAULT_BALLS) -> list[Block]:
    """(kind, text) blocks of the rules sheet (`rules_90_<lang>.md` for 90 balls): kind is h1,
    h2, li or p."""
    name = variant_for(game).rules_sheet.format(lang=lang)
    text = (_DIR / name).read_text(encoding="utf-8")
    blocks = []
    for chunk in text.split("\n\n"):
        chunk = " ".join(line.strip() for line in chunk.strip().splitlines())
        if not chunk:
            continue
        kind = "p"
        for prefix, name in _KINDS:
            if chunk.startswith(prefix):
                kind, chunk = name, chunk[len(prefix) :]
                break
        blocks.append((kind, chunk))
    return blocks
