"""Domino Bingo rubbers: the scoring of seed domino-bingo.en.txt, read as in docs/rules.md §2.

Two players, a double-six set. The high end of the turned tile is trump for the hand. Points come
from captured tiles (counted at the end of the hand) and from showing doubles (scored at once);
reaching the rubber threshold (70, or 66 in Berndt's variant) scores rubbers, and the match is to
7 rubbers. [0-0] is "the Bingo".

Every value of the game is data in `VARIANTS` (one `Scoring` per variant); `tile_points`, the
trump table, the declarations and `Match` all read from there.

Decisions where the seed is silent:
- Trump-double, trump, double, special: a tile is counted once, as the first that applies
  (seed "Scoring" rule 4).
- Suit 4 of the seed's table says specials 20 / total 144; with 4 as trump [6-4] is a trump, so
  the rules give 10 / 134 (docs/rules.md §2). We implement the rule.
- After a rubber made by reaching the threshold, both running scores reset to 0 (docs/rules.md §2).
  Rubbers that are not made with points (Bingo takes the trump double, a failed close, an
  Emperor/Invincible taken as rubbers) leave the running scores alone: for the failed close the
  seed says outright that "both players get the points they made during the hand".
- If both players pass the threshold with the same hand's tricks, the higher score makes the
  rubber (its opponent is then over 30, so it is one rubber); on an exact tie each makes one.
- A close succeeds when the closer makes a rubber by points during that hand.
- Emperor / Invincible: the setting `big_declarations` picks "points" (70 / 200, the default) or
  "rubbers" (1 / 3); with rubbers, the Bingo's +10 still counts as points.
- Berndt's "no bonuses": at 66 the player always makes exactly one rubber, and the Bingo taking
  the trump double scores nothing. Closing is part of the play, so a failed close still gives the
  opponent 2 rubbers. Only one double can be shown, for 3 points.
- Doubles may be shown more than once in a hand (each time a double wins a trick); the Bingo's
  trick (Bingo takes the trump double) holds [0-0] and the trump double, so the other player
  cannot count them.
- If both players reach 7 rubbers in the same hand, the one with more wins; level means play on.
- The lead alternates, starting with the first player named at the table.

One idea in one module, though it is long: one game's engine for the companion contract
(docs/dev/companion-games.md). The scoring table, the match that applies a hand, its view and the
replay of the entries all read `VARIANTS` and change together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from bingo_hall.values import JsonValue
from companions.entries import EntryFields
from companions.errors import EntryError

Tile = tuple[int, int]

#: the 28 tiles of a double-six set, high end first, in the order the panel draws them
TILES: tuple[Tile, ...] = tuple((hi, lo) for hi in range(7) for lo in range(hi + 1))
BINGO: Tile = (0, 0)


@dataclass(frozen=True)
class Scoring:
    """The values of one variant of the game: the whole "trump table" as data."""

    rubber_points: int  # points that make a rubber
    blank: int  # what a blank end counts on a scoring tile
    trump_double: int | None  # None: the trump double counts its pips
    trump_counts_both_ends: bool  # False: a trump counts only its non-trump end (Berndt)
    double: int | None  # a non-trump double; None: its pips
    specials: dict[Tile, int]  # worth this while they are not trumps
    declarations: dict[int, tuple[int, int]]  # doubles shown -> (points, or rubbers instead)
    bingo_declaration_bonus: int
    rubber_bonuses: bool  # 2 or 3 rubbers when the opponent is low; Bingo takes trump double


VARIANTS: dict[str, Scoring] = {
    "traditional": Scoring(
        rubber_points=70,
        blank=7,
        trump_double=28,
        trump_counts_both_ends=True,
        double=None,
        specials={(3, 0): 10, (6, 4): 10},
        declarations={2: (20, 0), 3: (40, 0), 4: (50, 0), 5: (60, 0), 6: (70, 1), 7: (200, 3)},
        bingo_declaration_bonus=10,
        rubber_bonuses=True,
    ),
    "berndt": Scoring(
        rubber_points=66,
        blank=0,
        trump_double=None,
        trump_counts_both_ends=False,
        double=3,
        specials={},
        declarations={1: (3, 0)},
        bingo_declaration_bonus=0,
        rubber_bonuses=False,
    ),
}

#: the settings a new table starts from (the setup form shows them; `Settings` reads them)
DEFAULT_SETTINGS: dict[str, Any] = {
    "variant": "traditional",
    "low_score": 30,
    "big_declarations": "points",
    "rubbers_to_win": 7,
}

#: the settings with a fixed set of values (the setup form offers them as a choice)
SETTING_CHOICES: dict[str, tuple[Any, ...]] = {
    "variant": ("traditional", "berndt"),
    "low_score": (30, 20),
    "big_declarations": ("points", "rubbers"),
}

#: the Spanish words a host may type in the setup form, for the settings' English values
# "partidas" is what the Spanish pages called a rubber before they said "chicos": still read
SETTING_WORDS = {
    "tradicional": "traditional",
    "puntos": "points",
    "chicos": "rubbers",
    "partidas": "rubbers",
}


@dataclass(frozen=True)
class Settings(JsonValue):
    """A table's house rules (`DEFAULT_SETTINGS`, typed as a setup form or a host wrote them)."""

    variant: str = "traditional"
    low_score: int = 30  # "some authors say 20 instead"
    big_declarations: str = "points"  # or "rubbers": Emperor = 1, Invincible = 3
    rubbers_to_win: int = 7

    @classmethod
    def from_json(cls, settings: Mapping[str, Any]) -> Settings:
        """The stored settings, checked; a missing one takes its default."""
        given = {**DEFAULT_SETTINGS, **settings}
        for key, value in given.items():  # a setup form types "30" or "Tradicional"
            if isinstance(value, str):
                value = value.strip().lower()
                given[key] = (
                    int(value)
                    if value.isascii() and value.isdigit()
                    else SETTING_WORDS.get(value, value)
                )
        _scoring(given["variant"])
        if given["low_score"] not in (20, 30):
            raise EntryError("The low score is 30 or 20", field="low_score")
        if given["big_declarations"] not in ("points", "rubbers"):
            raise EntryError("Big declarations give points or rubbers", field="big_declarations")
        target = given["rubbers_to_win"]
        if type(target) is not int or not 1 <= target <= 99:
            raise EntryError("Play to between 1 and 99 rubbers", field="rubbers_to_win")
        return cls(
            variant=given["variant"],
            low_score=int(given["low_score"]),
            big_declarations=given["big_declarations"],
            rubbers_to_win=target,
        )


