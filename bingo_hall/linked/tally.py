"""The tally: every hall's result checked, the tiers awarded, the whole signed by the organiser.

A hall's state is one of: won (a result that holds, with its call count), no winner (a result
that holds and says so), late (made after the window's latest end: kept, not counted), missing
(nothing came) or refused (nothing that came holds; the reason in one line). A forged file in a
hall's name cannot take a hall's place: a hall's state comes from the results that hold, and a
refusal decides it only when none does. A hall that signs two different results that hold is
refused: it may not send the one that suits it.

The national prize goes to the lowest call count of every hall, each regional prize to the lowest
count in its region (a hall may win both), and halls tied on the lowest count share the prize
to the cent, as one hall's simultaneous winners do (`money.split`, the odd cents to the
halls listed first in the game). The awards are a pure function of the states (`awards`), so a
hall that checks the tally re-derives them from the states it lists, and with the results, the
states from the results.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from ..errors import KitError
from ..money import split
from .game import Hall, LinkedGame, utc
from .keys import Signer, covered, signature_holds
from .result import HallResult, Outcome, Refusal, check, is_late, read_result
from .seed import check_code, code_text, linked_order, parse_code

FORMAT = "bingo-hall-linked-tally"
VERSION = 1
LABEL = b"bingo-hall linked tally v1\n"


class State(StrEnum):
    WON = "won"
    NO_WINNER = "no-winner"
    LATE = "late"
    MISSING = "missing"
    REFUSED = "refused"


class Tier(StrEnum):
    NATIONAL = "national"
    REGIONAL = "regional"


@dataclass(frozen=True)
class Submission:
    """A result as it reached the organiser: where from (a file's name, a POST) and its text."""

    source: str
    text: str


@dataclass(frozen=True)
class Standing:
    """A hall's place in the tally: its state, and for a result that holds, its count, card
    and book head (`seq:hash`, to check its exported book against: `book verify --head`)."""

    hall: Hall
    state: State
    count: int | None = None
    deck: str | None = None
    serial: int | None = None
    head: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            **self.hall.to_json(),
            "state": str(self.state),
            "count": self.count,
            "deck": self.deck,
            "serial": self.serial,
            "head": self.head,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Standing:
        """A hall's line as the tally gives it (compared with the game's halls by
        `verify_tally`)."""
        hall = Hall(str(data["name"]), str(data["region"]), str(data["fingerprint"]))
        count = data["count"]
        if count is not None and type(count) is not int:
            raise TypeError
        return cls(
            hall,
            State(data["state"]),
            count,
            data["deck"],
            data["serial"],
            data["head"],
            data["reason"],
        )


@dataclass(frozen=True)
class Refused:
    """A result not counted: where it came from, the hall it names (if any), why."""

    source: str
    hall: str | None
    reason: str

    def line(self) -> str:
        return f"{self.source}: refused: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "hall": self.hall, "reason": self.reason}


@dataclass(frozen=True)
class Award:
    """A tier won: the lowest count, the halls that share it, and each one's share in cents."""

    tier: Tier
    region: str | None
    count: int
    winners: tuple[str, ...]
    shares: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "tier": str(self.tier),
            "region": self.region,
            "count": self.count,
            "winners": list(self.winners),
            "shares": list(self.shares),
        }


