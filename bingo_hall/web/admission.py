"""Admission on the event loop: which connections the station keeps open and for whom, and what a
request must show before a worker thread is given it, so that a guest on the Wi-Fi can never make
the Maestro wait. One idea in one module: each bound below answers that one question, and they
are read together when a guest's cost is weighed.

**Connections** (`ConnectionBudget`, asked by server.py's connection before uvicorn sets anything
up). A guest could otherwise hold every file the station may open (about 8,000 sockets from one
phone: reconnecting streams, or a byte every 10 s), and then the Maestro's draws, the big screen
and the login page all fail. So connections are budgeted:

- **per address**: CONNECTIONS_PER_ADDRESS open connections from one guest address. A browser
  opens at most 6 connections to one host (its streams included), so a phone needs a handful;
  64 leaves room for about ten phones behind one address (a guest network that shares one).
- **in total**: every guest connection together stays KEPT_FOR_LAPTOP below the open-files
  limit (raised to the system's hard limit at start), so the laptop's own connections, the
  database and the log files always find a file.
- **room kept for cards**: KEPT_FOR_CARDS of that total is never filled by anonymous
  connections: past the rest, a connection is admitted on trial (`Trial`) and kept only if its
  first request shows a valid card (its page, or its files and stream, whose Referer names the
  page: `HallApp.shows_a_card`), so guests reconnecting on loops cannot keep a phone out.
- **the laptop** (loopback or its own LAN address) is never refused.

A connection over budget is answered at once with 503 "too many connections" and closed.

**Requests per address** (`RequestPace`): REQUESTS_PER_ADDRESS_S a second from one guest address
on average, after a burst of REQUEST_BURST; a change (a POST: a score entry, a login) counts for
CHANGE_COST requests, as it costs a worker far more than a page kept in memory. Past it, a request
waits its turn on the event loop (a timer, no thread) before anything is done for it.

**Who asks.** A request from the laptop itself, or one that carries a valid caller credential
(the login cookie or an API token, checked by the station's `credential_check`), is the
Maestro's: it runs in workers of its own that no guest request can occupy (dispatch.py).

**Its body.** The whole body is read here, on the event loop, bounded by size
(`MAX_CONTENT_LENGTH` for the Maestro, `MAX_GUEST_BODY`) and by a deadline for all of it
(`MAESTRO_BODY_S`, `BODY_S`), before any worker is given the request: `BodyLimits`. An unfinished
body costs a socket, never a thread. A guest's JSON is held to a budget there too, before any
worker parses it: at most `GUEST_VALUES` values and `MAX_DEPTH` levels (`inputs.JsonBudget`,
counted on the bytes in C), and a route that needs little says how little (`guest_body(4096)`: a
login, a table's setup), so a guest's 990 KB of empty lists is refused by its Content-Length.

**The answers the server gives itself** (408, 413, 431, 503) carry the same security headers as
every page (`security.HEADERS`) and close the connection.

The names in capitals are the hall's configuration keys (web/config.py); the numbers are in
docs/station.md, "Security".
"""

from __future__ import annotations

import asyncio
import ipaddress
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ..machine.netaddr import lan_address
from .config import HallConfig
from .inputs import GUEST_VALUES, JsonBudget
from .security import HEADERS

#: an ASGI request's scope, and its two channels
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
#: an ASGI app (the phones' process's forwarder to the Maestro's: forward.py)
Forward = Callable[[Scope, Receive, Send], Awaitable[None]]
V = TypeVar("V")
#: (the request's headers, lower-case names) -> does it carry a valid caller credential?
CredentialCheck = Callable[[Mapping[bytes, bytes]], bool]

_SECURITY = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]


@dataclass(frozen=True)
class BodyLimits:
    """How large a request's body may be (bytes), the seconds all of it may take, and, for a
    guest, the values and depth its JSON may hold (`budget`)."""

    size: int
    seconds: float
    budget: JsonBudget | None = None

    def at_most(self, size: int | None) -> BodyLimits:
        """The same, no larger than `size` bytes (a route's own limit)."""
        if size is None or size >= self.size:
            return self
        budget = None if self.budget is None else JsonBudget(size, self.budget.values)
        return BodyLimits(size, self.seconds, budget)


def guest_limits(size: int, seconds: float) -> BodyLimits:
    return BodyLimits(size, seconds, JsonBudget(size, GUEST_VALUES))


#: a guest's body on a route that needs little: a login, a table's setup, a notebook's PIN
SMALL_BODY = 4096
#: the attribute `guest_body` sets on a view
GUEST_BODY = "guest_body_bytes"


def guest_body(size: int) -> Callable[[V], V]:
    """Mark a view whose guests' bodies need no more than `size` bytes (a login, a table's
    setup): the server refuses a larger one on the event loop, by its Content-Length, before
    reading it (413). The Maestro's requests keep their own limit."""

    def mark(view: V) -> V:
        setattr(view, GUEST_BODY, size)
        return view

    return mark


#: the attribute `on_loop` sets on a view
ON_LOOP = "answered_on_loop"


