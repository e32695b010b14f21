"""The linked game file: what the organiser sends every hall before the night.

It holds the name and the window (start and latest end, in a named time zone), the balls and
the pattern (a full house by default), the prize tiers (national; regional, one prize for each
region named by the halls; and the amount each hall pays on its own), the halls, each with its
region and its station key's fingerprint, registered beforehand, the commitment to the seed
(`seed.code_commitment`), and the organiser's public key. The organiser
signs the whole, so a hall can tell the organiser's file from a copy changed on the way.

The file is JSON; its `game` id is the SHA-256 of the canonical JSON of everything the
signature covers, so a result or a tally names exactly one game.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cached_property
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..audit import sha256
from ..errors import KitError
from ..money import MAX_CENTS, check_currency
from ..variants import variant_for
from .figure import Figure, figure_for
from .keys import Signer, covered, fingerprint_of_key, signature_holds
from .seed import code_commitment

FORMAT = "bingo-hall-linked-game"
VERSION = 1
LABEL = b"bingo-hall linked game v1\n"
_FINGERPRINT = re.compile(r"^[0-9a-f]{16}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_LOCAL = "%Y-%m-%dT%H:%M"
MAX_HALLS = 5000


class LinkedError(KitError):
    """A linked game file (or what makes one) that cannot be used, in one line."""


@dataclass(frozen=True)
class Window:
    """When the game is played: from `start` to the latest `end`, wall-clock times of `zone`."""

    start: datetime
    end: datetime
    zone: str

    @classmethod
    def parse(cls, start: str, end: str, zone: str) -> Window:
        try:
            tz = ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise LinkedError(
                "the time zone %(zone)r is not known (write it as Europe/London, "
                "America/Argentina/Buenos_Aires...)",
                zone=zone,
            ) from None
        times = []
        for template, text in (
            ("the window's start is a date and time, YYYY-MM-DDTHH:MM, not %(text)r", start),
            ("the window's end is a date and time, YYYY-MM-DDTHH:MM, not %(text)r", end),
        ):
            try:
                times.append(datetime.strptime(str(text).strip(), _LOCAL).replace(tzinfo=tz))
            except ValueError:
                raise LinkedError(template, text=text) from None
        if times[1] <= times[0]:
            raise LinkedError("the window ends before it starts")
        return cls(times[0], times[1], zone)

    def holds(self, at: datetime) -> bool:
        return self.start <= at <= self.end

    def to_json(self) -> dict[str, str]:
        return {
            "start": self.start.strftime(_LOCAL),
            "end": self.end.strftime(_LOCAL),
            "zone": self.zone,
        }

    def line(self) -> str:
        return (
            f"{self.start.strftime('%Y-%m-%d %H:%M')} to {self.end.strftime('%H:%M')} {self.zone}"
        )


@dataclass(frozen=True)
class Tiers:
    """The prizes, in cents of `currency`: one national, one per region, and each hall's own
    (judged and paid by the hall, listed so that every hall plays for the same)."""

    currency: str
    national: int
    regional: int
    hall: int

    def to_json(self) -> dict[str, Any]:
        return {
            "currency": self.currency,
            "national": self.national,
            "regional": self.regional,
            "hall": self.hall,
        }


@dataclass(frozen=True)
class Hall:
    """A hall registered for the game: its name, its region, its station key's fingerprint."""

    name: str
    region: str
    fingerprint: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "region": self.region, "fingerprint": self.fingerprint}


