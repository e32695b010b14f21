"""Which functions a command reaches, and which of those read the running app (tests/
test_architecture.py: a game's rules come from its record, so a command that reads a night must
never need the station's app).

The call graph is built from the source (ast), as far as names resolve without running anything:
- `f(...)`: a function of the same module, or one imported by name from a module of ours;
- `mod.f(...)`: a function of a module of ours imported as `mod`;
- `x.m(...)` (a method, on any object): every method named `m` of the classes of the modules the
  calling module imports, and of its own. This reaches further than the program may (it cannot
  tell the object's class), which is the side to err on: a path it reports is one to look at.

A function *reads the app* when it calls `station_state()`, `area_state(...)`, `get_db()` or
`hall()` (other than for `hall().write_lock`, which only a write takes), or names
`current_app`."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

READERS = {"station_state", "area_state", "get_db"}


@dataclass
class Module:
    name: str
    tree: ast.Module
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    #: method name -> its definitions in this module's classes
    methods: dict[str, list[ast.FunctionDef]] = field(default_factory=dict)
    #: local name -> (module, attribute or None for a module itself)
    imported: dict[str, tuple[str, str | None]] = field(default_factory=dict)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def load(root: Path, packages: tuple[str, ...]) -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            name = ".".join(parts)
            modules[name] = parse(name, path.read_text(encoding="utf-8"), is_package)
    return modules


def parse(name: str, source: str, is_package: bool = False) -> Module:
    tree = ast.parse(source)
    mod = Module(name, tree)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            mod.functions[node.name] = node  # type: ignore[assignment]
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    mod.methods.setdefault(item.name, []).append(item)  # type: ignore[arg-type]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source_module = _resolve(name, is_package, node)
            for alias in node.names:
                local = alias.asname or alias.name
                mod.imported[local] = (source_module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                mod.imported[alias.asname or alias.name.split(".")[0]] = (alias.name, None)
    return mod


def reads_app(fn: ast.AST) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == "current_app":
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in READERS:
                return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "hall"
            and not node.args
        ):
            parent = getattr(node, "parent", None)
            if not (isinstance(parent, ast.Attribute) and parent.attr == "write_lock"):
                return True
    return False


def _with_parents(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child.parent = node  # type: ignore[attr-defined]


Key = tuple[str, str]  # (module, function or Class-less method name)


def callees(modules: dict[str, Module], mod: Module, fn: ast.AST) -> Iterator[tuple[Key, ast.AST]]:
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name):
            if f.id in mod.functions:
                yield (mod.name, f.id), mod.functions[f.id]
            elif f.id in mod.imported:
                src, attr = mod.imported[f.id]
                target = modules.get(src)
                if target is not None and attr in target.functions:
                    yield (src, attr), target.functions[attr]
                elif attr is not None and f"{src}.{attr}" in modules:
                    pass  # a module called: not a function
        elif isinstance(f, ast.Attribute):
            owner = f.value
            if isinstance(owner, ast.Name) and owner.id in mod.imported:
                src, attr = mod.imported[owner.id]
                target = modules.get(src if attr is None else f"{src}.{attr}")
                if target is not None and f.attr in target.functions:
                    yield (target.name, f.attr), target.functions[f.attr]
                    continue
            for other in {mod.name, *(s for s, _ in mod.imported.values())}:
                target = modules.get(other)
                for m in target.methods.get(f.attr, ()) if target else ():
                    yield (other, f"{f.attr}@{m.lineno}"), m


def app_reads(modules: dict[str, Module], start: Key) -> list[list[str]]:
    """Every path from the function `start` to a function that reads the running app."""
    for mod in modules.values():
        if not getattr(mod.tree, "_parented", False):
            _with_parents(mod.tree)
            mod.tree._parented = True  # type: ignore[attr-defined]
    first = modules[start[0]].functions[start[1]]
    seen: set[Key] = set()
    found: list[list[str]] = []
    stack: list[tuple[Key, ast.AST, list[str]]] = [(start, first, [])]
    while stack:
        key, fn, trail = stack.pop()
        if key in seen:
            continue
        seen.add(key)
        here = [*trail, f"{key[0]}:{key[1]}"]
        if reads_app(fn):
            found.append(here)
        for callee, node in callees(modules, modules[key[0]], fn):
            stack.append((callee, node, here))
    return found
