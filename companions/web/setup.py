"""Reading the "new table" form (or its JSON twin): players or teams, and the game's settings
typed like their defaults. Pure: dicts in, values or per-field messages out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companions.web.registry import GameKind

MAX_NAME = 24


def N_(message: str) -> str:
    """Marks a message for the catalog; it is translated where it is shown."""
    return message


class SetupErrors(ValueError):
    """Messages (English, translated by the page) keyed by form field."""

    def __init__(self, errors: dict[str, Any]) -> None:
        super().__init__("; ".join(errors))
        #: field -> message, or (message, params) for messages with %(name)s placeholders
        self.errors = errors

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
    errors: dict[str, Any] = {}
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


def read_settings(kind: GameKind, given: dict[str, Any], *, from_form: bool) -> dict[str, Setting]:
    """The game's settings, each coerced to the type of its default."""
    settings: dict[str, Setting] = {}
    errors: dict[str, Any] = {}
    for key, default in kind.default_settings.items():
        field = f"setting.{key}"
        raw = given.get(key, None)
        if key in kind.setting_choices:
            choices = kind.setting_choices[key]
            if raw is None or raw == "":
                settings[key] = default
                continue
            chosen = [v for v in choices if str(v) == str(raw).strip().lower()]
            if chosen and not isinstance(raw, bool):
                settings[key] = chosen[0]
            else:
                shown = ", ".join(str(v) for v in choices)
                errors[field] = (
                    N_("%(value)s is not one of the choices: %(choices)s"),
                    {"value": str(raw)[:40], "choices": shown},
                )
        elif isinstance(default, bool):
            if from_form:
                settings[key] = raw not in (None, "", "0", "off", "false")
            elif raw is None or isinstance(raw, bool):
                settings[key] = default if raw is None else raw
            else:
                errors[field] = N_("Choose yes or no")
        elif isinstance(default, int):
            if raw is None or raw == "":
                settings[key] = default
                continue
            text = str(raw).strip()
            if isinstance(raw, bool) or not (text.isascii() and text.isdigit()):
                errors[field] = N_("Type a whole number")
            elif len(text) > 7 or not 0 < int(text) <= 1_000_000:
                errors[field] = N_("Type a number between 1 and 1000000")
            else:
                settings[key] = int(text)
        elif isinstance(default, str):
            settings[key] = default if raw is None else str(raw)[:200]
        else:
            settings[key] = default if (raw is None or from_form) else raw
    if errors:
        raise SetupErrors(errors)
    return settings


PIN_DIGITS = 4


def read_pin(kind: GameKind, raw: Any) -> str | None:
    """A private notebook's optional PIN: blank for none, else exactly 4 ASCII digits."""
    if not kind.private or raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    text = raw.strip() if isinstance(raw, str) else ""
    if len(text) != PIN_DIGITS or not (text.isascii() and text.isdigit()):
        raise SetupErrors({"pin": N_("The PIN is 4 digits, or leave it blank")})
    return text
