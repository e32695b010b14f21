"""The games the companions shell knows. Each game's web package exports `KIND`
(see docs/dev/companion-games.md)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: the game packages, in the order the "new table" page lists them
GAME_PACKAGES = (
    "companions.web.burako",
    "companions.web.rummy",
    "companions.web.qwinto",
    "companions.web.domino",
    "companions.web.clue",
)


@dataclass(frozen=True)
class GameKind:
    name: str
    title: dict[str, str]
    min_players: int
    max_players: int
    replay: Callable[[dict, list[str], list[dict]], dict]
    template: str
    teams: bool = False
    default_settings: dict[str, Any] = field(default_factory=dict)


def load_kinds() -> dict[str, GameKind]:
    """Import every game package that exists (games are added one issue at a time)."""
    kinds: dict[str, GameKind] = {}
    for module_name in GAME_PACKAGES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        kinds[module.KIND.name] = module.KIND
    return kinds