@dataclass(frozen=True)
class LinkedGame:
    """The organiser's game as every hall receives it (see the module's docstring)."""

    name: str
    window: Window
    balls: int
    pattern: str
    tiers: Tiers
    halls: tuple[Hall, ...]
    commitment: str
    organiser: str  # the organiser's raw public key, base64
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "window": self.window.to_json(),
            "balls": self.balls,
            "pattern": self.pattern,
            "prizes": self.tiers.to_json(),
            "halls": [h.to_json() for h in self.halls],
            "commitment": self.commitment,
            "organiser": self.organiser,
            "signature": self.signature,
        }

    @cached_property
    def game_id(self) -> str:
        return sha256(covered(self))

    @cached_property
    def figure(self) -> Figure:
        return figure_for(variant_for(self.balls), self.pattern)

    @property
    def organiser_fingerprint(self) -> str:
        return fingerprint_of_key(self.organiser) or ""

    def hall_by_key(self, fingerprint: str) -> Hall | None:
        return self._by_key.get(fingerprint)

    @cached_property
    def _by_key(self) -> dict[str, Hall]:
        return {h.fingerprint: h for h in self.halls}

    def regions(self) -> tuple[str, ...]:
        """The regions, in the order their first hall is listed."""
        return tuple(dict.fromkeys(h.region for h in self.halls))

    def signed_by_organiser(self) -> bool:
        return signature_holds(self.organiser, LABEL, self)

    def text(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n"


def new_game(
    name: str,
    window: Window,
    balls: int,
    pattern: str | None,
    tiers: Tiers,
    halls: Sequence[Hall],
    code: bytes,
    organiser: Signer,
) -> LinkedGame:
    """The game, checked and signed by the organiser; the code itself stays out of it."""
    variant = variant_for(balls)
    figure = figure_for(variant, pattern)
    game = LinkedGame(
        _name(name, "game"),
        window,
        balls,
        figure.name,
        _tiers(tiers.to_json()),
        _halls([h.to_json() for h in halls]),
        code_commitment(code),
        organiser.public_key,
    )
    return _signed(game, organiser)


def _signed(game: LinkedGame, organiser: Signer) -> LinkedGame:
    return replace(game, signature=organiser.sign(LABEL, game))


def read_game(text: str) -> LinkedGame:
    """A game file as received; LinkedError in one line for anything that is not the
    organiser's signed game."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise LinkedError("the game file is not JSON: it is not a linked game") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LinkedError("the file is not a linked game (it names no linked game)")
    if data.get("version") != VERSION:
        raise LinkedError(
            "the linked game is of version %(v)r; this kit reads version 1", v=data.get("version")
        )
    window = data.get("window")
    if not isinstance(window, dict):
        raise LinkedError("the game file has no window")
    balls = data.get("balls")
    variant = variant_for(balls)
    pattern = data.get("pattern")
    if not isinstance(pattern, str):
        raise LinkedError("the game file names no pattern")
    figure_for(variant, pattern)
    found = data.get("commitment")
    if not isinstance(found, str) or not _HEX64.match(found):
        raise LinkedError("the game's commitment is not 64 hex digits")
    organiser = data.get("organiser")
    if not isinstance(organiser, str) or fingerprint_of_key(organiser) is None:
        raise LinkedError("the game file has no organiser's key")
    game = LinkedGame(
        _name(data.get("name"), "game"),
        Window.parse(str(window.get("start")), str(window.get("end")), str(window.get("zone"))),
        variant.balls,
        pattern,
        _tiers(data.get("prizes")),
        _halls(data.get("halls")),
        found,
        organiser,
        str(data.get("signature", "")),
    )
    if not game.signed_by_organiser():
        raise LinkedError(
            "the game file's signature does not hold: it is not the organiser's game as signed "
            "(changed on the way?)"
        )
    return game


#: what `_name` says of each name it checks, a whole sentence each (translated whole)
NAME_RULES = {
    "game": "the game's name is a text of 1 to 100 characters",
    "hall": "a hall's name is a text of 1 to 100 characters",
    "region": "a hall's region is a text of 1 to 100 characters",
}
#: the prizes of a game file, and what is said of each that is not an amount
TIER_RULES = {
    "national": "the national prize is a whole number of cents up to a million, not %(cents)r",
    "regional": "the regional prize is a whole number of cents up to a million, not %(cents)r",
    "hall": "the hall's prize is a whole number of cents up to a million, not %(cents)r",
}


def _name(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 100:
        raise LinkedError(NAME_RULES[what])
    return value.strip()


def _tiers(data: object) -> Tiers:
    if not isinstance(data, Mapping):
        raise LinkedError("the game file lists no prizes")
    amounts = []
    for tier, rule in TIER_RULES.items():
        cents = data.get(tier)
        if isinstance(cents, bool) or not isinstance(cents, int) or not 0 <= cents <= MAX_CENTS:
            raise LinkedError(rule, cents=cents)
        amounts.append(cents)
    return Tiers(check_currency(data.get("currency")), *amounts)


def _halls(data: object) -> tuple[Hall, ...]:
    if not isinstance(data, list) or not data:
        raise LinkedError("a linked game has at least one hall")
    if len(data) > MAX_HALLS:
        raise LinkedError("a linked game has at most %(n)s halls", n=MAX_HALLS)
    halls, names, keys = [], set(), set()
    for i, raw in enumerate(data, start=1):
        if not isinstance(raw, Mapping):
            raise LinkedError("hall %(i)s is not a name, a region and a fingerprint", i=i)
        name = _name(raw.get("name"), "hall")
        region = _name(raw.get("region"), "region")
        fingerprint = str(raw.get("fingerprint", "")).strip().lower()
        if not _FINGERPRINT.match(fingerprint):
            raise LinkedError(
                "hall %(name)s: the station key's fingerprint is 16 hex digits (the station's "
                "summary shows it), not %(fp)r",
                name=name,
                fp=raw.get("fingerprint"),
            )
        if name in names:
            raise LinkedError("two halls are named %(name)s", name=name)
        if fingerprint in keys:
            raise LinkedError(
                "hall %(name)s has the key %(fp)s of another hall: each station has its own",
                name=name,
                fp=fingerprint,
            )
        names.add(name)
        keys.add(fingerprint)
        halls.append(Hall(name, region, fingerprint))
    return tuple(halls)


def utc(at: datetime) -> str:
    """A moment as results and tallies write it: UTC, to the second."""
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_utc(text: object) -> datetime | None:
    """The moment `utc` wrote; None for anything else."""
    if not isinstance(text, str):
        return None
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return None
