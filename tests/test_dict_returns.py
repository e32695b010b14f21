"""Values, not dicts, across boundaries: outside the JSON edge, few functions of `bingo_hall` and
`companions` may take or return a bag of JSON, in any spelling. Services take and return frozen
values (`bingo_hall/values.py`); requests are parsed at the route into frozen values.

The scan reads each module's syntax tree and looks at every annotation of a function: its return
and each of its parameters. A bag is a `dict`, `Dict`, `Mapping` or `MutableMapping` whose values
are `Any` or `object` (or that says nothing of its values: a bare `dict`), wherever it stands in
the annotation (`list[dict[str, Any]]`, `tuple[dict[str, Any], str]`, `dict[str, Any] | None`,
`dict[int, list[dict[str, Any]]]`, a quoted annotation), or an alias the module makes of one
(`JSON = dict[str, Any]`, `Row: TypeAlias = list[dict[str, object]]`). A mapping whose values
have a type (`dict[str, int]`, a player's scores) is a typed mapping, not a bag.

The JSON edge, where a bag is what the code is given or must give:

* a value's own `to_json` and `from_json` (its JSON out, and in from a request or a file);
* the route functions (decorated `@bp.route`, `@bp.get`, `@bp.post`, ...), which Flask calls
  with the request and whose answer Flask turns into JSON;
* the serving stack, `bingo_hall/web/` (the ASGI layer: uvicorn's `scope` and `receive`
  messages are dicts by the ASGI specification, and the body parsing of `web/inputs.py`), and
  the station's hooks it calls on its event loop with the request's ASGI scope (a card's page,
  a stream opened on the loop): their `scope` is annotated with the ASGI layer's own name for
  it, `Scope` (web/admission.py), which no other parameter may use (`ASGI_SCOPE`).

`LIMIT` only ever goes down.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AREAS = ("bingo_hall", "companions")

#: the serving stack, the edge itself (see above)
EDGE_FOLDERS = ("bingo_hall/web/",)
#: a value's own JSON, out and in
EDGE_FUNCTIONS = {"to_json", "from_json"}
#: the decorators that make a function a route (Flask's blueprint and app methods)
ROUTE_DECORATORS = {"route", "get", "post", "put", "patch", "delete"}

#: the ASGI layer's name for a request's scope (web/admission.py: `Scope = dict[str, Any]`), and
#: the only parameter name it may annotate outside the serving stack
ASGI_SCOPE = ("Scope", "scope")

#: the count may not go over this. What is left: the app factory's config mappings (Flask's own
#: config is a dict; flaskr's `create_app(test_config)`), and a game's claims settings, which
#: are sparse on purpose (only the keys the Maestro set, a null that overrides, stored and
#: written to the book whole): a value for them must cover the new game's options, a change of
#: settings and a game's stored options together.
LIMIT = 5

MAPPINGS = {"dict", "Dict", "Mapping", "MutableMapping"}
LOOSE = {"Any", "object"}


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def is_bag(annotation: ast.expr, aliases: set[str]) -> bool:
    """The annotation is, or holds somewhere inside it, a bag of JSON (see the module's text)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:  # a quoted annotation
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    subscripted = set()
    for node in ast.walk(annotation):
        if isinstance(node, ast.Subscript):
            subscripted.add(id(node.value))
            if _name(node.value) in MAPPINGS:
                args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                if _name(args[-1]) in LOOSE:
                    return True
        elif isinstance(node, ast.Name) and node.id in aliases:
            return True
    return any(
        _name(node) in MAPPINGS and id(node) not in subscripted
        for node in ast.walk(annotation)
        if isinstance(node, (ast.Name, ast.Attribute))
    )


def aliases_of(tree: ast.Module) -> set[str]:
    """The names a module gives a bag (`JSON = dict[str, Any]`, `X: TypeAlias = ...`)."""
    found = {"JSON"}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            if _name(node.annotation) != "TypeAlias":
                continue
            target, value = node.target, node.value
        elif type(node).__name__ == "TypeAlias":  # `type X = ...` (Python 3.12)
            target, value = node.name, node.value  # type: ignore[attr-defined]
        else:
            continue
        if isinstance(target, ast.Name) and is_bag(value, found):
            found.add(target.id)
    return found


def _is_route(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for deco in fn.decorator_list:
        call = deco.func if isinstance(deco, ast.Call) else deco
        if isinstance(call, ast.Attribute) and call.attr in ROUTE_DECORATORS:
            return True
    return False


def _is_asgi_scope(arg: ast.arg) -> bool:
    """`scope: Scope`: a request's ASGI scope, handed on by the serving stack (the edge)."""
    kind, name = ASGI_SCOPE
    return arg.arg == name and isinstance(arg.annotation, ast.Name) and arg.annotation.id == kind


def dict_shapes(source: str) -> list[str]:
    """Each parameter and each return of a module's functions that is a bag, outside the edge's
    functions: "name -> annotation" for a return, "name(parameter: annotation)" for a parameter."""
    tree = ast.parse(source)
    aliases = aliases_of(tree) | {ASGI_SCOPE[0]}
    found = []
    functions = [
        n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    for fn in sorted(functions, key=lambda n: n.lineno):
        if fn.name in EDGE_FUNCTIONS or _is_route(fn):
            continue
        if fn.returns is not None and is_bag(fn.returns, aliases):
            found.append(f"{fn.name} -> {ast.unparse(fn.returns)}")
        a = fn.args
        every = [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, [a.vararg, a.kwarg])]
        for arg in every:
            if _is_asgi_scope(arg):
                continue
            if arg.annotation is not None and is_bag(arg.annotation, aliases):
                found.append(f"{fn.name}({arg.arg}: {ast.unparse(arg.annotation)})")
    return found


def counted() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for area in AREAS:
        for path in sorted((ROOT / area).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name.startswith(EDGE_FOLDERS):
                continue
            shapes = dict_shapes(path.read_text(encoding="utf-8"))
            if shapes:
                found[name] = shapes
    return found


def test_few_functions_take_or_return_a_dict_outside_the_json_edge():
    found = counted()
    total = sum(len(shapes) for shapes in found.values())
    listing = "\n".join(f"{path}: {shape}" for path, shapes in found.items() for shape in shapes)
    assert total <= LIMIT, (
        f"{total} parameters and returns are dicts outside the JSON edge (at most {LIMIT}): take "
        f"or return a frozen value with to_json() instead (bingo_hall/values.py)\n{listing}"
    )


def test_the_guard_sees_every_form_of_a_dict_and_leaves_the_edge_alone():
    source = "\n".join(
        [
            "from typing import Any, Mapping, TypeAlias",
            "Body = dict[str, object]",
            "Rows: TypeAlias = list[Body]",
            "def a() -> dict[str, Any]: ...",
            "def b() -> Mapping[str, object]: ...",
            "def c() -> list[dict[str, Any]]: ...",
            "def d() -> list[dict[str, Any]] | None: ...",
            "def e() -> tuple[dict[str, Any], str | None]: ...",
            "def f() -> dict[int, list[dict[str, Any]]]: ...",
            "def g() -> JSON: ...",
            "def h() -> Body: ...",
            "def i() -> Rows: ...",
            "def j() -> 'list[dict[str, Any]]': ...",
            "def k(data: dict[str, Any]) -> None: ...",
            "def l(*, entries: list[typing.Dict[str, Any]]) -> None: ...",
            "def m(settings: dict) -> None: ...",
            "async def n(scope: collections.abc.MutableMapping[str, Any]) -> None: ...",
            "class V:",
            "    def o(self, **extra: Mapping[str, Any]) -> None: ...",
            # the edge, and what is not a bag
            "    def to_json(self) -> dict[str, Any]: ...",
            "    @classmethod",
            "    def from_json(cls, d: Mapping[str, Any]) -> 'V': ...",
            "@bp.post('/x')",
            "def route(data: dict[str, Any]) -> dict[str, Any]: ...",
            "def scores() -> dict[str, int]: ...",
            "def names(kinds: Mapping[str, tuple[str, ...]]) -> list[str]: ...",
            "def value() -> Scores: ...",
            "def like() -> JSONish: ...",
            "def word(kind: Literal['dict']) -> None: ...",
            "def answer(app: Flask, scope: Scope) -> bytes | None: ...",
            "def not_a_scope(data: Scope) -> Scope: ...",
        ]
    )
    assert dict_shapes(source) == [
        "a -> dict[str, Any]",
        "b -> Mapping[str, object]",
        "c -> list[dict[str, Any]]",
        "d -> list[dict[str, Any]] | None",
        "e -> tuple[dict[str, Any], str | None]",
        "f -> dict[int, list[dict[str, Any]]]",
        "g -> JSON",
        "h -> Body",
        "i -> Rows",
        "j -> 'list[dict[str, Any]]'",
        "k(data: dict[str, Any])",
        "l(entries: list[typing.Dict[str, Any]])",
        "m(settings: dict)",
        "n(scope: collections.abc.MutableMapping[str, Any])",
        "o(extra: Mapping[str, Any])",
        "not_a_scope -> Scope",
        "not_a_scope(data: Scope)",
    ]


def test_the_edge_is_only_the_web_folder_the_json_methods_and_the_routes():
    """The edge is named, not guessed: a service in an area is counted even when a route of the
    same module is not."""
    source = (
        "@bp.get('/a')\ndef page(d: dict[str, Any]): ...\n"
        "def service(d: dict[str, Any]): ...\n"
        "def to_jsonish(d: dict[str, Any]): ...\n"
    )
    assert dict_shapes(source) == ["service(d: dict[str, Any])", "to_jsonish(d: dict[str, Any])"]
    assert all(
        not folder.startswith(("bingo_hall/station", "companions")) for folder in EDGE_FOLDERS
    )