def _scoring(variant: str) -> Scoring:
    try:
        return VARIANTS[variant]
    except (KeyError, TypeError):
        raise EntryError("Unknown variant %(variant)s", field="variant", variant=variant) from None


def as_tile(value: Any) -> Tile:
    """A tile as (high, low), from a pair in any order such as (4, 6) or [6, 4]."""
    try:
        a, b = value
    except (TypeError, ValueError):
        raise EntryError("Not a domino tile", field="tiles") from None
    if not all(type(x) is int and 0 <= x <= 6 for x in (a, b)):
        raise EntryError("Not a domino tile", field="tiles")
    return (max(a, b), min(a, b))


def _suit(trump: Any) -> int:
    if type(trump) is not int or not 0 <= trump <= 6:
        raise EntryError("The trump is a suit from 0 to 6", field="trump")
    return trump


def tile_points(tile: Tile, trump: int, variant: str = "traditional") -> int:
    """What one captured tile is worth when `trump` is the trump suit (seed, "Scoring")."""
    s, (hi, lo), trump = _scoring(variant), as_tile(tile), _suit(trump)

    def end(pips: int) -> int:
        return s.blank if pips == 0 else pips

    if hi == lo == trump:
        return s.trump_double if s.trump_double is not None else 2 * trump
    if trump in (hi, lo):
        other = lo if hi == trump else hi
        return end(trump) + end(other) if s.trump_counts_both_ends else end(other)
    if hi == lo:
        return s.double if s.double is not None else end(hi) + end(lo)
    return s.specials.get((hi, lo), 0)


def tile_kind(tile: Tile, trump: int, variant: str = "traditional") -> str | None:
    """Which column of the seed's table a tile counts in: the first of trump, double, special."""
    hi, lo = as_tile(tile)
    if _suit(trump) in (hi, lo):
        return "trumps"
    if hi == lo:
        return "doubles"
    return "specials" if (hi, lo) in _scoring(variant).specials else None


def trump_table(trump: int, variant: str = "traditional") -> dict[str, int]:
    """One row of the seed's table: the points in the set for this trump, by kind of tile."""
    _scoring(variant)
    return dict(_table_row(_suit(trump), variant))


