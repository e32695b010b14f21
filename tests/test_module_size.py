"""One idea per module: no module of bingo_hall/ or companions/ is over 450 lines unless its
docstring says why it is one idea ("One idea in one module"), so a module that grows past the
size of one idea is split along its ideas or says why it is not."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 450
REASON = "One idea in one module"


def too_long(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    if len(text.splitlines()) <= MOST_LINES:
        return False
    return REASON not in (ast.get_docstring(ast.parse(text)) or "")


def test_the_check_finds_a_long_module_without_its_reason(tmp_path):
    body = "x = 1\n" * (MOST_LINES + 1)
    plain, said = tmp_path / "plain.py", tmp_path / "said.py"
    plain.write_text('"""Two ideas."""\n' + body)
    said.write_text(f'"""{REASON}: the rules of one game."""\n' + body)
    short = tmp_path / "short.py"
    short.write_text("x = 1\n" * MOST_LINES)
    assert [too_long(p) for p in (plain, said, short)] == [True, False, False]


def test_no_module_is_longer_than_one_idea_without_saying_why():
    found = sorted(
        path.relative_to(ROOT).as_posix()
        for folder in ("bingo_hall", "companions")
        for path in (ROOT / folder).rglob("*.py")
        if too_long(path)
    )
    assert found == []
