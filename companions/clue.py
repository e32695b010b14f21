"""Clue detective notes that deduce: the seed's "Apuntes de Pesquisa" kept on the phone.

One notebook is one detective's private notes (`clue.es.txt`, docs/rules.md §3): the
players in seating order (clockwise, the order of turns, of the deal and of refutation, which
"pasa hacia la izquierda"), which one is me and my cards. Events are what I witness: suggestions
with their passes and shows, wrong accusations and cards seen by accident. The solver in
`clue_solver` marks every cell that follows from them, explains each mark by the events that
prove it, refuses contradictions, and gives exact probabilities.

Decisions where the seed is silent:
- The deal starts with the first player listed, so with 18 cards the first 18 % n players get
  one card more (5,5,4,4 / 4,4,4,3,3); sizes can be edited.
- Refutation stops at the first player who shows: everyone strictly between the suggester and
  that player (going left) passed, whether or not `passed` lists them. Listing a player outside
  that stretch is an error. With no shower, every other player passed.
- Only the suggester sees the shown card, so `card` is accepted only when I suggested or I
  showed. A card can also be seen "in the envelope" (after my own wrong accusation).
- After a wrong accusation a player makes no more suggestions (the seed: "no tendrá derecho a
  más turnos") but still refutes.
- Odds treat every deal consistent with the notes as equally likely; they do not read anything
  into which suggestion a player chose or which card they preferred to show.

One idea in one module, though it is long: one detective's notebook, the engine of the companion
contract (docs/dev/companion-games.md). Its events, the notebook that applies them, its view and
its replay all speak of the same cells and change together; the solving itself, the part that
stands on its own, is `clue_solver`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bingo_hall.rng import SeededStream
from bingo_hall.values import JsonValue
from companions.clue_solver import Clause, Counting, Problem, advise
from companions.errors import EntryError

ENVELOPE = "envelope"
_WHY_MEMO: dict[
    tuple[object, ...], dict[tuple[int, int, bool], list[tuple[Event, ...]]]
] = {}  # setup -> fact -> chains
CATEGORIES = ("suspect", "weapon", "room")


def N_(message: str) -> str:
    """Marks a message for the catalog; the shell translates it where it is shown."""
    return message


@dataclass(frozen=True)
class Advice(JsonValue):
    """A suggestion I could make, and the information its answer is expected to give (bits)."""

    suspect: str
    weapon: str
    room: str
    bits: float


@dataclass(frozen=True)
class Card(JsonValue):
    """A clue card, with its names from the seed's "Glosario bilingüe"."""

    id: str
    category: str
    es: str
    en: str

    def label(self, lang: str) -> str:
        return self.es if lang == "es" else self.en


SUSPECTS = (
    Card("green", "suspect", "Sr. Verde", "Mr. Green"),
    Card("mustard", "suspect", "Cor. Mostaza", "Col. Mustard"),
    Card("peacock", "suspect", "Sra. Pavorreal", "Mrs. Peacock"),
    Card("plum", "suspect", "Prof. Ciruela", "Prof. Plum"),
    Card("scarlet", "suspect", "Srita. Escarlata", "Miss Scarlet"),
    Card("white", "suspect", "Sra. Blanco", "Mrs. White"),
)
WEAPONS = (
    Card("candlestick", "weapon", "Candelero", "Candlestick"),
    Card("knife", "weapon", "Cuchillo", "Knife"),
    Card("lead_pipe", "weapon", "Tubo de plomo", "Lead pipe"),
    Card("revolver", "weapon", "Revólver", "Revolver"),
    Card("rope", "weapon", "Soga", "Rope"),
    Card("wrench", "weapon", "Llave inglesa", "Wrench"),
)
ROOMS = (
    Card("ballroom", "room", "Salón de baile", "Ballroom"),
    Card("billiard_room", "room", "Sala de billar", "Billiard room"),
    Card("conservatory", "room", "Invernadero", "Conservatory"),
    Card("dining_room", "room", "Comedor", "Dining room"),
    Card("hall", "room", "Antecámara", "Hall"),
    Card("kitchen", "room", "Cocina", "Kitchen"),
    Card("library", "room", "Biblioteca", "Library"),
    Card("lounge", "room", "Sala de holganza", "Lounge"),
    Card("study", "room", "Estudio", "Study"),
)
CARDS = SUSPECTS + WEAPONS + ROOMS
CARD_INDEX = {card.id: i for i, card in enumerate(CARDS)}
_CATEGORY = tuple(CATEGORIES.index(card.category) for card in CARDS)
DEALT = len(CARDS) - len(CATEGORIES)  # 18 cards go to the players