@cache
def _table_row(trump: int, variant: str) -> tuple[tuple[str, int], ...]:
    row = {"trumps": 0, "doubles": 0, "specials": 0}
    for tile in TILES:
        kind = tile_kind(tile, trump, variant)
        if kind:
            row[kind] += tile_points(tile, trump, variant)
    row["total"] = row["trumps"] + row["doubles"] + row["specials"]
    return tuple(row.items())


@dataclass(frozen=True)
class Declaration(JsonValue):
    """Showing doubles: the points, or the rubbers the seed offers instead (0 when none)."""

    points: int
    rubbers: int


def doubles_declaration(count: int, with_bingo: bool, variant: str = "traditional") -> Declaration:
    """The seed's table for showing doubles (count includes the double led), +10 with the Bingo."""
    s = _scoring(variant)
    if type(count) is not int or count not in s.declarations:
        if variant == "berndt":
            raise EntryError("In Berndt's variant only one double can be shown", field="doubles")
        raise EntryError("Show between 2 and 7 doubles", field="doubles")
    points, rubbers = s.declarations[count]
    return Declaration(points + (s.bingo_declaration_bonus if with_bingo else 0), rubbers)


@dataclass(frozen=True)
class Rubber(JsonValue):
    """A line of the match's history: who scored rubbers, how many and why."""

    player: str
    rubbers: int
    reason: str  # "points", "bingo_double", "failed_close", "declaration"
    hand: int
    opponent_points: int | None = None


@dataclass(frozen=True)
class SheetLine(JsonValue):
    """A finished hand on the score sheet: its trump, each player's trick points, the points
    for doubles shown, and who closed (None: nobody)."""

    hand: int
    trump: int
    tricks: Mapping[str, int]
    shown: Mapping[str, int]
    closed_by: str | None


@dataclass
class Hand:
    number: int
    trump: int
    leader: str
    closed_by: str | None = None
    bingo_double_by: str | None = None
    tricks: dict[str, int] = field(default_factory=dict)
    captured: dict[str, list[Tile]] = field(default_factory=dict)
    rubber_by_points: set[str] = field(default_factory=set)
    shown: dict[str, int] = field(default_factory=dict)  # points for doubles shown


