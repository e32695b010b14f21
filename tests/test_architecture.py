"""The import direction of docs/dev/architecture.md, checked on the source: pure rules <- adapters
<- web core <- areas <- the app factory <- command-line modules. An import that runs the wrong
way, an area importing another area, or a pure module importing I/O fails here; so does a pure
module of the package root importing a family above its own (the 90-ball rules the 75-ball ones,
the root's rules the money), and a module left at the root without a family.

Imports made through `importlib` count: a module that calls `import_module` imports every
module its strings name ("bingo_hall.cli.deck:deck", an f-string's "companions.web." prefix)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import app_reach
import pytest
from testkit import parsed

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bingo_hall", "companions", "firmware_bridge")

PURE, ADAPTER, CORE, AREA, FACTORY, ENTRY = range(6)
LAYER_NAMES = [
    "pure rules",
    "adapter",
    "web core",
    "web area",
    "app factory",
    "command line",
]

#: most specific first: (module prefix, layer, area name or None)
LAYERS = [
    ("bingo_hall.__main__", ENTRY, None),
    ("bingo_hall.cli", ENTRY, None),
    ("bingo_hall.printing.cli", ENTRY, None),
    ("bingo_hall.station.cli", ENTRY, None),
    ("bingo_hall.station.ledger.cli", ENTRY, None),
    ("companions.cli", ENTRY, None),
    ("firmware_bridge.cli", ENTRY, None),
    ("bingo_hall.app", FACTORY, None),
    ("bingo_hall.station", AREA, "station"),
    ("companions.web", AREA, "companions"),
    ("firmware_bridge.embedded", AREA, "bridge"),
    ("bingo_hall.web", CORE, None),
    ("bingo_hall.printing", ADAPTER, None),
    ("bingo_hall.machine", ADAPTER, None),
    ("firmware_bridge.host", ADAPTER, None),
    ("firmware_bridge.follow", ADAPTER, None),
    ("firmware_bridge.emulator", ADAPTER, None),
    ("firmware_bridge.station_client", ADAPTER, None),
    ("bingo_hall", PURE, None),
    ("companions", PURE, None),
    ("firmware_bridge", PURE, None),
]

#: area -> the areas it may use (the bridge drives the station's game service)
AREA_USES = {"station": set(), "companions": set(), "bridge": {"station"}}

#: the folder each area's modules live in, its command line included: a command in an area's
#: folder is that area's and uses no other area (the app factory composes them)
AREA_HOMES = [
    ("bingo_hall.station", "station"),
    ("companions", "companions"),
    ("firmware_bridge", "bridge"),
]

#: the pure rules of bingo_hall, by family: (module prefix, family, rank). A family imports its
#: own and lower ranks only; the 75-ball and the 90-ball rules share a rank and ignore each other.
FAMILIES = [
    ("bingo_hall.errors", "core", 0),
    ("bingo_hall.rng", "core", 0),
    ("bingo_hall.values", "core", 0),
    ("bingo_hall.signing", "core", 0),
    ("bingo_hall.toml_table", "core", 0),
    ("bingo_hall.seventyfive", "75-ball", 1),
    ("bingo_hall.ninety", "90-ball", 1),
    ("bingo_hall.variants", "variants", 2),
    ("bingo_hall.prize_plan", "variants", 2),
    ("bingo_hall.manifest", "variants", 2),
    ("bingo_hall.draw", "variants", 2),
    ("bingo_hall.round_state", "variants", 2),
    ("bingo_hall.odds", "variants", 2),
    ("bingo_hall.prize_names", "variants", 2),
    ("bingo_hall.money", "money", 3),
    ("bingo_hall.audit", "audit", 4),
    ("bingo_hall.linked", "linked", 5),
]

#: what the package root may hold besides the families' modules: the package's own files, the
#: composition root, and the sub-packages of the other layers
ROOT_OTHERS = {
    "__init__",
    "__main__",
    "app",
    "cli",
    "machine",
    "printing",
    "web",
    "station",
}

#: what a pure rules module may never import
IO_MODULES = (
    "flask",
    "werkzeug",
    "jinja2",
    "sqlite3",
    "reportlab",
    "serial",
    "uvicorn",
    "a2wsgi",
    "uvloop",
    "click",
)


def layer_of(module: str) -> tuple[int, str | None]:
    for prefix, layer, area in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return layer, area
    raise KeyError(module)


def _first(table, module: str):
    for prefix, *rest in table:
        if module == prefix or module.startswith(prefix + "."):
            return rest
    return None


def home_of(module: str) -> str | None:
    found = _first(AREA_HOMES, module)
    return found[0] if found else None


def family_of(module: str) -> tuple[str, int] | None:
    found = _first(FAMILIES, module)
    return (found[0], found[1]) if found else None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


#: a string that names a module of ours, as importlib takes it ("pkg.mod" or "pkg.mod:attr")
MODULE_STRING = re.compile(r"^(?:" + "|".join(PACKAGES) + r")(?:\.\w+)*\.?(?::\w+)?$")


def _loads_modules(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("import_module", "__import__"):
                return True
    return False


def dynamic_imports(tree: ast.Module) -> set[str]:
    """The modules a module loads through importlib: every string of it that names one of ours
    (and the constant head of an f-string: f"companions.web.{name}" loads companions.web.*)."""
    if not _loads_modules(tree):
        return set()
    found = set()
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant) and isinstance(head.value, str):
                text = head.value
        if text and MODULE_STRING.match(text):
            found.add(text.split(":")[0].rstrip("."))
    return found


def import_statements(
    tree: ast.Module, module: str, is_package: bool
) -> Iterator[tuple[str, list[str]]]:
    """Each import statement of a module, wherever it stands: the module it names (relative
    imports resolved) and the names it takes from it (none for `import x`, which names `x`)."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target, [alias.name for alias in node.names]


