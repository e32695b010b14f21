"""The import direction of docs/dev/architecture.md, checked on the source: pure rules <- adapters
<- web core <- areas <- the app factory <- command-line modules. An import that runs the wrong
way, an area importing another area, or a pure module importing I/O fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bingo_hall", "companions", "firmware_bridge")

PURE, ADAPTER, CORE, AREA, FACTORY, ENTRY = range(6)
LAYER_NAMES = ["pure rules", "adapter", "web core", "web area", "app factory", "command line"]

#: most specific first: (module prefix, layer, area name or None)
LAYERS = [
    ("bingo_hall.__main__", ENTRY, None),
    ("bingo_hall.cli", ENTRY, None),
    ("bingo_hall.deck_cli", ENTRY, None),
    ("bingo_hall.book_cli", ENTRY, None),
    ("bingo_hall.program_cli", ENTRY, None),
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
    ("bingo_hall.netaddr", ADAPTER, None),
    ("bingo_hall.printed", ADAPTER, None),
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


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool) -> set[str]:
    """Every module a source imports, relative imports resolved."""
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def violations(module: str, imported: set[str]) -> list[str]:
    """Why each import of `module` runs the wrong way (empty when all is well)."""
    layer, area = layer_of(module)
    out = []
    for target in sorted(imported):
        top = target.split(".")[0]
        if layer == PURE and top in IO_MODULES:
            out.append(f"{module} is pure rules but imports {target}")
        if top not in PACKAGES:
            continue
        try:
            their_layer, their_area = layer_of(target)
        except KeyError:
            continue
        if their_layer > layer:
            out.append(
                f"{module} ({LAYER_NAMES[layer]}) imports {target} ({LAYER_NAMES[their_layer]})"
            )
        elif layer == their_layer == AREA and area != their_area:
            if their_area not in AREA_USES[area]:
                out.append(f"the {area} area imports the {their_area} area ({target})")
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


@pytest.mark.parametrize(
    ("module", "imported", "why"),
    [
        ("bingo_hall.web.db", {"bingo_hall.station.games"}, "web core"),
        ("bingo_hall.claims", {"flask"}, "pure rules but imports flask"),
        ("companions.web.views", {"bingo_hall.station.db"}, "companions area imports the station"),
        ("bingo_hall.station.api", {"firmware_bridge.embedded"}, "station area imports the bridge"),
        ("bingo_hall.cards", {"bingo_hall.printing.deck_pdf"}, "(adapter)"),
    ],
)
def test_the_check_catches_an_arrow_the_wrong_way(module, imported, why):
    assert any(why in v for v in violations(module, imported))


def test_the_bridge_may_drive_the_station_and_the_cli_may_use_everything():
    assert violations("firmware_bridge.embedded", {"bingo_hall.station.games"}) == []
    assert violations("bingo_hall.station.cli", {"bingo_hall.app", "bingo_hall.printing"}) == []


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
    tree = ast.parse(path.read_text())
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
