"""The claims side of each game variant (`bingo_hall.variants`, `station.variants`): how a card is
judged now, how its page draws it, how a claim is judged and stored, how the round's prize is
awarded, and what the screens keep of it (scores or prizes). The routes ask the game's
`ClaimsKind` and never test the number of balls; a new variant is one more subclass here.

One idea in one module, though it is over 450 lines: the `ClaimsKind` contract and its one
subclass per variant, read side by side so that a variant's every answer is seen beside the
other's.
"""

from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ...errors import KitError
from ...ninety.tickets import ROW_NAMES, Ticket
from ...seventyfive import claims as rules
from ...seventyfive.cards import LINE_NAMES, Card, Line
from ...values import JsonValue
from ...variants import CARDS, STRIPS, ByVariant, Cards75, Strips90, Variant
from ...web.errors import Conflict, RequestError
from .. import games
from ..events import BoardChanged, PrizeChanged, ScoresChanged
from ..model import Game, Round
from ..requests import Award, NewClaim
from ..round_load import load_round
from ..variants import prize_plan, variant_of
from . import awards, card_view, prizes, store
from .awards import RoundAwarded, Scores
from .bare_table import TableText, draw_card, draw_ticket
from .board import AwardedPrize, PrizeBoard, PrizeWinner
from .card_view import CardFollow, Follow, TicketFollow
from .judged import CardCheck, Checked, TicketCheck, card_grid, ticket_grid
from .prizes import PrizeAwarded, PrizeState, TicketFacts
from .store import PenaltyShown

T = TypeVar("T")  # the variant's ticket: a Card, a Ticket
C = TypeVar("C", bound=Checked)  # the ticket judged: a CardCheck, a TicketCheck


@dataclass(frozen=True)
class Judged:
    """A claim judged inside the write lock, ready to store: its check, the `line` column (the
    line named, or the prize claimed), the penalty of a false claim, the calls it saw, and the
    fields the claim's answer adds."""

    check: Checked
    line: str | None
    penalty: PenaltyShown | None
    calls: list[int]
    same_call_line: bool = False  # simultaneous claims are those of the same `line` (prize)
    prize: str | None = None  # the prize claimed, where the variant plays prizes (its answer's)


@dataclass(frozen=True)
class HolderPage:
    """What a card's public page tells its holder besides the card: `player` what they are told
    of the rounds it won (75 balls), `follow` the data the page follows the game with (card.js),
    `prize_board` every prize of the round, who won it and which are open (90 balls)."""

    player: Mapping[str, Any] | None = None
    follow: Follow | None = None
    prize_board: PrizeBoard | None = None


@dataclass(frozen=True)
class Boards(JsonValue):
    """`scores` and `prizes` for every snapshot (the one the game's variant plays is not None)."""

    scores: Scores | None
    prizes: PrizeState | None


