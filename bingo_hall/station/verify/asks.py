"""A claim without shouting: a player who cannot call out "Bingo!" asks the
Maestro for a check from their own card's page. This is the one exception to "players on the
Wi-Fi can only view and verify".

* It comes only from the card's signed page: the route checks the signature as the page does,
  and asks for what a page of the station's own can send and another site's page cannot without
  the station's consent: a JSON body (a cross-site form cannot send one; a cross-site script
  would need a CORS preflight, which the station never grants), and, when the browser says so,
  the same origin (`Sec-Fetch-Site`, `Origin`). A guest page has no session, so this stands in
  for the caller pages' CSRF token.
* It is not a claim: nothing is recorded, no penalty can follow from it, the draw goes on. The
  card is judged at once (the verdict the card's page shows) and the Maestro sees the request
  with that verdict on the caller page (the `ask` event, which the phones skip and /display does
  not show), then decides as with a shouted claim: Check shows it to the room, Record the BINGO
  records it.
* One request per card per call, at most 3 per card a minute and 10 per address a minute, each
  refused in words (429).
* A request is open until the Maestro has looked at it: opened it ("Look"), dismissed it, or
  checked or claimed that card (`Asks.seen`). A card that asks again while its request is still
  open updates it (its call, its verdict, how many times it asked): the Maestro sees one line
  per card, not a list growing under them; once looked at, a new request is a new line.

What is kept lives in the app's memory (`Asks.of`): the requests of each game's round, and the
times of the recent requests for the limits.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import deque
from dataclasses import dataclass, replace
from typing import Any

from flask import Flask, Request

from ...web.errors import Conflict, Forbidden, RequestError, TooManyRequests
from ...web.instance import area_state, hall
from .. import games
from ..events import CheckAsked
from ..model import Game
from . import service

#: requests a card may make in a minute, and an address (a phone, or a hall's shared NAT)
PER_CARD = 3
PER_ADDRESS = 10
WINDOW_S = 60.0
#: addresses remembered at most; past it, those quiet for a minute are forgotten
ADDRESSES_KEPT = 4096


@dataclass(frozen=True)
class Ask:
    """A card's request for a check: on which call of which round, and the card's verdict then."""

    serial: int
    round: int
    at_call: int
    valid: bool
    verdict: dict[str, Any]
    #: how many times the card asked while this request was open
    times: int = 1
    #: the Maestro has looked at it (opened, dismissed, or checked or claimed the card)
    seen: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "serial": self.serial,
            "round": self.round,
            "at_call": self.at_call,
            "valid": self.valid,
            "verdict": self.verdict,
            "times": self.times,
            "seen": self.seen,
        }


class Recent:
    """When each key asked in the last WINDOW_S seconds."""

    def __init__(self) -> None:
        self.times: dict[Any, deque[float]] = {}

    def count(self, key: Any, now: float) -> int:
        seen = self.times.get(key)
        if seen is None:
            return 0
        while seen and now - seen[0] >= WINDOW_S:
            seen.popleft()
        return len(seen)

    def add(self, key: Any, now: float) -> None:
        self.times.setdefault(key, deque()).append(now)

    def forget_quiet(self, now: float) -> None:
        for key in [k for k, v in self.times.items() if not v or now - v[-1] >= WINDOW_S]:
            del self.times[key]


class Asks:
    """The requests of each game (one per card per call) and the limits' counts (one per app)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        #: each game's requests of its current round, oldest first
        self.by_game: dict[int, list[Ask]] = {}
        #: the calls each card asked on, this round: one request per card per call
        self.calls_asked: dict[int, set[tuple[int, int, int]]] = {}
        self.cards = Recent()
        self.addresses = Recent()

    @staticmethod
    def of(app: Flask | None = None) -> Asks:
        return area_state("asks", Asks, app)

    def pending(self, game_id: int, round_number: int) -> list[Ask]:
        """The round's requests, oldest first."""
        with self.lock:
            return [a for a in self.by_game.get(game_id, []) if a.round == round_number]

    def admit(self, game_id: int, serial: int, address: str, now: float) -> None:
        """Count a request from `address` for a card, or refuse it in words."""
        with self.lock:
            if len(self.addresses.times) > ADDRESSES_KEPT:
                self.addresses.forget_quiet(now)
                self.cards.forget_quiet(now)
            if self.addresses.count(address, now) >= PER_ADDRESS:
                raise TooManyRequests(
                    "this phone has asked for %(n)s checks in a minute: wait a minute",
                    n=PER_ADDRESS,
                )
            self.addresses.add(address, now)
            if self.cards.count((game_id, serial), now) >= PER_CARD:
                raise TooManyRequests(
                    "card %(serial)s has asked for a check %(n)s times in a minute: wait a minute",
                    serial=serial,
                    n=PER_CARD,
                )

    def keep(self, game_id: int, ask: Ask, now: float) -> Ask:
        """Keep the request (the card's open one updated, if it has one), or refuse a second
        one on the same call. The request as kept."""
        with self.lock:
            asked = self.calls_asked.setdefault(game_id, set())
            key = (ask.round, ask.at_call, ask.serial)
            if key in asked:
                raise TooManyRequests(
                    "card %(serial)s has already asked for a check on this call: the Maestro "
                    "has it; ask again after the next call",
                    serial=ask.serial,
                )
            # an older round's requests: done with
            kept = [a for a in self.by_game.get(game_id, []) if a.round == ask.round]
            asked.difference_update({k for k in asked if k[0] != ask.round})
            asked.add(key)
            open_at = next(
                (i for i, a in enumerate(kept) if a.serial == ask.serial and not a.seen), None
            )
            if open_at is None:
                kept.append(ask)
            else:
                ask = replace(ask, times=kept[open_at].times + 1)
                kept[open_at] = ask
            self.by_game[game_id] = kept
            self.cards.add((game_id, ask.serial), now)
            return ask

    def seen(self, game_id: int, serial: int) -> list[Ask]:
        """The card's open requests marked as looked at: those that were open."""
        with self.lock:
            kept = self.by_game.get(game_id, [])
            opened = [a for a in kept if a.serial == serial and not a.seen]
            self.by_game[game_id] = [
                replace(a, seen=True) if a.serial == serial else a for a in kept
            ]
            return opened


