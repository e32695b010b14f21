"""mypy --strict is the default: pyproject's [tool.mypy] turns every strict flag on at the top
level, and only the web edge (modules that register routes, or serve ASGI) may be set back to
mypy's default mode, each named with its reason. The firmware (MicroPython, which has no typing
module) is not checked at all.

mypy itself checks the code (`make check`); this checks the configuration, so that the list of
exceptions cannot grow with modules that are not the web edge.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONFIG: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "tool"
]["mypy"]

#: what `mypy --strict` turns on (mypy 1.x), module by module
STRICT_FLAGS = (
    "disallow_any_generics",
    "disallow_subclassing_any",
    "disallow_untyped_calls",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "check_untyped_defs",
    "disallow_untyped_decorators",
    "warn_return_any",
    "no_implicit_reexport",
    "strict_equality",
    "extra_checks",
    "warn_unused_ignores",
    "warn_redundant_casts",
)

#: strict modules (179 of 193 once the station's API, the claims' routes and the companions'
#: routes were typed); only goes up
STRICT_AT_LEAST = 179

#: a route (Flask) or an ASGI server: what makes a module the web edge
WEB_EDGE = re.compile(
    r"@(?:bp|app)\.(?:route|get|post|put|delete)\(|\.add_url_rule\(|\bscope\b|\bEventStream\b"
)


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for area in CONFIG["files"]:
        for path in sorted((ROOT / area).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def matches(module: str, patterns: list[str]) -> bool:
    return any(
        fnmatch.fnmatchcase(module, p) or (p.endswith(".*") and module == p[:-2]) for p in patterns
    )


def flags(module: str) -> dict[str, Any]:
    """The options mypy runs `module` with: the top level, then every override that names it."""
    out = {k: v for k, v in CONFIG.items() if not isinstance(v, (list, dict))}
    for override in CONFIG.get("overrides", []):
        names = override["module"]
        if matches(module, [names] if isinstance(names, str) else list(names)):
            out.update(override)
    return out


def is_strict(module: str) -> bool:
    options = flags(module)
    return not options.get("ignore_errors") and all(options.get(f) for f in STRICT_FLAGS)


def test_every_strict_flag_is_on_at_the_top_level():
    assert [f for f in STRICT_FLAGS if CONFIG.get(f) is not True] == []


def test_only_the_web_edge_stays_at_the_default_mode():
    loose = {
        m: path
        for m, path in modules().items()
        if not is_strict(m) and not flags(m).get("ignore_errors")
    }
    not_web = sorted(
        m for m, path in loose.items() if not WEB_EDGE.search(path.read_text(encoding="utf-8"))
    )
    assert not_web == [], f"not the web edge, yet not under --strict: {not_web}"


def test_only_the_micropython_firmware_is_left_unchecked():
    unchecked = sorted(m for m in modules() if flags(m).get("ignore_errors"))
    assert unchecked and all(m.startswith("firmware_bridge.firmware") for m in unchecked)


def test_the_count_of_strict_modules_only_goes_up():
    strict = [m for m in modules() if is_strict(m)]
    assert len(strict) >= STRICT_AT_LEAST, f"{len(strict)} of {len(modules())} under --strict"


def test_the_strictness_reading_tells_a_loose_override_apart():
    """The reading the tests above rely on: a module no override names gets the top level; one
    that an override sets back (or ignores) is not strict; `a.*` names `a` and what is below."""
    assert is_strict("bingo_hall.seventyfive.cards")
    assert not is_strict("bingo_hall.station.caller")
    assert not is_strict("firmware_bridge.firmware.main")
    assert matches("a.b.c", ["a.b.*"]) and matches("a.b", ["a.b.*"])
    assert not matches("a.bc", ["a.b"]) and not matches("a.bc", ["a.b.*"])
