"""The station's ASGI app (`HallApp`): who is asking, and who answers.

Every request is dispatched on the event loop:
- in the phones' process, a change (POST and the like) and the Maestro's own pages reached on the
  hall's port go to the Maestro's process (`forwarded`, forward.py); the rest is answered here;
- static files, the shared pages (/display, /join) and the areas' pages kept in memory (the card
  pages) are answered here from memory (static_files.py, pages.py): no worker, no Flask;
- live streams are opened here from what is kept (a game's snapshot), or by their view in a
  small pool of their own, then written by the loop (relay.py);
- an answer made here from memory (a file, a kept page, a stream's first event) goes to the
  socket in one write, its head and body together (`relay.one_write`);
- a join's four requests (a static file, a card's page kept current, a stream opened from the
  kept snapshot) are answered by the connection itself as soon as their head is read, with no
  ASGI cycle (`answer_now`, server.py's `_answer_now`), after the same checks as here;
- everything else runs in the Flask app in thread pools chosen by who asks
  (admission.py): the Maestro's requests (from the laptop itself, or carrying a valid caller
  credential) in pools of their own, MAESTRO_THREADS for reads and ACTION_THREADS for changes,
  that no guest request can occupy (the Maestro's calls, `admission.on_loop`, on the loop itself
  when the write lock is free: whole.py); the guests' changes (POST and the like: score entries,
  logins) in ACTION_THREADS workers, their reads (pages, card refreshes, files) in THREADS
  workers. A request's body is read in full on the loop, bounded by size and time, before a
  worker is given it, so an unfinished body holds a socket, never a thread. A change's worker
  gets that body at once and gives back its whole answer (whole.py: one hand-over each way);
  reads go through a2wsgi, which may stream a large file. A guest's requests
  are paced per address (admission.RequestPace).

The names in capitals are the hall's configuration keys (`web/config.py`, `hall(app).config`):
the server reads them from the app it serves, so a test passes the value it needs to
`create_app` and never patches this module.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from a2wsgi import WSGIMiddleware
from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RoutingException

from .admission import (
    CHANGE_COST,
    GUEST_BODY,
    ON_LOOP,
    BodyLimits,
    ConnectionBudget,
    Forward,
    Receive,
    RequestPace,
    Scope,
    Send,
    Words,
    answer,
    guest_limits,
    guest_total,
    headers_of,
    may_have_body,
    read_body,
)
from .config import HallConfig
from .forward import trusted_client
from .guest_write import writes_here
from .hub import LIVE_STREAM, EventStream
from .instance import hall
from .pages import PUBLIC, SHARED, VERSION_HEADER, LoopPages, PageKey
from .plumbing import QuietCollector, open_files_limit
from .relay import LiveStreams, current_connection, one_write
from .static_files import StaticFiles
from .whole import WholeAnswers

READS = frozenset({"GET", "HEAD", "OPTIONS"})
#: a connection admitted into the room kept for phones with a card whose request shows none
NO_CARD = Words(
    "too many connections to the station; try again later",
    "demasiadas conexiones a la estación; inténtalo más tarde",
)
#: the header an answer carries in debug mode (tests, SERVED_BY_HEADER): the pid that made it
SERVED_BY = b"x-bingo-hall-served-by"
#: where a request's scope keeps the view its path and method match (`HallApp.view_of`)
VIEW_KEY = "bingo_hall.view"


def head_too_large(config: HallConfig) -> Words:
    return Words(
        f"the request's headers are larger than {config.max_head_bytes // 1024} KB or more than "
        f"{config.max_headers}",
        f"las cabeceras de la petición pasan de {config.max_head_bytes // 1024} KB o de "
        f"{config.max_headers}",
    )


async def _whole(send: Send, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    """A 200 answer kept in memory, its head and body in one write to the socket."""
    with one_write():
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _reads(app: Flask, workers: int) -> WSGIMiddleware:
    """The Flask app's reads in a pool of `workers` threads (a2wsgi, which may stream a file)."""
    wsgi: Any = app  # a2wsgi's WSGI type is narrower than Flask's own (its environ: a dict)
    return WSGIMiddleware(wsgi, workers=workers)


def _asgi(pool: WSGIMiddleware) -> Forward:
    """A pool as the ASGI app this module calls (a2wsgi types each message; here they are
    the dicts uvicorn gives)."""
    called: Forward = pool  # type: ignore[assignment]  # the same ASGI call, typed loosely
    return called


def _public_view(view: Any) -> bool:
    return any(getattr(view, mark, False) for mark in (SHARED, PUBLIC, LIVE_STREAM))


