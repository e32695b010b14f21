"""The claims settings of a game (target, pattern, hall rules): which keys there are and what
values they take. One check serves both ways in: the options given when a game is created
(`games.start_game`) and the settings the Maestro changes later (`verify.store.update_settings`),
so a game can never be stored with options its card pages, scores and record would refuse.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..errors import KitError
from ..seventyfive import claims as rules
from ..seventyfive.patterns import pattern_from_spec
from ..seventyfive.specials import SPECIAL_KEYS, Specials, SpecialSettingError
from ..web.errors import RequestError

SETTING_KEYS = (
    "target",
    "pattern",
    "mask",
    "completing_call_only",
    "winner_becomes_maestro",
    "pattern_names",
    *SPECIAL_KEYS,
)
#: fixed once a round has calls
JUDGING_KEYS = ("pattern", "mask", "completing_call_only")
FLAGS = ("completing_call_only", "winner_becomes_maestro")


def check_keys(keys: Collection[str], also: tuple[str, ...] = (), updating: bool = False) -> None:
    """Refuse a key that is not a setting (`also`: the other keys this request may carry).
    `updating`: the Maestro changes a game's settings, where the special games are not among
    them: they are the game's own, chosen with it (the New game form, the program), so the
    door, the screens and the phones read them from the game alone."""
    if updating:
        special = sorted(set(keys) & set(SPECIAL_KEYS))
        if special:
            raise RequestError(
                "the setting %(key)s is chosen with the new game (the New game form or the "
                "program); the money ball has its own button before the first ball",
                key=special[0],
            )
    unknown = sorted(set(keys) - set(SETTING_KEYS) - set(also))
    if unknown:
        raise RequestError(
            "unknown setting %(key)s; use %(keys)s", key=unknown[0], keys=", ".join(SETTING_KEYS)
        )


def _refused(key: str, exc: KitError) -> RequestError:
    """The pure module's problem inside the setting's message: both are translated when the
    answer is written, in the reader's language (a KitError parameter is, `KitError.text`)."""
    return RequestError("the setting %(key)s: %(problem)s", key=key, problem=exc)


#: a name of a program's own pattern is at most this long (a program's game name is 40)
MAX_PATTERN_NAME = 60


def pattern_names_of(found: object) -> dict[str, dict[str, str]]:
    """The names of a program's own patterns a game carries (the value of its `pattern_names`
    setting: {key: {"en": ..., "es": ...}}), for the screens and the room's announcement; {} for
    none."""
    return dict(found) if isinstance(found, dict) else {}


def _check_pattern_names(value: Any) -> None:
    ok = isinstance(value, dict) and all(
        isinstance(key, str)
        and isinstance(names, dict)
        and set(names) <= {"en", "es"}
        and all(isinstance(n, str) and 0 < len(n) <= MAX_PATTERN_NAME for n in names.values())
        for key, names in value.items()
    )
    if not ok:
        raise RequestError(
            "pattern_names: each pattern's key with its en and es names, %(n)s characters at most",
            n=MAX_PATTERN_NAME,
        )


def rules_from(mode: str, free_centre: bool, settings: dict[str, Any]) -> rules.Rules:
    """Validate a settings dict by building the Rules it describes; the error names the key.
    Bingo de Puntos plays lines only, so a pattern there is refused rather than ignored."""
    if "pattern_names" in settings:
        _check_pattern_names(settings["pattern_names"])
    for key in FLAGS:
        if key in settings and not isinstance(settings[key], bool):
            raise RequestError("%(key)s must be true or false", key=key)
    mode = rules.PUNTOS if mode == rules.PUNTOS else rules.NORMAL
    pattern = None
    if mode == rules.PUNTOS:
        if settings.get("pattern") not in (None, "", "lines"):
            raise _refused("pattern", KitError("patterns are played in Bingo Normal only"))
    else:
        try:
            pattern = pattern_from_spec(settings.get("pattern"), settings.get("mask"))
        except KitError as exc:
            key = "mask" if settings.get("pattern") == "custom" else "pattern"
            raise _refused(key, exc) from None
    try:
        special = Specials.from_json(settings)
    except SpecialSettingError as exc:
        raise _refused(exc.key, exc.problem) from None
    if mode == rules.PUNTOS and special.judged:
        raise _refused(
            "pattern", KitError("special games are played in Bingo Normal only")
        ) from None
    if special.odd_even is not None and pattern is not None:
        raise _refused(
            "odd_even", KitError("an odd-even game is its own figure: it takes no pattern")
        )
    try:
        return rules.Rules(
            mode=mode,
            free_centre=free_centre,
            completing_call_only=settings.get("completing_call_only") is True,
            winner_becomes_maestro=settings.get("winner_becomes_maestro") is True,
            target=settings.get("target", rules.DEFAULT_TARGET),
            pattern=pattern,
            wild_number=special.wild_number,
            odd_even=special.odd_even,
            money_ball=special.money_ball,
            cards_needed=special.cards_needed,
        )
    except KitError as exc:
        raise _refused("target", exc) from None
