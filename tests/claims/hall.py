"""A real station for the claims tests: a generated deck loaded through the API, games made and
balls entered by hand as the Maestro would, authenticated with the caller PIN."""

from __future__ import annotations

from conftest import TEST_PIN

from bingo_hall.cards import LINE_CELLS
from bingo_hall.manifest import Deck, new_deck

_DECK = new_deck(40, seed="claims tests", name="Fiesta")  # made once; each test has its own DB


class Hall:
    def __init__(self, client, deck: Deck | None = None) -> None:
        self.client = client
        token = client.post("/api/login", json={"pin": TEST_PIN}).get_json()["token"]
        self.auth = {"Authorization": f"Bearer {token}"}
        self.deck = deck or _DECK
        r = client.post("/api/decks", json=self.deck.to_dict(), headers=self.auth)
        assert r.status_code in (200, 201), r.get_json()

    def new_game(self, mode: str = "normal", **extra) -> int:
        payload = {"deck_id": self.deck.deck_id, "mode": mode, "draw": "manual", **extra}
        r = self.client.post("/api/games", json=payload, headers=self.auth)
        assert r.status_code == 201, r.get_json()
        return r.get_json()["game_id"]

    def call(self, gid: int, *balls: int) -> None:
        for ball in balls:
            r = self.client.post(f"/api/games/{gid}/calls", json={"ball": ball}, headers=self.auth)
            assert r.status_code == 201, (ball, r.get_json())

    def post(self, path: str, payload=None, auth: bool = True):
        return self.client.post(path, json=payload, headers=self.auth if auth else {})

    def get(self, path: str, auth: bool = True):
        return self.client.get(path, headers=self.auth if auth else {})

    def numbers(self, serial: int, line: str) -> list[int]:
        """The printed numbers of a line, read off the card square by square."""
        card = self.deck.card(serial)
        return [n for r, c in LINE_CELLS[line] if (n := card.columns[c][r]) is not None]
