"""The thread that keeps the card pages' shared parts current before the phones ask (`Ahead`), in
the process that serves them (card_pages.py makes it and gives it the pages it keeps)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from flask import Flask

from ...manifest import Deck
from ...web.admission import Scope
from ...web.db import get_db
from ...web.errors import NotFound
from ...web.i18n import LANGUAGES
from ...web.instance import hall
from ..decks import get_deck
from .deck_now import DeckNow


class KeptPages(Protocol):
    """What the thread keeps current: the card pages' kept state (card_pages.CardPages)."""

    now: dict[str, DeckNow]

    def deck_now(self, conn: Any, deck: Deck[Any], margin: float = 0.0) -> DeckNow: ...

    def shell_ahead(self, app: Flask, deck: Deck[Any], now: DeckNow, lang: str) -> None: ...


#: the thread ahead (`Ahead`) looks at least this often, and reads a deck's state again this
#: long before its age runs out (SNAPSHOT_MAX_AGE_S), so a phone never finds it too old
AHEAD_TICK_S = 1.0


#: where `answer` marks a card page it did not give because its deck's state was not current
STALE = "bingo_hall.stale_deck"


class Ahead:
    """The thread that keeps the card pages' shared parts current before the phones ask
    in the process that serves them: after every published change (a hub tap wakes
    it) and before a state's age runs out, it reads again the state of each deck whose game is
    in play (`KeptPages.deck_now`) and renders the page around its cards in every language
    (`KeptPages.shell_ahead`). Without it each change sent the phones asking in the next few
    milliseconds to the app, two at a time: a join storm's tail of seconds.

    A page the loop finds stale meanwhile waits for the thread's next pass (`waiter`), at most
    PAGE_WAIT_S (the hall's config), instead of going to the app."""

    def __init__(self, app: Flask, pages: KeptPages) -> None:
        self.app, self.pages = app, pages
        self.wanted: set[str] = set()  # decks announced (loaded, a game started) not yet read
        self.passes = 0  # passes made (tests read it)
        #: each deck's state its pages were last made for (the pass skips what is still so)
        self.done: dict[str, DeckNow] = {}
        self._woken = threading.Event()
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._waiting: list[Callable[[], object]] = []
        self._tap = lambda channel, event: self._woken.set()  # under the hub's lock: no block
        self._thread = threading.Thread(target=self._run, name="card-pages-ahead", daemon=True)

    def start(self) -> None:
        hall(self.app).hub.taps.append(self._tap)
        self._thread.start()

    def stop(self) -> None:
        taps = hall(self.app).hub.taps
        if self._tap in taps:
            taps.remove(self._tap)
        self._stopped.set()
        self._woken.set()
        self._thread.join(5)
        self._tell()  # nobody waits for a pass that will not come

    def want(self, deck_id: str) -> None:
        with self._lock:
            self.wanted.add(deck_id)
        self._woken.set()

    def waiter(self, scope: Scope, loop: asyncio.AbstractEventLoop) -> Any:
        """On the loop, for a card page `answer` could not give (`scope[STALE]`): a future
        done at the end of the thread's next pass (which starts now)."""
        deck_id = scope.get(STALE)
        if deck_id is None or self._stopped.is_set():
            return None
        future = loop.create_future()
        with self._lock:
            self.wanted.add(deck_id)  # a card of it was asked for (its signature checked)
            self._waiting.append(lambda: _resolve_from_thread(loop, future))
        self._woken.set()
        return future

    def _tell(self) -> None:
        with self._lock:
            told, self._waiting = self._waiting, []
        for tell in told:
            tell()

    def _run(self) -> None:
        self._compile_templates()
        while not self._stopped.is_set():
            self._woken.wait(AHEAD_TICK_S)
            self._woken.clear()
            if self._stopped.is_set():
                break
            with self._lock:  # the pages waiting now are told after this pass
                told, self._waiting = self._waiting, []
            try:
                self._pass()
            except Exception:  # a lost database, a deck gone: the app builds what is asked
                logging.getLogger(__name__).exception("card pages ahead: a pass failed")
            finally:
                self.passes += 1
                for tell in told:
                    tell()

    def _compile_templates(self) -> None:
        """Compile the card pages' templates now, at start-up, not in the first game's pass:
        Jinja compiles a template when it is first rendered, and the first shells of a game
        (`shell_ahead`) then cost a tenth of a CPU-second more, in the first seconds of the
        first game's join storm, while its first phones wait for the pass."""
        env = self.app.jinja_env
        try:
            for name in env.list_templates(filter_func=_card_template):
                if self._stopped.is_set():
                    return
                env.get_template(name)
        except Exception:  # a template that does not compile is reported when it is rendered
            logging.getLogger(__name__).exception("card pages ahead: compiling a template failed")

    def _pass(self) -> None:
        pages, app = self.pages, self.app
        with self._lock:
            wanted, self.wanted = self.wanted, set()
        decks = wanted | {d for d, now in list(pages.now.items()) if now.in_play}
        if not decks or (not wanted and self._all_done(decks)):
            return
        in_play = []
        with app.test_request_context("/"):  # the state's words are read in a request's
            conn = get_db()
            for deck_id in sorted(decks):
                try:
                    deck = get_deck(conn, deck_id)
                except NotFound:  # a deck deleted meanwhile: nothing to keep
                    pages.now.pop(deck_id, None)
                    continue
                now = pages.deck_now(conn, deck, margin=AHEAD_TICK_S + 0.5)
                if pages.now.get(deck_id) is not now:  # a change came while it was read:
                    self.want(deck_id)  # read again next pass (its game may have just begun)
                if now.in_play:
                    in_play.append((deck, now))
        for deck, now in in_play:  # each language in a request of its own (its own locale)
            for lang in LANGUAGES:
                pages.shell_ahead(app, deck, now, lang)
            self.done[deck.deck_id] = now

    def _all_done(self, decks: set[str]) -> bool:
        """Is every deck's kept state the one its pages were made for in a pass, and current
        beyond the next tick? Then the pass has nothing to do, and no request context, no SQL:
        an idle station's thread ahead looks, once a second, at a dict."""
        published, soon = hall(self.app).hub.published, time.monotonic() + AHEAD_TICK_S + 0.5
        for deck_id in decks:
            now = self.pages.now.get(deck_id)
            if now is None or now is not self.done.get(deck_id) or not now.fresh(published, soon):
                return False
        return True


def _card_template(name: str) -> bool:
    """The templates a card's page is made of (`Ahead._compile_templates`)."""
    return name.startswith(("verify/", "station/base", "station/_"))


def _resolve(future: Any) -> None:
    if not future.done():
        future.set_result(None)


def _resolve_from_thread(loop: asyncio.AbstractEventLoop, future: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed (the server stopped): none waits
        loop.call_soon_threadsafe(_resolve, future)