def deal_sizes(n_players: int) -> tuple[int, ...]:
    """Hand sizes of the seed's deal: one card at a time, clockwise, from the first player."""
    return tuple(DEALT // n_players + (1 if p < DEALT % n_players else 0) for p in range(n_players))


@dataclass(frozen=True)
class Suggestion:
    suggester: str
    suspect: str
    weapon: str
    room: str
    passed: tuple[str, ...]  # every player who said "none", as the rules imply
    shown_by: str | None
    card: str | None = None

    @property
    def cards(self) -> tuple[str, str, str]:
        return (self.suspect, self.weapon, self.room)


@dataclass(frozen=True)
class Accusation:
    player: str
    suspect: str
    weapon: str
    room: str


@dataclass(frozen=True)
class Seen:
    holder: str  # a player, or ENVELOPE
    card: str


Event = Suggestion | Accusation | Seen


@dataclass(frozen=True)
class CardStatus(JsonValue):
    """Where a card is: `holder` is a player, ENVELOPE or "unknown"; `excluded`, the places
    known to lack it."""

    holder: str
    excluded: tuple[str, ...]


class OutOfTurn(EntryError):
    """Event `number` (from 1) is one a player may not make any more."""

    def __init__(self, number: int, message: str, field: str, player: str) -> None:
        self.number = number
        super().__init__(message, field=field, player=player)


class Contradiction(EntryError):
    """The events cannot all be true; `events` are the numbers (from 1) of a minimal set.
    `note`: the number of the note being saved, when it is among them: it has no number for the
    player yet, so the message calls it "this note" and names only the others."""

    def __init__(
        self, events: Sequence[int], entry_id: int | None = None, note: int | None = None
    ) -> None:
        self.events = tuple(events)
        others = [n for n in self.events if n != note]
        listed = ", ".join(f"#{n}" for n in (others if note in self.events else self.events))
        if note in self.events and not others:
            message = N_(
                "Contradiction: this note cannot be true with your cards and the hand sizes"
            )
        elif note in self.events:
            message = (
                N_("Contradiction: this note cannot be true with event %(events)s")
                if len(others) == 1
                else N_("Contradiction: this note cannot be true with events %(events)s")
            )
        elif len(self.events) == 1:  # it clashes with the setup itself
            message = N_(
                "Contradiction: event %(events)s cannot be true with your cards and the hand sizes"
            )
        else:
            message = N_("Contradiction: events %(events)s cannot all be true")
        super().__init__(message, entry_id=entry_id, events=listed)


_UNKNOWN = {
    "suspect": N_("Choose a suspect"),
    "weapon": N_("Choose a weapon"),
    "room": N_("Choose a room"),
}


def card_id(value: str, category: str, field: str) -> str:
    if value not in CARD_INDEX or CARDS[CARD_INDEX[value]].category != category:
        raise EntryError(_UNKNOWN[category], field=field)
    return value


class Notebook:
    """One detective's notes: setup, the events in order, and what follows from them."""

    def __init__(
        self,
        players: Sequence[str],
        me: str,
        my_cards: Sequence[str],
        hand_sizes: Sequence[int] | dict[str, int] | None = None,
    ) -> None:
        players = [str(p).strip() for p in players]
        if not 3 <= len(players) <= 6:
            raise EntryError("Clue is played by 3 to 6 players", field="players")
        if any(not p for p in players) or len(set(players)) != len(players) or ENVELOPE in players:
            raise EntryError("Each player needs a different name", field="players")
        if me not in players:
            raise EntryError("Choose which player you are", field="me")
        for c in my_cards:
            if c not in CARD_INDEX:
                raise EntryError("Unknown card: %(value)s", field="my_cards", value=c)
        if len(set(my_cards)) != len(my_cards):
            raise EntryError("A card is listed twice in your hand", field="my_cards")
        if hand_sizes is None:
            sizes = deal_sizes(len(players))
        elif isinstance(hand_sizes, dict):
            sizes = tuple(
                int(hand_sizes.get(p, d)) for p, d in zip(players, deal_sizes(len(players)))
            )
        else:
            sizes = tuple(int(h) for h in hand_sizes)
        if (
            len(sizes) != len(players)
            or any(not 0 <= h <= 15 for h in sizes)
            or sum(sizes) != DEALT
        ):
            raise EntryError("Hand sizes must add up to 18", field="hand_sizes")
        if sizes[players.index(me)] != len(my_cards):
            raise EntryError(
                "You hold %(size)s cards: choose exactly that many",
                field="my_cards",
                size=sizes[players.index(me)],
            )
        self.players = tuple(players)
        self.me = me
        self.my_cards = tuple(my_cards)
        self.hand_sizes = sizes
        self.events: list[Event] = []
        self._known: dict[tuple[int, int], bool] | None = None
        self._counting: Counting | None = None
        mine = self.players.index(me)
        setup = tuple(((i, mine, CARDS[i].id in my_cards),) for i in range(len(CARDS)))
        self._setup: tuple[Clause, ...] = setup
        known = self.known()
        if known is None:
            raise EntryError("Your cards do not fit the hand sizes", field="my_cards")
        self._baseline = dict(known)  # what the setup alone proves

    # -- events ------------------------------------------------------------------------------
    def suggest(
        self,
        suggester: str,
        suspect: str,
        weapon: str,
        room: str,
        passed: Sequence[str] | None = None,
        shown_by: str | None = None,
        card: str | None = None,
    ) -> int:
        """Record a suggestion; returns its event number."""
        return self._add(
            self.make_suggestion(suggester, suspect, weapon, room, passed, shown_by, card)
        )

    def failed_accusation(self, player: str, suspect: str, weapon: str, room: str) -> int:
        return self._add(self.make_accusation(player, suspect, weapon, room))

    def seen(self, holder: str, card: str) -> int:
        """A card seen by accident, in a player's hand or in the envelope."""
        return self._add(self.make_seen(holder, card))

    def undo(self, number: int) -> Event:
        """Remove event `number` (from 1). Fewer constraints can never contradict."""
        self._check_number(number)
        event = self.events.pop(number - 1)
        self._changed()
        return event

    def edit(self, number: int, event: Event) -> None:
        """Replace event `number` (from 1), refusing the change if it makes a contradiction."""
        self._check_number(number)
        old = self.events[number - 1]
        self.events[number - 1] = event
        self._changed()
        try:
            self._check_turns(self.events)
        except OutOfTurn:
            self.events[number - 1] = old
            self._changed()
            raise
        if self.known() is None:
            bad = self._problem().conflict()
            self.events[number - 1] = old
            self._changed()
            raise Contradiction([i + 1 for i in bad])

    def make_suggestion(
        self,
        suggester: Any,
        suspect: Any,
        weapon: Any,
        room: Any,
        passed: Any = None,
        shown_by: Any = None,
        card: Any = None,
    ) -> Suggestion:
        self._player(suggester, "suggester")
        cards = (
            card_id(suspect, "suspect", "suspect"),
            card_id(weapon, "weapon", "weapon"),
            card_id(room, "room", "room"),
        )
        order = self._left_of(suggester)
        if shown_by in (None, ""):
            shown_by = None
            between = order
        else:
            self._player(shown_by, "shown_by")
            if shown_by == suggester:
                raise EntryError(
                    "The suggester cannot refute their own suggestion", field="shown_by"
                )
            between = order[: order.index(shown_by)]
        for p in passed or ():
            self._player(p, "passed")
            if p not in between:
                raise EntryError(
                    "%(player)s was not asked: refutation stops at the first player who shows",
                    field="passed",
                    player=p,
                )
        if card in ("", None):
            card = None
        else:
            if card not in cards:
                raise EntryError("The card shown must be one of the three named", field="card")
            if shown_by is None:
                raise EntryError("Say who showed the card", field="shown_by")
            if self.me not in (suggester, shown_by):
                raise EntryError("Only the suggester sees the card shown", field="card")
        return Suggestion(suggester, *cards, passed=tuple(between), shown_by=shown_by, card=card)

    def make_accusation(self, player: Any, suspect: Any, weapon: Any, room: Any) -> Accusation:
        self._player(player, "player")
        return Accusation(
            player,
            card_id(suspect, "suspect", "suspect"),
            card_id(weapon, "weapon", "weapon"),
            card_id(room, "room", "room"),
        )

    def make_seen(self, holder: Any, card: Any) -> Seen:
        if holder != ENVELOPE:
            self._player(holder, "holder")
        if card not in CARD_INDEX:
            raise EntryError("Unknown card: %(value)s", field="card", value=card)
        return Seen(holder, card)

    def _add(self, event: Event) -> int:
        self.add_all([event])
        return len(self.events)

    def add_all(self, events: Sequence[Event]) -> None:
        """Record several events with one consistency check (a replay of stored notes)."""
        before = len(self.events)
        self.events.extend(events)
        self._changed()
        try:
            self._check_turns(self.events)
        except OutOfTurn:
            del self.events[before:]
            self._changed()
            raise
        if self.known() is None:
            bad = self._problem().conflict()
            del self.events[before:]
            self._changed()
            raise Contradiction([i + 1 for i in bad])

    @staticmethod
    def _check_turns(events: Sequence[Event]) -> None:
        """The seed: "Determinado jugador puede hacer solamente una Acusación", and after a
        false one "no tendrá derecho a más turnos" (but still refutes)."""
        accused: set[str] = set()
        for n, event in enumerate(events, 1):
            if isinstance(event, Accusation):
                if event.player in accused:
                    raise OutOfTurn(
                        n, "%(player)s has already made an accusation", "player", event.player
                    )
                accused.add(event.player)
            elif isinstance(event, Suggestion) and event.suggester in accused:
                raise OutOfTurn(
                    n,
                    "%(player)s made a wrong accusation and takes no more turns",
                    "suggester",
                    event.suggester,
                )

    def _player(self, name: object, field: str) -> None:
        if name not in self.players:
            raise EntryError("Unknown player: %(player)s", field=field, player=name)

    def _left_of(self, player: str) -> list[str]:
        k = self.players.index(player)
        return list(self.players[k + 1 :] + self.players[:k])

    def _check_number(self, number: int) -> None:
        if not 1 <= number <= len(self.events):
            raise EntryError("There is no event #%(number)s", number=number)

    def _changed(self) -> None:
        self._known = None
        self._counting = None

    # -- reasoning ---------------------------------------------------------------------------
    def location(self, name: str) -> int:
        return len(self.players) if name == ENVELOPE else self.players.index(name)

    def location_name(self, index: int) -> str:
        return ENVELOPE if index == len(self.players) else self.players[index]

    def _clauses(self, event: Event) -> tuple[Clause, ...]:
        loc, idx = self.location, CARD_INDEX
        if isinstance(event, Suggestion):
            three = [idx[c] for c in event.cards]
            out: list[Clause] = [((c, loc(p), False),) for p in event.passed for c in three]
            if event.card is not None and event.shown_by is not None:  # a card shown has a shower
                out.append(((idx[event.card], loc(event.shown_by), True),))
            elif event.shown_by is not None:
                out.append(tuple((c, loc(event.shown_by), True) for c in three))
            return tuple(out)
        if isinstance(event, Accusation):
            env = len(self.players)
            return (tuple((idx[c], env, False) for c in (event.suspect, event.weapon, event.room)),)
        return (((idx[event.card], loc(event.holder), True),),)

    def _problem(self) -> Problem:
        return Problem(
            _CATEGORY, self.hand_sizes, self._setup, tuple(self._clauses(e) for e in self.events)
        )

    def known(self) -> dict[tuple[int, int], bool] | None:
        """Cells (card index, location index) that every consistent deal agrees on."""
        if self._known is None:
            self._known = self.counting().known()
        return self._known

    def status(self, card: str) -> CardStatus:
        """Who holds `card` (a player, "envelope" or "unknown") and the places known to lack it."""
        if card not in CARD_INDEX:
            raise EntryError("Unknown card: %(value)s", field="card", value=card)
        i = CARD_INDEX[card]
        known = self.known() or {}
        holder = "unknown"
        excluded = []
        for lo in range(len(self.players) + 1):
            value = known.get((i, lo))
            if value is True:
                holder = self.location_name(lo)
            elif value is False:
                excluded.append(self.location_name(lo))
        return CardStatus(holder, tuple(excluded))

    def envelope(self) -> dict[str, str | None]:
        """The envelope's card of each category once it is certain, else None."""
        found: dict[str, str | None] = dict.fromkeys(CATEGORIES)
        for card in CARDS:
            if self.status(card.id).holder == ENVELOPE:
                found[card.category] = card.id
        return found

    def why(self, card: str, place: str) -> list[int]:
        """The event numbers (from 1) of a minimal set of events proving the cell `card`×`place`.

        Empty when the setup alone (my hand and the hand sizes) proves it. A chain is a set of
        events that proves the fact while none of its parts does; that does not depend on the
        other events, so chains are remembered (per setup, across notebooks) and reused while
        their events are still in the notebook.
        """
        if card not in CARD_INDEX:
            raise EntryError("Unknown card: %(value)s", field="card", value=card)
        if place != ENVELOPE:
            self._player(place, "place")
        i, lo = CARD_INDEX[card], self.location(place)
        value = (self.known() or {}).get((i, lo))
        if value is None:
            raise EntryError("Nothing is known yet about this card there", field="card")
        return [k + 1 for k in self._chain((i, lo, value))]

    def _chain(self, fact: tuple[int, int, bool]) -> tuple[int, ...]:
        if self._baseline.get(fact[:2]) is not None:
            return ()
        if len(_WHY_MEMO) > 256:
            _WHY_MEMO.clear()
        memo = _WHY_MEMO.setdefault(self._setup_key(), {})
        for chain in memo.get(fact, ()):
            if all(e in self.events for e in chain):
                return tuple(sorted(self.events.index(e) for e in chain))
        problem = self._problem()
        direct = [k for k, e in enumerate(self.events) if (fact,) in problem.events[k]]
        if direct:  # the event says it in so many words
            found: tuple[int, ...] = (direct[0],)
        else:
            start = None
            card, loc, has = fact
            if not has:  # "not there" often follows from "it is over there"
                holder = next(
                    (
                        lo
                        for lo in range(len(self.players) + 1)
                        if (self.known() or {}).get((card, lo))
                    ),
                    None,
                )
                if holder is not None:
                    start = self._chain((card, holder, True))
            found = problem.why(fact, start)
        if len(memo) > 5000:
            memo.clear()
        memo.setdefault(fact, []).append(tuple(self.events[k] for k in found))
        return found

    def _setup_key(self) -> tuple[object, ...]:
        return (self.players, self.me, tuple(sorted(self.my_cards)), self.hand_sizes)

    def counting(self) -> Counting:
        """The exact count of consistent deals, made once per change of the notes."""
        if self._counting is None:
            self._counting = self._problem().count()
        return self._counting

    def probabilities(self) -> dict[str, dict[str, Fraction]]:
        """Exact chance of each card at each place, every consistent deal being equally likely."""
        probs = self.counting().probabilities()
        return {
            card.id: {
                self.location_name(lo): probs.get((i, lo), Fraction(0))
                for lo in range(len(self.players) + 1)
            }
            for i, card in enumerate(CARDS)
        }

    def advice(self, room: str | None = None, samples: int = 200) -> list[Advice]:
        """Suggestions I could make, the most revealing first (expected bits; see `advise`).

        `room` is the room I stand in (a suggestion must name it); None ranks every room. The
        expectation is estimated from `samples` deals drawn exactly uniformly among the
        consistent ones, from a seed fixed by the notes, so the same notes give the same advice.
        """
        counting = self.counting()
        if not counting.total:
            return []
        seed = hashlib.sha256(repr((self._setup_key(), self.events)).encode()).digest()
        stream = SeededStream(seed, "clue-advice")
        deals = [counting.sample(stream.randbelow) for _ in range(samples)]
        rooms = [CARD_INDEX[room]] if room else [CARD_INDEX[r.id] for r in ROOMS]
        triples = [
            (CARD_INDEX[s.id], CARD_INDEX[w.id], r)
            for s in SUSPECTS
            for w in WEAPONS
            for r in rooms
        ]
        ranked = advise(deals, self.players.index(self.me), len(self.players), triples)
        return [
            Advice(CARDS[s].id, CARDS[w].id, CARDS[r].id, round(bits, 3))
            for bits, (s, w, r) in ranked
        ]

    def deals(self) -> int:
        """How many deals are consistent with everything noted."""
        return self.counting().total
