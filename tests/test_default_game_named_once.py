"""The default game's balls are named once (`variants.DEFAULT_BALLS`, the default variant's):
no module writes 75 again as a default (an argument's, a field's, a `.get`'s, an `or`'s) and no
page script falls back to it, so a kit whose default game changed would change in one place."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BALLS = 75  # the number the check looks for, not a default of the kit's


def _is_balls(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value == BALLS and type(node.value) is int


def defaults_written_out(source: str) -> list[int]:
    """The lines where `source` gives 75 as a default."""
    found: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            found += [d.lineno for d in (*args.defaults, *args.kw_defaults) if _is_balls(d)]
        elif isinstance(node, ast.AnnAssign) and _is_balls(node.value):
            found.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("get", "pop", "setdefault") and any(
                _is_balls(a) for a in node.args[1:]
            ):
                found.append(node.lineno)
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            found += [v.lineno for v in node.values[1:] if _is_balls(v)]
        elif isinstance(node, ast.keyword) and node.arg == "default" and _is_balls(node.value):
            found.append(node.value.lineno)
    return found


def test_the_check_finds_each_form_of_a_default_written_out():
    forms = [
        "def f(balls: int = 75): pass",
        "def f(*, balls=75): pass",
        "class A:\n    balls: int = 75",
        "n = data.get('game', 75)",
        "n = int(snap.get('balls') or 75)",
        "opt = option(default=75)",
    ]
    assert [bool(defaults_written_out(f)) for f in forms] == [True] * len(forms)
    assert defaults_written_out("if not 1 <= ball <= 75: pass\nballs = 75") == []


def test_no_module_writes_the_default_games_balls_out_again():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in ("bingo_hall", "companions", "firmware_bridge")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in defaults_written_out(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_no_page_script_falls_back_to_75_balls():
    fallback = re.compile(r"(\|\||\?\?)\s*75\b")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "bingo_hall").rglob("*.js"))
        if "vendor" not in path.parts and "node_modules" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if fallback.search(line)
    ]
    assert found == []