class ShownVerdict(Protocol):
    """A verdict as the screens show it: a card checked now (`Checked`), or a claim's verdict
    (`ClaimVerdict`); its card's serial and its JSON."""

    @property
    def serial(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ClaimVerdict:
    """A recorded claim's verdict (as the claim stored it), with the round it was made in."""

    serial: int
    round: int
    verdict: JsonValue

    def to_json(self) -> dict[str, Any]:
        return {**self.verdict.to_json(), "round": self.round}


@dataclass(frozen=True)
class Shown(JsonValue):
    """What the hall screens show of a checked card or a recorded claim (the `verdict` event):
    the card as printed with its marks, the verdict and, for a false 75-ball claim, the
    penalty. `kind` is what else the variant's shown verdict says of it (`ClaimsKind.shown_extra`,
    its keys after `layout`)."""

    source: str
    layout: str
    kind: Mapping[str, Any]
    serial: int
    round: int
    player: str | None
    valid: bool
    penalty: Any
    verdict: Mapping[str, Any]
    drawn: str | None = None  # its key among the cards kept for the screens (on_show.show)

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        del data["kind"]
        if self.drawn is None:
            del data["drawn"]
        return {"source": self.source, "layout": self.layout, **self.kind, **data}

    def naming(self, player: str | None) -> Shown:
        return replace(self, player=player)

    def kept_as(self, key: str) -> Shown:
        return replace(self, drawn=key)


class ClaimsKind(ABC, Generic[T, C]):
    """One variant's claims, pages and awards: `T` its ticket, `C` the ticket judged."""

    variant: ClassVar[Variant[Any]]
    card_page: ClassVar[str]
    card_fragment: ClassVar[str]
    table_template: ClassVar[str]  # its table without marks, as its page shows it
    shown_table: ClassVar[str]  # its table on the hall screens (GET /api/games/<id>/shown/<key>)
    #: the event that carries the scores or prizes after a claim (given `board()`)
    board_event: ClassVar[type[BoardChanged]]
    shown_extra: ClassVar[Mapping[str, int]] = {}  # what else a shown verdict says of its kind

    @abstractmethod
    def check(self, conn: sqlite3.Connection, game: Game, ticket: T, prize: str | None = None) -> C:
        """The verdict on a card now, as the Maestro would give it (nothing is written), for
        the `prize` the Maestro chose where the game plays several (None: the one it holds)."""

    @abstractmethod
    def grid(self, ticket: T, checked: C | None) -> list[Any]:
        """The card as its page draws it, with the verdict's marks (none without a game)."""

    def drawn(self, ticket: T) -> dict[str, Mapping[str, Line]]:
        """What else the card's drawing needs besides its grid (a card's margin totals), by the
        name its templates give it."""
        return {}

    @abstractmethod
    def table_text(self, ticket: T) -> TableText:
        """What the card's table without marks shows (its QR page's: bare_table)."""

    @abstractmethod
    def draw_bare(self, text: TableText) -> str:
        """The table without marks of `text` by the one drawer, in the request's language."""

    def page(
        self, conn: sqlite3.Connection, gid: int | None, ticket: T, checked: C | None
    ) -> HolderPage:
        """What the card's public page tells its holder (the rounds it won, in the 75-ball
        game)."""
        return HolderPage()

    @abstractmethod
    def page_facts(self, conn: sqlite3.Connection, game: Game) -> Any:
        """What every card's page of `game` is drawn from besides its card, read once per change
        of the game (verify/card_pages.py): the rules, or the prize list and who won what."""

    @abstractmethod
    def game_facts(self, game_id: int, round: int, facts: Any) -> Follow:
        """What every card's page of the game follows it with (its `#card-state`: JSON, given
        each card's serial), from `page_facts`' `facts`: the same for every card, so made once
        per change of the game whatever the deck's size."""

    def bare_board(self, facts: Any) -> PrizeBoard | None:
        """The prizes' list the card's fragment draws without marks (90 balls)."""
        return None

    @abstractmethod
    def judge_claim(
        self, conn: sqlite3.Connection, game: Game, rnd: Round, claim: NewClaim
    ) -> Judged:
        """Judge a claim against the calls committed so far; refuse one that cannot be made."""

    @abstractmethod
    def award(
        self, conn: sqlite3.Connection, game_id: int, request: Award
    ) -> RoundAwarded | PrizeAwarded:
        """Settle the round's prize (or the prize being played) by the rules."""

    @abstractmethod
    def refuse_balls(self, conn: sqlite3.Connection, game: Game, rnd: Round) -> None:
        """Raise a Conflict in words when the round is won and no ball may be called until the
        Maestro starts the next round (the station's call guard asks this)."""

    @abstractmethod
    def awarded_at(self, conn: sqlite3.Connection, rnd: Round) -> int | None:
        """How many calls the round had when its latest award was won (None before any award):
        the calls up to there are what the award rests on (the station's undo guard)."""

    @abstractmethod
    def board(self, conn: sqlite3.Connection, game_id: int) -> Scores | PrizeState:
        """The scores or the prizes, as the screens keep them."""

    @abstractmethod
    def snapshot(self, conn: sqlite3.Connection, game_id: int) -> Boards:
        """`scores` and `prizes` for every snapshot (the one this variant plays is not None)."""

    def round_prizes(
        self, conn: sqlite3.Connection, round_id: int
    ) -> tuple[AwardedPrize, ...] | None:
        """The prizes the game's record lists with each round, in the order won (None: the
        variant's rounds have none)."""
        return None

    @abstractmethod
    def prizes_won(self, conn: sqlite3.Connection, round_id: int) -> tuple[AwardedPrize, ...]:
        """The round's prizes awarded so far, in the order won, in one shape for every variant
        (what a ledger pays: who won which prize, on which card and on which call)."""

    def shown(
        self,
        verdict: ShownVerdict,
        round: int,
        valid: bool,
        claim: ClaimMade | None = None,
    ) -> Shown:
        """What the hall screens show of a checked card or a recorded claim (the `verdict`
        event): the card as printed with its marks, the verdict and, for a false 75-ball claim,
        the penalty."""
        return Shown(
            "claim" if claim else "check",
            self.variant.layout,  # what the screens draw it as (claimshow.js VIEWS)
            self.shown_extra,
            verdict.serial,
            round,
            claim.player if claim else None,
            valid,
            claim.penalty if claim else None,
            verdict.to_json(),
        )


@dataclass(frozen=True)
class ClaimMade(JsonValue):
    """A claim as stored, the answer to it and the `claim` event: its verdict, the penalty of a
    false 75-ball claim, the prize claimed (90 balls), how many claims came on the same call, and
    what the station's hooks add (the ledger's warning for a card not sold)."""

    claim_id: int
    game_id: int
    round: int
    serial: int
    player: str | None
    prize: str | None  # where the variant plays prizes, else left out of its JSON
    valid: bool
    verdict: Mapping[str, Any]
    penalty: PenaltyShown | None
    simultaneous: int
    extra: tuple[JsonValue, ...]  # what the hooks add (their JSON's keys), after the rest

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        del data["extra"]
        if self.prize is None:
            del data["prize"]
        for added in self.extra:
            data.update(added.to_json())
        return data


class CardClaims(ClaimsKind[Card, CardCheck]):
    """75 balls: a claim names its line (or not), a false one costs the line's markers, and the
    round is settled by `claims.settle` (docs/claims.md)."""

    variant = CARDS
    card_page = "verify/card.html"
    card_fragment = "verify/_card_fragment.html"
    table_template = "verify/_card_table.html"
    shown_table = "verify/_card_shown.html"
    board_event = ScoresChanged

    def check(
        self, conn: sqlite3.Connection, game: Game, ticket: Card, prize: str | None = None
    ) -> CardCheck:
        loaded = load_round(conn, game.game_id, game)  # the round and its calls, read once
        r = store.game_rules(conn, game)
        pens = tuple(store.penalties(conn, loaded.round.round_id, ticket.serial))
        verdict = rules.judge(ticket, loaded.calls, r, pens)
        return CardCheck(
            game.game_id, loaded.state.round, ticket, verdict, r, loaded.state.balls_called, pens
        )

    def grid(self, ticket: Card, checked: CardCheck | None) -> list[Any]:
        return card_grid(ticket, checked)

    def page(
        self, conn: sqlite3.Connection, gid: int | None, ticket: Card, checked: CardCheck | None
    ) -> HolderPage:
        """What the card's holder is told: the rounds it won (with the points), and "shout!"
        while it has a bingo in a round not yet awarded."""
        seen: dict[str, Any] = {"won": [], "shout": False}
        if gid is None or checked is None:
            return HolderPage(player=seen)
        got = card_view.card_awards(conn, gid, ticket.serial)  # one query, not the scoreboard
        seen = {
            "won": list(got.won),
            "puntos": checked.judged_by.mode == rules.PUNTOS,
            "shout": bool(checked.valid) and not got.awarded,
        }
        return HolderPage(player=seen, follow=card_view.follow_card(checked, got))

    def drawn(self, ticket: Card) -> dict[str, Mapping[str, Line]]:
        return {"lines": ticket.lines_by_name}

    def table_text(self, ticket: Card) -> TableText:
        rows = zip(*ticket.columns, strict=True)  # the columns, read row by row
        cells = tuple(tuple([None if n is None else str(n) for n in row]) for row in rows)
        totals = tuple([(name, str(line.total)) for name, line in ticket.lines_by_name.items()])
        return TableText(cells, totals, str(ticket.serial))

    def draw_bare(self, text: TableText) -> str:
        return draw_card(self.table_template, text)

    def page_facts(self, conn: sqlite3.Connection, game: Game) -> rules.Rules:
        return store.game_rules(conn, game)

    def game_facts(self, game_id: int, round: int, facts: Any) -> CardFollow:
        return card_view.game_card_facts(game_id, round, facts)

    def judge_claim(
        self, conn: sqlite3.Connection, game: Game, rnd: Round, claim: NewClaim
    ) -> Judged:
        line = claim.line
        if line is not None and line.upper() not in LINE_NAMES:
            raise RequestError("line is one of R1-R5, B, I, N, G, O, D1, D2")
        gid, player = game.game_id, claim.player
        card = store.game_card(conn, game, claim.serial)[1]
        r = store.game_rules(conn, game)
        names = store.seated(conn, gid)[0]
        maestro = store.settings_of(conn, gid)[1]
        if r.mode == rules.PUNTOS and player is None:
            raise RequestError("in Bingo de Puntos a claim names the player who shouts")
        if r.mode == rules.PUNTOS and player not in names:
            raise RequestError(
                "%(name)s is not playing in this game; add the player first", name=player
            )
        if player is not None and player == maestro:
            raise Conflict("%(name)s is the Maestro this round and does not play", name=player)
        if conn.execute("SELECT 1 FROM awards WHERE round_id = ?", (rnd.round_id,)).fetchone():
            raise Conflict(
                "round %(n)s is already awarded; press Next round to play on", n=rnd.number
            )
        calls = games.called_balls(conn, gid)
        pens = store.penalties(conn, rnd.round_id, card.serial)
        if r.cards_needed > 1:
            verdict = store.judge_book(conn, game, rnd, card.serial, calls, r)
        else:
            verdict = rules.judge(card, calls, r, pens)
        penalty = None
        if not verdict.bingo:
            penalty = PenaltyShown.of(card, rules.penalty_for(card, calls, r, pens, line))
        check = CardCheck(gid, rnd.number, card, verdict, r)
        return Judged(check, line.upper() if line else None, penalty, calls)

    def award(self, conn: sqlite3.Connection, game_id: int, request: Award) -> RoundAwarded:
        return awards.award(conn, game_id)  # which tells the screens the new scores

    def refuse_balls(self, conn: sqlite3.Connection, game: Game, rnd: Round) -> None:
        awards.refuse_balls_once_awarded(conn, rnd)

    def awarded_at(self, conn: sqlite3.Connection, rnd: Round) -> int | None:
        return awards.awarded_at(conn, rnd)

    def board(self, conn: sqlite3.Connection, game_id: int) -> Scores:
        return awards.scores(conn, game_id)

    def prizes_won(self, conn: sqlite3.Connection, round_id: int) -> tuple[AwardedPrize, ...]:
        row = conn.execute(
            "SELECT a.claim_id, a.serial, a.player, a.made, c.at_call FROM awards a "
            "JOIN claims c ON c.id = a.claim_id WHERE a.round_id = ?",
            (round_id,),
        ).fetchone()
        if row is None:
            return ()
        (prize,) = CARDS.plan(None).prizes  # one bingo a round, in Normal and in Puntos
        winner = PrizeWinner(row["claim_id"], row["serial"], row["player"])
        return (AwardedPrize(prize, row["at_call"], row["made"], (winner,)),)

    def snapshot(self, conn: sqlite3.Connection, game_id: int) -> Boards:
        try:
            return Boards(awards.scores(conn, game_id), None)
        except KitError:
            return Boards(None, None)


class StripClaims(ClaimsKind[Ticket, TicketCheck]):
    """90 balls: a claim names a prize that can be won now (the one being played, or any open
    prize of Tambola), which the first valid claims share; a false claim costs nothing."""

    variant = STRIPS
    card_page = "verify/ticket.html"
    card_fragment = "verify/_ticket_fragment.html"
    table_template = "verify/_ticket_table.html"
    shown_table = "verify/_ticket_shown.html"
    board_event = PrizeChanged
    shown_extra: ClassVar[Mapping[str, int]] = {"game": STRIPS.balls}

    def check(
        self, conn: sqlite3.Connection, game: Game, ticket: Ticket, prize: str | None = None
    ) -> TicketCheck:
        asked = prizes.check_prize_name(prize_plan(game), prize)  # 400 for a prize not played
        loaded = load_round(conn, game.game_id, game)  # the round and its calls, read once
        won = prizes.won_by(conn, game.game_id, ticket.serial)
        return prizes.judge_ticket(
            conn, game, loaded.round, ticket, asked, calls=loaded.state.balls_called, won=won
        )

    def grid(self, ticket: Ticket, checked: TicketCheck | None) -> list[Any]:
        return ticket_grid(ticket, checked)

    def table_text(self, ticket: Ticket) -> TableText:
        cells = tuple(tuple(None if n is None else str(n) for n in row) for row in ticket.grid)
        totals = tuple(zip(ROW_NAMES, map(str, ticket.row_totals()), strict=True))
        return TableText(cells, totals, str(ticket.serial))

    def draw_bare(self, text: TableText) -> str:
        return draw_ticket(self.table_template, text)

    def page_facts(self, conn: sqlite3.Connection, game: Game) -> TicketFacts:
        return prizes.ticket_facts(conn, game)

    def game_facts(self, game_id: int, round: int, facts: Any) -> TicketFollow:
        return card_view.game_ticket_facts(game_id, round, facts.rules, facts.won)

    def bare_board(self, facts: TicketFacts) -> PrizeBoard:
        return facts.board

    def page(
        self,
        conn: sqlite3.Connection,
        gid: int | None,
        ticket: Ticket,
        checked: TicketCheck | None,
    ) -> HolderPage:
        """What the ticket's page follows the game with (card.js), and every prize of the round,
        who won it and which are still open."""
        if gid is None or checked is None:
            return HolderPage()
        return HolderPage(follow=card_view.follow_ticket(checked), prize_board=checked.board)

    def judge_claim(
        self, conn: sqlite3.Connection, game: Game, rnd: Round, claim: NewClaim
    ) -> Judged:
        prize = prizes.playing(conn, game, rnd, claim.prize)
        ticket = store.game_card(conn, game, claim.serial)[1]
        check = prizes.judge_ticket(conn, game, rnd, ticket, prize)
        return Judged(check, prize, None, list(check.calls), True, prize)

    def award(self, conn: sqlite3.Connection, game_id: int, request: Award) -> PrizeAwarded:
        return prizes.award(conn, game_id, request)

    def refuse_balls(self, conn: sqlite3.Connection, game: Game, rnd: Round) -> None:
        prizes.refuse_balls_once_all_won(conn, game, rnd)

    def awarded_at(self, conn: sqlite3.Connection, rnd: Round) -> int | None:
        return prizes.awarded_at(conn, rnd)

    def board(self, conn: sqlite3.Connection, game_id: int) -> PrizeState:
        return prizes.prize_state(conn, game_id)

    def snapshot(self, conn: sqlite3.Connection, game_id: int) -> Boards:
        return Boards(None, prizes.prize_state(conn, game_id))

    def round_prizes(self, conn: sqlite3.Connection, round_id: int) -> tuple[AwardedPrize, ...]:
        return prizes.awarded(conn, round_id)  # in the order won

    def prizes_won(self, conn: sqlite3.Connection, round_id: int) -> tuple[AwardedPrize, ...]:
        return prizes.awarded(conn, round_id)


#: the claims side of each variant, by the variant's class
CLAIMS: ByVariant[ClaimsKind[Any, Any]] = ByVariant(
    "station.verify.variants.CLAIMS", {Cards75: CardClaims(), Strips90: StripClaims()}
)


def claims_of(variant: Variant[Any]) -> ClaimsKind[Any, Any]:
    return CLAIMS[variant]


def claims_kind(game: Game) -> ClaimsKind[Any, Any]:
    """The claims of the variant the game plays (chosen from its balls)."""
    return claims_of(variant_of(game))
