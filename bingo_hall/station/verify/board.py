"""The round's prizes as the screens list them (`PrizeBoard`): a value of its own, which the
judged claim carries and `prizes` builds, so that neither of those modules imports the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...values import JsonValue


@dataclass(frozen=True)
class PrizeBoard(JsonValue):
    """The round's prizes as the screens list them: the plan (its prizes, their names, in
    sequence or open at once), each prize awarded and who won it, which are open now, what a new
    round opens, the prize being played, and whether the round is finished."""

    mode: str
    order: str
    sequence: tuple[str, ...]
    names: dict[str, dict[str, str]]
    plan_names: dict[str, str]
    tabellone: bool  # the display draws the Italian tabellone
    awarded: list[dict[str, Any]]  # `awarded()`: {"prize", "at_call", "at", "winners"}
    open: tuple[str, ...]
    first_open: tuple[str, ...]
    current: str | None
    finished: bool
