"""The station's part of each game variant (`bingo_hall.variants`): how a new game's request
becomes the variant's rules (its mode, free centre and prize plan), the Tabla Confrontadora the
screens draw, and which panels the caller page and the display include. The claims side of a
variant (judging, pages, storage) is `verify/variants.py`.

A game's variant is chosen once, from its `balls` (`variant_of`), or from its deck's manifest
when the game starts; nothing else in the station tests the number of balls. The Tabla's rows
are the variant's own (`Variant.board`); the station's part of each variant is `PLAY`, keyed by
the variant's class.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import KitError
from ..manifest import Deck
from ..ninety.prize_list_file import recorded_prize_list
from ..prize_plan import PrizePlan
from ..seventyfive.claims import Mode
from ..variants import CARDS, STRIPS, BoardRow, ByVariant, Cards75, Strips90, Variant
from ..web.errors import RequestError
from .model import Game
from .requests import NewGame


@dataclass(frozen=True)
class Chosen:
    """A new game's rules as its variant reads the request: the columns of `games`."""

    mode: Mode
    free_centre: bool
    plan: PrizePlan
    prizes: str | None  # the prize plan stored for a variant whose plan is not its mode
    prize_list: str | None = None  # a host's own list, recorded with the game (its TOML)


class PlayKind(ABC):
    """One variant as the station plays it."""

    variant: ClassVar[Variant[Any]]
    caller_panel: ClassVar[str]  # the claims panel of the caller page
    display_panel: ClassVar[str]  # the scores or prizes of the display
    board_class: ClassVar[str]  # the Tabla's CSS class

    @abstractmethod
    def choose(self, new: NewGame, deck: Deck[Any], extra: tuple[PrizePlan, ...] = ()) -> Chosen:
        """The rules a new game on `deck` plays, or a RequestError naming the field; `extra`: the
        host's own prize plans the station offers (`prize_lists.host_plans`)."""

    @property
    def board(self) -> tuple[BoardRow, ...]:
        """The Tabla Confrontadora, row by row: the variant's."""
        return self.variant.board

    def plans(self, extra: tuple[PrizePlan, ...] = ()) -> tuple[PrizePlan, ...]:
        """Every prize plan a game of this kind can play here, with `extra` (the host's own
        lists, where the variant plays them); the first is the default."""
        return self.variant.plans

    def plan(self, mode: str | None, extra: tuple[PrizePlan, ...] = ()) -> PrizePlan:
        """The plan named `mode` (None: the default); KitError for one not played here."""
        plans = self.plans(extra)
        return self.variant.plan(mode, plans[len(self.variant.plans) :])


class CardGame(PlayKind):
    """75 balls: Bingo Normal or Bingo de Puntos; FREE in the centre as the deck or the host
    says."""

    variant = CARDS
    caller_panel = "caller/_claims.html"
    display_panel = "display/_scores.html"
    board_class = "tabla"

    def choose(self, new: NewGame, deck: Deck[Any], extra: tuple[PrizePlan, ...] = ()) -> Chosen:
        if new.mode not in tuple(Mode):
            raise RequestError("mode must be 'normal' or 'points'")
        free = deck.free_centre if new.free_centre is None else new.free_centre
        if deck.free_centre and not free:
            raise RequestError(
                "this deck has FREE printed in the centre, so its games always play a free centre"
            )
        mode = Mode(new.mode)
        return Chosen(mode, free, self.variant.plan(str(mode)), None)


class StripGame(PlayKind):
    """90 balls: a prize plan (línea then bingo; one line, two lines, full house; Tambola, every
    prize open at once; or a host's own list from `prizes/*.toml`); no centre. The caller form
    sends the plan as `prizes`; the JSON API as `mode`, where "normal" (its default) is the
    Spanish plan."""

    variant = STRIPS
    caller_panel = "caller/_prizes.html"
    display_panel = "display/_prizes.html"
    board_class = "tabla tabla-90"

    def choose(self, new: NewGame, deck: Deck[Any], extra: tuple[PrizePlan, ...] = ()) -> Chosen:
        if new.mode == Mode.POINTS:  # even when the form sent a prize plan too
            raise RequestError(
                "Bingo de Puntos is played on 75-ball cards; %(deck)s is a deck of 90-ball "
                "tickets: play Line then Bingo, or one line, two lines, full house",
                deck=deck.name,
            )
        asked = new.prizes if new.prizes is not None else new.mode
        try:
            plan = self.plan(None if asked == "normal" else asked, extra)
        except KitError:
            raise RequestError(
                "a 90-ball game's mode is one of %(modes)s",
                modes=", ".join(repr(p.mode) for p in self.plans(extra)),
            ) from None
        if new.free_centre not in (None, False):
            raise RequestError(
                "a 90-ball ticket has no centre square, so it is played without a free centre"
            )
        own = plan.prize_list.text if plan.prize_list is not None else ""
        return Chosen(Mode.NORMAL, False, plan, plan.mode, own or None)

    def plans(self, extra: tuple[PrizePlan, ...] = ()) -> tuple[PrizePlan, ...]:
        """The kit's lists, then the host's own (read from `prizes/*.toml` at start-up)."""
        return (*self.variant.plans, *extra)


#: the station's part of each variant, by the variant's class
PLAY: ByVariant[PlayKind] = ByVariant(
    "station.variants.PLAY", {Cards75: CardGame(), Strips90: StripGame()}
)


def kind_of(variant: Variant[Any]) -> PlayKind:
    return PLAY[variant]


def variant_of(game: Game) -> Variant[Any]:
    """The variant a game plays, chosen once from its balls (its deck's manifest `game`)."""
    return game.variant


def game_kind(game: Game) -> PlayKind:
    return kind_of(variant_of(game))


def prize_plan(game: Game) -> PrizePlan:
    """The prizes a game plays, in order (or open at once), as its variant's data: what the
    screens list and a ledger pays. The plan comes from the game's own record, never from the
    running station: a host's list as the game recorded it, or the kit's plan named by the game's
    API `mode` (its prize plan in the 90-ball game, normal or points in the 75-ball game). So a
    command that reads a night (the ledger's summary, the book) needs no app."""
    if game.prize_list is not None:
        return PrizePlan.of(recorded_prize_list(game.prize_list))
    mode = str(game.prizes or game.mode)
    try:
        return game.variant.plan(mode)
    except KitError:  # a host's list, from a station that did not record the lists yet
        raise KitError(
            "game %(n)s plays the host's prize list %(mode)r, which its record does not hold (it "
            "was started by an older version of the kit, which kept only the list's name)",
            n=game.game_id,
            mode=mode,
        ) from None
