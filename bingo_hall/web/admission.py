"""Request admission on the event loop (issue 29): what a request must show before a worker
thread is given it, so that a guest on the Wi-Fi can never make the Maestro wait.

- **Who asks.** A request from the laptop itself, or one that carries a valid caller credential
  (the login cookie or an API token, checked by the station's `credential_check`), is the
  Maestro's: it runs in workers of its own that no guest request can occupy (`server.HallServer`).
- **Its body.** The whole body is read here, on the event loop, bounded by size
  (`MAX_CONTENT_LENGTH` for the Maestro, `MAX_GUEST_BODY`) and by a deadline for all of it
  (`MAESTRO_BODY_S`, `BODY_S`), before any worker is given the request: `BodyLimits`, which the
  server takes from the hall's config (web/config.py). An unfinished body costs a socket, never
  a thread.
- **A guest's JSON** (issue 38) is held to a budget there too, before any worker parses it: at most
  `GUEST_VALUES` values and `MAX_DEPTH` levels (`inputs.JsonBudget`, counted on the bytes in C),
  and a route that needs little says how little (`guest_body(4096)`: a login, a table's setup),
  so a guest's 990 KB of empty lists is refused by its Content-Length alone.
- **The answers the server gives itself** (408, 413, 431, 503) carry the same security headers as
  every page (`security.HEADERS`) and close the connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

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
    answered by the workers as before."""
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
