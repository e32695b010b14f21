"""Simulated halls for the linked game's tests: real station keys, real decks, real results
made by `make_result`, the organiser's real game and key. Nothing here judges a card: the tests'
own brute force does that, from the numbers and the order."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bingo_hall.audit import Head, StationKey, sha256
from bingo_hall.linked.game import Hall, LinkedGame, Tiers, Window, new_game
from bingo_hall.linked.keys import Signer
from bingo_hall.linked.seed import code_text, new_code

WINDOW = Window.parse("2026-12-05T19:30", "2026-12-05T21:00", "Europe/London")
TIERS = Tiers("GBP", 100_000, 25_001, 5_000)


@dataclass(frozen=True)
class Organiser:
    game: LinkedGame
    key: Signer
    secret: bytes  # the code's 10 bytes

    @property
    def code(self) -> str:
        return code_text(self.secret)

    @property
    def seed(self) -> bytes:
        """The round seed every hall draws from, as docs/linked.md defines it."""
        return station_seed_of(self.secret)


def station_seed_of(code: bytes) -> bytes:
    """docs/linked.md: SHA-256 of the label line and the code's 10 bytes."""
    return hashlib.sha256(b"bingo-hall linked seed v1\n" + code).digest()


def station_keys(n: int) -> list[StationKey]:
    return [StationKey.new() for _ in range(n)]


def organise(
    keys: list[StationKey],
    regions: list[str],
    balls: int = 75,
    pattern: str | None = None,
    window: Window = WINDOW,
) -> Organiser:
    org, code = Signer.new(), new_code()
    halls = [
        Hall(f"Hall {i + 1}", regions[i % len(regions)], k.fingerprint) for i, k in enumerate(keys)
    ]
    game = new_game("Winter linked game", window, balls, pattern, TIERS, halls, code, org)
    return Organiser(game, org, code)


def signed_head(key: StationKey, seq: int = 120) -> object:
    return key.sign(Head(seq, sha256(f"entry {seq}".encode())))


def around_now() -> Window:
    """A window open now (a station's claims are made now, by its clock)."""
    now = datetime.now(ZoneInfo("Europe/London"))
    fmt = "%Y-%m-%dT%H:%M"
    start, end = now - timedelta(hours=1), now + timedelta(hours=2)
    return Window.parse(start.strftime(fmt), end.strftime(fmt), "Europe/London")


def during(minutes: int) -> datetime:
    return WINDOW.start + timedelta(minutes=minutes)


def after_the_window() -> datetime:
    return WINDOW.end + timedelta(minutes=5)
