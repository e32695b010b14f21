"""Burako scoring (seed `rummy-burako.es.txt`, "PUNTAJE" and "GANADOR"; docs/rules.md §5).

Burako is played 1 against 1 or 2 against 2 with the Rummy tiles, where the 2s are also wild.
A *canasta* is a meld of 7 or more tiles: *pura* with no wild tile, *impura* with one. The
*muerto* is the spare hand of 11 tiles each team picks up when a player first runs out. A hand is
scored per team; the first team to reach the target (3000 by default) wins.

Pure: no Flask, no sqlite3. `replay` is the shell's entry point (docs/dev/companion-games.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bingo_hall.values import JsonValue
from companions.errors import EntryError, parse_sum, read_points, tiles_total

#: seed, "VALOR DE LAS FICHAS": the one table of tile values (engine, pages and tests read it)
TILE_POINTS: dict[str, int] = {
    "1": 15,
    "2": 20,
    **{str(n): 5 for n in range(3, 8)},
    **{str(n): 10 for n in range(8, 14)},
    "J": 50,
}
CANASTA_PURA = 200
CANASTA_IMPURA = 100
CLOSING_BONUS = 100
MUERTO_BONUS = 100
MUERTO_PENALTY = -100
MUERTO_STATES = ("taken", "not_taken")
DEFAULT_TARGET = 3000


@dataclass(frozen=True)
class Rules(JsonValue):
    """The house rules docs/rules.md §5 makes settings.

    `muerto_bonus`: +100 for taking the muerto (seed: "optativo"; on by default as in the seed).
    `negative_without_canasta`: a team with no canasta counts its laid-down tiles as negative
    (a rule from outside the seed; off by default).
    """

    muerto_bonus: bool = True
    negative_without_canasta: bool = False
    target: int = DEFAULT_TARGET

    @classmethod
    def from_json(cls, settings: Mapping[str, Any]) -> Rules:
        """The table's stored settings, checked (each missing one takes its default)."""
        target = settings.get("target", DEFAULT_TARGET)
        if isinstance(target, bool) or not isinstance(target, int) or not 0 < target <= 1_000_000:
            raise EntryError("The target must be a whole number of points", field="target")
        flags = {}
        for key in ("muerto_bonus", "negative_without_canasta"):
            value = settings.get(key, getattr(cls(), key))
            if not isinstance(value, bool):
                raise EntryError("Choose yes or no", field=key)
            flags[key] = value
        return cls(target=target, **flags)


def tile_points(tile: str | int) -> int:
    """A tile's value: 1 = 15, 2 = 20, 3–7 = 5, 8–13 = 10, joker ("J") = 50."""
    return tiles_total([tile], TILE_POINTS)


def _count(value: Any, field: str, most: int) -> int:
    n = parse_sum(value, field=field)
    if n > most:
        raise EntryError("That is more canastas than a hand can hold", field=field)
    return n


def hand_score(
    *,
    puras: int,
    impuras: int,
    closed: bool,
    muerto: str,
    down: int | Sequence[str],
    left: int | Sequence[str],
    rules: Rules = Rules(),
) -> int:
    """One team's score for one hand (seed "PUNTAJE"): canastas, closing, muerto, and the tiles
    laid down minus the tiles left in hand."""
    typed = SentHand(
        puras=puras, impuras=impuras, closed=closed, muerto=muerto, down=down, left=left
    )
    return BurakoHand.read(typed).score(rules)


@dataclass(frozen=True)
class SentHand:
    """One team's hand as a phone sent it: each field as typed (a count, a sum such as "12+7",
    or the tiles tapped), checked by `BurakoHand.read`, which names the field it refuses."""

    puras: object = 0
    impuras: object = 0
    closed: object = False
    muerto: object = None
    down: object = 0
    left: object = 0

    @classmethod
    def from_json(cls, hand: Mapping[str, Any]) -> SentHand:
        return cls(
            puras=hand.get("puras", 0),
            impuras=hand.get("impuras", 0),
            closed=hand.get("closed", False),
            muerto=hand.get("muerto"),
            down=hand.get("down", 0),
            left=hand.get("left", 0),
        )


@dataclass(frozen=True)
class Entry:
    """One hand of the table as stored: the stored entry's `id`, and each side's hand in the
    order of the players (`teams`: None when the phone did not send a list; a side that is not
    an object is None)."""

    id: int | None
    teams: tuple[SentHand | None, ...] | None

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> Entry:
        teams = entry.get("teams")
        return cls(
            id=entry.get("id"),
            teams=tuple(SentHand.from_json(t) if isinstance(t, dict) else None for t in teams)
            if isinstance(teams, list)
            else None,
        )