def on_loop(view: V) -> V:
    """Mark a Maestro's change that is one short transaction (a draw, a ball entered, an
    undo): the Maestro's process answers it on its event loop, without handing it to a worker
    and back, whenever the station's write lock is free (whole.py). A guest's request to it is
    answered by the workers, as every guest's change is."""
    setattr(view, ON_LOOP, True)
    return view


@dataclass(frozen=True)
class Words:
    """What the server says itself, before it knows the reader's language: in English, then
    in Spanish, one line each."""

    en: str
    es: str

    def __str__(self) -> str:
        return f"{self.en}\n{self.es}"


def answer_bytes(status: int, reason: str, words: Words) -> bytes:
    """A whole HTTP/1.1 answer, written by the server itself: plain text, the security
    headers, and `Connection: close`."""
    body = (str(words) + "\n").encode()
    head = [f"HTTP/1.1 {status} {reason}".encode()]
    head += [b"%s: %s" % pair for pair in _SECURITY]
    head += [
        b"content-type: text/plain; charset=utf-8",
        b"content-length: %d" % len(body),
        b"connection: close",
    ]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


async def answer(send: Send, status: int, words: Words) -> None:
    """The same answer through ASGI (inside a request)."""
    body = (str(words) + "\n").encode()
    headers = [
        *_SECURITY,
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def headers_of(scope: Mapping[str, Any]) -> dict[bytes, bytes]:
    return {name: value for name, value in scope.get("headers", ())}


def may_have_body(headers: Mapping[bytes, bytes]) -> bool:
    length = headers.get(b"content-length", b"0").strip()
    return length not in (b"", b"0") or b"transfer-encoding" in headers


async def read_body(
    scope: Mapping[str, Any], receive: Receive, send: Send, limits: BodyLimits
) -> Receive | None:
    """Read the request's whole body on the event loop. Returns a `receive` that hands it to
    the app in one message, or None when the request was answered here (413: too large; 408:
    too slow) or the client left."""
    headers = headers_of(scope)
    if not may_have_body(headers):
        return _replay(b"", receive)
    limit, deadline = limits.size, limits.seconds
    declared = headers.get(b"content-length", b"").strip()
    if declared.isdigit() and int(declared) > limit:
        await answer(send, 413, _too_large(limit))
        return None
    parts: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(deadline):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return None
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    await answer(send, 413, _too_large(limit))
                    return None
                parts.append(chunk)
                if not message.get("more_body", False):
                    break
    except TimeoutError:
        await answer(
            send,
            408,
            Words(
                f"the request body did not arrive within {deadline:.0f} s",
                f"el cuerpo de la petición no llegó en {deadline:.0f} s",
            ),
        )
        return None
    body = b"".join(parts)
    over = None if limits.budget is None else limits.budget.over(body)
    if over is not None:
        await answer(send, 413 if over == "size" else 400, _over_budget(over, limits))
        return None
    return _replay(body, receive)


def _over_budget(over: str, limits: BodyLimits) -> Words:
    budget = limits.budget
    assert budget is not None
    if over == "size":
        return _too_large(limits.size)
    if over == "values":
        return Words(
            f"the request body holds more than {budget.values} values",
            f"el cuerpo de la petición tiene más de {budget.values} valores",
        )
    return Words(
        f"the request body nests deeper than {budget.depth} levels of lists and objects",
        f"el cuerpo de la petición anida más de {budget.depth} niveles de listas y objetos",
    )


def _too_large(limit: int) -> Words:
    return Words(
        f"the request body is larger than {limit} bytes",
        f"el cuerpo de la petición pasa de {limit} bytes",
    )


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the body read on the loop, then waits for the client to leave."""
    given = False

    async def replay() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


# --- connections and the requests' pace --------------------------------------------------------

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
        tokens = self._left(address, now, cost)
        self._buckets[address] = (tokens, now)
        return 0.0 if tokens >= 0 else -tokens / self.rate

    def now_or_later(self, address: str, now: float, cost: float = 1.0) -> bool:
        """Takes the address's turn if it is due now (True); else takes nothing (False: the
        request then `wait`s its turn, counted once)."""
        tokens = self._left(address, now, cost)
        if tokens < 0:
            return False
        self._buckets[address] = (tokens, now)
        return True

    def give_back(self, address: str, cost: float = 1.0) -> None:
        """Returns a turn `now_or_later` took for a request that is then counted by `wait`."""
        found = self._buckets.get(address)
        if found is not None:
            self._buckets[address] = (min(self.burst, found[0] + cost), found[1])

    def _left(self, address: str, now: float, cost: float) -> float:
        tokens, at = self._buckets.get(address, (self.burst, now))
        if len(self._buckets) >= self.KEEP and address not in self._buckets:
            self._forget(now)
        return min(self.burst, tokens + (now - at) * self.rate) - cost

    def _forget(self, now: float) -> None:
        full = [
            a for a, (t, at) in self._buckets.items() if t + (now - at) * self.rate >= self.burst
        ]
        for address in full:
            del self._buckets[address]
