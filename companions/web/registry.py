"""What a game the companions shell knows is (`GameKind`): each game's web package exports its
`KIND` (see docs/dev/companion-games.md); `companions.web.games` lists and loads them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bingo_hall.values import JsonValue

S = TypeVar("S")
E = TypeVar("E")


@dataclass(frozen=True)
class Engine(Generic[S, E]):
    """A game's pure engine as the shell drives it, the same shape for every game: its settings
    and each of its entries are read from their stored JSON into the game's frozen values (their
    `from_json`, the JSON edge: a bad setting or entry is refused there or in the replay with an
    EntryError), and `replay` turns the settings, the players and the active entries in order
    into the table's view, a frozen value (`to_json()` at the route)."""

    settings: Callable[[Mapping[str, Any]], S]
    #: one stored entry: the JSON object a phone posted, with the entry's `id` and the `player`
    #: who sent it (the shell's, which replace any the phone put in the object)
    entry: Callable[[Mapping[str, Any]], E]
    replay: Callable[[S, Sequence[str], Sequence[E]], JsonValue]


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
    #: the game's rules: settings and entries in, the table's view out
    engine: Engine[Any, Any]
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