class Match:
    """A match of Domino Bingo between two players, fed hand by hand and event by event."""

    def __init__(self, players: Sequence[str], settings: Settings = Settings()) -> None:
        if len(players) != 2 or len(set(players)) != 2:
            raise EntryError("Domino Bingo is for two players")
        self.settings = settings
        self.scoring = _scoring(settings.variant)
        self.players = list(players)
        self.points = dict.fromkeys(players, 0)
        self.rubbers = dict.fromkeys(players, 0)
        self.history: list[Rubber] = []
        self.hand: Hand | None = None  # the hand being played
        self.hands_played = 0
        self.sheet: list[SheetLine] = []  # one line per finished hand, for the score sheet
        self.winner: str | None = None

    # -- events ------------------------------------------------------------------------------
    def start_hand(self, trump: int) -> Hand:
        """A new hand with the trump shown by the turned tile; the lead alternates."""
        self._between_hands()
        leader = self.players[self.hands_played % 2]
        self.hand = Hand(self.hands_played + 1, _suit(trump), leader)
        return self.hand

    def declare(self, player: str, doubles: int, with_bingo: bool = False) -> Declaration:
        """Doubles shown after winning a trick with a double: scored at once (seed)."""
        hand = self._open()
        self._player(player)
        decl = doubles_declaration(doubles, bool(with_bingo), self.settings.variant)
        points = decl.points
        if decl.rubbers and self.settings.big_declarations == "rubbers":
            self._award(player, decl.rubbers, "declaration")
            points -= self.scoring.declarations[doubles][0]
        self.points[player] += points
        hand.shown[player] = hand.shown.get(player, 0) + points
        self._check_threshold([player], hand)
        return decl

    def bingo_takes_trump_double(self, player: str) -> None:
        """Seed rubber rule 4: winning the trump double with the Bingo is one rubber."""
        hand = self._open()
        self._player(player)
        if not self.scoring.rubber_bonuses:
            raise EntryError("Berndt's variant has no rubber for the Bingo", field="type")
        if hand.trump == 0:
            raise EntryError("With blank as trump the Bingo is the trump double", field="type")
        if hand.bingo_double_by:
            raise EntryError("The trump double was already taken this hand", field="type")
        hand.bingo_double_by = player
        self._award(player, 1, "bingo_double")

    def close(self, player: str) -> None:
        """The player turns the trump tile down and must make the rubber this hand."""
        hand = self._open()
        self._player(player)
        if hand.closed_by:
            raise EntryError("The game is already closed this hand", field="type")
        hand.closed_by = player

    def tricks(self, player: str, tiles: list[Any] | None = None, points: int | None = None) -> int:
        """The tricks a player took: the tiles (each counted once) or a typed total."""
        hand = self._open()
        self._player(player)
        if player in hand.tricks:
            raise EntryError("%(player)s already counted their tricks", player=player)
        table_total = trump_table(hand.trump, self.settings.variant)["total"]
        if tiles is not None:
            captured = [as_tile(t) for t in tiles]
            if len(set(captured)) != len(captured):
                raise EntryError("A tile counts only once", field="tiles")
            claimed = dict(hand.captured)
            if hand.bingo_double_by:  # that trick holds the Bingo and the trump double
                claimed.setdefault(hand.bingo_double_by, [])
                claimed[hand.bingo_double_by] += [BINGO, (hand.trump, hand.trump)]
            for other, theirs in claimed.items():
                if other != player and set(captured) & set(theirs):
                    raise EntryError(
                        "That tile was captured by %(player)s",
                        field="tiles",
                        player=other,
                    )
            hand.captured[player] = captured
            variant = self.settings.variant
            points = sum([tile_points(t, hand.trump, variant) for t in captured])
        elif type(points) is not int or not 0 <= points <= table_total:
            raise EntryError(
                "Trick points are between 0 and %(total)s",
                field="points",
                total=table_total,
            )
        if sum(hand.tricks.values()) + points > table_total:
            raise EntryError(
                "Both players' tricks add up to more than %(total)s",
                field="points",
                total=table_total,
            )
        hand.tricks[player] = points
        if len(hand.tricks) == 2:
            self._end_hand(hand)
        return points

    # -- rules -------------------------------------------------------------------------------
    def _end_hand(self, hand: Hand) -> None:
        """Trick points go on at the end of the hand (seed); then rubbers and the close."""
        for p in self.players:
            self.points[p] += hand.tricks[p]
        self._check_threshold(self.players, hand)
        closer = hand.closed_by
        if closer and closer not in hand.rubber_by_points and self.winner is None:
            self._award(self._opponent(closer), 2, "failed_close")
        self.sheet.append(
            SheetLine(hand.number, hand.trump, dict(hand.tricks), dict(hand.shown), hand.closed_by)
        )
        self.hand = None
        self.hands_played += 1

    def _check_threshold(self, candidates: list[str], hand: Hand) -> None:
        goal = self.scoring.rubber_points
        over = [p for p in candidates if self.points[p] >= goal]
        if len(over) == 2 and self.points[over[0]] != self.points[over[1]]:
            over = [max(over, key=lambda p: self.points[p])]
        made = []
        for p in over:
            opp = self.points[self._opponent(p)]
            if not self.scoring.rubber_bonuses or len(over) == 2:
                count = 1
            else:
                count = 3 if opp == 0 else 2 if opp < self.settings.low_score else 1
            made.append((p, count, opp))
        for p, count, opp in made:
            hand.rubber_by_points.add(p)
            self._award(p, count, "points", opp)
        if made:
            self.points = dict.fromkeys(self.players, 0)

    def _award(self, player: str, count: int, reason: str, opp: int | None = None) -> None:
        number = self.hand.number if self.hand else self.hands_played
        self.history.append(Rubber(player, count, reason, number, opp))
        self.rubbers[player] += count
        target = self.settings.rubbers_to_win
        a, b = (self.rubbers[p] for p in self.players)
        self.winner = None
        if max(a, b) >= target and a != b:
            self.winner = self.players[0] if a > b else self.players[1]

    def _open(self) -> Hand:
        """The hand being played, or the rule that says there is none."""
        self._not_over()
        if self.hand is None:
            raise EntryError("Pick the trump for the new hand first", field="trump")
        return self.hand

    def _between_hands(self) -> None:
        self._not_over()
        if self.hand is not None:
            raise EntryError("Finish the hand first: both players count their tricks")

    def _not_over(self) -> None:
        if self.winner is not None:
            raise EntryError("The match is over: %(player)s won", player=self.winner)

    def _player(self, player: str) -> None:
        if player is None:
            raise EntryError("Say which player", field="player")
        if player not in self.players:
            raise EntryError("%(player)s is not at this table", field="player", player=player)

    def _opponent(self, player: str) -> str:
        return self.players[1 - self.players.index(player)]


