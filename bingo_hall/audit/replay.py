"""Replaying a night's book with the pure rules: the chain alone proves only that the
book was not changed after its head was published, so `verify` also checks that what the book
says follows from what it says happened.

- Each round's revealed seed hashes to its commitment, and every ball drawn by the station
  (`source` auto) is the next ball of the order that seed gives (`bingo_hall.draw`).
- Every award is replayed from the calls: a 75-ball award's card holds a bingo on the calls its
  claim saw (`seventyfive.claims.judge`); a 90-ball prize's tickets complete the prize by the
  call it was awarded on (`bingo_hall.ninety.prize_rules.completed_at`): a claim the player
  made late still wins, as the station judges it.
- Every sum of the ledger is recomputed: a sale's money from the price and its cards
  (`Price.of_sale`), a payout from the prize's rule, the round's takings and the jackpot's pot
  (`bingo_hall.money.settle`).

The replayed state (live calls, awards, sales, payouts) is what a test compares with the
station's database. Pure: no Flask, no sqlite3.

One idea in one module, though it is long: replaying the book is one pass over its entries with
one state (`Replayed`), a step per kind of entry (`_STEPS`) and nothing else. The steps share
that state and its private helpers; apart, each would import the others' internals.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import draw, money
from ..errors import KitError
from ..manifest import Deck
from ..ninety.prize_list_file import recorded_prize_list
from ..ninety.prize_rules import BUILT_IN, completed_at
from ..seventyfive import claims as rules75
from ..seventyfive.patterns import pattern_from_spec
from ..seventyfive.specials import MoneyBallRule, Specials, drawn_money_ball
from ..variants import DEFAULT_BALLS
from .book_file import Book, Finding
from .entries import Entry, deck_hash
from .entry_data import (
    Awarded,
    Called,
    Claimed,
    GameOpened,
    MoneyBallChosen,
    NightShared,
    NightSold,
    NightVoided,
    PrizeSettled,
    PublicInputSet,
    RoundOpened,
    SeedRevealed,
    Undone,
)

#: the decks given to replay with: deck id -> (the deck, its file's hash)
Decks = Mapping[str, tuple[Deck[Any], str]]


@dataclass
class RoundLog:
    commitment: str
    public_input: str | None
    seed: str | None = None
    #: (seq, ball, source) of every call, and the seqs undone
    calls: list[tuple[int, int, str]] = field(default_factory=list)
    undone: set[int] = field(default_factory=set)
    #: the book entry of each call, by the call's seq (to name the call that breaks the order)
    entry_of: dict[int, int] = field(default_factory=dict)

    def live(self) -> list[int]:
        return [ball for seq, ball, _ in self.calls if seq not in self.undone]


@dataclass
class GameSeen:
    """A game as the book tells it: as it opened, its options with the money ball chosen since,
    and the claims settings the Maestro changed (over its options)."""

    opened: GameOpened
    options: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class NightSaleSeen:
    """A night sale as the book tells it (None: sold before this copy's first entry, its shares
    taken as booked), and whether it was voided."""

    sale: NightSold | None
    void: bool = False


@dataclass(frozen=True)
class ClaimSeen:
    """A claim as the book made it, with the calls that stood when it was made and who made
    it (its entry's personal part)."""

    claim: Claimed
    calls: list[int]
    player: str | None


@dataclass
class Replayed:
    """The night as the book tells it."""

    decks: dict[str, str] = field(default_factory=dict)  # deck id -> its hash
    games: dict[int, GameSeen] = field(default_factory=dict)
    rounds: dict[tuple[int, int], RoundLog] = field(default_factory=dict)
    claims: dict[int, ClaimSeen] = field(default_factory=dict)
    awards: list[dict[str, Any]] = field(default_factory=list)
    sales: dict[int, dict[str, Any]] = field(default_factory=dict)
    prices: dict[int, list[money.Price]] = field(default_factory=dict)
    prize_rules: dict[int, dict[str, money.PrizeRule]] = field(default_factory=dict)
    payouts: list[dict[str, Any]] = field(default_factory=list)
    #: night sales (sold once for several games of the program), by their id, and each game's
    #: share of one, which counts in that game's takings
    night_sales: dict[int, NightSaleSeen] = field(default_factory=dict)
    night_shares: list[NightShared] = field(default_factory=list)
    #: findings about entries other than the one being replayed (a call found out of the
    #: seed's order at its round's reveal)
    more: list[Finding] = field(default_factory=list)
    #: the award the payouts that follow belong to: (game, round, prize, at_call, winners)
    last_award: tuple[int, int, str, int, int] | None = None
    paid_in_award: int = 0
    #: what the rules pay the current award's winners (set at its first payout)
    expected: money.Settled | None = None
    #: the money ball the current award was won on (None: not on it), and what it adds to
    #: each winner's share
    money_ball_won: int | None = None
    extras: tuple[int, ...] = ()
    notes: list[str] = field(default_factory=list)

    def live_calls(self, game_id: int, rnd: int) -> list[int]:
        log = self.rounds.get((game_id, rnd))
        return [] if log is None else log.live()


class UnusableDecks(KitError):
    """The decks given do not fit the book (another deck, or one missing)."""


def replay(book: Book, decks: Decks) -> tuple[Replayed, list[Finding]]:
    """Replay the book's entries; `decks`: deck id -> (the deck, its file's hash), from the
    `--deck` files. Raises UnusableDecks when a deck the book's games need was not given, or a
    deck given is not the one the book loaded."""
    loaded = {e.data.get("deck_id"): e.data.get("sha256") for e in book.entries if e.kind == "deck"}
    for deck_id, (_deck, given_hash) in decks.items():
        if deck_id not in loaded:
            raise UnusableDecks("the deck %(deck)s is not one this book loaded", deck=deck_id)
        if loaded[deck_id] != given_hash:
            raise UnusableDecks(
                "the deck file given for %(deck)s is not the one the book loaded (another hash)",
                deck=deck_id,
            )
    state, found = Replayed(), []
    for e in book.entries:
        step = _STEPS.get(e.kind.split(".")[0] if e.kind.startswith("ledger.") else e.kind)
        if step is None:
            continue
        gid = e.data.get("game_id")
        if e.kind != "game" and isinstance(gid, int) and gid not in state.games:
            note = f"game {gid} began before this copy's first entry: its entries are not replayed"
            if note not in state.notes:
                state.notes.append(note)
            continue
        try:
            problem = step(state, e, decks)
        except (KeyError, TypeError, ValueError, KitError) as exc:
            if isinstance(exc, UnusableDecks):
                raise
            problem = f"its data cannot be replayed ({type(exc).__name__}: {exc})"
        if problem:
            found.append(Finding(problem, e.seq))
        found += state.more
        state.more.clear()
    return state, found


def _deck(state: Replayed, e: Entry, decks: Any) -> str | None:
    state.decks[e.data["deck_id"]] = e.data["sha256"]
    return None


def _game(state: Replayed, e: Entry, decks: Any) -> str | None:
    d = GameOpened.from_json(e.data)
    state.games[d.game_id] = GameSeen(d, dict(d.options))
    return None


def _settings(state: Replayed, e: Entry, decks: Any) -> str | None:
    """The claims settings the Maestro changed (over the game's own options)."""
    game = state.games.get(e.data["game_id"])
    if game is not None:
        game.settings = dict(e.data["settings"])
    return None


def _round(state: Replayed, e: Entry, decks: Any) -> str | None:
    d = RoundOpened.from_json(e.data)
    state.rounds[(d.game_id, d.round)] = RoundLog(d.commitment, d.public_input)
    return None


def _public_input(state: Replayed, e: Entry, decks: Any) -> str | None:
    d = PublicInputSet.from_json(e.data)
    log = state.rounds.get((d.game_id, d.round))
    if log is not None:
        if log.calls:
            return "a public input set after the round's first ball"
        log.public_input = d.public_input
    return None


def _reveal(state: Replayed, e: Entry, decks: Any) -> str | None:
    d = SeedRevealed.from_json(e.data)
    log = state.rounds.get((d.game_id, d.round))
    if log is None:
        return None  # a round from before this copy's anchor
    log.seed = d.seed
    seed = draw.parse_seed(d.seed)
    if draw.commitment(seed) != log.commitment:
        return (
            f"game {d.game_id} round {d.round}: the revealed seed does not match "
            "the round's commitment"
        )
    drawn = _drawn_money_ball_holds(state, d.game_id, d.round, seed)
    return drawn or _order_holds(state, d.game_id, d.round, log)


def _order_holds(state: Replayed, gid: int, rnd: int, log: RoundLog) -> str | None:
    """Replay the round's calls against the order its seed gives: every auto call was the
    first ball of the order not yet called (undone calls taken back where they were)."""
    game = state.games.get(gid)
    balls = DEFAULT_BALLS if game is None else game.opened.balls
    order = draw.draw_order(bytes.fromhex(log.seed or ""), log.public_input, balls)
    live: list[tuple[int, int]] = []
    undone = log.undone
    for seq, ball, source in log.calls:
        if source == "auto" and draw.next_auto_ball(order, [b for _, b in live]) != ball:
            said = (
                f"game {gid} round {rnd}: call {seq} ({ball}) is not the next ball of the "
                "order the revealed seed gives"
            )
            if seq in log.entry_of:
                state.more.append(Finding(said, log.entry_of[seq]))
            return said
        live.append((seq, ball))
        if seq in undone:
            live = [(s, b) for s, b in live if s != seq]
    return None


def _call(state: Replayed, e: Entry, decks: Any) -> str | None:
    d = Called.from_json(e.data)
    log = state.rounds.get((d.game_id, d.round))
    if log is None:
        return None
    if d.ball in log.live():
        return f"ball {d.ball} is called twice in game {d.game_id} round {d.round}"
    log.calls.append((d.seq, d.ball, d.source))
    log.entry_of[d.seq] = e.seq
    return None


def _undo(state: Replayed, e: Entry, decks: Any) -> str | None:
    d = Undone.from_json(e.data)
    log = state.rounds.get((d.game_id, d.round))
    if log is None:
        return None
    live = [(s, b) for s, b, _ in log.calls if s not in log.undone]
    if not live or live[-1] != (d.seq, d.ball):
        return "it takes back a call that is not the round's last"
    log.undone.add(d.seq)
    return None


def _claim(state: Replayed, e: Entry, decks: Any) -> str | None:
    d = Claimed.from_json(e.data)
    calls = state.live_calls(d.game_id, d.round)
    if d.at_call != len(calls):
        return f"the claim says it saw {d.at_call} calls; the book has {len(calls)}"
    state.claims[d.claim_id] = ClaimSeen(d, calls, e.player())
    return None


def _card(state: Replayed, gid: int, serial: int, decks: Decks) -> Any:
    deck_id = state.games[gid].opened.deck_id
    given = decks.get(deck_id)
    if given is None:
        raise UnusableDecks(
            "the book's game %(game)s plays deck %(deck)s: give its file with --deck",
            game=gid,
            deck=deck_id,
        )
    return given[0].card(serial)


def _rules75(game: GameSeen) -> rules75.Rules:
    options = {**game.options, **game.settings}
    mode = rules75.PUNTOS if game.opened.mode == rules75.PUNTOS else rules75.NORMAL
    pattern = None
    if mode == rules75.NORMAL:
        pattern = pattern_from_spec(options.get("pattern"), options.get("mask"))
    special = Specials.from_json(game.options)  # the game's own, never the settings'
    return rules75.Rules(
        mode=mode,
        free_centre=game.opened.free_centre,
        completing_call_only=options.get("completing_call_only") is True,
        target=options.get("target", rules75.DEFAULT_TARGET),
        pattern=pattern,
        wild_number=special.wild_number,
        odd_even=special.odd_even,
        money_ball=special.money_ball,
        cards_needed=special.cards_needed,
    )


def _money_ball(state: Replayed, e: Entry, decks: Any) -> str | None:
    """The money ball chosen before the round's first ball (typed, or drawn from the round's
    seed: checked when the seed is revealed)."""
    d = MoneyBallChosen.from_json(e.data)
    game = state.games[d.game_id]
    if state.live_calls(d.game_id, d.round):
        return "a money ball chosen after the round's first ball"
    game.options = {**game.options, "money_ball": d.money_ball, "money_ball_drawn": d.drawn}
    return None


def _drawn_money_ball_holds(state: Replayed, gid: int, rnd: int, seed: bytes) -> str | None:
    """A money ball the station says it drew for the round is the seed's."""
    game = state.games.get(gid)
    if game is None or rnd != 1 or not game.options.get("money_ball_drawn"):
        return None
    if drawn_money_ball(seed, game.opened.balls) != game.options.get("money_ball"):
        return f"game {gid}: the money ball drawn is not the one the revealed seed gives"
    return None


def _award(state: Replayed, e: Entry, decks: Any) -> str | None:
    """A 75-ball round's award: its card holds a bingo on the calls its claim saw, and those
    calls still stand."""
    d = Awarded.from_json(e.data)
    claim = state.claims.get(d.claim_id)
    if claim is None or claim.claim.serial != d.serial:
        return "the award names no claim of its card in the book"
    live = state.live_calls(d.game_id, d.round)
    if live[: len(claim.calls)] != claim.calls:
        return "the award rests on a claim whose calls were taken back"
    rules = _rules75(state.games[d.game_id])
    if rules.cards_needed > 1:  # the book the claim named, every card of it judged
        first, last = claim.claim.book or (d.serial, d.serial)
        cards = [_card(state, d.game_id, s, decks) for s in range(first, last + 1)]
        verdict = rules75.judge_book(cards, d.serial, claim.calls, rules)
    else:
        card = _card(state, d.game_id, d.serial, decks)
        verdict = rules75.judge(card, claim.calls, rules)
    if not verdict.bingo:
        return (
            f"card {d.serial} holds no bingo on the calls of its claim: the award does not follow"
        )
    if str(verdict.kind) != d.kind:
        return f"the award says {d.kind}; the calls give {verdict.kind}"
    state.awards.append(
        {
            "game_id": d.game_id,
            "round": d.round,
            "prize": "bingo",
            "serials": [d.serial],
            "at_call": len(claim.calls),
        }
    )
    state.last_award = (d.game_id, d.round, "bingo", len(claim.calls), 1)
    state.paid_in_award = 0
    state.money_ball_won = rules.money_ball if verdict.money_ball else None
    return None


def _prize(state: Replayed, e: Entry, decks: Any) -> str | None:
    """A 90-ball prize: each winner's ticket completes it on the call it was awarded on."""
    d = PrizeSettled.from_json(e.data)
    game = state.games[d.game_id]
    live = state.live_calls(d.game_id, d.round)
    calls = live[: d.at_call]
    serials = [w.serial for w in d.winners]
    state.awards.append(
        {
            "game_id": d.game_id,
            "round": d.round,
            "prize": d.prize,
            "serials": serials,
            "at_call": d.at_call,
        }
    )
    state.last_award = (d.game_id, d.round, d.prize, d.at_call, len(d.winners))
    state.paid_in_award = 0
    recorded = game.opened.prize_list  # a host's list, as the game recorded it
    plan = recorded_prize_list(recorded) if recorded else BUILT_IN.get(str(game.opened.prizes))
    if plan is None:
        state.notes.append(
            f"game {d.game_id} plays the host's prize list {game.opened.prizes!r}: its "
            "prizes are not replayed (the list is not in the book)"
        )
        return None
    twice = next((s for s in serials if serials.count(s) > 1), None)
    if twice is not None:
        return (
            f"ticket {twice} is named more than once among the winners of the {d.prize}: "
            "one ticket is one share"
        )
    rule = plan.prize(d.prize).rule
    for serial in serials:
        ticket = _card(state, d.game_id, serial, decks)
        done = completed_at(rule, ticket, calls)
        if done is None or done > d.at_call:  # a late claim still wins (docs/claims.md)
            return (
                f"ticket {serial} does not complete the {d.prize} by call "
                f"{d.at_call}: the award does not follow from the calls"
            )
    return None


def _ledger(state: Replayed, e: Entry, decks: Any) -> str | None:
    action, d = e.kind.removeprefix("ledger."), e.data
    gid: int = d.get("game_id") or 0  # the currency is the hall's, not a game's
    if action == "price":  # a price list: the prices the game's next sales may be made at
        state.prices[gid] = [money.Price(p["cents"], p["book"]) for p in d["prices"]]
    elif action == "prizes":
        rules = state.prize_rules.setdefault(gid, {})
        for prize, spec in d.items():
            if prize == "game_id":
                continue
            if spec is None:
                rules.pop(prize, None)
            else:
                rules[prize] = money.rule_from_json(spec)
    elif action == "sale":
        listed = [
            p for p in state.prices.get(gid, []) if (p.cents, p.book) == (d["price"], d["book"])
        ]
        if not listed:
            return "the sale's price is not on the game's price list in the book"
        price = listed[0]
        ranges = money.parse_serials(d["serials"], 10**6)
        if money.count(ranges) != d["cards"] or price.of_sale(ranges) != d["cents"]:
            return (
                f"the sale's sum is wrong: {d['serials']} at {price.cents} per "
                f"{price.book} is {price.of_sale(ranges)}, not {d['cents']}"
            )
        state.sales[d["sale_id"]] = {**d, "void": False}
        game = state.games.get(gid)
        known = None if game is None else game.options.get("money_ball")
        if isinstance(known, int):  # the door sells nothing once the money ball is known
            return f"a card sold after the game's money ball ({known}) was known"
    elif action.startswith("night_"):
        return _night(state, action, e)
    elif action == "correction":
        sale = state.sales.get(d["sale_id"])
        if sale is not None:
            sale["void"] = True
            counts_in = sale["made_in"] if sale["round"] is None else sale["round"]
            rules = state.prize_rules.get(sale["game_id"], {})
            for p in state.payouts:
                rule = rules.get(p["prize"])
                shared = rule is not None and rule.kind != money.PrizeKind.FIXED and rule.percent
                if (p["game_id"], p["round"]) == (sale["game_id"], counts_in) and shared:
                    return (
                        f"sale {d['sale_id']} is voided after round {counts_in} paid a prize "
                        "as a share of the money it took, this sale's included"
                    )
    return None


def _night(state: Replayed, action: str, e: Entry) -> str | None:
    """A night sale: its sum from its price and cards, its shares equal over its games (the
    odd cents to the first); a game's share of it, as the sale gave it; a night sale voided,
    not once a covered game has paid a prize as a share of the takings its share is in."""
    if action == "night_sale":
        d = NightSold.from_json(e.data)
        ranges = money.parse_serials(d.serials, 10**6)
        price = money.Price(d.price, d.book)
        if money.count(ranges) != d.cards or price.of_sale(ranges) != d.cents:
            return (
                f"the night sale's sum is wrong: {d.serials} at {price.cents} per "
                f"{price.book} is {price.of_sale(ranges)}, not {d.cents}"
            )
        if d.shares != tuple(money.night_shares(d.cents, len(d.games))):
            return (
                f"night sale {d.night_sale_id}'s shares {list(d.shares)} are not its "
                f"{d.cents} shared equally over games {list(d.games)}"
            )
        state.night_sales[d.night_sale_id] = NightSaleSeen(d)
    elif action == "night_share":
        share = NightShared.from_json(e.data)
        seen = state.night_sales.get(share.night_sale_id)
        if seen is None:  # sold before this copy's first entry: the share is taken as booked
            state.notes.append(
                f"night sale {share.night_sale_id} was made before this copy's first entry: "
                f"game {share.game_id}'s share of it is taken as the book says"
            )
            state.night_sales[share.night_sale_id] = NightSaleSeen(None)
            state.night_shares.append(share)
            return None
        sale = seen.sale
        if sale is not None:
            want = sale.shares[sale.games.index(share.place)]
            if share.cents != want or share.cards != sale.cards:
                return (
                    f"game {share.game_id}'s share of night sale {share.night_sale_id} is "
                    f"{share.cents}; the sale gave game {share.place} {want}"
                )
        state.night_shares.append(share)
    elif action == "night_void":
        v = NightVoided.from_json(e.data)
        voided = state.night_sales.get(v.night_sale_id)
        if voided is None:
            return None
        voided.void = True
        for share in state.night_shares:
            if share.night_sale_id != v.night_sale_id:
                continue
            rules = state.prize_rules.get(share.game_id, {})
            for p in state.payouts:
                rule = rules.get(p["prize"])
                shared = rule is not None and rule.kind != money.PrizeKind.FIXED and rule.percent
                if (p["game_id"], p["round"]) == (share.game_id, share.made_in) and shared:
                    return (
                        f"night sale {v.night_sale_id} is voided after game "
                        f"{share.game_id} round {share.made_in} paid a prize as a share "
                        "of the money it took, this sale's share included"
                    )
    return None


def _takings(state: Replayed, gid: int) -> dict[int, tuple[int, int]]:
    own = (
        money.SaleMoney(s["round"], s["made_in"], s["cards"], s["cents"], s["void"])
        for s in state.sales.values()
        if s["game_id"] == gid
    )
    shares = (
        money.SaleMoney(None, s.made_in, s.cards, s.cents, state.night_sales[s.night_sale_id].void)
        for s in state.night_shares
        if s.game_id == gid
    )
    return money.takings([*own, *shares])


def _pot(state: Replayed, gid: int) -> int:
    contributions = [
        r.jackpot
        for g, rules in state.prize_rules.items()
        if g <= gid
        for r in rules.values()
        if r.kind == money.PrizeKind.JACKPOT
    ]
    paid = [
        p["from_pot"] if p["from_pot"] is not None else p["cents"]
        for p in state.payouts
        if p["jackpot"] and p["game_id"] <= gid
    ]
    return money.jackpot_pot(contributions, paid)


def _payout(state: Replayed, e: Entry, decks: Any) -> str | None:
    """A payout's sum, recomputed from the prize's rule, the round's takings and the pot."""
    d = e.data
    award = state.last_award
    if award is None or award[:3] != (d["game_id"], d["round"], d["prize"]):
        return "the payout follows no award of its prize"
    rule = state.prize_rules.get(d["game_id"], {}).get(d["prize"])
    if rule is None:
        return "the payout's prize has no money rule in the book"
    if state.paid_in_award == 0:
        pot = _pot(state, d["game_id"]) if rule.kind == money.PrizeKind.JACKPOT else 0
        sales = _takings(state, d["game_id"]).get(d["round"], (0, 0))[1]
        state.expected = money.settle(rule, sales, pot, award[3], award[4])
        state.extras = (0,) * len(state.expected.shares)
        pays = state.games[d["game_id"]].options.get("money_ball_pays")
        if state.money_ball_won is not None and pays is not None:
            state.extras = MoneyBallRule.from_word(pays).extras(state.expected.shares)
    settled = state.expected
    assert settled is not None  # set at the award's first payout
    i = state.paid_in_award
    state.paid_in_award += 1
    state.payouts.append({**d, "player": e.player()})
    if i >= len(settled.shares) or settled.shares[i] + state.extras[i] != d["cents"]:
        want = settled.shares[i] + state.extras[i] if i < len(settled.shares) else 0
        return f"the payout's sum is wrong: the rules give {want}, the book says {d['cents']}"
    if state.extras[i] != d.get("money_ball_bonus", 0):
        return (
            f"the payout's money ball bonus is wrong: the rules give {state.extras[i]}, "
            f"the book says {d.get('money_ball_bonus', 0)}"
        )
    return None


_STEPS = {
    "deck": _deck,
    "game": _game,
    "round": _round,
    "settings": _settings,
    "public_input": _public_input,
    "reveal": _reveal,
    "call": _call,
    "undo": _undo,
    "claim": _claim,
    "money_ball": _money_ball,
    "award": _award,
    "prize": _prize,
    "ledger": _ledger,
    "payout": _payout,
}


def deck_entry(text: str, load: Any) -> tuple[Deck[Any], str]:
    """A `--deck` file: the deck (read by `load`) and its hash as the book keeps it."""
    deck = load(json.loads(text))
    return deck, deck_hash(deck.to_json())