def imports_of(source: str, module: str, is_package: bool) -> set[str]:
    """Every module a source imports, relative imports resolved, importlib's included."""
    tree = ast.parse(source)
    found: set[str] = set()
    for target, names in import_statements(tree, module, is_package):
        found.add(target)
        found.update(f"{target}.{name}" for name in names)
    return found | dynamic_imports(tree)


def _is_package_itself(target: str) -> bool:
    """`from bingo_hall import x` names the package bingo_hall too: its __init__ holds nothing
    but a docstring and the version, so it is no arrow."""
    return target in PACKAGES


def violations(module: str, imported: set[str]) -> list[str]:
    """Why each import of `module` runs the wrong way (empty when all is well)."""
    layer, area = layer_of(module)
    home = home_of(module)
    family = family_of(module)
    out = []
    for target in sorted(imported):
        top = target.split(".")[0]
        if layer == PURE and top in IO_MODULES:
            out.append(f"{module} is pure rules but imports {target}")
        if top not in PACKAGES or _is_package_itself(target):
            continue
        try:
            their_layer, their_area = layer_of(target)
        except KeyError:
            continue
        if their_layer > layer:
            out.append(
                f"{module} ({LAYER_NAMES[layer]}) imports {target} ({LAYER_NAMES[their_layer]})"
            )
        elif their_layer == AREA and home is not None and home != their_area:
            if their_area not in AREA_USES[home]:
                out.append(f"the {home} area imports the {their_area} area ({target})")
        their_family = family_of(target)
        if family and their_family and their_family[0] != family[0]:
            if their_family[1] >= family[1]:
                out.append(
                    f"{module} ({family[0]} rules) imports {target} ({their_family[0]} rules)"
                )
    return out


def source_modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "firmware" in path.relative_to(ROOT / package).parts[:-1]:
                continue  # MicroPython sources for the board, not part of the host's layers
            yield path