def public_heads(app: Any) -> dict[str, bool]:
    """For each first part of a path ("c" of /c/<deck>/<serial>/<sig>): True when every page
    a GET finds under it is public, False when none is; a first part with both is not in it (its
    request's path is matched). A card page is then known to be public without matching its
    path against every rule (`HallApp.is_public`, asked of every request the phones' process
    gets). Empty when a rule's first part is a variable (it could be any first part)."""
    found: dict[str, set[bool]] = {}
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()):
            continue
        first = rule.rule.split("/", 2)[1] if rule.rule.startswith("/") else "<"
        if "<" in first:
            return {}
        found.setdefault(first, set()).add(_public_view(app.view_functions.get(rule.endpoint)))
    return {first: kinds.pop() for first, kinds in found.items() if len(kinds) == 1}


class Answer(NamedTuple):
    """An answer made from memory: its status, its headers, its body."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes


class HallApp:
    """The ASGI app: live streams on the event loop, the Flask app for everything else, in
    worker pools that keep the Maestro apart from the guests (see the module's docstring)."""

    def __init__(self, app: Flask, forward: Forward | None = None) -> None:
        self.flask = app
        #: the phones' process's way to the Maestro's (forward.py): what `forwarded` says goes
        #: there; None in the Maestro's process and in a station of one process
        self.forward = forward
        #: a debugging header naming the process that answered (tests; SERVED_BY_HEADER)
        self.served_by = (
            [(SERVED_BY, str(os.getpid()).encode())] if hall(app).config.served_by_header else []
        )
        self.config = config = hall(app).config  # the server's tunables: web/config.py
        self.threads = config.threads
        self.head_too_large = head_too_large(config)
        self.wsgi = _reads(app, config.threads)  # guests' reads
        self.actions = WholeAnswers(app, config.action_threads)  # guests' changes (whole.py)
        self.maestro_reads = _reads(app, config.maestro_threads)
        self.maestro_actions = WholeAnswers(app, config.action_threads, "maestro-change")
        self.screens = LiveStreams(app, config.stream_openers)  # the open screens: relay.py
        guests = guest_total(open_files_limit(), config)
        kept_for_cards = int(guests * config.kept_for_cards)
        self.budget = ConnectionBudget(guests, config.connections_per_address, kept_for_cards)
        self.pace = RequestPace(config.requests_per_address_s, config.request_burst)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.collector = QuietCollector(0.0, config)  # set again, on the loop's clock, at start-up
        self.statics = StaticFiles.of(app)  # static files, answered here on the event loop
        self.statics.entries()  # read and hashed once, now: a fixed set (static_files.py)
        self._routes: Any = None  # the URL map, bound once (route_body)
        self._heads: dict[str, bool] | None = None  # public_heads, made once
        #: /display, /join (kept per change) and the areas' pages (the card pages), answered
        #: here from memory (web/pages.py)
        self.pages = LoopPages(app)
        self.at_head = 0  # requests answered at their head (`answer_now`; tests read it)

    @property
    def streams(self) -> int:
        """Open live streams (benchmarks and tests read it)."""
        return self.screens.streams

    @property
    def dropped_screens(self) -> int:
        """Screens cut off for not keeping up."""
        return self.screens.dropped_screens

    def pools(self) -> list[WSGIMiddleware | WholeAnswers]:
        return [self.wsgi, self.actions, self.maestro_reads, self.maestro_actions]

    def body_limits(self, maestro: bool, scope: Scope | None = None) -> BodyLimits:
        """How large a body may be, and how long it may take (the Maestro's, a guest's: no
        larger than its route asks, `admission.guest_body`, with a budget for its JSON)."""
        if maestro:
            return BodyLimits(self.config.max_content_length, self.config.maestro_body_s)
        limits = guest_limits(self.config.max_guest_body, self.config.body_s)
        return limits if scope is None else limits.at_most(self.route_body(scope))

    def view_of(self, scope: Scope) -> Any:
        """The Flask view the request goes to (None: no route, a redirect: Flask answers)."""
        if VIEW_KEY in scope:  # matched once per request (sorted, then served)
            return scope[VIEW_KEY]
        if self._routes is None:
            self._routes = self.flask.url_map.bind("station")
        try:
            endpoint, _ = self._routes.match(scope.get("path", "/"), scope["method"])
        except (HTTPException, RoutingException):
            view = None
        else:
            view = self.flask.view_functions.get(endpoint)
        scope[VIEW_KEY] = view
        return view

    def route_body(self, scope: Scope) -> int | None:
        """The guest body limit the request's view declares (`guest_body`), if any."""
        return getattr(self.view_of(scope), GUEST_BODY, None)

    def is_public(self, scope: Scope) -> bool:
        """A page any guest asks for in numbers: a static file, a shared page (/display,
        /join), a card's page, a live stream: the phones' process answers it itself."""
        if scope.get("method") not in ("GET", "HEAD"):
            return False
        if self.statics.serves(scope):
            return True
        if self._heads is None:
            self._heads = public_heads(self.flask)
        parts = str(scope.get("path", "")).split("/", 2)
        known = self._heads.get(parts[1]) if len(parts) > 1 else None
        if known is not None:  # every page under its first part is public, or none is
            return known
        return _public_view(self.view_of(scope))

    def shows_a_card(self, scope: Scope) -> bool:
        """Does the request come from a phone that opened a valid card's page: the page itself,
        or its files and stream (the browser names the page in their Referer)? The Maestro's
        requests pass too."""
        if self.is_maestro(scope):
            return True
        paths = [str(scope.get("path", ""))]
        referer = headers_of(scope).get(b"referer")
        if referer:
            paths.append(urlsplit(referer.decode("latin-1")).path)
        checks = hall(self.flask).card_checks
        return any(check(path) for check in checks for path in paths)

    def forwarded(self, scope: Scope, maestro: bool | None = None) -> bool:
        """In the phones' process: does this request go to the Maestro's process? Every change
        (only the Maestro's process writes), and the Maestro's own pages reached on the hall's
        port (a tablet that opened the hall's URL; told by its address and credential first, so
        a phone's request never has its path matched for it). `maestro`: `is_maestro(scope)`,
        when the caller has it already."""
        if maestro is None:
            maestro = self.is_maestro(scope)
        if scope["method"] not in READS:
            # a guest's own write (web/guest_write.py) is answered here, unless the Maestro's
            return maestro or not writes_here(self.view_of(scope))
        return maestro and not self.is_public(scope)

    def is_maestro(self, scope: Scope, headers: dict[bytes, bytes] | None = None) -> bool:
        """The laptop itself, or a request with a valid caller credential (the station's
        check, on the loop: a signature or a hash, no query). `headers`: the request's, as
        `headers_of(scope)` gives them, when the caller has them already."""
        client = scope.get("client")
        if client and client[0] in self.budget.laptop:
            return True
        check = hall(self.flask).credential_check
        return check is not None and check(headers_of(scope) if headers is None else headers)

    async def __call__(self, scope: Any, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        connection = current_connection.get()
        internal = getattr(connection, "internal", False)
        trusted_client(scope, internal)  # a request the phones' process passed on: its client
        if connection is not None and connection.on_trial:
            if not self.shows_a_card(scope):  # the room kept for cards is not for it
                await answer(send, 503, NO_CARD)
                return
            connection.on_trial = False
        if self.served_by:
            send = self._marked(send)
        # the headers as a dict once: every check of a phone's request reads them from it
        headers = headers_of(scope)
        maestro = self.is_maestro(scope, headers)
        paced = not maestro and not internal  # (a passed-on request was paced there)
        if paced and (client := scope.get("client")):  # a guest waits its turn, if due
            cost = 1.0 if scope["method"] in READS else CHANGE_COST
            wait = self.pace.wait(client[0], asyncio.get_running_loop().time(), cost)
            if wait > 0:
                await asyncio.sleep(wait)
        if may_have_body(headers):
            replay = await read_body(scope, receive, send, self.body_limits(maestro, scope))
            if replay is None:
                return  # answered (413, 408) or the client left
            receive = replay
        method = scope["method"]
        if self.forward is not None and self.forwarded(scope, maestro):
            await self.forward(scope, receive, send)  # to the Maestro's process (forward.py)
            return
        if method not in READS:
            self.collector.action(self.loop.time() if self.loop else 0.0)
            if not maestro:
                await self.actions(scope, receive, send)
                return
            self.screens.hold()  # its events go to the screens once its answer is written
            quick = getattr(self.view_of(scope), ON_LOOP, False)
            lock = hall(self.flask).write_lock if quick else None
            try:
                await self.maestro_actions(scope, receive, send, here=lock)
            finally:
                self.screens.release()
        elif self.statics.serves(scope):  # answered here on the loop, never by a worker
            with one_write():  # its head and its body: one write to the socket
                await self.statics(scope, receive, send)
        elif (shared := self.pages.key(scope)) is not None:
            await self._shared(scope, receive, send, shared, maestro)
        elif method == "GET" and (page := await self.pages.from_area_waiting(scope)) is not None:
            await _whole(send, *page)
        elif method == "GET" and getattr(self.view_of(scope), LIVE_STREAM, False):
            if self.loop is None:  # run without a lifespan (lifespan="off")
                self._started(asyncio.get_running_loop())
            await self.screens.serve(scope, receive, send, maestro)
        else:
            await _asgi(self.maestro_reads if maestro else self.wsgi)(scope, receive, send)

    def answer_now(self, scope: Scope, headers: dict[bytes, bytes]) -> Answer | EventStream | None:
        """What `__call__` answers from memory with nothing to wait for, for the connection to
        write at once (server.py), with no ASGI cycle: a static file, a card's page kept
        current, or a stream opened from what is kept (a join's four requests), or a shared
        page kept current (/display, /join: a big screen, a guest's reload). None: the
        request takes `__call__`'s way (anything else; a page that is not current yet; a
        guest whose turn is not due: nothing is taken from its pace, so it is counted once,
        there). `scope`: a GET or HEAD with no body from outside (not the internal socket), as
        the connection read it."""
        if self.loop is None:  # run without a lifespan (lifespan="off")
            return None
        said: Answer | EventStream | None = None  # None: perhaps a stream, opened below
        if self.statics.serves(scope):
            said = Answer(*self.statics.answer(scope))
        elif scope["method"] != "GET":
            return None
        elif (page := self.pages.from_area(scope)) is not None:
            said = Answer(200, *page)
        trusted_client(scope, False)
        client = scope.get("client")
        guest = client[0] if client and not self.is_maestro(scope, headers) else None
        if guest is not None and not self.pace.now_or_later(guest, self.loop.time()):
            return None  # its turn is not due: it waits for it, counted once, in `__call__`
        if said is None:  # a shared page or a stream is taken only in the guest's turn
            if (key := self.pages.key(scope)) is not None:
                # /display, /join kept while nothing changed: a guest's (the Maestro's reads
                # take `__call__`'s way, which may forward them to the Maestro's process)
                kept = self.pages.answer(key) if guest is not None else None
                said = None if kept is None else Answer(200, *kept)
            else:
                said = self.screens.open_here(scope)
            if said is None:
                if guest is not None:
                    self.pace.give_back(guest)  # (counted again by `__call__`)
                return None
        if isinstance(said, Answer) and self.served_by:
            said = said._replace(headers=[*said.headers, *self.served_by])
        self.at_head += 1
        return said

    def _marked(self, send: Send) -> Send:
        async def marked(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message["headers"], *self.served_by]}
            await send(message)

        return marked

    async def _shared(
        self, scope: Any, receive: Receive, send: Send, key: PageKey, maestro: bool
    ) -> None:
        """A page every guest asks for (web/pages.py): from memory while nothing changed, else
        from the app, whose answer is kept for the version it was built at."""
        kept = self.pages.answer(key)
        if kept is not None:
            await _whole(send, *kept)
            return
        marker = VERSION_HEADER.lower().encode()
        said: dict[str, Any] = {"body": []}

        async def capture(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message["headers"] if k.lower() != marker]
                version = [v for k, v in message["headers"] if k.lower() == marker]
                length = [v for k, v in headers if k.lower() == b"content-length"]
                said.update(status=message["status"], headers=headers, version=version)
                said["length"] = int(length[0]) if length else -1
                message = {**message, "headers": headers}
            elif message["type"] == "http.response.body":
                said["body"].append(message.get("body", b""))
                whole = sum(map(len, said["body"])) == said["length"]
                if whole and said["status"] == 200 and said["version"]:
                    # kept before the reader has all of it: its next request finds it
                    body = b"".join(said["body"])
                    self.pages.keep(key, int(said["version"][0]), said["headers"], body)
                    said["version"] = None
            await send(message)

        await _asgi(self.maestro_reads if maestro else self.wsgi)(scope, receive, capture)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._started(asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _started(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.collector = QuietCollector(loop.time(), self.config)
        self.collector.start()
        self._tasks.add(loop.create_task(self._ticker()))

    def stop_streams(self) -> None:
        """End every open stream (called on the loop when the server stops)."""
        self.screens.stop()
        for task in self._tasks:
            task.cancel()

    async def _ticker(self) -> None:
        """Heartbeats and stream ends for every open screen, once a second."""
        while True:
            await asyncio.sleep(1.0)
            now = asyncio.get_running_loop().time()
            self.screens.tick(now)
            self.collector.tick(now)