def from_the_cards_page(req: Request) -> None:
    """The request comes from a page of the station's own (see the module's docstring)."""
    if req.mimetype != "application/json":
        raise RequestError("a check is asked for from the card's own page")
    site = req.headers.get("Sec-Fetch-Site")
    origin = req.headers.get("Origin")
    if (site is not None and site != "same-origin") or (
        origin is not None and origin.rstrip("/") != req.host_url.rstrip("/")
    ):
        raise Forbidden("a check is asked for from the card's own page")


def ask_check(conn: sqlite3.Connection, game: Game | None, card: Any, address: str) -> Ask:
    """The card judged now and its request shown to the Maestro (the `ask` event), or a refusal
    in words. Nothing is recorded in the game."""
    if game is None or not game.active:
        raise Conflict("no game is being played with this card now")
    asks = Asks.of()
    now = time.monotonic()
    asks.admit(game.game_id, card.serial, address, now)
    with hall().write_lock:  # the event goes out in order with the calls
        rnd = games.current_round(conn, game.game_id)
        calls = len(games.live_calls(conn, rnd.round_id))
        if calls == 0:
            raise Conflict("no ball has been called in this round yet")
        checked = service.check_for_page(conn, game, card)
        ask = Ask(
            card.serial, rnd.number, calls, bool(checked.valid), checked.verdict_value().to_json()
        )
        ask = asks.keep(game.game_id, ask, now)
        games.publish(CheckAsked(game.game_id, ask.to_json()))
    return ask


def looked_at(game_id: int, serial: int) -> None:
    """The Maestro has looked at the card's request (opened, dismissed, checked or claimed the
    card): it leaves the caller page's notice, on every caller page open (an `ask` event)."""
    with hall().write_lock:  # the event goes out in order with the others
        for ask in Asks.of().seen(game_id, serial):
            games.publish(CheckAsked(game_id, replace(ask, seen=True).to_json()))
