"""How many connections the station keeps open, and for whom (issue 29).

A guest on the hall's Wi-Fi could otherwise hold every file the station may open (about 8,000
sockets from one phone: reconnecting streams, or a byte every 10 s), and then the Maestro's draws,
the big screen and the login page all fail. So connections are budgeted:

- **per address**: CONNECTIONS_PER_ADDRESS open connections from one guest address. A browser
  opens at most 6 connections to one host (its streams included), so a phone needs a handful;
  64 leaves room for about ten phones behind one address (a guest network that shares one).
- **in total**: every guest connection together stays KEPT_FOR_LAPTOP below the open-files
  limit, so the laptop's own connections (the Maestro's caller page, the big screen), the
  database and the log files always find a file.

- **requests per address** (issue 38): REQUESTS_PER_ADDRESS_S a second from one guest address
  on average, after a burst of REQUEST_BURST (`RequestPace`); a change (a POST: a score entry,
  a login) counts for CHANGE_COST requests, as it costs a worker far more than a page kept in
  memory. Past it, a request waits its turn
  on the event loop (a timer, no thread) before anything is done for it: sixteen connections
  asking for /display as fast as they can, answered from memory or not, then cost the loop a
  steady share, and the Maestro's draw does not queue behind a flood.

The numbers in capitals are the hall's configuration keys (web/config.py).
- **the laptop** (loopback or its own LAN address) is never refused by either budget.

A connection over budget is answered at once with 503 "too many connections" and closed.
The numbers are in docs/station.md, "Security".
"""

from __future__ import annotations

import ipaddress
import threading
import time
from dataclasses import dataclass

from ..machine.netaddr import lan_address
from .config import HallConfig

#: seconds the laptop's LAN address is remembered (it changes when the Wi-Fi does)
LAN_ADDRESS_TTL_S = 30.0


def guest_total(open_files: int, config: HallConfig) -> int:
    """The guests' budget for an open-files limit (0: none known, e.g. Windows: the limit the
    station asks for, WANTED_FILES, stands in for it)."""
    limit = open_files if open_files > 0 else config.wanted_files
    return max(config.connections_per_address, limit - config.kept_for_laptop)


#: connections a phone holds while it follows the game: its page's (kept alive for its files
#: and a change) and its card's live stream
PHONE_CONNECTIONS = 2


def phones_allowed(open_files: int, config: HallConfig) -> int:
    """About how many phones the open-files limit lets the station follow at once."""
    return guest_total(open_files, config) // PHONE_CONNECTIONS


@dataclass(frozen=True)
class Refusal:
    """Why a connection was refused, in the words of the 503 (English, then Spanish)."""

    reason: str
    address: str
    razon: str = ""


class LaptopAddresses:
    """Is an address the laptop's own? Loopback always; its LAN address, asked of the OS at most
    every LAN_ADDRESS_TTL_S (a connection must not cost a system call)."""

    #: addresses whose answer (loopback or not, well formed or not) is remembered at most
    KEEP = 4096

    def __init__(self) -> None:
        self._lan: str | None = None
        self._asked = -LAN_ADDRESS_TTL_S
        self._loopback: dict[str, bool | None] = {}  # None: not an address

    def __contains__(self, address: object) -> bool:
        if not isinstance(address, str):
            return False
        loopback = self._loopback.get(address, False)
        if loopback is False and address not in self._loopback:
            loopback = _is_loopback(address)  # parsed once per address, not per request
            if len(self._loopback) >= self.KEEP:
                self._loopback.clear()
            self._loopback[address] = loopback
        if loopback is None:
            return False
        if loopback:
            return True
        now = time.monotonic()
        if now - self._asked >= LAN_ADDRESS_TTL_S:
            self._lan, self._asked = lan_address(), now
        return address == self._lan


def _is_loopback(address: str) -> bool | None:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return None


@dataclass(frozen=True)
class Trial:
    """A connection admitted into the room kept for phones holding a card: its first request
    must show a valid card (its path or its page's Referer), else it is answered 503 and
    closed (`HallApp.on_trial`); shown, it keeps its place there until it closes."""

    address: str


class ConnectionBudget:
    """Open connections counted per guest address and in total; the laptop's are counted apart
    and never refused. Of the total, `kept_for_cards` is room that anonymous connections never
    fill: past the rest, a new connection is admitted on trial (`Trial`) and kept only if its
    first request shows a valid card, so a phone that scanned its card still gets in while
    guests reconnecting on a loop hold every other place. Used from the event loop (one thread),
    and locked all the same."""

    def __init__(self, total: int, per_address: int, kept_for_cards: int = 0) -> None:
        self.total = total
        self.per_address = per_address
        self.kept_for_cards = max(0, min(kept_for_cards, total))
        self.laptop = LaptopAddresses()
        self.by_address: dict[str, int] = {}
        self.guests = 0  # every guest connection, anonymous or in the kept room
        self.in_kept_room = 0  # on trial, or a card holder's
        self.laptops = 0
        self.refused = 0
        self._lock = threading.Lock()

    def admit(self, address: str | None) -> Refusal | Trial | None:
        """Count a new connection (None, or a `Trial` in the room kept for cards), or say why
        it is refused (then nothing is counted)."""
        key = address or "?"
        with self._lock:
            if key in self.laptop:
                self.laptops += 1
                return None
            held = self.by_address.get(key, 0)
            if held >= self.per_address:
                self.refused += 1
                return Refusal(
                    "too many connections from this address",
                    key,
                    "demasiadas conexiones desde esta dirección",
                )
            anonymous = self.guests - self.in_kept_room
            trial = anonymous >= self.total - self.kept_for_cards
            if self.guests >= self.total or (trial and self.in_kept_room >= self.kept_for_cards):
                self.refused += 1
                return _too_many(key)
            self.by_address[key] = held + 1
            self.guests += 1
            if trial:
                self.in_kept_room += 1
                return Trial(key)
            return None

    def release(self, address: str | None, kept_room: bool = False) -> None:
        """A connection that was admitted has closed (`kept_room`: it held a place there)."""
        key = address or "?"
        with self._lock:
            held = self.by_address.get(key)
            if held is None:
                self.laptops = max(0, self.laptops - 1)
                return
            if held <= 1:
                del self.by_address[key]
            else:
                self.by_address[key] = held - 1
            self.guests -= 1
            if kept_room:
                self.in_kept_room -= 1


def _too_many(address: str) -> Refusal:
    return Refusal(
        "too many connections to the station", address, "demasiadas conexiones a la estación"
    )


#: what a guest's change (POST, PUT...) counts for in its address's pace: 10 a second at most
CHANGE_COST = 5.0


class RequestPace:
    """Requests per guest address: a token bucket of `burst` refilled at `rate` a second. `wait`
    reserves the address's next turn and says how long until it (0: now). A request that waits
    holds only its connection, which the connection budget already bounds (64 per address)."""

    #: addresses remembered at most; past it the ones with a full bucket are forgotten
    KEEP = 4096

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, at)

    def wait(self, address: str, now: float, cost: float = 1.0) -> float:
        """`cost`: how many requests this one counts for (a change costs more than a read)."""
        tokens, at = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate) - cost
        if len(self._buckets) >= self.KEEP and address not in self._buckets:
            self._forget(now)
        self._buckets[address] = (tokens, now)
        return 0.0 if tokens >= 0 else -tokens / self.rate

    def _forget(self, now: float) -> None:
        full = [
            a for a, (t, at) in self._buckets.items() if t + (now - at) * self.rate >= self.burst
        ]
        for address in full:
            del self._buckets[address]
