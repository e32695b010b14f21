"""The reasoning behind the Clue notebook: an exact deal counter and a SAT prover.

Rules of `clue.es.txt` (see docs/rules.md §3), as constraints over the cells
"card c lies at location l", where the locations are the players in seating order and then the
envelope:

- each card is in exactly one place;
- the envelope holds exactly one suspect, one weapon and one room ("el naipe superior de cada
  grupo ... en el sobre negro");
- each hand has exactly its size (the 18 others are all dealt);
- the events add clauses: a pass is "lacks all three", a show is "has at least one of the three",
  a card shown to me or seen is "has it", a failed accusation is "the envelope is not exactly
  that triple". "Nobody refuted" is the passes of every other player, and with the rules above
  it leaves each card in the suggester's hand or the envelope.

`Problem.count()` counts the deals consistent with the constraints by dynamic programming over
the cards (state: what each hand and the envelope can still take, and which open clauses are
already satisfied). That makes the notebook complete by exhaustion: a cell is marked exactly
when no consistent deal puts the card elsewhere (`Counting.known()`), and the probabilities are
exact fractions, every consistent deal being equally likely, as a fair shuffle and deal make
them. (This ignores what a player's choice of suggestion or of the card shown may hint.)

The SAT solver (pycosat) proves the same facts independently (`Problem.known_by_sat()`, which
the tests compare), and finds the events behind a fact (`why`) or a contradiction (`conflict`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import pycosat

#: a literal: (card index, location index, True for "is there" / False for "is not there")
Literal = tuple[int, int, bool]
Clause = tuple[Literal, ...]
_W, _MASK = 4, 15  # bits per hand in the counter's state: hands of up to 15 cards


@dataclass(frozen=True)
class Problem:
    """One notebook as constraints: `setup` always holds; `events[i]` is the clauses of event i."""

    categories: tuple[int, ...]  # category (0 suspect, 1 weapon, 2 room) of each card
    hand_sizes: tuple[int, ...]  # per player, in seating order; the envelope is location len()
    setup: tuple[Clause, ...]
    events: tuple[tuple[Clause, ...], ...]

    @property
    def locations(self) -> int:
        return len(self.hand_sizes) + 1

    @property
    def envelope(self) -> int:
        return len(self.hand_sizes)

    # -- SAT -------------------------------------------------------------------------------
    def var(self, card: int, loc: int) -> int:
        return 1 + card * self.locations + loc

    def lit(self, literal: Literal) -> int:
        card, loc, positive = literal
        return self.var(card, loc) if positive else -self.var(card, loc)

    def rules_cnf(self) -> list[list[int]]:
        """The rules of the deal, the same for every notebook with these hand sizes."""
        return _rules_cnf(self.categories, self.hand_sizes)

    def cnf(self, events: Iterable[int] | None = None, setup: bool = True) -> list[list[int]]:
        chosen = range(len(self.events)) if events is None else events
        clauses = list(self.rules_cnf())
        if setup:
            clauses += [[self.lit(x) for x in c] for c in self.setup]
        for i in chosen:
            clauses += [[self.lit(x) for x in c] for c in self.events[i]]
        return clauses

    def satisfiable(self, events: Iterable[int] | None = None, extra: Sequence[int] = ()) -> bool:
        clauses = self.cnf(events) + [[x] for x in extra]
        return bool(pycosat.solve(clauses) != "UNSAT")

    def known_by_sat(self) -> dict[tuple[int, int], bool] | None:
        """Every cell that all consistent deals agree on, or None when there is no such deal.

        (The notebook takes the same facts from the exact count, `Counting.known()`; this
        independent route checks it in the tests.) Each candidate cell is tested by asking for a
        deal with the opposite value; a deal found that way clears every other candidate it
        disagrees with, so few solver calls are needed.
        """
        base = self.cnf()
        model = pycosat.solve(base)
        if model == "UNSAT":
            return None
        cells = [(c, lo) for c in range(len(self.categories)) for lo in range(self.locations)]
        value = {cell: model[self.var(*cell) - 1] > 0 for cell in cells}
        candidates = dict(value)
        known: dict[tuple[int, int], bool] = {}
        # unit facts of the input need no search
        for clause in self.setup + tuple(c for ev in self.events for c in ev):
            if len(clause) == 1:
                card, loc, positive = clause[0]
                known[(card, loc)] = positive
        order = sorted(candidates, key=lambda cell: not candidates[cell])  # holders first
        for cell in order:
            if cell in known or cell not in candidates:
                continue
            v = self.var(*cell)
            trial = pycosat.solve(base + [[-v if candidates[cell] else v]])
            if trial == "UNSAT":
                known[cell] = candidates[cell]
                base.append([v if candidates[cell] else -v])
                continue
            for other in list(candidates):
                if (trial[self.var(*other) - 1] > 0) != candidates[other]:
                    del candidates[other]
        # a known holder settles the rest of that card's row
        for (card, loc), has in list(known.items()):
            if has:
                for other in range(self.locations):
                    known[(card, other)] = other == loc
        return known

    def entails(self, events: Iterable[int], literal: Literal) -> bool:
        """Whether the setup and these events force `literal` in every consistent deal."""
        return not self.satisfiable(events, extra=[-self.lit(literal)])

    def why(self, literal: Literal, start: Sequence[int] | None = None) -> tuple[int, ...]:
        """A smallest-by-inclusion set of events that, with the setup, proves `literal`.

        Deletion: drop events while the fact still follows, first in blocks (most events are
        beside the point), then one by one. `start` is any set of events already known to prove
        it. The result does not depend on events outside it, so it stays valid when events are
        added or edited.
        """
        needed = list(range(len(self.events)) if start is None else start)
        if not self.entails(needed, literal):
            raise ValueError("the fact does not follow from these events")
        block = max(1, len(needed) // 4)
        while True:
            for k in range(len(needed) - block, -block, -block):
                trial = needed[: max(k, 0)] + needed[k + block :]
                if len(trial) < len(needed) and self.entails(trial, literal):
                    needed = trial
            if block == 1:
                return tuple(needed)
            block = max(1, block // 3)

    def conflict(self) -> tuple[int, ...]:
        """A smallest-by-inclusion set of events that cannot all be true together."""
        needed = list(range(len(self.events)))
        for i in reversed(range(len(self.events))):
            trial = [j for j in needed if j != i]
            if not self.satisfiable(trial):
                needed = trial
        return tuple(needed)

    # -- counting --------------------------------------------------------------------------
    def count(self, known: dict[tuple[int, int], bool] | None = None) -> Counting:
        """Count the consistent deals; `known` (from `known()`) only prunes the search."""
        return Counting(self, known or {})


class Counting:
    """Exact number of deals and of deals with each card in each place (forward-backward DP).

    Cards are placed one at a time. A state packs what each hand can still take (_W bits per
    player), which envelope categories are still empty (3 bits) and which of the clauses in
    progress are already satisfied (one bit each). A clause is checked, and its bit freed, once
    its last card is placed; states that can no longer fill every hand are dropped early.
    """

    def __init__(self, problem: Problem, known: dict[tuple[int, int], bool]) -> None:
        self.problem = problem
        n_cards, env, n_players = len(problem.categories), problem.envelope, len(problem.hand_sizes)
        allowed = {
            c: [lo for lo in range(problem.locations) if known.get((c, lo), True)]
            for c in range(n_cards)
        }
        clauses: list[Clause] = []
        for clause in problem.setup + tuple(c for ev in problem.events for c in ev):
            if len(clause) == 1:
                card, loc, positive = clause[0]
                allowed[card] = [lo for lo in allowed[card] if (lo == loc) == positive]
            else:
                clauses.append(clause)
        cards = self._order(n_cards, clauses, allowed)
        env_shift = _W * n_players
        clause_shift = env_shift + 3
        start = sum(h << (_W * p) for p, h in enumerate(problem.hand_sizes)) | (7 << env_shift)
        last = {
            j: max(cards.index(card) for card, _, _ in clause) for j, clause in enumerate(clauses)
        }
        steps = []  # per card: its options (location, room mask, room taken, clause bits set)
        for i, card in enumerate(cards):
            options = []
            for lo in allowed[card]:
                if lo == env:
                    take = 1 << (env_shift + problem.categories[card])
                    room = take
                else:
                    take, room = 1 << (_W * lo), _MASK << (_W * lo)
                bits = 0
                for j, clause in enumerate(clauses):
                    if any(c == card and (loc == lo) == positive for c, loc, positive in clause):
                        bits |= 1 << (clause_shift + j)
                options.append((lo, room, take, bits))
            closes = sum(1 << (clause_shift + j) for j, at in last.items() if at == i)
            steps.append((card, tuple(options), closes))
        # feasibility after step i: a hand cannot wait for more cards than may still come to it
        limits = []
        for i in range(len(cards) + 1):
            rest = cards[i:]
            checks = []
            for p, h in enumerate(problem.hand_sizes):
                avail = sum(1 for c in rest if p in allowed[c])
                if avail < h:
                    checks.append((_W * p, avail))
            empty = 0
            for cat in range(3):
                if not any(env in allowed[c] and problem.categories[c] == cat for c in rest):
                    empty |= 1 << (env_shift + cat)
            limits.append((tuple(checks), empty))
        self._steps = steps
        self._forward: list[dict[int, int]] = [{start: 1}]
        self._edges: list[list[tuple[int, list[tuple[int, int]]]]] = []
        for i, (_card, choices, closes) in enumerate(steps):
            caps, empty = limits[i + 1]
            layer: dict[int, int] = {}
            edges = []
            for state, ways in self._forward[-1].items():
                out = []
                for lo, room, take, bits in choices:
                    if not state & room:
                        continue
                    nxt = (state - take) | bits
                    if closes:
                        if nxt & closes != closes:
                            continue
                        nxt &= ~closes
                    if nxt & empty or any((nxt >> sh) & _MASK > cap for sh, cap in caps):
                        continue
                    out.append((lo, nxt))
                    layer[nxt] = layer.get(nxt, 0) + ways
                edges.append((state, out))
            self._forward.append(layer)
            self._edges.append(edges)
        self.total = self._forward[-1].get(0, 0)
        self._backward: list[dict[int, int]] = [{} for _ in range(len(steps))] + [{0: 1}]
        for i in reversed(range(len(steps))):
            after, here = self._backward[i + 1], self._backward[i]
            for state, out in self._edges[i]:
                ways = sum(after.get(nxt, 0) for _, nxt in out)
                if ways:
                    here[state] = ways

    @staticmethod
    def _order(n_cards: int, clauses: list[Clause], allowed: dict[int, list[int]]) -> list[int]:
        """Cards in an order that keeps the DP small: few clauses open at once, and the cards
        with fewest possible places first."""
        cards_of = [{x[0] for x in cl} for cl in clauses]
        touching = {c: {j for j, cs in enumerate(cards_of) if c in cs} for c in allowed}
        done: set[int] = set()
        order: list[int] = []
        opened: set[int] = set()

        def cost(c: int, opened: set[int]) -> tuple[int, int]:
            now = opened | touching[c]
            still = sum(1 for j in now if not cards_of[j] <= done | {c})
            return (still + 2 * len(allowed[c]), c)  # measured best on simulated games

        while len(order) < n_cards:
            best = min((c for c in range(n_cards) if c not in done), key=lambda c: cost(c, opened))
            order.append(best)
            done.add(best)
            opened = {j for j in opened | touching[best] if not cards_of[j] <= done}
        return order

    def marginals(self) -> dict[tuple[int, int], int]:
        """Number of consistent deals with each card at each location."""
        counts: dict[tuple[int, int], int] = {}
        for i, (card, _, _) in enumerate(self._steps):
            before, after = self._forward[i], self._backward[i + 1]
            for state, out in self._edges[i]:
                ways = before[state]
                for lo, nxt in out:
                    w = after.get(nxt)
                    if w:
                        counts[(card, lo)] = counts.get((card, lo), 0) + ways * w
        return counts

    def known(self) -> dict[tuple[int, int], bool] | None:
        """Cells on which every consistent deal agrees (never or always there); None if none."""
        if not self.total:
            return None
        counts = self.marginals()
        n_cards, n_loc = len(self.problem.categories), self.problem.locations
        out = {}
        for cell in ((c, lo) for c in range(n_cards) for lo in range(n_loc)):
            k = counts.get(cell, 0)
            if k in (0, self.total):
                out[cell] = k == self.total
        return out

    def probabilities(self) -> dict[tuple[int, int], Fraction]:
        if not self.total:
            return {}
        return {cell: Fraction(k, self.total) for cell, k in self.marginals().items()}

    def sample(self, randbelow: Callable[[int], int]) -> tuple[int, ...]:
        """One deal drawn uniformly among the consistent ones: the location of each card.

        `randbelow(n)` gives a uniform integer below n (e.g. `rng.SeededStream.randbelow`).
        """
        if not hasattr(self, "_edge_maps"):
            self._edge_maps = [dict(edges) for edges in self._edges]
        where = [0] * len(self.problem.categories)
        state = next(iter(self._forward[0]))
        for i, (card, _, _) in enumerate(self._steps):
            after = self._backward[i + 1]
            weights = [(lo, nxt, after.get(nxt, 0)) for lo, nxt in self._edge_maps[i][state]]
            pick = randbelow(sum(w for _, _, w in weights))
            for lo, nxt, w in weights:
                if pick < w:
                    where[card], state = lo, nxt
                    break
                pick -= w
        return tuple(where)


def advise(
    deals: Sequence[tuple[int, ...]],
    me: int,
    n_players: int,
    candidates: Iterable[tuple[int, int, int]],
) -> list[tuple[float, tuple[int, int, int]]]:
    """Expected information (bits) that my suggestion of each candidate triple reveals.

    The answer I get is who shows first to my left and which card (the seed: "el jugador
    contiguo sentado a la izquierda ... muestra uno solo"), or that nobody can. Taking the
    shower's choice as uniform among the cards they hold, the information about the deal is
    H(answer) - E[H(answer | deal)], averaged over `deals` drawn uniformly from the consistent
    ones. Returned best first.
    """
    far = n_players  # me and the envelope never show
    distances = [
        tuple((lo - me) % n_players if lo < n_players and lo != me else far for lo in deal)
        for deal in deals
    ]
    scored = []
    n = len(distances)
    log2 = [0.0, 0.0, 1.0, math.log2(3)]
    for triple in candidates:
        s, w, r = triple
        answers: dict[int, float] = {}  # (first shower's distance, card) packed; -1 = nobody
        choice = 0.0
        for dist in distances:
            a, b, c = dist[s], dist[w], dist[r]
            first = a if a < b else b
            first = first if first < c else c
            if first == far:
                answers[-1] = answers.get(-1, 0.0) + 1.0
                continue
            shown = (a == first) + (b == first) + (c == first)
            part = 1.0 / shown
            for card, x in ((s, a), (w, b), (r, c)):
                if x == first:
                    key = first * 64 + card
                    answers[key] = answers.get(key, 0.0) + part
            choice += log2[shown]
        entropy = -sum(v / n * math.log2(v / n) for v in answers.values() if v)
        scored.append((entropy - choice / n, triple))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return scored


_RULES_CACHE: dict[tuple[tuple[int, ...], tuple[int, ...]], list[list[int]]] = {}


def _rules_cnf(categories: tuple[int, ...], hand_sizes: tuple[int, ...]) -> list[list[int]]:
    key = (categories, hand_sizes)
    if key in _RULES_CACHE:
        return _RULES_CACHE[key]
    n_loc = len(hand_sizes) + 1
    n_cards = len(categories)

    def var(c: int, lo: int) -> int:
        return 1 + c * n_loc + lo

    clauses: list[list[int]] = []
    for c in range(n_cards):  # each card in exactly one place
        row = [var(c, lo) for lo in range(n_loc)]
        clauses.append(row)
        clauses += [[-a, -b] for k, a in enumerate(row) for b in row[k + 1 :]]
    next_var = n_cards * n_loc + 1
    for cat in sorted(set(categories)):  # exactly one of each category in the envelope
        col = [var(c, n_loc - 1) for c in range(n_cards) if categories[c] == cat]
        clauses.append(col)
        clauses += [[-a, -b] for k, a in enumerate(col) for b in col[k + 1 :]]
    for p, size in enumerate(hand_sizes):  # each hand holds its size
        xs = [var(c, p) for c in range(n_cards)]
        more, next_var = _at_most(xs, size, next_var)
        clauses += more
    _RULES_CACHE[key] = clauses
    return clauses


def _at_most(xs: list[int], k: int, next_var: int) -> tuple[list[list[int]], int]:
    """Sinz's sequential counter for "at most k of xs". With every card in exactly one place
    and the sizes adding up to the 18 dealt cards, "at most" for every hand forces "exactly"."""
    if k == 0:
        return [[-x] for x in xs], next_var
    clauses: list[list[int]] = []
    prev = list(range(next_var, next_var + k))  # s[0][j]: at least j+1 among xs[:1]
    next_var += k
    clauses.append([-xs[0], prev[0]])
    clauses += [[-prev[j]] for j in range(1, k)]
    for x in xs[1:]:
        cur = list(range(next_var, next_var + k))
        next_var += k
        clauses.append([-x, cur[0]])
        clauses += [[-prev[j], cur[j]] for j in range(k)]
        clauses += [[-x, -prev[j - 1], cur[j]] for j in range(1, k)]
        clauses.append([-x, -prev[k - 1]])
        prev = cur
    return clauses, next_var


def deal_total(categories: Sequence[int], hand_sizes: Sequence[int]) -> int:
    """Deals with no information at all: envelope choices times the multinomial of the hands."""
    per_cat = [categories.count(c) for c in sorted(set(categories))]
    rest = sum(hand_sizes)
    multinomial = math.factorial(rest)
    for h in hand_sizes:
        multinomial //= math.factorial(h)
    return math.prod(per_cat) * multinomial
