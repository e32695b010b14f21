"""The shell's replay for the Clue notebook: stored entries in, the panel's view out (pure).

One table is one detective's notebook (docs/rules.md §3): the table's players are everyone
seated, in seating order, and the first entry is the setup, saying which of them is me, my cards
and the hand sizes. Every later entry is an event: a suggestion, a failed accusation or a card
seen by accident. Event numbers in the panel and in contradiction messages count the active
events from 1, in order.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any

from bingo_hall.values import JsonValue, as_json
from companions.clue import (
    CARDS,
    ENVELOPE,
    Advice,
    Card,
    Contradiction,
    Event,
    Notebook,
    OutOfTurn,
    deal_sizes,
)
from companions.entries import EntryFields
from companions.errors import EntryError


@dataclass(frozen=True)
class Settings(JsonValue):
    """A notebook has no house rules: its stored settings are an empty object."""

    @classmethod
    def from_json(cls, settings: Mapping[str, Any]) -> Settings:
        return cls()


@dataclass(frozen=True)
class Entry(EntryFields, JsonValue):
    """One stored entry: its `id`, its `type` ("setup", then "suggestion", "accusation" or
    "seen") and the fields of that type, each as the phone sent it (or None): the notebook
    checks each one and names it when it refuses it. `player` is who sent the entry (the
    accuser of an accusation)."""

    id: int | None
    type: object
    # the setup
    seating: Any = None
    me: Any = None
    cards: Any = None
    hand_sizes: Any = None
    # the events
    suggester: Any = None
    suspect: Any = None
    weapon: Any = None
    room: Any = None
    passed: Any = None
    shown_by: Any = None
    card: Any = None
    player: Any = None
    holder: Any = None


@dataclass(frozen=True)
class Setup(JsonValue):
    """The notebook's first entry: the seating, who I am, my cards and the hand sizes."""

    id: int | None
    seating: tuple[str, ...]
    me: str
    cards: tuple[str, ...]
    hand_sizes: tuple[int, ...]


@dataclass(frozen=True)
class NotedEvent(JsonValue):
    """An event as the panel lists it: its number, its entry, its kind and its own fields."""

    n: int
    id: int | None
    event: Event

    def to_json(self) -> dict[str, Any]:
        own = {f.name: as_json(getattr(self.event, f.name)) for f in fields(self.event)}
        return {"n": self.n, "id": self.id, "type": type(self.event).__name__.lower(), **own}


@dataclass(frozen=True)
class Likely(JsonValue):
    """A category's most likely envelope card (`card`: None on a tie), the tied cards and the
    chance."""

    card: str | None
    tied: tuple[str, ...]
    p: float


@dataclass(frozen=True)
class Knowledge(JsonValue):
    """Grid, why-chains, exact odds, the envelope and the advice."""

    grid: Mapping[str, Mapping[str, str]]
    why: Mapping[str, Mapping[str, list[int]]]
    odds: Mapping[str, Mapping[str, float]]
    deals: str
    envelope: Mapping[str, str | None]
    likely: Mapping[str, Likely]
    solved: bool
    advice: tuple[Advice, ...]
    advice_by_room: Mapping[str, tuple[Advice, ...]]


@dataclass(frozen=True)
class ClueView(JsonValue):
    """The notebook as the panel shows it; `knowledge` once it is set up (its fields join the
    view's in JSON)."""

    finished: bool
    winner: str | None
    players: tuple[str, ...]
    default_sizes: tuple[int, ...]
    cards: tuple[Card, ...]
    setup: Setup | None
    events: tuple[NotedEvent, ...]
    knowledge: Knowledge | None

    def to_json(self) -> dict[str, Any]:
        out = {f.name: as_json(getattr(self, f.name)) for f in fields(self)}
        knowledge = out.pop("knowledge")
        return {**out, **(knowledge or {})}


def replay(settings: Settings, players: Sequence[str], entries: Sequence[Entry]) -> ClueView:
    """Rebuild the notebook from its entries; the view has the grid, why-chains and odds. The
    same notes give the same view, so the last few views are kept (the replay is pure)."""
    notes = [list(players), [e.to_json() for e in entries]]
    return _replay_cached(json.dumps(notes, sort_keys=True, default=str))


@lru_cache(maxsize=64)
def _replay_cached(key: str) -> ClueView:
    players, entries = json.loads(key)
    return _build(players, [Entry.from_json(e) for e in entries])


