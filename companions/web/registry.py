"""What a game the companions shell knows is (`GameKind`): each game's web package exports its
`KIND` (see docs/dev/companion-games.md); `companions.web.games` lists and loads them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bingo_hall.values import JsonValue


@dataclass(frozen=True)
class GameKind:
    """A game the shell can host.

    With `teams=True` the setup form asks for `team_count` teams of up to `team_size` names each
    (all teams the same size, e.g. Burako's 1 against 1 or 2 against 2), and the engine's
    `players` are the team names ("Ana & Beto"); `min_players`/`max_players` count people.
    """

    name: str
    title: dict[str, str]
    min_players: int
    max_players: int
    #: the table's view from its settings, players and entries: a frozen value (`to_json()`
    #: at the route)
    replay: Callable[[dict[str, Any], list[str], list[dict[str, Any]]], JsonValue]
    template: str
    teams: bool = False
    default_settings: dict[str, Any] = field(default_factory=dict)
    team_count: int = 2
    team_size: int = 2
    #: English labels for the setup form, per settings key (translated through the catalogs);
    #: a key without a label is shown as its name
    setting_labels: dict[str, str] = field(default_factory=dict)
    #: settings with a fixed set of values (the form shows a choice, not a text box), and the
    #: English words for each value (translated through the catalogs; default: the value)
    setting_choices: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    choice_labels: dict[str, str] = field(default_factory=dict)

    #: one person's private notes (the Clue notebook): the setup offers an optional PIN
    private: bool = False
    #: what the setup form says under the players' names, in English (translated through the
    #: catalogs), where their order matters: "" says nothing
    players_hint: str = ""
