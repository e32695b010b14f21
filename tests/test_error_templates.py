"""Every user-facing error is raised as a template and its parameters, never as a formatted
string: a KitError built from an f-string or a `"..." % x` cannot be translated at the edge,
because its template is already the filled-in English sentence."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from testkit import parsed

from bingo_hall.errors import KitError

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bingo_hall", "companions", "firmware_bridge")
#: files another branch owns while it is open (Tambola, h28): convert them when it is done
NOT_YET: set[str] = set()


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


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _preformatted(arg: ast.expr) -> bool:
    """An f-string, a `%` or `+` on strings, or a `.format()` in the message."""
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Mod):
        return True
    for node in ast.walk(arg):
        if isinstance(node, ast.JoinedStr):
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
            if any(_is_text(side) for side in (node.left, node.right)):
                return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
        ):
            return True
    return False


def _raises(tree: ast.AST) -> list[tuple[ast.Raise, ast.Call, list[str]]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            names = _dotted(node.exc.func)
            if names and node.exc.args:
                found.append((node, node.exc, names))
    return found


def _message_helpers(tree: ast.AST, module: object) -> dict[str, int]:
    """Functions like `_need(cond, message)` that raise a KitError with one of their own
    parameters as the message: name -> that parameter's position."""
    helpers = {}
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef):
            continue
        params = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
        for _, call, names in _raises(func):
            first = call.args[0]
            if isinstance(first, ast.Name) and first.id in params:
                if _is_kit_error(module, names):
                    helpers[func.name] = params.index(first.id)
    return helpers


def preformatted_raises(path: Path, root: Path = ROOT) -> list[str]:
    """`file:line` of each `raise SomeKitError(<formatted string>, ...)` in the file, and of
    each call that hands a formatted string to a helper that raises it as a KitError."""
    tree = parsed(path)
    if not any(isinstance(node, ast.Raise) for node in ast.walk(tree)):
        return []
    module = importlib.import_module(_module_name(path, root))
    found = [
        node.lineno
        for node, call, names in _raises(tree)
        if _preformatted(call.args[0]) and _is_kit_error(module, names)
    ]
    helpers = _message_helpers(tree, module)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            at = helpers.get(node.func.id)
            if at is not None and len(node.args) > at and _preformatted(node.args[at]):
                found.append(node.lineno)
    where = path.relative_to(root).as_posix()
    return [f"{where}:{line}" for line in sorted(found)]


def test_no_kit_error_is_raised_with_a_formatted_string():
    offenders = [
        where
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if path.relative_to(ROOT).as_posix() not in NOT_YET
        for where in preformatted_raises(path)
    ]
    assert offenders == [], "raise these as KitError(template, **params):\n" + "\n".join(offenders)


def test_the_check_finds_formatted_messages_and_spares_templates(tmp_path, monkeypatch):
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
        "def e(n):\n    raise KitError('card ' + str(n))\n"
        "def g(bad):\n    raise KitError('cards %(n)s', n=[i + 1 for i in bad])\n"
        "def _need(ok, message):\n    if not ok:\n        raise DeckError(message)\n"
        "def f(n):\n    _need(n > 0, f'card {n}')\n    _need(n > 1, 'card %(n)s', n=n)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert preformatted_raises(pkg / "mod.py", tmp_path) == [
        "sample_errors_pkg/mod.py:4",
        "sample_errors_pkg/mod.py:6",
        "sample_errors_pkg/mod.py:12",
        "sample_errors_pkg/mod.py:19",
    ]


#: parameters that are data, never words of the sentence: the field a message is about (its
#: JSON path, also given apart) and the answer's extra keys
DATA_PARAMS = {"field", "extra", "entry_id"}


def _literal_words(value: ast.expr, assigned: dict[str, list[ast.expr]]) -> list[str]:
    """The string literals that can end up in a parameter's value as words: the value itself,
    either side of `a or b` / `a if c else b` / `a + b`, an f-string's text, a `join`'s
    separator, and what a local name was assigned."""
    if isinstance(value, ast.Constant):
        return [value.value] if isinstance(value.value, str) else []
    if isinstance(value, ast.JoinedStr):
        return [v.value for v in value.values if isinstance(v, ast.Constant)]
    if isinstance(value, ast.BoolOp):
        return [w for v in value.values for w in _literal_words(v, assigned)]
    if isinstance(value, ast.IfExp):
        return _literal_words(value.body, assigned) + _literal_words(value.orelse, assigned)
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        return _literal_words(value.left, assigned) + _literal_words(value.right, assigned)
    if isinstance(value, ast.Call) and getattr(value.func, "attr", "") == "join":
        return _literal_words(value.func.value, assigned)  # type: ignore[attr-defined]
    if isinstance(value, ast.Name):
        return [w for v in assigned.get(value.id, []) for w in _literal_words(v, {})]
    return []


