"""Pages every guest asks for (the big screen's /display, the phones' /join), built once per
change of what they show, not once per request.

What such a page shows changes only when the station publishes an event (a call, an undo, a new
game, a claim, a sale: every change is published after its commit, `hub.EventHub.publish`), so
the hub's count of events published is the page's version: a page is kept under its `key` (its
path, the reader's language, the address its QR names) and that version, and built again only
after the next event. Sixteen screens reloading /display between two calls cost one render.

The cache is bounded (`SIZE` pages, the oldest dropped), and only one request builds a missing
page while the others wait for it, so a burst of guests after a call costs one render too.

Under the station's server, such a page is then answered again by the event loop itself, from
memory, like a static file (`LoopPages`): no worker thread, no Flask, until the next change. The
loop keys it by exactly what the page is made of (the path, the language asked for by `?lang=`,
by the `lang` cookie or by the browser, and the screen's address, one of `SCREEN_HOSTS` at most),
so the sixteen screens of a flood share one answer and never queue a thread ahead of a draw.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import Flask, request

from .i18n import languages_asked
from .instance import area_state, hall
from .security import HEADERS

#: pages kept at most (keys: the few paths, two languages, a handful of addresses)
SIZE = 32
#: a kept page is built again after this long even when nothing was published (a change no
#: event tells, such as the hall's call phrases, shows within this time; as
#: snapshots.snapshot_event)
MAX_AGE_S = 5.0
#: addresses a screen is opened by, each with its own page (a join QR names it); past these, a
#: new one (a guest sending made-up Host headers) gets the page of "another address"
SCREEN_HOSTS = 8
#: the attribute `shared` sets on a view
SHARED = "shared_page"
#: the attribute `public` sets on a view
PUBLIC = "public_page"
#: the header a shared page's answer carries to the server's loop (removed before sending)
VERSION_HEADER = "X-Bingo-Hall-Shared"

#: what a kept page is made of: its path, the languages asked for, the screen's address
PageKey = tuple[Hashable, ...]
V = TypeVar("V")


class ChangeCache:
    """Pages by (key, the hub's count of published events), at most `size` of them."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._pages: OrderedDict[tuple[Hashable, int], tuple[float, str]] = OrderedDict()
        self._lock = threading.Lock()  # the dictionary
        self._building = threading.Lock()  # one build at a time: a burst waits for it
        self.built = 0  # pages built so far (tests read it)

    def page(self, key: Hashable, version: int, build: Callable[[], str]) -> str:
        """The page for `key` at `version`, built by `build()` if it is not kept."""
        full = (key, version)
        found = self._get(full)
        if found is not None:
            return found
        with self._building:
            found = self._get(full)  # built by the request this one waited for
            if found is not None:
                return found
            made = build()
            self.built += 1
            with self._lock:
                self._pages[full] = (time.monotonic(), made)
                while len(self._pages) > self.size:
                    self._pages.popitem(last=False)
            return made

    def _get(self, full: tuple[Hashable, int]) -> str | None:
        with self._lock:
            found = self._pages.get(full)
            if found is None or time.monotonic() - found[0] >= MAX_AGE_S:
                return None
            self._pages.move_to_end(full)
            return found[1]


def shared_page(key: Hashable, build: Callable[[], str], cache: str = "shared_pages") -> str:
    """The app's page for `key` as of the last published change (`ChangeCache`). The version is
    read before the page is built: a change that lands during the build is seen by the next
    request, never missed. `cache` names the app's cache it is kept in. The request is marked
    so that the server's loop may keep the answer for this version (`LoopPages`)."""
    version = hall().hub.published
    request.environ.setdefault(SHARED, version)
    return area_state(cache, ChangeCache).page(key, version, build)


def shared(view: V) -> V:
    """Mark a view whose every answer is a `shared_page`: the same for every reader with the
    same path, language and screen address (it reads nothing else of the request)."""
    setattr(view, SHARED, True)
    return view


def public(view: V) -> V:
    """Mark a view any guest asks for in numbers (a card's page): the phones' process serves
    it on the hall's port without forwarding it (`HallApp.forwarded`)."""
    setattr(view, PUBLIC, True)
    return view


def mark_version(response: Any) -> Any:
    """after_request: a shared page's answer tells the loop its version."""
    version = request.environ.get(SHARED)
    if version is not None and response.status_code == 200:
        response.headers[VERSION_HEADER] = str(version)
    return response


def init_app(app: Flask) -> None:
    app.after_request(mark_version)


class _Hosts:
    def __init__(self) -> None:
        self.known: set[str] = set()
        self.lock = threading.Lock()


def screen_host(host: str, app: Flask | None = None) -> str | None:
    """`host` if it is one of the first SCREEN_HOSTS addresses screens were opened by, else None
    (the same answer on the loop and in the view)."""
    hosts = area_state("screen_hosts", _Hosts, app)
    if host in hosts.known:
        return host
    with hosts.lock:
        if len(hosts.known) < SCREEN_HOSTS:
            hosts.known.add(host)
            return host
    return None


class LoopPages:
    """Every page the server's event loop answers from memory, in one place:
    - the shared pages (see the module's docstring): `answer(key)` gives the kept answer for
      this request's key at the hub's current version, or None (then the app answers, and
      `keep` stores what it said);
    - the areas' pages (`HallState.loop_pages`, the card pages), which keep their own parts:
      `from_area(scope)`."""

    def __init__(self, app: Flask, size: int = SIZE) -> None:
        self.app, self.size = app, size
        self.hub = hall(app).hub
        self.paths = {
            rule.rule
            for rule in app.url_map.iter_rules()
            if not rule.arguments and getattr(app.view_functions.get(rule.endpoint), SHARED, False)
        }
        #: key -> (version, when kept, headers, body)
        self._kept: OrderedDict[PageKey, tuple[int, float, list[tuple[bytes, bytes]], bytes]] = (
            OrderedDict()
        )
        self.answered = 0  # answers given from memory (tests read it)
        self.areas = hall(app).loop_pages  # pages the areas answer from what they keep
        self.waits = hall(app).loop_page_waits  # and what the loop may wait for first
        self.wait_s = hall(app).config.page_wait_s
        self.page_headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

    def key(self, scope: dict[str, Any]) -> PageKey | None:
        """What the page for this request is made of, or None: not a shared page."""
        if scope.get("method") != "GET" or scope.get("path") not in self.paths:
            return None
        headers = dict(scope.get("headers", ()))
        named, browser = languages_asked(scope)
        host = screen_host(headers.get(b"host", b"").decode("latin-1"), self.app)
        return (scope["path"], named, browser, host)

    def answer(self, key: PageKey) -> tuple[list[tuple[bytes, bytes]], bytes] | None:
        found = self._kept.get(key)
        if found is None or found[0] != self.hub.published:
            return None
        if time.monotonic() - found[1] >= MAX_AGE_S:
            return None
        self._kept.move_to_end(key)
        self.answered += 1
        return found[2], found[3]

    def keep(
        self, key: PageKey, version: int, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> None:
        if any(name.lower() == b"set-cookie" for name, _ in headers):
            return  # an answer for one reader only
        self._kept[key] = (version, time.monotonic(), headers, body)
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    async def from_area_waiting(
        self, scope: dict[str, Any]
    ) -> tuple[list[tuple[bytes, bytes]], bytes] | None:
        """`from_area`; when the page waits for what is being made current (its deck's state
        after a change, read once by the card pages' thread ahead however many phones ask
        meanwhile), it is answered from memory once that is done, at most PAGE_WAIT_S later
        (the hall's config; then by the app)."""
        page = self.from_area(scope)
        if page is not None or not self.waits:
            return page
        loop = asyncio.get_running_loop()
        for wait in self.waits:
            future = wait(scope, loop)
            if future is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(future, self.wait_s)
                return self.from_area(scope)
        return None

    def from_area(self, scope: dict[str, Any]) -> tuple[list[tuple[bytes, bytes]], bytes] | None:
        """A page an area answers from what it keeps (the card pages), with no worker, no
        Flask and no SQL; None: not one of those, or not kept yet (the app builds it)."""
        for answer in self.areas:
            try:
                body = answer(scope)
            except Exception:  # never a 500 from here: the app answers the request instead
                logging.getLogger(__name__).exception("a page answered on the loop failed")
                body = None
            if body is not None:
                headers = [
                    (b"content-type", b"text/html; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    *self.page_headers,
                ]
                return headers, body
        return None