# -- the shell's replay (docs/dev/companion-games.md) ------------------------------------------
@dataclass(frozen=True)
class Entry(EntryFields):
    """One stored entry: its `id`, its `type` ("hand", "declare", "bingo_double", "close" or
    "tricks") and the fields of that type. Each field is as the phone sent it (or None): the
    Match method it goes to checks it, and names it when it refuses it."""

    id: int | None
    type: object
    player: Any = None
    trump: Any = None
    doubles: Any = None
    #: a declaration made with the Bingo: only a JSON `true` says so
    bingo: bool = False
    tiles: object = None
    points: Any = None

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> Entry:
        if not isinstance(entry, Mapping):
            raise EntryError("Unknown kind of entry", field="type")
        return replace(super().from_json(entry), bingo=entry.get("bingo") is True)


def _apply(match: Match, entry: Entry) -> None:
    kind = entry.type
    if kind == "hand":
        match.start_hand(entry.trump)
    elif kind == "declare":
        match.declare(entry.player, entry.doubles, entry.bingo)
    elif kind == "bingo_double":
        match.bingo_takes_trump_double(entry.player)
    elif kind == "close":
        match.close(entry.player)
    elif kind == "tricks":
        tiles = entry.tiles
        if tiles is not None and not isinstance(tiles, list):
            raise EntryError("Not a domino tile", field="tiles")
        match.tricks(entry.player, tiles, entry.points)
    else:
        raise EntryError("Unknown kind of entry", field="type")


@dataclass(frozen=True)
class TileView(JsonValue):
    """A tile as the hand's trump makes it: its points and its kind (trump, special...)."""

    tile: Tile
    points: int
    kind: str | None


@dataclass(frozen=True)
class HandView(JsonValue):
    """The hand being played: its trump, tricks, captured tiles and every tile's value."""

    number: int
    trump: int
    leader: str
    closed_by: str | None
    bingo_double_by: str | None
    tricks: Mapping[str, int]
    captured: Mapping[str, tuple[Tile, ...]]
    table: Mapping[str, int]
    tiles: tuple[TileView, ...]


@dataclass(frozen=True)
class DominoView(JsonValue):
    """Everything the panel shows; tile values come from here, not from the page."""

    players: tuple[str, ...]
    points: Mapping[str, int]
    rubbers: Mapping[str, int]
    log: tuple[Rubber, ...]
    hand: HandView | None
    hands_played: int
    sheet: tuple[SheetLine, ...]
    next_leader: str
    rubber_points: int
    declarations: Mapping[str, Declaration]
    bingo_bonus: int
    settings: Settings
    finished: bool
    winner: str | None


def view(match: Match) -> DominoView:
    """Everything the panel shows, as a value (`to_json()` at the route)."""
    variant = match.settings.variant
    hand = match.hand
    hand_view = None
    if hand is not None:
        hand_view = HandView(
            number=hand.number,
            trump=hand.trump,
            leader=hand.leader,
            closed_by=hand.closed_by,
            bingo_double_by=hand.bingo_double_by,
            tricks=dict(hand.tricks),
            captured={p: tuple(ts) for p, ts in hand.captured.items()},
            table=trump_table(hand.trump, variant),
            tiles=tuple(
                TileView(
                    tile=(a, b),
                    points=tile_points((a, b), hand.trump, variant),
                    kind=tile_kind((a, b), hand.trump, variant),
                )
                for a, b in TILES
            ),
        )
    return DominoView(
        players=tuple(match.players),
        points=dict(match.points),
        rubbers=dict(match.rubbers),
        log=tuple(match.history),
        hand=hand_view,
        hands_played=match.hands_played,
        sheet=tuple(match.sheet),
        next_leader=match.players[match.hands_played % 2],
        rubber_points=match.scoring.rubber_points,
        declarations={
            str(n): Declaration(p, r) for n, (p, r) in match.scoring.declarations.items()
        },
        bingo_bonus=match.scoring.bingo_declaration_bonus,
        settings=match.settings,
        finished=match.winner is not None,
        winner=match.winner,
    )


def replay(settings: Settings, players: Sequence[str], entries: Sequence[Entry]) -> DominoView:
    """Rebuild the match from the table's entries, in order, and return the panel's view."""
    match = Match(players, settings)
    for entry in entries:
        try:
            _apply(match, entry)
        except EntryError as exc:
            exc.entry_id = entry.id
            raise
    return view(match)
