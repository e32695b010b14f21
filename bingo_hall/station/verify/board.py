"""The round's prizes as the screens list them (`PrizeBoard`) and each prize awarded in it
(`AwardedPrize`): values of their own, which the judged claim carries and `prizes` builds, so that
neither of those modules imports the other."""

from __future__ import annotations

from dataclasses import dataclass

from ...values import JsonValue


@dataclass(frozen=True)
class PrizeWinner(JsonValue):
    """A winner of a prize: the claim that won it, its card or ticket, the player's name."""

    claim_id: int
    serial: int
    player: str | None


@dataclass(frozen=True)
class AwardedPrize(JsonValue):
    """A prize awarded in a round, in one shape for every variant (what a ledger pays): which
    prize, on which call, when, and who shares it."""

    prize: str
    at_call: int
    at: str
    winners: tuple[PrizeWinner, ...]


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
    awarded: tuple[AwardedPrize, ...]  # in the order won
    open: tuple[str, ...]
    first_open: tuple[str, ...]
    current: str | None
    finished: bool