def _build(players: list[str], entries: list[Entry]) -> ClueView:
    base = ClueView(
        finished=False,
        winner=None,
        players=tuple(players),
        default_sizes=tuple(deal_sizes(len(players))) if 3 <= len(players) <= 6 else (),
        cards=CARDS,
        setup=None,
        events=(),
        knowledge=None,
    )
    if not 3 <= len(players) <= 6:
        raise EntryError("Clue is played by 3 to 6 players", field="players")
    if not entries:
        return base
    first, rest = entries[0], entries[1:]
    if first.type != "setup":
        raise EntryError("Set up your notebook first", entry_id=first.id)
    try:
        nb = Notebook(_seating(players, first.seating), *_hand(first))
    except EntryError as exc:
        exc.entry_id = first.id
        raise
    setup = Setup(
        id=first.id,
        seating=tuple(nb.players),
        me=nb.me,
        cards=tuple(nb.my_cards),
        hand_sizes=tuple(nb.hand_sizes),
    )
    events = []
    for entry in rest:
        try:
            events.append(_event(nb, entry))
        except EntryError as exc:
            exc.entry_id = entry.id
            raise
        except (TypeError, ValueError) as exc:  # e.g. a list where a name belongs
            raise EntryError("This entry is not a valid event", entry_id=entry.id) from exc
    try:
        nb.add_all(events)
    except Contradiction as exc:
        # the last entry is the note being saved: it is "this note", not a number yet
        raise Contradiction(
            exc.events, entry_id=rest[max(exc.events) - 1].id, note=len(rest)
        ) from None
    except OutOfTurn as exc:
        exc.entry_id = rest[exc.number - 1].id
        raise
    return replace(
        base,
        players=tuple(nb.players),
        setup=setup,
        events=tuple(
            NotedEvent(n, entry.id, e) for n, (e, entry) in enumerate(zip(nb.events, rest), 1)
        ),
        knowledge=_knowledge(nb),
    )


def _seating(players: list[str], seating: Any) -> list[str]:
    """The setup may put the table's players in seating order (clockwise, from the one who
    got the first card); by default they sit as they were typed."""
    if seating is None:
        return list(players)
    if not isinstance(seating, list) or sorted(map(str, seating)) != sorted(players):
        raise EntryError("The seating order must list every player once", field="seating")
    return [str(p) for p in seating]


def _hand(setup: Entry) -> tuple[str, list[str], list[int] | None]:
    cards = setup.cards or []
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise EntryError("Choose your cards", field="my_cards")
    sizes = setup.hand_sizes
    if sizes is not None and not (
        isinstance(sizes, list) and all(type(h) is int for h in sizes)  # bool is not a size
    ):
        raise EntryError("Hand sizes must add up to 18", field="hand_sizes")
    return str(setup.me or ""), cards, sizes


def _event(nb: Notebook, entry: Entry) -> Event:
    kind = entry.type
    if kind == "suggestion":
        return nb.make_suggestion(
            entry.suggester,
            entry.suspect,
            entry.weapon,
            entry.room,
            entry.passed,
            entry.shown_by,
            entry.card,
        )
    if kind == "accusation":
        return nb.make_accusation(entry.player, entry.suspect, entry.weapon, entry.room)
    if kind == "seen":
        return nb.make_seen(entry.holder, entry.card)
    if kind == "setup":
        raise EntryError("The notebook is already set up: correct the setup entry instead")
    raise EntryError("Unknown kind of event")


def _knowledge(nb: Notebook) -> Knowledge:
    """Grid, why-chains, exact odds, the envelope and the advice."""
    places = list(nb.players) + [ENVELOPE]
    known = nb.known() or {}
    probs = nb.probabilities()
    grid: dict[str, dict[str, str]] = {}
    why: dict[str, dict[str, list[int]]] = {}
    odds: dict[str, dict[str, float]] = {}
    for i, card in enumerate(CARDS):
        grid[card.id], why[card.id], odds[card.id] = {}, {}, {}
        for lo, place in enumerate(places):
            value = known.get((i, lo))
            odds[card.id][place] = round(float(probs[card.id][place]), 4)
            if value is None:
                grid[card.id][place] = "unknown"
                continue
            grid[card.id][place] = "has" if value else "lacks"
            why[card.id][place] = nb.why(card.id, place)
    solved = nb.envelope()
    likely: dict[str, Likely] = {}
    for category in ("suspect", "weapon", "room"):
        # "Most likely" names a card only when one leads; a tie (five suspects at 20%) says so.
        group = [c for c in CARDS if c.category == category]
        top = max(probs[c.id][ENVELOPE] for c in group)
        tied = [c.id for c in group if probs[c.id][ENVELOPE] == top]
        likely[category] = Likely(
            card=tied[0] if len(tied) == 1 else None,
            tied=tuple(tied),
            p=odds[tied[0]][ENVELOPE],
        )
    advice = nb.advice()
    by_room: dict[str, tuple[Advice, ...]] = {}
    for a in advice:
        if len(room := by_room.setdefault(a.room, ())) < 3:
            by_room[a.room] = (*room, a)
    return Knowledge(
        grid=grid,
        why=why,
        odds=odds,
        deals=str(nb.deals()),
        envelope=solved,
        likely=likely,
        solved=all(solved.values()),
        advice=tuple(advice[:5]),
        advice_by_room=by_room,
    )
