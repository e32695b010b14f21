"""Reading the "new table" form (or its JSON twin) into a `NewTable`: players or teams, the
game's settings typed like their defaults, and a private notebook's PIN. Pure: the request's data
in, a value or per-field messages out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from werkzeug.datastructures import MultiDict

from companions.web.registry import GameKind

MAX_NAME = 24


def N_(message: str) -> str:
    """Marks a message for the catalog; it is translated where it is shown."""
    return message


#: what is wrong with one field: an English message, or the message and its %(name)s parameters
Problem = str | tuple[str, Mapping[str, str | int]]


class SetupErrors(ValueError):
    """Messages (English, translated by the page) keyed by form field."""

    def __init__(self, errors: Mapping[str, Problem]) -> None:
        super().__init__("; ".join(errors))
        #: field -> its problem
        self.errors = dict(errors)

    def texts(self, translate: Callable[[str], str] = lambda s: s) -> dict[str, str]:
        out = {}
        for field, value in self.errors.items():
            message, params = value if isinstance(value, tuple) else (value, {})
            out[field] = translate(message) % params if params else translate(message)
        return out


def read_players(
    kind: GameKind, names: list[str] | None, teams: list[list[str]] | None
) -> tuple[list[str], list[list[str]]]:
    """-> (the engine's players, the members of each team). Blank fields are skipped."""
    errors: dict[str, Problem] = {}
    if not _names_list(names) or not (
        teams is None or (isinstance(teams, list) and all(_names_list(g) for g in teams))
    ):
        raise SetupErrors({"team0" if kind.teams else "player": N_("Type the names as text")})
    if kind.teams and len([g for g in teams or [] if any(str(n).strip() for n in g or [])]) > (
        kind.team_count
    ):
        raise SetupErrors({"team0": (N_("This game takes %(n)s teams"), {"n": kind.team_count})})
    if kind.teams:
        groups = [[n.strip() for n in (g or []) if n.strip()] for g in (teams or [])]
        groups += [[] for _ in range(kind.team_count - len(groups))]
        groups = groups[: kind.team_count]
        people = [n for g in groups for n in g]
        for i, group in enumerate(groups):
            if not group:
                errors[f"team{i}"] = N_("Each team needs at least one name")
            elif len(group) > kind.team_size:
                errors[f"team{i}"] = N_("Too many names in this team")
        if not errors and len({len(g) for g in groups}) > 1:
            errors["team1"] = N_("Both teams need the same number of players")
        sides = [" & ".join(g) for g in groups]
    else:
        people = [n.strip() for n in (names or []) if n.strip()]
        groups = []
        sides = people
    field = "team0" if kind.teams else "player"
    if not errors:
        if len(people) < kind.min_players:
            errors[field] = (N_("This game needs at least %(n)s players"), {"n": kind.min_players})
        elif len(people) > kind.max_players:
            errors[field] = (N_("This game takes at most %(n)s players"), {"n": kind.max_players})
        elif any(len(n) > MAX_NAME for n in people):
            errors[field] = N_("Names can be at most 24 characters")
        elif len({n.casefold() for n in people}) != len(people):
            errors[field] = N_("Two players have the same name")
    if errors:
        raise SetupErrors(errors)
    return sides, groups


def _names_list(value: Any) -> bool:
    return value is None or (isinstance(value, list) and all(isinstance(n, str) for n in value))


#: a game's setting: a yes/no, a number, a text or one of its choices
Setting = bool | int | str | None


class _Refused(ValueError):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self.problem = problem


def read_setting(kind: GameKind, key: str, raw: object, *, from_form: bool) -> Setting:
    """One of the game's settings as given (None: not given), coerced to the type of its
    default; _Refused says what is wrong with it."""
    default: Setting = kind.default_settings[key]
    if key in kind.setting_choices:
        choices = kind.setting_choices[key]
        if raw is None or raw == "":
            return default
        chosen: list[Setting] = [v for v in choices if str(v) == str(raw).strip().lower()]
        if chosen and not isinstance(raw, bool):
            return chosen[0]
        shown = ", ".join(str(v) for v in choices)
        raise _Refused(
            (
                N_("%(value)s is not one of the choices: %(choices)s"),
                {"value": str(raw)[:40], "choices": shown},
            )
        )
    if isinstance(default, bool):
        if from_form:
            return raw not in (None, "", "0", "off", "false")
        if raw is None or isinstance(raw, bool):
            return default if raw is None else raw
        raise _Refused(N_("Choose yes or no"))
    if isinstance(default, int):
        if raw is None or raw == "":
            return default
        text = str(raw).strip()
        if isinstance(raw, bool) or not (text.isascii() and text.isdigit()):
            raise _Refused(N_("Type a whole number"))
        if len(text) > 7 or not 0 < int(text) <= 1_000_000:
            raise _Refused(N_("Type a number between 1 and 1000000"))
        return int(text)
    if isinstance(default, str):
        return default if raw is None else str(raw)[:200]
    if raw is None or from_form or not isinstance(raw, bool | int | str):
        return default
    return raw


@dataclass(frozen=True)
class NewTable:
    """The "new table" form, read: the engine's players (the teams' names in a game played in
    teams), the members of each team, the game's settings typed like their defaults, and a
    private notebook's PIN (None: none)."""

    players: tuple[str, ...]
    members: tuple[tuple[str, ...], ...]
    settings: Mapping[str, Setting]
    pin: str | None

    @classmethod
    def from_form(cls, kind: GameKind, form: MultiDict[str, str]) -> NewTable:
        """The HTML form: `player` (repeated) or `team0`, `team1`... (repeated), `setting.<key>`
        and `pin`."""
        given = {
            "players": form.getlist("player"),
            "teams": [form.getlist(f"team{i}") for i in range(kind.team_count)],
            "settings": {k[8:]: v for k, v in form.items() if k.startswith("setting.")},
            "pin": form.get("pin"),
        }
        return cls.from_json(kind, given, from_form=True)

    @classmethod
    def from_json(
        cls, kind: GameKind, data: Mapping[str, Any], *, from_form: bool = False
    ) -> NewTable:
        """`{"players": [...], "teams": [[...], ...], "settings": {...}, "pin": "1234"}`, from
        a JSON body or gathered from the form (`from_form`: a ticked box is "on", an unticked
        one absent). Raises SetupErrors naming each field that is wrong."""
        sides, members = read_players(kind, data.get("players"), data.get("teams"))
        given = data.get("settings") or {}
        if not isinstance(given, dict):
            raise SetupErrors({"settings": N_("Settings must be an object")})
        settings: dict[str, Setting] = {}
        errors: dict[str, Problem] = {}
        for key in kind.default_settings:
            try:
                settings[key] = read_setting(kind, key, given.get(key), from_form=from_form)
            except _Refused as refused:
                errors[f"setting.{key}"] = refused.problem
        if errors:
            raise SetupErrors(errors)
        pin = read_pin(kind, data.get("pin"))
        return cls(tuple(sides), tuple(map(tuple, members)), settings, pin)


PIN_DIGITS = 4


def read_pin(kind: GameKind, raw: Any) -> str | None:
    """A private notebook's optional PIN: blank for none, else exactly 4 ASCII digits."""
    if not kind.private or raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    text = raw.strip() if isinstance(raw, str) else ""
    if len(text) != PIN_DIGITS or not (text.isascii() and text.isdigit()):
        raise SetupErrors({"pin": N_("The PIN is 4 digits, or leave it blank")})
    return text