@pytest.mark.parametrize("path", list(source_modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_run_one_way(path: Path):
    module = module_name(path)
    found = imports_of(path.read_text(), module, path.name == "__init__.py")
    assert violations(module, found) == []


def test_every_module_at_the_root_has_a_family():
    """The package root shows the layers: each module or package there is a family of the pure
    rules or one of ROOT_OTHERS; a new one is placed in a family here (and in the drawing)."""
    root = ROOT / "bingo_hall"
    names = {p.stem for p in root.glob("*.py")}
    names |= {p.name for p in root.iterdir() if (p / "__init__.py").is_file()}
    homeless = sorted(n for n in names - ROOT_OTHERS if family_of(f"bingo_hall.{n}") is None)
    assert homeless == []


def test_a_family_prefix_names_a_module_that_exists():
    """A family or a layer row that names nothing is a typo that would let a module through."""
    missing = []
    for prefix, *_ in [*FAMILIES, *LAYERS]:
        path = ROOT.joinpath(*prefix.split("."))
        if not (path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()):
            missing.append(prefix)
    assert missing == []


@pytest.mark.parametrize(
    ("module", "imported", "why"),
    [
        ("bingo_hall.web.db", {"bingo_hall.station.games"}, "web core"),
        ("bingo_hall.seventyfive.claims", {"flask"}, "pure rules but imports flask"),
        (
            "companions.web.views",
            {"bingo_hall.station.db"},
            "companions area imports the station",
        ),
        (
            "bingo_hall.station.api",
            {"firmware_bridge.embedded"},
            "station area imports the bridge",
        ),
        ("bingo_hall.seventyfive.cards", {"bingo_hall.printing.deck_pdf"}, "(adapter)"),
        # a command line in an area's folder is still that area's
        (
            "bingo_hall.station.cli",
            {"companions.web.replays"},
            "station area imports the comp",
        ),
        # the families of the pure rules
        ("bingo_hall.ninety.strips", {"bingo_hall.seventyfive.cards"}, "(90-ball rules) imports"),
        ("bingo_hall.seventyfive.claims", {"bingo_hall.ninety.tickets"}, "(75-ball rules) imports"),
        ("bingo_hall.seventyfive.deck", {"bingo_hall.variants"}, "(variants rules)"),
        ("bingo_hall.manifest", {"bingo_hall.money.ledger"}, "(money rules)"),
        ("bingo_hall.money.night", {"bingo_hall.audit.book"}, "(audit rules)"),
        ("bingo_hall.errors", {"bingo_hall.seventyfive.cards"}, "(75-ball rules)"),
        ("bingo_hall.draw", {"bingo_hall.machine.paths"}, "(adapter)"),
    ],
)
def test_the_check_catches_an_arrow_the_wrong_way(module, imported, why):
    assert any(why in v for v in violations(module, imported))


def test_the_bridge_may_drive_the_station_and_the_cli_may_use_everything():
    assert violations("firmware_bridge.embedded", {"bingo_hall.station.games"}) == []
    assert violations("bingo_hall.station.cli", {"bingo_hall.app", "bingo_hall.printing"}) == []
    assert violations("bingo_hall.cli.deck", {"bingo_hall.variants", "bingo_hall.money"}) == []
    assert violations("bingo_hall.app", {"companions.web.replays", "bingo_hall.station"}) == []


def test_families_import_downwards():
    assert (
        violations(
            "bingo_hall.audit.replay", {"bingo_hall.money.ledger", "bingo_hall.seventyfive.claims"}
        )
        == []
    )
    assert violations("bingo_hall.money.program", {"bingo_hall.variants"}) == []
    assert (
        violations(
            "bingo_hall.variants", {"bingo_hall.ninety.tickets", "bingo_hall.seventyfive.cards"}
        )
        == []
    )
    assert violations("bingo_hall.ninety.strips", {"bingo_hall.rng", "bingo_hall.errors"}) == []


def test_the_check_sees_imports_made_through_importlib():
    source = (
        "import importlib\n"
        'COMMANDS = {"deck": "bingo_hall.cli.deck:deck"}\n'
        'NOTE = "not a module: bingo hall"\n'
        "def load(name):\n"
        '    return importlib.import_module(f"companions.web.{name}")\n'
    )
    found = imports_of(source, "bingo_hall.seventyfive.claims", False)
    assert {"bingo_hall.cli.deck", "companions.web"} <= found
    assert "not a module: bingo hall" not in found
    assert any("(command line)" in v for v in violations("bingo_hall.seventyfive.claims", found))
    # without import_module, strings are only strings
    assert imports_of('X = "companions.web.views"\n', "companions.rummy", False) == set()


#: the decorators that make a function a route (Flask's blueprint and app methods)
ROUTE_DECORATORS = {"route", "get", "post", "put", "patch", "delete"}


def handles_requests(tree: ast.Module) -> bool:
    """The module answers requests: it defines a route or reads Flask's `request`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "flask":
            if any(alias.name == "request" for alias in node.names):
                return True
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                call = deco.func if isinstance(deco, ast.Call) else deco
                if isinstance(call, ast.Attribute) and call.attr in ROUTE_DECORATORS:
                    return True
    return False


def publish_calls(tree: ast.Module) -> list[str]:
    """Every call of something named publish (`games.publish(...)`, `hub.publish(...)`)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name.lstrip("_").startswith("publish"):
                found.append(f"line {node.lineno}: {ast.unparse(node.func)}")
    return found


@pytest.mark.parametrize("path", list(source_modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_routes_do_not_publish_events(path: Path):
    """Events have one owner: the service that commits the change publishes it, under the write
    lock (docs/dev/architecture.md, "Live events"); a module that answers requests never does."""
    tree = parsed(path)
    if handles_requests(tree):
        assert publish_calls(tree) == []


def test_the_check_catches_a_route_that_publishes():
    route = ast.parse(
        "from flask import jsonify\n"
        "@bp.post('/x')\n"
        "def x():\n"
        "    games.publish(made)\n"
        "    return jsonify(made)\n"
    )
    helper = ast.parse("from flask import request\ndef _tell(hub):\n    _publish(hub)\n")
    service = ast.parse("def draw(conn):\n    publish(CallMade(1, done))\n")
    assert handles_requests(route) and publish_calls(route) == ["line 4: games.publish"]
    assert handles_requests(helper) and publish_calls(helper) == ["line 3: _publish"]
    assert not handles_requests(service)


# --- a game's rules come from its record, not the running app ---------------------------------

#: the commands that read decks, programs, nights and books with no station running: the
#: functions they run must never read the running app (tests/app_reach.py says how it is seen)
OFFLINE_COMMANDS = (
    "bingo_hall.cli.deck",
    "bingo_hall.cli.book",
    "bingo_hall.cli.program",
    "bingo_hall.cli.linked",
    "bingo_hall.printing.cli",
    "bingo_hall.station.ledger.cli",
)


def _commands_of(module: app_reach.Module) -> list[str]:
    """The functions of a command module that click runs (decorated `@x.command(...)`)."""
    return [
        name
        for name, fn in module.functions.items()
        if any("command" in ast.unparse(d) or "group" in ast.unparse(d) for d in fn.decorator_list)
    ]


@pytest.fixture(scope="module")
def kit_modules() -> dict[str, app_reach.Module]:
    return app_reach.load(ROOT, PACKAGES)


@pytest.mark.parametrize("module", OFFLINE_COMMANDS)
def test_a_command_never_reads_the_running_app_for_a_games_rules(kit_modules, module):
    commands = _commands_of(kit_modules[module])
    assert commands, f"{module} has no command"
    reached = [
        " -> ".join(path)
        for name in commands
        for path in app_reach.app_reads(kit_modules, (module, name))
    ]
    assert reached == [], "\n".join(reached)


def test_the_reach_check_finds_a_rule_that_asks_the_running_app():
    """The form the treasurer's summary crashed on: a command's function calls a service that
    asks a variant object for its plans, and the variant's method reads the station's state."""
    kit = {
        "kit.cmd": app_reach.parse(
            "kit.cmd", "from .rules import plan_of\ndef run(g):\n    return plan_of(g)\n"
        ),
        "kit.rules": app_reach.parse(
            "kit.rules",
            "from .state import station_state\n"
            "class Strips:\n    def plans(self):\n        return station_state().lists\n"
            "def plan_of(game):\n    return KIND.plans()\n",
        ),
        "kit.state": app_reach.parse("kit.state", "def station_state():\n    pass\n"),
    }
    found = app_reach.app_reads(kit, ("kit.cmd", "run"))
    assert found and found[0][-1].startswith("kit.rules:plans"), found
    kit["kit.rules"] = app_reach.parse(
        "kit.rules",
        "class Strips:\n    def plans(self, extra):\n        return extra\n"
        "def plan_of(game):\n    return KIND.plans(game.recorded)\n"
        "def write(conn):\n    from .web import hall\n    with hall().write_lock:\n        pass\n",
    )
    assert app_reach.app_reads(kit, ("kit.cmd", "run")) == []


# --- no import circle, at any level -------------------------------------------------------------

#: the circles of the serving stack (bingo_hall/web/), whose modules the "Raspberry Pi" work
#: reorganises: the only ones allowed, until that branch is merged and this list is emptied
WEB_CIRCLES_UNTIL_SERVE_MERGES: list[set[str]] = []


def import_edges(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of `known` that `module` imports, wherever the import stands (at the top, in a
    function, under `if TYPE_CHECKING:`: a circle a type checker follows is still a circle).

    `from pkg import name` is an arrow to the module `pkg.name` when there is one, and to `pkg`
    (its `__init__`) when `name` is something that `__init__` defines. Loading a submodule
    loads its parent packages first, whatever they import, so that alone is no arrow: a
    package's `__init__` that imports its own modules is the package's table of contents."""
    tree = ast.parse(source)
    found: set[str] = set()
    for target, names in import_statements(tree, module, is_package):
        found.update(target if f"{target}.{n}" not in known else f"{target}.{n}" for n in names)
        if not names:  # `import x`
            found.add(target)
    found |= dynamic_imports(tree)
    return {m for m in found if m in known and m != module}


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, with an
    explicit stack: the graph has hundreds of modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in source_modules()}
    known = set(paths)
    return {
        module: import_edges(path.read_text(), module, path.name == "__init__.py", known)
        for module, path in paths.items()
    }


def test_no_module_imports_itself_through_others():
    """No import circle among the modules of the kit: each module can be read (and loaded)
    after the ones it uses. Only the serving stack's, listed above, are waited for."""
    found = [c for c in circles(import_graph()) if c not in WEB_CIRCLES_UNTIL_SERVE_MERGES]
    assert found == [], "\n".join(" <-> ".join(sorted(c)) for c in found)


def test_every_allowed_circle_is_still_there():
    """An allowance for a circle that is gone would let a new one through: remove it."""
    found = circles(import_graph())
    assert [c for c in WEB_CIRCLES_UNTIL_SERVE_MERGES if c not in found] == []


def test_the_circle_check_sees_type_checking_imports_and_names_from_a_package():
    known = {"kit", "kit.a", "kit.b", "kit.c", "kit.d"}
    sources = {
        # a circle through an import made only for the type checker
        "kit.a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
        "kit.b": "from kit.a import A\n",
        # the package's __init__ imports its module, which takes a name the __init__ defines
        "kit": "from . import c\nbp = 1\n",
        "kit.c": "from . import bp\n",
        # a sibling taken through the package is an arrow to the sibling, not to the package
        "kit.d": "from . import c\ndef late():\n    import kit.a\n",
    }
    graph = {m: import_edges(s, m, m == "kit", known) for m, s in sources.items()}
    assert graph["kit.d"] == {"kit.c", "kit.a"}
    assert sorted(sorted(c) for c in circles(graph)) == [["kit", "kit.c"], ["kit.a", "kit.b"]]
    graph["kit.c"] = set()
    graph["kit.a"] = set()
    assert circles(graph) == []
