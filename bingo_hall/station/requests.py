"""What the caller asks for, parsed once at the route into small frozen values: a new game, a
claim, an award, an undo. The routes (JSON API and caller form alike) build these; the services
take them and never a raw dict or `Any`. Parsing checks only the shape of each field (text, true
or false, a whole number); what a value means for the game (is this mode one the deck's variant
plays?) is the service's question, since it needs the deck or the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..money import LedgerError, parse_cents
from ..seventyfive.specials import Setting
from ..web.errors import RequestError
from ..web.inputs import is_ascii_number
from .model import DrawMethod
from .settings import check_keys

MAX_PUBLIC_INPUT = 200
MAX_NAME = 40
MAX_REASON = 200


def public_input(text: Any) -> str | None:
    """A player's public input (docs/fairness.md): empty means none."""
    if text is None or text == "":
        return None
    if not isinstance(text, str) or len(text) > MAX_PUBLIC_INPUT:
        raise RequestError(
            "the public input is text of at most %(n)s characters", n=MAX_PUBLIC_INPUT
        )
    return text


def name(value: Any, required: bool = True) -> str | None:
    """A player's or a team's name, spaces tidied; None when it may be left out and is."""
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise RequestError("a name is needed")
        return None
    if not isinstance(value, str) or len(value.strip()) > MAX_NAME:
        raise RequestError("a name is text of at most %(n)s characters", n=MAX_NAME)
    return " ".join(value.split())


def idempotency_key(key: Any) -> str | None:
    """The `Idempotency-Key` header (or `idempotency_key` field): a retried request with the same
    key gets the first answer again instead of acting twice."""
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= 200:
        raise RequestError("an idempotency key is text of 1 to 200 characters")
    return key


def expect_seq(value: Any) -> int | None:
    """The call a request was made after (`expect_seq`, or an undo's `seq`): a whole number."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise RequestError("expect_seq must be a whole number")
    return value


def _word(value: Any) -> str | None:
    """A field that names one of a fixed set of words: any other JSON value names none of
    them, so the service refuses it with the list of the words it takes."""
    if value is None or isinstance(value, str):
        return value
    return repr(value)


@dataclass(frozen=True)
class NewGame:
    """Start a game on a loaded deck.

    `mode` and `prizes` are the words the caller sent: the deck's variant turns them into its
    prize plan (a 75-ball game's `mode` is normal or points; a 90-ball game's plan is `prizes`,
    or else `mode`). `free_centre` None means the deck's own.
    """

    deck_id: str
    mode: str | None = "normal"
    prizes: str | None = None
    free_centre: bool | None = None
    draw: DrawMethod = DrawMethod.AUTO
    options: Mapping[str, Any] = field(default_factory=dict)
    public_input: str | None = None

    #: what `POST /api/games` takes (a 90-ball game's prize plan is its `mode`)
    JSON_FIELDS = ("deck_id", "mode", "free_centre", "draw", "options", "public_input")

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> NewGame:
        unknown = sorted(set(d) - set(cls.JSON_FIELDS))
        if unknown:  # a misspelt or misplaced setting would be silently left out
            raise RequestError(
                "%(fields)s: not a field of a new game; it takes %(known)s",
                fields=", ".join(unknown),
                known=", ".join(cls.JSON_FIELDS),
            )
        return cls._checked(
            d.get("deck_id"),
            d.get("mode", "normal"),
            None,
            d.get("free_centre"),
            d.get("draw", "auto"),
            d.get("options"),
            d.get("public_input"),
        )

    @classmethod
    def from_form(cls, f: Mapping[str, str]) -> NewGame:
        """The caller's form: a ticked box is "on", and an empty public input is none."""
        return cls._checked(
            f.get("deck_id"),
            f.get("mode", "normal"),
            f.get("prizes"),
            True if f.get("free_centre") == "on" else None,
            f.get("draw", "auto"),
            special_options(f),
            f.get("public_input") or None,
        )

    @classmethod
    def _checked(
        cls,
        deck_id: Any,
        mode: Any,
        prizes: Any,
        free_centre: Any,
        draw: Any,
        options: Any,
        text: Any,
    ) -> NewGame:
        if not isinstance(deck_id, str):
            raise RequestError("deck_id is required (see GET /api/decks)")
        if draw not in tuple(DrawMethod):
            raise RequestError("draw must be 'auto' or 'manual'")
        if free_centre is not None and not isinstance(free_centre, bool):
            raise RequestError("free_centre must be true or false")
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise RequestError("options must be a JSON object")
        return cls(
            deck_id=deck_id,
            mode=_word(mode),
            prizes=_word(prizes),
            free_centre=free_centre,
            draw=DrawMethod(draw),
            options=options,
            public_input=public_input(text),
        )


def special_options(f: Mapping[str, str]) -> dict[str, Setting]:
    """The New game form's special games as a new game's options (seventyfive.specials): the
    wild number ticked, odd or even, what the money ball pays (double, or a bonus amount typed
    as the ledger reads amounts), the cards of one book the pattern must be on. What each value
    means is the game's check (`settings.rules_from`)."""
    out: dict[str, Setting] = {}
    if f.get("wild_number") == "on":
        out["wild_number"] = True
    if f.get("odd_even"):
        out["odd_even"] = f["odd_even"]
    pays = f.get("money_ball_pays") or ""
    if pays == "double":
        out["money_ball_pays"] = "double"
    elif pays == "bonus":
        try:
            cents = parse_cents(f.get("money_ball_bonus") or "", "prize")
        except LedgerError as exc:
            raise RequestError("the money ball's bonus: %(problem)s", problem=exc) from None
        out["money_ball_pays"] = f"bonus:{cents}"
    elif pays:
        out["money_ball_pays"] = pays  # refused by the game's check, in its words
    needed = (f.get("cards_needed") or "").strip()
    if needed and needed != "1":
        if not is_ascii_number(needed):
            raise RequestError("the cards of one book are a whole number")
        out["cards_needed"] = int(needed)
    return out


