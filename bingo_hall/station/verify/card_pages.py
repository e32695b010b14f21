"""A card's or a ticket's QR page done ahead of need: in a join storm every phone asks
for a different card, so nothing may be left to do per page but joining what is kept.

A page is four kept things joined (`page`):

* the shell: the page around the card, the same for every card of a game in a language
  (page_shell.py: rendered once, cut at its placeholders);
* the card's table without marks: the one drawer's (templates/verify/_vcard.html) drawn once per
  variant and language with placeholders, and filled in with the card's numbers for each page
  (`bare_table`): microseconds, so nothing of a card is drawn or kept ahead of its page, and
  loading a deck or starting a game does nothing per card;
* the game's state (`DeckNow`): the game's snapshot, the very data its stream gives a screen
  that connects, and the game's facts (its rules, or its prize list and who won what) as the
  page's JSON (`#card-state`, `ClaimsKind.game_facts`), read once per change of the game (a
  published event, or SNAPSHOT_MAX_AGE_S for a change no event tells, such as the hall's
  language) and shared by every card;
* the card's own values: its serial (put in `#card-state` by a join), its path.

Nothing is made per card when a deck is loaded or a game, a round or a pattern starts:
static/card.js reads the card's numbers from its table and marks and judges it (static/judge.js)
on load from the game's facts and state, as it does on every snapshot; a browser without
JavaScript sees the card unmarked, and a line saying why.

`answer` gives the same page without Flask, SQL or a template, from what is kept only: the
station's server calls it on its event loop (`HallState.loop_pages`), as it answers static files,
so a join storm takes no worker thread and nothing of the interpreter that the Maestro's requests
need but the join. A thread ahead (`Ahead`) reads the state again after every published change
and renders the page around the cards of a new game, round or pattern in every language, before
the phones ask; a page asked in the moment before it is done waits on the loop for it. Whatever
is not kept at all (a deck with no game, a language not asked yet) goes to Flask, which builds it
once and keeps it for the next phone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from flask import Flask, render_template
from flask_babel import get_locale
from markupsafe import Markup

from ...manifest import Deck
from ...signing import signature_is_valid
from ...web.db import get_db
from ...web.errors import NotFound
from ...web.i18n import LANGUAGES, locale_of
from ...web.inputs import is_ascii_number
from ...web.instance import area_state, hall
from .. import hall_settings, snapshots
from ..decks import get_deck
from ..model import Game, GameStatus
from ..snapshots import SNAPSHOT_MAX_AGE_S
from ..state import station_state
from . import card_view, page_shell
from .bare_table import TableCut, TableText
from .page_shell import CARD, PATH, STATE, TABLE, Placeholder, Shell
from .variants import ClaimsKind, claims_of

#: the thread ahead (`Ahead`) looks at least this often, and reads a deck's state again this
#: long before its age runs out (SNAPSHOT_MAX_AGE_S), so a phone never finds it too old
AHEAD_TICK_S = 1.0


@dataclass(frozen=True)
class DeckNow:
    """The state every page of a deck's cards shares, read once per change: the deck's game (the
    newest in play, else the newest finished; None before the first), its facts
    (`ClaimsKind.page_facts`), its round, its snapshot as JSON for the page, and the hall's
    language for a visitor who chose none."""

    published: int  # the hub's count of published events when it was read
    when: float
    house_lang: str | None
    game: Game | None
    facts: Any
    round: int
    state: str
    card_state: str = ""  # `#card-state` without its first key, the serial (`card_state_of`)
    words: tuple[Any, ...] = ()  # what the page's words depend on (card_view.words_key)

    @property
    def game_id(self) -> int | None:
        return None if self.game is None else self.game.game_id

    def fresh(self, published: int, now: float) -> bool:
        return self.published == published and now - self.when < SNAPSHOT_MAX_AGE_S

    @property
    def in_play(self) -> bool:
        return self.game is not None and self.game.status == GameStatus.ACTIVE

    def card_state_of(self, serial: int) -> str:
        """A card's `#card-state`: the game's facts, every card's, with its serial first."""
        return '{"serial":' + str(serial) + "," + self.card_state


