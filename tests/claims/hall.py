"""A real station for the claims tests: a generated deck loaded through the API, games made and
balls entered by hand as the Maestro would, authenticated with the caller PIN."""

from __future__ import annotations

from testkit import Caller

from bingo_hall.manifest import new_deck
from bingo_hall.seventyfive.cards import LINE_CELLS

_DECK = new_deck(40, seed="claims tests", name="Fiesta")  # made once; each test has its own DB


class Hall(Caller):
    """The Maestro with the claims deck; games are drawn by hand unless a test says otherwise."""

    def __init__(self, client, deck=None) -> None:
        super().__init__(client, deck or _DECK)

    def new_game(self, mode: str = "normal", draw: str = "manual", **extra) -> int:
        return super().new_game(mode, draw, **extra)

    def numbers(self, serial: int, line: str) -> list[int]:
        """The printed numbers of a line, read off the card square by square."""
        card = self.deck.card(serial)
        return [n for r, c in LINE_CELLS[line] if (n := card.columns[c][r]) is not None]
