"""Line-unique decks: every row, column and diagonal of every card is a different set of numbers.

The 1933 rules say "cada hilera de números en cualquier dirección y en todas las tarjetas es de una
combinación distinta" (docs/rules.md §1). Since each card's B column is a 5-subset of 1-15, a deck
holds at most C(15,5) = 3003 cards, or C(15,4) = 1365 with FREE in the centre (the N column then
has 4 numbers).

The construction reaches those maxima with no retries, so it always finishes in linear time:

* Each card k gets its own pattern S_k, a 5-subset of the offsets 0..14, all patterns distinct.
  With FREE, each card gets a distinct 4-subset T_k for the N column, and S_k = up(T_k), where
  `up` adds one element by the Greene-Kleitman parenthesis rule, which is injective.
* Per deck, each column c gets a random permutation tau_c of 0..14. Column c of card k holds
  15c + 1 + tau_c(s) for s in S_k (for N with FREE: s in T_k).
* The card's cells follow a diagonal Latin square L[r][c] = (a*r + b*c + d) mod 5 (rows, columns
  and both diagonals are permutations), relabelled by a random order rho of S_k. With FREE,
  rho puts the one element of S_k outside T_k on the centre.

Why lines never repeat: undoing tau_c column by column turns any row or diagonal of card k into
an arrangement of exactly S_k (or T_k for the 4-number lines through FREE), so the line's set
names its card; inside a card the Latin square keeps the 7 transversals apart. Columns of
different letters use different ranges, and a column (5 numbers of one range) can never equal a
row or diagonal (one number from each range).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from ..errors import DeckError
from ..rng import SeededStream, seed_bytes
from .cards import LETTERS, Card, check_card

MAX_CARDS = 3003  # C(15, 5)
MAX_CARDS_FREE = 1365  # C(15, 4)

# (a, b) with a, b, a+b and a-b all nonzero mod 5: the diagonal Latin squares we use.
_SQUARES = tuple((a, b) for a in range(1, 5) for b in range(1, 5) if (a + b) % 5 and (a - b) % 5)


def max_cards(free_centre: bool = False) -> int:
    """The largest line-unique deck: 3003 cards, or 1365 with FREE in the centre."""
    return MAX_CARDS_FREE if free_centre else MAX_CARDS


def check_card_count(n: object, free_centre: bool = False, option: str | None = None) -> int:
    """`n` if a line-unique deck can have that many cards; otherwise a DeckError that says where
    the limit comes from, since "at most 1365" alone looks arbitrary to a host who asked for FREE.

    `option` names the command-line option that gave `n` (`--cards`): the message then names
    `--free-centre` as the flag behind the lower limit.
    """
    limit = max_cards(free_centre)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        if option:
            raise DeckError(
                "%(option)s must be a whole number from 1 to %(limit)s, not %(n)r",
                option=option,
                limit=limit,
                n=n,
            )
        raise DeckError(
            "the number of cards must be a whole number from 1 to %(limit)s, not %(n)r",
            limit=limit,
            n=n,
        )
    if n <= limit:
        return n
    # whole sentences, each one template: a Spanish page never shows an English "why"
    params = {"limit": limit, "n": n, "most": MAX_CARDS}
    if free_centre and option:
        raise DeckError(
            "%(option)s must be from 1 to %(limit)s, not %(n)s. The limit comes from "
            "--free-centre: the N column then holds only 4 numbers, and 15 numbers make just "
            "%(limit)s different sets of 4 (without it a deck can have %(most)s cards)",
            option=option,
            **params,
        )
    if free_centre:
        raise DeckError(
            "the number of cards must be from 1 to %(limit)s, not %(n)s. The limit comes from "
            "the FREE centre: the N column then holds only 4 numbers, and 15 numbers make just "
            "%(limit)s different sets of 4 (without FREE a deck can have %(most)s cards)",
            **params,
        )
    if option:
        raise DeckError(
            "%(option)s must be from 1 to %(limit)s, not %(n)s. Each card needs its own set of "
            "5 numbers from 1-15 for the B column, and there are just %(limit)s such sets",
            option=option,
            **params,
        )
    raise DeckError(
        "the number of cards must be from 1 to %(limit)s, not %(n)s. Each card needs its own "
        "set of 5 numbers from 1-15 for the B column, and there are just %(limit)s such sets",
        **params,
    )


def up(subset: Sequence[int], n: int = 15) -> tuple[int, ...]:
    """Add one element to `subset` (of 0..n-1) by the Greene-Kleitman rule: an injective step up.

    Read the set as a word, members as ')' and non-members as '('; the leftmost '(' left
    unmatched becomes a member. Below the middle level there is always one.
    """
    members = set(subset)
    open_stack: list[int] = []
    for i in range(n):
        if i in members:
            if open_stack:
                open_stack.pop()
        else:
            open_stack.append(i)
    if not open_stack:
        raise ValueError("no unmatched position: subset is at or above the middle level")
    return tuple(sorted(members | {open_stack[0]}))


def generate_deck(
    n: int,
    seed: str | bytes | int | None = None,
    free_centre: bool = False,
    progress: Callable[[int], None] | None = None,
) -> list[Card]:
    """Build n line-unique cards, serials 1..n.

    The same seed gives the same cards on any machine; with no seed the key comes from
    `secrets`. A larger n extends a smaller one: the first cards of a 40-card deck are the
    20-card deck from the same seed. `progress(k)` is called as cards are made.
    """
    check_card_count(n, free_centre)
    key = seed_bytes(seed)

    # Distinct patterns: a partial Fisher-Yates from the front picks n of them.
    patterns = list(combinations(range(15), 4 if free_centre else 5))
    pick = SeededStream(key, b"patterns")
    for i in range(n):
        j = i + pick.randbelow(len(patterns) - i)
        patterns[i], patterns[j] = patterns[j], patterns[i]

    columns_stream = SeededStream(key, b"columns")
    taus = []
    for _ in LETTERS:
        tau = list(range(15))
        columns_stream.shuffle(tau)
        taus.append(tau)

    cards = []
    for k in range(n):
        stream = SeededStream(key, b"card" + k.to_bytes(4, "big"))
        a, b = _SQUARES[stream.randbelow(len(_SQUARES))]
        d = stream.randbelow(5)
        if free_centre:
            t = patterns[k]
            s = up(t)
            order = list(t)
            stream.shuffle(order)
            order.insert((2 * a + 2 * b + d) % 5, next(x for x in s if x not in t))
        else:
            order = list(patterns[k])
            stream.shuffle(order)
        columns = tuple(
            tuple(
                None
                if free_centre and (r, c) == (2, 2)
                else 15 * c + 1 + taus[c][order[(a * r + b * c + d) % 5]]
                for r in range(5)
            )
            for c in range(5)
        )
        cards.append(Card(serial=k + 1, columns=columns))
        if progress is not None and (k + 1) % 100 == 0:
            progress(100)
    if progress is not None and n % 100:
        progress(n % 100)
    return cards


def check_lines_unique(cards: Iterable[Card]) -> None:
    """Raise DeckError naming the first two lines, anywhere in the deck, with the same numbers."""
    seen: dict[frozenset[int], tuple[int, str]] = {}
    for card in cards:
        for line in card.lines():
            key = frozenset(line.numbers)
            other = seen.get(key)
            if other is not None:
                raise DeckError(
                    "card %(serial)s line %(name)s repeats card %(other)s line %(other_line)s "
                    "(%(numbers)s)",
                    serial=card.serial,
                    name=line.name,
                    other=other[0],
                    other_line=other[1],
                    numbers=", ".join(map(str, sorted(key))),
                )
            seen[key] = (card.serial, line.name)


def check_deck(cards: Sequence[Card], free_centre: bool) -> None:
    """All the guarantees of a deck: shape and ranges per card, FREE as declared, unique lines."""
    if len(cards) > max_cards(free_centre):
        try:
            check_card_count(len(cards), free_centre)
        except DeckError as exc:
            raise DeckError(
                "the deck has %(count)s cards, too many: %(exc)s", count=len(cards), exc=exc
            ) from None
    for card in cards:
        check_card(card)
        if card.free_centre != free_centre:
            if free_centre:
                raise DeckError(
                    "card %(serial)s: the deck says the centre is FREE", serial=card.serial
                )
            raise DeckError(
                "card %(serial)s: the deck says the centre is a number", serial=card.serial
            )
    check_lines_unique(cards)