@dataclass(frozen=True)
class BurakoHand(JsonValue):
    """What one team scored in one hand, as entered at the table."""

    puras: int
    impuras: int
    closed: bool
    muerto: str
    down: int
    left: int

    @classmethod
    def read(cls, sent: SentHand | None, prefix: str = "") -> BurakoHand:
        """Check a typed hand; errors name the field (`prefix` + key) for the page."""
        if sent is None:
            raise EntryError("Send each team's hand as an object", field=prefix.rstrip(".") or None)
        muerto = sent.muerto
        if not isinstance(muerto, str) or muerto not in MUERTO_STATES:
            raise EntryError("Say whether the muerto was taken", field=prefix + "muerto")
        closed = sent.closed
        if not isinstance(closed, bool):
            raise EntryError("Say whether the team closed", field=prefix + "closed")
        hand = cls(
            puras=_count(sent.puras, prefix + "puras", 15),
            impuras=_count(sent.impuras, prefix + "impuras", 15),
            closed=closed,
            muerto=muerto,
            down=read_points(sent.down, TILE_POINTS, field=prefix + "down"),
            left=read_points(sent.left, TILE_POINTS, field=prefix + "left"),
        )
        if hand.closed and hand.canastas == 0:
            raise EntryError("A team can only close with a canasta", field=prefix + "closed")
        if hand.closed and hand.muerto != "taken":
            raise EntryError(
                "A team can only close after taking the muerto", field=prefix + "closed"
            )
        return hand

    @property
    def canastas(self) -> int:
        return self.puras + self.impuras

    def to_json(self) -> dict[str, Any]:
        """The hand as entered, with its canastas counted."""
        return {**super().to_json(), "canastas": self.canastas}

    def parts(self, rules: Rules = Rules()) -> dict[str, int]:
        """The score line by line, so the table can see where the points came from."""
        if self.muerto == "taken":
            muerto = MUERTO_BONUS if rules.muerto_bonus else 0
        else:
            muerto = MUERTO_PENALTY
        down = self.down
        if rules.negative_without_canasta and self.canastas == 0:
            down = -down
        return {
            "canastas": self.puras * CANASTA_PURA + self.impuras * CANASTA_IMPURA,
            "closing": CLOSING_BONUS if self.closed else 0,
            "muerto": muerto,
            "down": down,
            "left": -self.left,
        }

    def score(self, rules: Rules = Rules()) -> int:
        return sum(self.parts(rules).values())


def winner(totals: Sequence[int], sides: Sequence[str], target: int) -> str | None:
    """Seed "GANADOR": the first team to reach the target. When both pass it on the same hand,
    the higher total wins; a tie at the top means another hand is played (kit decision)."""
    best = max(totals, default=0)
    if best < target or list(totals).count(best) > 1:
        return None
    return sides[list(totals).index(best)]


@dataclass(frozen=True)
class HandRow(JsonValue):
    """One hand of the table: each side's score, its parts, the hands as entered, and the
    running totals."""

    id: int | None
    number: int
    scores: tuple[int, ...]
    parts: tuple[Mapping[str, int], ...]
    hands: tuple[BurakoHand, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class BurakoView(JsonValue):
    """The table as every phone shows it."""

    sides: tuple[str, ...]
    target: int
    rules: Rules
    hands: tuple[HandRow, ...]
    totals: tuple[int, ...]
    to_go: tuple[int, ...]
    finished: bool
    winner: str | None
    tile_points: Mapping[str, int]


def replay(rules: Rules, players: Sequence[str], entries: Sequence[Entry]) -> BurakoView:
    """The shell's entry point: `players` are the two sides (a player, or a pair "Ana & Beto");
    each entry is one hand, `{"teams": [hand, hand]}` in the order of `players`."""
    if len(players) != 2:
        raise EntryError("Burako is played by two sides")
    totals = [0, 0]
    hands = []
    won: str | None = None
    for number, entry in enumerate(entries, start=1):
        entry_id = entry.id
        if won is not None:
            raise EntryError(
                "The game is over: %(name)s won. Undo the last hand to change it.",
                name=won,
                entry_id=entry_id,
            )
        teams = entry.teams
        if teams is None or len(teams) != 2:
            raise EntryError("Enter the hand of both sides", entry_id=entry_id)
        try:
            read = [BurakoHand.read(t, f"teams.{i}.") for i, t in enumerate(teams)]
        except EntryError as exc:
            exc.entry_id = entry_id
            raise
        if all(h.closed for h in read):
            raise EntryError(
                "Only one side can close a hand", field="teams.1.closed", entry_id=entry_id
            )
        parts = [h.parts(rules) for h in read]
        scores = [sum(p.values()) for p in parts]
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        hands.append(
            HandRow(
                id=entry_id,
                number=number,
                scores=tuple(scores),
                parts=tuple(parts),
                hands=tuple(read),
                totals=tuple(totals),
            )
        )
        won = winner(totals, players, rules.target)
    return BurakoView(
        sides=tuple(players),
        target=rules.target,
        rules=rules,
        hands=tuple(hands),
        totals=tuple(totals),
        to_go=tuple(max(rules.target - t, 0) for t in totals),
        finished=won is not None,
        winner=won,
        tile_points=TILE_POINTS,
    )