#: one English word that reads as a sentence's word, not as a key or a value's name
_WORDS = {"none", "nothing", "nobody", "and", "or", "yes", "no", "true", "false", "unknown"}


def _english(text: str) -> bool:
    """Words, not a name: a phrase (letters and a space: "the body", " or "), or one of the
    words above. A single token ("mask", "--pin", "$BINGO_HALL_PIN", "FREE") names something."""
    letters = any(c.isalpha() for c in text)
    return letters and (" " in text or text.strip().lower() in _WORDS)


def _scopes(tree: ast.AST) -> list[tuple[ast.AST, list[ast.AST]]]:
    """The module and each function, with the nodes that belong to it (not to a function
    nested inside it): a local name is looked up where it is assigned."""
    scopes = []
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
        own: list[ast.AST] = []
        todo = list(ast.iter_child_nodes(scope))
        while todo:
            node = todo.pop()
            own.append(node)
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                todo.extend(ast.iter_child_nodes(node))
        scopes.append((scope, own))
    return scopes


def english_params(path: Path, root: Path = ROOT) -> list[str]:
    """`file:line param` of each KitError made with a parameter that carries English words
    (a phrase, a word such as "none", " or " between items, an f-string): filled into a
    translated template, they put English inside a Spanish sentence. Such words belong in the
    template itself."""
    tree = parsed(path)
    if not any(isinstance(node, ast.Raise) for node in ast.walk(tree)):
        return []  # as preformatted_raises: a module that raises nothing (or runs on a board)
    module = importlib.import_module(_module_name(path, root))
    found = []
    for _scope, own in _scopes(tree):
        assigned: dict[str, list[ast.expr]] = {}
        for node in own:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(node.value)
        for node in own:
            if not isinstance(node, ast.Call) or not node.args:
                continue
            names = _dotted(node.func)
            if not names or names[0] in ("request", "g", "session", "current_app"):
                continue  # Flask's context-bound names: never an error class
            if not _is_kit_error(module, names):
                continue
            for kw in node.keywords:
                if kw.arg is None or kw.arg in DATA_PARAMS:
                    continue
                if any(_english(w) for w in _literal_words(kw.value, assigned)):
                    found.append(f"{path.relative_to(root).as_posix()}:{node.lineno} {kw.arg}")
    return sorted(set(found))


def test_no_message_parameter_carries_english_words():
    offenders = [
        where
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for where in english_params(path)
    ]
    assert offenders == [], "put these words in the template:\n" + "\n".join(offenders)


def test_the_check_finds_english_words_in_parameters(tmp_path, monkeypatch):
    pkg = tmp_path / "sample_params_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(
        "from bingo_hall.errors import KitError\n"
        "def a(known):\n"
        "    raise KitError('the nights: %(names)s', names=', '.join(known) or 'none')\n"
        "def b(free):\n"
        "    want = 'FREE' if free else 'a number'\n"
        "    raise KitError('the centre is %(want)s', want=want)\n"
        "def c(n):\n"
        "    return KitError('%(n)s cards', n=n, field='cards')\n"
        "def d(n):\n"
        "    raise KitError('%(why)s', why=f'there are just {n} sets')\n"
        "def e(known):\n"
        "    raise KitError('use %(names)s', names=', '.join(known))\n"
        "def f(known, given):\n"
        "    source = '--pin' if given else '$BINGO_HALL_PIN'\n"
        "    raise KitError('%(source)s or %(k)s', source=source, k=' or '.join(known))\n"
        "def h(settings):\n"
        "    key = 'mask' if settings else 'pattern'\n"
        "    raise KitError('%(key)s is bad', key=key)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert english_params(pkg / "mod.py", tmp_path) == [
        "sample_params_pkg/mod.py:10 why",
        "sample_params_pkg/mod.py:15 k",
        "sample_params_pkg/mod.py:3 names",
        "sample_params_pkg/mod.py:6 want",
    ]
