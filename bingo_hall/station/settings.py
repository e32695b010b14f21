"""The claims settings of a game (target, pattern, hall rules): which keys there are and what
values they take. One check serves both ways in: the options given when a game is created
(`games.start_game`) and the settings the Maestro changes later (`verify.store.update_settings`),
so a game can never be stored with options its card pages, scores and record would refuse.
"""

from __future__ import annotations

from typing import Any

from ..errors import KitError
from ..seventyfive import claims as rules
from ..seventyfive.patterns import pattern_from_spec
from ..web.errors import RequestError

SETTING_KEYS = ("target", "pattern", "mask", "completing_call_only", "winner_becomes_maestro")
JUDGING_KEYS = ("pattern", "mask", "completing_call_only")  # fixed once a round has calls
FLAGS = ("completing_call_only", "winner_becomes_maestro")


def check_keys(data: dict[str, Any], also: tuple[str, ...] = ()) -> None:
    """Refuse a key that is not a setting (`also`: the other keys this request may carry)."""
    unknown = sorted(set(data) - set(SETTING_KEYS) - set(also))
    if unknown:
        raise RequestError(
            "unknown setting %(key)s; use %(keys)s", key=unknown[0], keys=", ".join(SETTING_KEYS)
        )


def _refused(key: str, exc: KitError) -> RequestError:
    """The pure module's problem inside the setting's message: both are translated when the
    answer is written, in the reader's language (a KitError parameter is, `KitError.text`)."""
    return RequestError("the setting %(key)s: %(problem)s", key=key, problem=exc)


def rules_from(mode: str, free_centre: bool, settings: dict[str, Any]) -> rules.Rules:
    """Validate a settings dict by building the Rules it describes; the error names the key.
    Bingo de Puntos plays lines only, so a pattern there is refused rather than ignored."""
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
        return rules.Rules(
            mode=mode,
            free_centre=free_centre,
            completing_call_only=settings.get("completing_call_only") is True,
            winner_becomes_maestro=settings.get("winner_becomes_maestro") is True,
            target=settings.get("target", rules.DEFAULT_TARGET),
            pattern=pattern,
        )
    except KitError as exc:
        raise _refused("target", exc) from None