class CardPages:
    """What the card pages keep (one per app: `of`)."""

    def __init__(self) -> None:
        self.shells: dict[tuple[Any, ...], Shell] = {}
        self.now: dict[str, DeckNow] = {}
        #: (variant's table template, language) -> its table's cut (None: the drawer draws each)
        self.cuts: dict[tuple[str, str], TableCut | None] = {}
        self._building = threading.Lock()
        self._shell_lock = threading.Lock()
        self.filled = 0  # tables filled in from their cut, one per page made (tests read it)
        self.drawn = 0  # tables drawn by the drawer itself: none while the cut fits (tests read it)
        self.loop_answers = 0  # pages answered on the event loop
        self.app_pages = 0  # pages the app built (tests read it)
        self.ahead: Ahead | None = None  # the thread keeping the shared parts current (`start`)

    @staticmethod
    def of(app: Flask | None = None) -> CardPages:
        return area_state("card_pages", CardPages, app)

    # -- the game's state, once per change (in a request: it reads SQL)

    def deck_now(self, conn: Any, deck: Deck[Any], margin: float = 0.0) -> DeckNow:
        """The deck's state, read again when a change was published since, or when it is
        older than SNAPSHOT_MAX_AGE_S (less `margin`: the thread ahead reads it before a phone
        finds it too old)."""
        hub = hall().hub
        kept = self.now.get(deck.deck_id)
        if kept is not None and kept.fresh(hub.published, time.monotonic() + margin):
            return kept
        with self._building:  # one request reads it; the others wait for it here
            kept = self.now.get(deck.deck_id)
            if kept is not None and kept.fresh(hub.published, time.monotonic() + margin):
                return kept
            seen = hub.published
            built = _read_now(conn, deck, seen)
            if hub.published == seen:
                self.now[deck.deck_id] = built
            return built

    # -- the page

    def page(
        self, deck: Deck[Any], card: Any, lang: str, now: DeckNow, path: str, full: str
    ) -> str:
        """The card's page, drawing (in a request) what is not kept yet."""
        self.app_pages += 1
        found = self._compose(deck, card, lang, now, path, full, draw=True)
        assert found is not None  # drawn when missing
        return found

    def _compose(
        self,
        deck: Deck[Any],
        card: Any,
        lang: str,
        now: DeckNow,
        path: str,
        full: str,
        draw: bool,
    ) -> str | None:
        kind = claims_of(deck.variant)
        key = (kind.card_page, lang, deck.deck_id, deck.name, now.game_id, now.words)
        shell = self.shells.get(key)
        table = self.table(kind, card, lang, draw)
        if shell is None or table is None:
            if not draw:
                return None
            if table is None:
                table = self.table(kind, card, lang, True)
            if shell is None:
                shell = self._shell(key, kind, deck, card, now)
        assert table is not None  # drawn when missing
        values = page_shell.values(card, path, full)
        values["TABLE"] = table
        values["CARD"] = "" if now.game is None else now.card_state_of(card.serial)
        values["STATE"] = now.state
        return shell.fill(values)

    def table(self, kind: ClaimsKind[Any, Any], card: Any, lang: str, draw: bool) -> str | None:
        """The card's table without marks in `lang`, filled in from the variant's cut. Without
        `draw` (on the loop), None when there is no cut to fill in yet; with it (in a request in
        `lang`), the cut is made first if need be, or the drawer draws the table when the cut
        does not fit."""
        text = kind.table_text(card)
        key = (kind.table_template, lang)
        if key not in self.cuts:
            if not draw:
                return None
            self._cut(kind, key, text)
        cut = self.cuts[key]
        if cut is None:
            if not draw:
                return None
            self.drawn += 1
            return kind.draw_bare(text)
        self.filled += 1
        return cut.fill(text)

    def _cut(self, kind: ClaimsKind[Any, Any], key: tuple[str, str], like: TableText) -> None:
        """Make the variant's cut in the request's language, once (`bare_table`)."""
        with self._shell_lock:
            if key in self.cuts:
                return
            cut = TableCut.made(kind.draw_bare, like)
            if cut is not None and not cut.fits(kind.draw_bare, like):
                cut = None
            if cut is None:
                logging.getLogger(__name__).warning(
                    "card pages: %s cannot be cut at its placeholders; each table is drawn", key[0]
                )
            self.cuts[key] = cut

    def shell_ahead(self, app: Flask, deck: Deck[Any], now: DeckNow, lang: str) -> None:
        """Render the page around the deck's cards in `lang` for its state now, if it is not
        kept (a new game, round or rules): in the thread ahead, before a phone asks, outside
        any app context (Flask-Babel keeps the locale in the app context's `g`)."""
        kind = claims_of(deck.variant)
        key = (kind.card_page, lang, deck.deck_id, deck.name, now.game_id, now.words)
        cut = (kind.table_template, lang) not in self.cuts
        if key not in self.shells or cut:
            with app.test_request_context(f"/?lang={lang}"):
                self._shell(key, kind, deck, deck.cards[0], now)
                if cut:  # the cards' tables are then filled in on the loop, as asked
                    self._cut(kind, (kind.table_template, lang), kind.table_text(deck.cards[0]))

    def _shell(
        self,
        key: tuple[Any, ...],
        kind: ClaimsKind[Any, Any],
        deck: Deck[Any],
        card: Any,
        now: DeckNow,
    ) -> Shell:
        """The kept shell, rendered by one request while the others that need it wait for it
        (the first phones of a join storm all find it missing at once)."""
        with self._shell_lock:
            shell = self.shells.get(key)
            if shell is None:
                facts = None
                if now.game is not None:
                    facts = kind.game_facts(now.game.game_id, now.round, now.facts)
                shell = self.shells[key] = _render_shell(kind, deck, now.game, now, facts)
            return shell

    # -- on the event loop: from what is kept only

    def waiter(self, scope: dict[str, Any], loop: asyncio.AbstractEventLoop) -> Any:
        """A future for a stale card page to wait on (the thread ahead's next pass), or None:
        the app builds it (no thread ahead: the station runs without `start`)."""
        ahead = self.ahead
        return None if ahead is None else ahead.waiter(scope, loop)

    def shows_a_card(self, app: Flask, path: str) -> bool:
        """Is `path` a valid card's page (/c/<deck>/<serial>/<sig>) of a deck this process
        has read? On the loop: no SQL (a deck not read yet counts as none)."""
        parts = path.split("/")
        if len(parts) != 5 or parts[1] not in ("c", "C"):
            return False
        _, _, deck_id, serial, sig = parts
        deck = station_state(app).decks.get(deck_id)
        if deck is None or not is_ascii_number(serial, 6) or len(sig) > 64:
            return False
        return signature_is_valid(deck.secret, deck.deck_id, int(serial), sig)

    def answer(self, app: Flask, scope: dict[str, Any]) -> bytes | None:
        """The card page a GET asks for, when everything it needs is kept and current; None
        sends the request to Flask (which builds what is missing, or answers a 404 or
        `?part=verdict`). No SQL, no template, no Flask: the event loop's own work."""
        path = scope.get("path", "")
        parts = path.split("/")
        if len(parts) != 5 or parts[1] not in ("c", "C") or scope.get("method") != "GET":
            return None
        _, _, deck_id, serial, sig = parts
        query = scope.get("query_string", b"").decode("latin-1")
        asked = parse_qs(query, keep_blank_values=True)
        if any(k != "lang" for k in asked):
            return None  # `?part=verdict` and anything else: Flask's
        state = station_state(app)
        deck = state.decks.get(deck_id)
        if deck is None or not is_ascii_number(serial, 6) or len(sig) > 64:
            return None
        if not signature_is_valid(deck.secret, deck.deck_id, int(serial), sig):
            return None  # Flask's 404 page
        try:
            card = deck.card(int(serial))
        except Exception:  # a serial the deck does not have: Flask's 404 page
            return None
        now = self.now.get(deck_id)
        if now is None or not now.fresh(hall(app).hub.published, time.monotonic()):
            scope[STALE] = deck_id  # a card of the deck: it may wait for the thread ahead
            return None
        lang = locale_of(scope, now.house_lang)
        full = path + "?" + query
        page = self._compose(deck, card, lang, now, path, full, draw=False)
        if page is None:
            return None
        self.loop_answers += 1
        return page.encode("utf-8")