@dataclass(frozen=True)
class Tally:
    """The organiser's tally of one game (see the module's docstring)."""

    game: str
    seed: str  # the code, revealed: anyone can derive the order and check the commitment
    made: str
    standings: tuple[Standing, ...]
    refused: tuple[Refused, ...]
    awards: tuple[Award, ...]
    organiser: str
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "seed": self.seed,
            "made": self.made,
            "halls": [s.to_json() for s in self.standings],
            "refused": [r.to_json() for r in self.refused],
            "awards": [a.to_json() for a in self.awards],
            "organiser": self.organiser,
            "signature": self.signature,
        }

    def text(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n"

    def standing(self, fingerprint: str) -> Standing | None:
        return next((s for s in self.standings if s.hall.fingerprint == fingerprint), None)


def tally(
    game: LinkedGame,
    code: str,
    submissions: Iterable[Submission],
    made: datetime,
    organiser: Signer,
) -> Tally:
    """Check every submission against `game` and the revealed seed, and sign the tally."""
    if organiser.public_key != game.organiser:
        raise KitError("the key given is not the organiser's key this game names")
    standings, refused = judge(game, code, submissions)
    unsigned = Tally(
        game.game_id,
        code_text(parse_code(code)),
        utc(made),
        standings,
        refused,
        awards(game, standings),
        game.organiser,
    )
    return replace(unsigned, signature=organiser.sign(LABEL, unsigned))


def judge(
    game: LinkedGame, code: str, submissions: Iterable[Submission]
) -> tuple[tuple[Standing, ...], tuple[Refused, ...]]:
    """Every hall's standing and every refused result (sorted by where it came from)."""
    order = linked_order(check_code(code, game.commitment), game.balls)
    held: dict[str, dict[str, HallResult]] = {}
    refusals: dict[str, list[Refused]] = {}
    refused: list[Refused] = []
    for sub in submissions:
        hall = None
        try:
            result = read_result(sub.text)
            if result.game == game.game_id:  # another game's result is no hall's of this one
                hall = game.hall_by_key(result.fingerprint)
            check(game, order, result)
        except Refusal as why:
            r = Refused(sub.source, None if hall is None else hall.name, str(why))
            refused.append(r)
            if hall is not None:
                refusals.setdefault(hall.fingerprint, []).append(r)
            continue
        assert hall is not None
        held.setdefault(hall.fingerprint, {})[result.signature] = result
    standings = []
    for hall in game.halls:
        results = list(held.get(hall.fingerprint, {}).values())
        if len({covered(r) for r in results}) > 1:
            reason = f"it sent {len(results)} different results, each signed by its key"
            standings.append(Standing(hall, State.REFUSED, reason=reason))
        elif results:
            standings.append(_standing(game, hall, results[0]))
        elif hall.fingerprint in refusals:
            standings.append(
                Standing(hall, State.REFUSED, reason=refusals[hall.fingerprint][0].reason)
            )
        else:
            standings.append(Standing(hall, State.MISSING))
    refused.sort(key=lambda r: r.source)
    return tuple(standings), tuple(refused)


def _standing(game: LinkedGame, hall: Hall, result: HallResult) -> Standing:
    head = f"{result.book.head.seq}:{result.book.head.hash}"
    if is_late(game, result):
        state = State.LATE
    elif result.outcome == Outcome.WON:
        state = State.WON
    else:
        state = State.NO_WINNER
    w = result.winner
    return Standing(
        hall,
        state,
        result.count,
        None if w is None else w.deck,
        None if w is None else w.serial,
        head,
    )


def awards(game: LinkedGame, standings: Sequence[Standing]) -> tuple[Award, ...]:
    """The national prize, then each region's, in the order the game lists the regions; a tier
    nobody won is left out."""
    won = [s for s in standings if s.state == State.WON and s.count is not None]
    found = []
    national = _lowest(Tier.NATIONAL, None, won, game.tiers.national)
    if national is not None:
        found.append(national)
    for region in game.regions():
        award = _lowest(
            Tier.REGIONAL, region, [s for s in won if s.hall.region == region], game.tiers.regional
        )
        if award is not None:
            found.append(award)
    return tuple(found)


def _lowest(tier: Tier, region: str | None, won: Sequence[Standing], cents: int) -> Award | None:
    counts = [s.count for s in won if s.count is not None]
    if not counts:
        return None
    low = min(counts)
    winners = tuple(s.hall.name for s in won if s.count == low)
    return Award(tier, region, low, winners, split(cents, len(winners)))


# ---- a hall checks the tally -------------------------------------------------------------


class TallyError(KitError):
    """A tally file that cannot be read at all."""


@dataclass(frozen=True)
class Place:
    """A hall's place in a tally: its standing, and its rank by count nationally and in its
    region (1 = the lowest count; halls tied share a rank); no rank without a count that won."""

    standing: Standing
    national: int | None
    regional: int | None


def read_tally(text: str) -> Tally:
    """A tally file as received; TallyError when it is not a tally (`verify_tally` checks it
    against its game)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise TallyError("the tally is not JSON: it is not a tally") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise TallyError("the file is not a tally of a linked game (version 1)")
    try:
        standings = tuple(Standing.from_json(s) for s in data["halls"])
        refused = tuple(
            Refused(str(r["source"]), r["hall"], str(r["reason"])) for r in data["refused"]
        )
        found = tuple(
            Award(
                Tier(a["tier"]),
                a["region"],
                int(a["count"]),
                tuple(a["winners"]),
                tuple(a["shares"]),
            )
            for a in data["awards"]
        )
        fields = (data["game"], data["seed"], data["made"], data["organiser"], data["signature"])
        if not all(isinstance(f, str) for f in fields):
            raise TypeError
    except (KeyError, TypeError, ValueError):
        raise TallyError(
            "the tally is not a tally of this game: a field is missing or malformed"
        ) from None
    return Tally(fields[0], fields[1], fields[2], standings, refused, found, fields[3], fields[4])


def verify_tally(
    game: LinkedGame, found: Tally, results: Iterable[Submission] | None = None
) -> list[str]:
    """What does not hold in a tally, one line each (empty when all holds): the organiser's
    signature, the game, the seed against the commitment, the halls against the game's, the
    awards against the states; with `results`, the states against the results themselves."""
    lines = []
    if found.organiser != game.organiser or not signature_holds(game.organiser, LABEL, found):
        lines.append("the tally's signature does not hold for the organiser's key of this game")
    if found.game != game.game_id:
        lines.append(f"the tally is of another game ({found.game[:12]})")
    try:
        check_code(found.seed, game.commitment)
    except KitError as exc:
        lines.append(f"the tally's seed: {exc}")
        return lines
    if [s.hall for s in found.standings] != list(game.halls):
        lines.append("the tally does not list the game's halls as the game registers them")
    if awards(game, found.standings) != found.awards:
        lines.append("the tally's awards are not what the halls' counts give")
    if results is not None:
        standings, refused = judge(game, found.seed, results)
        for mine, theirs in zip(standings, found.standings, strict=False):
            if mine != theirs:
                lines.append(
                    f"{mine.hall.name}: the results give {_said(mine)}, the tally says "
                    f"{_said(theirs)}"
                )
    return lines


def _said(s: Standing) -> str:
    if s.state == State.WON:
        return f"won at call {s.count}"
    return str(s.state) + (f" ({s.reason})" if s.reason else "")


def place(found: Tally, fingerprint: str) -> Place | None:
    """A hall's place in the tally (None when the tally does not list it)."""
    mine = found.standing(fingerprint)
    if mine is None:
        return None
    if mine.state != State.WON or mine.count is None:
        return Place(mine, None, None)
    won = [s for s in found.standings if s.state == State.WON and s.count is not None]
    national = 1 + sum(1 for s in won if s.count is not None and s.count < mine.count)
    regional = 1 + sum(
        1
        for s in won
        if s.hall.region == mine.hall.region and s.count is not None and s.count < mine.count
    )
    return Place(mine, national, regional)
