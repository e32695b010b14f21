"""Every user-facing error is raised as a template and its parameters, never as a formatted
string: a KitError built from an f-string or a `"..." % x` cannot be translated at the edge,
because its template is already the filled-in English sentence."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from bingo_hall.errors import KitError

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bingo_hall", "companions", "firmware_bridge")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _dotted(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else [*head, node.attr]
    return None


def _is_kit_error(module: object, names: list[str]) -> bool:
    found: object = module
    for name in names:
        found = getattr(found, name, None)
        if found is None:
            return False
    return isinstance(found, type) and issubclass(found, KitError)


def _preformatted(arg: ast.expr) -> bool:
    if isinstance(arg, ast.JoinedStr):
        return True
    return isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Mod)


def preformatted_raises(path: Path, root: Path = ROOT) -> list[str]:
    """`file:line` of each `raise SomeKitError(<f-string or % string>, ...)` in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = None
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        call = node.exc
        names = _dotted(call.func)
        if not names or not call.args or not _preformatted(call.args[0]):
            continue
        if module is None:
            module = importlib.import_module(_module_name(path, root))
        if _is_kit_error(module, names):
            found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return found


def test_no_kit_error_is_raised_with_a_formatted_string():
    offenders = [
        where
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for where in preformatted_raises(path)
    ]
    assert offenders == [], "raise these as KitError(template, **params):\n" + "\n".join(offenders)


def test_the_check_finds_an_f_string_and_a_percent_string(tmp_path, monkeypatch):
    pkg = tmp_path / "sample_errors_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(
        "from bingo_hall.errors import DeckError, KitError\n"
        "from bingo_hall import errors\n"
        "def a(n):\n    raise DeckError(f'card {n}')\n"
        "def b(n):\n    raise errors.KitError('card %s' % n)\n"
        "def c(n):\n    raise KitError('card %(n)s', n=n)\n"
        "def d(n):\n    raise ValueError(f'card {n}')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert preformatted_raises(pkg / "mod.py", tmp_path) == [
        "sample_errors_pkg/mod.py:4",
        "sample_errors_pkg/mod.py:6",
    ]