#: where `answer` marks a card page it did not give because its deck's state was not current
STALE = "bingo_hall.stale_deck"


class Ahead:
    """The thread that keeps the card pages' shared parts current before the phones ask
    in the process that serves them: after every published change (a hub tap wakes
    it) and before a state's age runs out, it reads again the state of each deck whose game is
    in play (`CardPages.deck_now`) and renders the page around its cards in every language
    (`CardPages.shell_ahead`). Without it each change sent the phones asking in the next few
    milliseconds to the app, two at a time: a join storm's tail of seconds.

    A page the loop finds stale meanwhile waits for the thread's next pass (`waiter`), at most
    PAGE_WAIT_S (the hall's config), instead of going to the app."""

    def __init__(self, app: Flask, pages: CardPages) -> None:
        self.app, self.pages = app, pages
        self.wanted: set[str] = set()  # decks announced (loaded, a game started) not yet read
        self.passes = 0  # passes made (tests read it)
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

    def waiter(self, scope: dict[str, Any], loop: asyncio.AbstractEventLoop) -> Any:
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
        if not decks:
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


def _card_template(name: str) -> bool:
    """The templates a card's page is made of (`Ahead._compile_templates`)."""
    return name.startswith(("verify/", "station/base", "station/_"))


def _resolve(future: Any) -> None:
    if not future.done():
        future.set_result(None)


