"""The game packages the companions shell hosts, loaded by name: each imports `GameKind` from
`registry`, so the list lives here and not beside it (no import circle)."""

from __future__ import annotations

import importlib

from companions.web.registry import GameKind

#: the game packages, in the order the "new table" page lists them
GAME_PACKAGES = (
    "companions.web.burako",
    "companions.web.rummy",
    "companions.web.qwinto",
    "companions.web.domino",
    "companions.web.clue",
)


def load_kinds() -> dict[str, GameKind]:
    """Import every game package; one that is missing stops the start-up (ImportError)."""
    kinds: dict[str, GameKind] = {}
    for module_name in GAME_PACKAGES:
        kind = importlib.import_module(module_name).KIND
        kinds[kind.name] = kind
    return kinds