@dataclass(frozen=True)
class MoneyBall:
    """The Maestro's money ball: `ball` as typed, or None to have the station draw it."""

    ball: int | None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> MoneyBall:
        draw, ball = d.get("draw", False), d.get("ball")
        if not isinstance(draw, bool):
            raise RequestError("draw is true or false")
        if draw == (ball is not None):
            raise RequestError("type the money ball, or ask the station to draw it, one of the two")
        if isinstance(ball, str) and is_ascii_number(ball.strip()):
            ball = int(ball)
        if ball is not None and (isinstance(ball, bool) or not isinstance(ball, int)):
            raise RequestError("the money ball is a whole number")
        return cls(ball)


@dataclass(frozen=True)
class NewPlayer:
    """Seat a player, optionally in a team (a Sociedad) and as the Maestro. `maestro`: True or
    False as the Maestro chose it (the caller page always says); None, not said (the API's
    older form): then the first player seated in a Bingo de Puntos game with no Maestro is it."""

    name: str
    team: str | None = None
    maestro: bool | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> NewPlayer:
        player = name(d.get("name"))
        assert player is not None  # required
        team = name(d.get("team"), required=False)
        maestro = d.get("maestro")
        if maestro is not None and not isinstance(maestro, bool):
            raise RequestError("maestro must be true or false")
        return cls(player, team, maestro)


@dataclass(frozen=True)
class RenamePlayer:
    """Fix a player's name (`name` is the name now, `new_name` the right one) and, when the
    request says a team (`keeps_team` False), move them to it (None: to no team)."""

    name: str
    new_name: str
    team: str | None = None
    keeps_team: bool = True

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RenamePlayer:
        old, new = name(d.get("name")), name(d.get("new_name"))
        assert old is not None and new is not None  # required
        if "team" not in d:
            return cls(old, new)
        return cls(old, new, name(d["team"], required=False), keeps_team=False)


@dataclass(frozen=True)
class RemovePlayer:
    """Take a player off the table; `confirm` when they have won (they stay in the record)."""

    name: str
    confirm: bool = False

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RemovePlayer:
        player = name(d.get("name"))
        assert player is not None  # required
        return cls(player, d.get("confirm", False) is True)


@dataclass(frozen=True)
class SettingsChange:
    """The claims settings the Maestro changes (only the keys sent: the others stay as they
    are), and the Maestro, when the request names one (`maestro_given`; None: no Maestro). The
    values are judged with the game's mode by the service (`settings.rules_from`)."""

    settings: Mapping[str, Any]
    maestro: str | None = None
    maestro_given: bool = False

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SettingsChange:
        check_keys(d, also=("maestro",), updating=True)
        changed = {k: v for k, v in d.items() if k != "maestro"}
        if "maestro" not in d:
            return cls(changed)
        return cls(changed, name(d["maestro"], required=False), maestro_given=True)


@dataclass(frozen=True)
class NewClaim:
    """A shout on a card or ticket: `serial` as printed, the player (who may be left out in Bingo
    Normal), and what is claimed: a line of a 75-ball card (R1-R5, B-O, D1, D2; optional) or the
    prize of a 90-ball game (optional: the prize being played)."""

    serial: int
    player: str | None = None
    line: str | None = None
    prize: str | None = None
    #: seat `player` first when not at the table (a name typed on the spot: checked as the
    #: players' form checks it, and seated with the claim or not at all)
    add_player: bool = False

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> NewClaim:
        player = name(d.get("player"), required=False)
        line, prize = d.get("line"), d.get("prize")
        add = d.get("add_player", False)
        if not isinstance(add, bool):
            raise RequestError("add_player must be true or false")
        if add and player is None:
            raise RequestError("type the name of the new player who shouts")
        return cls(serial(d.get("serial")), player, _word(line), _word(prize), add)


def serial(value: Any) -> int:
    """The whole number printed on a card, as typed (text) or sent (a number)."""
    if isinstance(value, str) and is_ascii_number(value.strip()):
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError("the serial is the whole number printed on the card")
    return int(value)


@dataclass(frozen=True)
class Award:
    """Award the round (75 balls) or the prize being played (90 balls). `prize`, if sent, must
    be the one being played, so a doubled click cannot award the next."""

    prize: str | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Award:
        return cls(_word(d.get("prize")))


@dataclass(frozen=True)
class Undo:
    """Take back the last call, with the reason for the corrections log. `seq`, if sent, must be
    that call's, so a doubled undo cannot take back a second call."""

    reason: str
    seq: int | None = None  # the call's seq (`seq`, or `expect_seq`)
    key: str | None = None  # the idempotency key

    @classmethod
    def from_json(cls, d: Mapping[str, Any], key: Any = None) -> Undo:
        reason = d.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise RequestError("say why the call is undone (a reason is required)")
        key = idempotency_key(key)
        return cls(reason.strip()[:MAX_REASON], expect_seq(d.get("seq", d.get("expect_seq"))), key)