def _resolve_from_thread(loop: asyncio.AbstractEventLoop, future: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed (the server stopped): none waits
        loop.call_soon_threadsafe(_resolve, future)


def _read_now(conn: Any, deck: Deck[Any], published: int) -> DeckNow:
    """The deck's game and its state, read (a handful of queries)."""
    game = card_view.game_for_deck(conn, deck.deck_id)
    house = hall_settings.house_language()
    when = time.monotonic()
    if game is None:
        return DeckNow(published, when, house, None, None, 0, "")
    kind = claims_of(deck.variant)
    snap = snapshots.snapshot(conn, game.game_id)
    facts = kind.page_facts(conn, game)
    rnd = snap.round
    follow = kind.game_facts(game.game_id, rnd, facts)
    words = card_view.words_key(follow, "")
    state = page_shell.html_json(snap.to_json())
    shared = follow.to_json()
    del shared["serial"]  # each card's own, first (`DeckNow.card_state_of`)
    card_state = page_shell.html_json(shared)[1:]
    return DeckNow(published, when, house, game, facts, rnd, state, card_state, words[1:])


def _render_shell(
    kind: ClaimsKind[Any, Any], deck: Deck[Any], game: Game | None, now: DeckNow, facts: Any
) -> Shell:
    """The page around any card of `deck` in the request's language: the fragment without
    marks and the page around it, with the card's values as placeholders."""
    holder = Placeholder()
    fragment = render_template(
        kind.card_fragment,
        bare=True,
        kept_table=Markup(TABLE),
        card=holder,
        deck=deck,
        game=game,
        v=None,
        prize_board=kind.bare_board(now.facts) if game is not None else None,
    )
    text = render_template(
        kind.card_page,
        deck=deck,
        card=holder,
        game=game,
        fragment=Markup(fragment),
        follow=facts,
        follow_json=Markup(CARD),
        game_state=Markup(STATE),
        page_path=PATH,
        lang_next=Markup(page_shell.NEXT),
    )
    return Shell.cut(text)


def draw_table(kind: ClaimsKind[Any, Any], card: Any) -> str:
    """The card's table without marks as its page shows it, in the request's language."""
    table = CardPages.of().table(kind, card, str(get_locale() or "en"), draw=True)
    assert table is not None  # drawn when missing
    return table


def start(app: Flask) -> None:
    """Keep the card pages' shared parts current from now on (`serve` calls it, in the process
    that serves the pages), starting with the decks of the games in play and the decks with no
    game yet (a deck given to `serve` is loaded before the station listens for decks)."""
    pages = CardPages.of(app)
    if pages.ahead is None:
        pages.ahead = Ahead(app, pages)
        pages.ahead.start()
    with app.app_context():
        for row in get_db().execute(
            "SELECT deck_id FROM decks WHERE deck_id IN "
            "(SELECT deck_id FROM games WHERE status = 'active') "
            "OR deck_id NOT IN (SELECT deck_id FROM games) ORDER BY added DESC"
        ):
            pages.ahead.want(row["deck_id"])


def stop(app: Flask) -> None:
    """No more thread ahead (the next `start` starts another)."""
    pages = CardPages.of(app)
    ahead, pages.ahead = pages.ahead, None
    if ahead is not None:
        ahead.stop()


def announce(app: Flask, deck: Deck[Any]) -> None:
    """A deck was loaded or a game starts on it (`StationState.deck_listeners`): the thread ahead
    reads its state and renders the page around its cards before the phones ask."""
    ahead = CardPages.of(app).ahead
    if ahead is not None:
        ahead.want(deck.deck_id)


def kept_size_mb(pages: CardPages) -> float:
    """What the kept shells take, in MB (sys.getsizeof of the strings)."""
    return sum(sys.getsizeof(p) for s in pages.shells.values() for p in s.parts) / 1e6
