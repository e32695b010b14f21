"""What a person reads for a prize's or a pattern's key: its name in their language.

A prize is kept by its key ("early-five", "top-line", "ambo") in the record, the ledger and the
API; a page, a summary, a printed program or a command's line shows its name instead. The names
are the prize lists' own data (`ninety.prize_rules.BUILT_IN`, a host's list's names where the
caller has its plan); this module gathers the kit's, with the 75-ball game's bingo and patterns,
so that a screen that only has a key (a ledger row, a payout) still names it. Pure: no Flask.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from .ninety.prize_rules import BUILT_IN
from .seventyfive.pattern_book import kit_book

#: the 75-ball game's prize, its line play and drawn pattern, in both languages (the book's
#: patterns bring their own names)
_SEVENTY_FIVE: dict[str, dict[str, str]] = {
    "bingo": {"en": "Bingo", "es": "Bingo"},
    "lines": {"en": "Any line", "es": "Cualquier hilera"},
    "custom": {"en": "Own pattern", "es": "Figura propia"},
    "points": {"en": "Bingo de Puntos", "es": "Bingo de Puntos"},
    # an odd-even game's figure (bingo_hall.seventyfive.specials)
    "odd_numbers": {"en": "Odd numbers", "es": "Impares"},
    "even_numbers": {"en": "Even numbers", "es": "Pares"},
}


@cache
def known_names() -> Mapping[str, Mapping[str, str]]:
    """Every prize and pattern key the kit knows, with its names: {"top-line": {"en": "Top
    Line", "es": "Línea de arriba"}, ...}. A key two lists share ("full-house") has one name."""
    found: dict[str, Mapping[str, str]] = dict(_SEVENTY_FIVE)
    for entry in kit_book():
        found.setdefault(entry.key, entry.names)
    for prize_list in BUILT_IN.values():
        for prize in prize_list.prizes:
            found.setdefault(prize.key, dict(prize.names))
    return found


def prize_name(key: str, lang: str, names: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """The name of the prize or pattern `key` in `lang`: from `names` (a plan's, a host's list
    included) if it has the key, else the kit's; the key itself only for one nobody named."""
    named = (names or {}).get(key) or known_names().get(key)
    if not named:
        return key
    return named.get(lang) or named.get("en") or key
