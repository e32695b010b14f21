"""A card's or a ticket's QR page done ahead of need: in a join storm every phone asks
for a different card, so nothing may be left to do per page but joining what is kept.

A page is four kept things joined (`page`):

* the shell: the page around the card, the same for every card of a game in a language
  (page_shell.py: rendered once, cut at its placeholders);
* the card's table, drawn without marks by the one drawer (templates/verify/_vcard.html) once per
  card and language and kept (`KeptTables`, bounded). `predraw` draws a whole deck's tables in a
  worker process when a deck is loaded (a game's start finds them drawn), so neither a phone nor
  the Maestro waits for them; a table not drawn yet is drawn by the first page that needs it, and
  kept. A 75-ball card's table is the drawer's table drawn once per language with placeholders
  and filled in (`draw_table`): microseconds, so the event loop fills in one not drawn yet;
* the game's state (`DeckNow`): the game's snapshot, the very data its stream gives a screen
  that connects, and the game's facts (its rules, or its prize list and who won what) as the
  page's JSON (`#card-state`, `ClaimsKind.game_facts`), read once per change of the game (a
  published event, or SNAPSHOT_MAX_AGE_S for a change no event tells, such as the hall's
  language) and shared by every card;
* the card's own values: its serial (put in `#card-state` by a join), its path.

Nothing is made per card when a game, a round or a pattern starts: static/card.js reads the card's
numbers from its table and marks and judges it (static/judge.js) on load from the game's facts and
state, as it does on every snapshot; a browser without JavaScript sees the card unmarked, and a
line saying why.

`answer` gives the same page without Flask, SQL or a template, from what is kept only: the
station's server calls it on its event loop (`HallState.loop_pages`), as it answers static files,
so a join storm takes no worker thread and nothing of the interpreter that the Maestro's requests
need but the join. A thread ahead (`Ahead`) reads the state again after every published change
and renders the page around the cards of a new game, round or pattern in every language, before
the phones ask; a page asked in the moment before it is done waits on the loop for it. Whatever
is not kept at all (a table never drawn, a deck with no game) goes to Flask, which builds it once
and keeps it for the next phone.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import multiprocessing
import os
import re
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from flask import Flask, render_template
from flask_babel import get_locale
from markupsafe import Markup

from ...manifest import Deck, deck_from_dict
from ...seventyfive.cards import CENTRE, LINE_NAMES, SIZE
from ...signing import signature_is_valid
from ...web.db import get_db
from ...web.errors import NotFound
from ...web.i18n import LANGUAGES, locale_of
from ...web.inputs import is_ascii_number
from ...web.instance import Recipe, area_state, hall
from ...web.plumbing import end_pool, worker_ignores_ctrl_c
from .. import hall_settings, snapshots
from ..decks import get_deck
from ..model import Game, GameStatus
from ..snapshots import SNAPSHOT_MAX_AGE_S
from ..state import station_state
from . import card_view, page_shell
from .page_shell import CARD, PATH, STATE, TABLE, Placeholder, Shell
from .variants import CardClaims, ClaimsKind, claims_of

#: what the kept tables may hold: a 3003-card deck in two languages takes about 21 MB
KEPT_TABLES_BYTES = 48 * 1024 * 1024
#: cards drawn per task of the worker process (its results come back a part at a time)
PREDRAW_CHUNK = 250
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


class KeptTables:
    """Each card's table as drawn in each language, by (deck id, language), the oldest deck and
    language dropped first past `limit` characters (a table is ASCII but for a few names)."""

    def __init__(self, limit: int = KEPT_TABLES_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self._by: OrderedDict[tuple[str, str], dict[int, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, deck_id: str, lang: str, serial: int) -> str | None:
        kept = self._by.get((deck_id, lang))
        return None if kept is None else kept.get(serial)

    def count(self, deck_id: str, lang: str) -> int:
        return len(self._by.get((deck_id, lang), ()))

    def put(self, deck_id: str, lang: str, tables: dict[int, str]) -> None:
        with self._lock:
            key = (deck_id, lang)
            kept = self._by.setdefault(key, {})
            self._by.move_to_end(key)  # the newest deck and language is dropped last
            for serial, html in tables.items():
                old = kept.get(serial)
                self.size += len(html) - (len(old) if old is not None else 0)
                kept[serial] = html
            while self.size > self.limit and len(self._by) > 1:
                _, dropped = self._by.popitem(last=False)
                self.size -= sum(len(t) for t in dropped.values())


class CardPages:
    """What the card pages keep (one per app: `of`)."""

    def __init__(self) -> None:
        self.tables = KeptTables()
        self.shells: dict[tuple[Any, ...], Shell] = {}
        self.now: dict[str, DeckNow] = {}
        self._building = threading.Lock()
        self._shell_lock = threading.Lock()
        #: (deck id, language) -> tasks of the worker process still drawing its tables
        self.drawing: dict[tuple[str, str], int] = {}
        self.drawing_lock = threading.Lock()
        self.sent: set[str] = set()  # the decks the worker process was given
        self.drawn = 0  # tables drawn in this process, each for a page asked (tests read it)
        #: cards given work of their own before a phone asked (their tables, asked of the
        #: worker): loading a deck draws them; starting a game, a round or a pattern adds none
        #: (tests read it)
        self.per_card_work = 0
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
        game = now.game
        key = (kind.card_page, lang, deck.deck_id, deck.name, now.game_id, now.words)
        shell = self.shells.get(key)
        table = self.tables.get(deck.deck_id, lang, card.serial)
        if table is None and isinstance(kind, CardClaims):
            cut = _TABLE_SHELLS.get((lang, _centre_free(card)))
            if cut is not None:  # a 75-ball card's: the cut table filled in (microseconds)
                table = _fill_card_table(cut, card)
                self.tables.put(deck.deck_id, lang, {card.serial: table})
        if shell is None or table is None:
            if not draw:
                return None
            if table is None:
                table = self._draw_table(kind, deck, card, lang)
            if shell is None:
                shell = self._shell(key, kind, deck, card, now)
        values = page_shell.values(card, path, full)
        values["TABLE"] = table
        values["CARD"] = "" if game is None else now.card_state_of(card.serial)
        values["STATE"] = now.state
        return shell.fill(values)

    def shell_ahead(self, app: Flask, deck: Deck[Any], now: DeckNow, lang: str) -> None:
        """Render the page around the deck's cards in `lang` for its state now, if it is not
        kept (a new game, round or rules): in the thread ahead, before a phone asks, outside
        any app context (Flask-Babel keeps the locale in the app context's `g`)."""
        kind = claims_of(deck.variant)
        key = (kind.card_page, lang, deck.deck_id, deck.name, now.game_id, now.words)
        cut = isinstance(kind, CardClaims) and (lang, False) not in _TABLE_SHELLS
        if key not in self.shells or cut:
            with app.test_request_context(f"/?lang={lang}"):
                self._shell(key, kind, deck, deck.cards[0], now)
                if cut:  # a 75-ball card's table is then filled in on the loop, as asked
                    _card_table_shell(lang, True)
                    _card_table_shell(lang, False)

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

    def _draw_table(self, kind: ClaimsKind[Any, Any], deck: Deck[Any], card: Any, lang: str) -> str:
        table = draw_table(kind, card)
        self.drawn += 1
        self.tables.put(deck.deck_id, lang, {card.serial: table})
        return table

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
    """The card's table without marks, by the one drawer, in the request's language. A 75-ball
    card's is the drawer's table drawn once per language with placeholders for the numbers,
    the totals and the serial (`_card_table_shell`), filled in: microseconds, not a template's
    millisecond (a 3003-card deck's tables in two languages take a tenth of a second)."""
    if isinstance(kind, CardClaims):
        lang = str(get_locale() or "en")
        return _fill_card_table(_card_table_shell(lang, _centre_free(card)), card)
    return render_template(
        kind.table_template, card=card, grid=kind.grid(card, None), **kind.drawn(card)
    )


#: a placeholder in a 75-ball card's table drawn once per language: a square's number (N and
#: the square, 0-24), a line's total (T and the line's name) or the serial; plain letters and
#: digits, which neither HTML escaping nor a translation changes
_TABLE_TOKEN = re.compile(r"Qx([A-Z0-9]+)xQ")
#: (language, the centre FREE) -> the card's table cut at its placeholders (`_card_table_shell`)
_TABLE_SHELLS: dict[tuple[str, bool], tuple[str, ...]] = {}


@dataclass(frozen=True)
class _ProbeSquare:
    """A square as the table's drawer reads it (judged.Square), its number a placeholder."""

    n: str | None
    covered: bool = False
    last: bool = False
    wins: bool = False
    need: bool = False


@dataclass(frozen=True)
class _ProbeTotal:
    total: str


@dataclass(frozen=True)
class _ProbeCard:
    serial: str = "QxSERIALxQ"


def _centre_free(card: Any) -> bool:
    return bool(card.number_at(*CENTRE) is None)


def _card_table_shell(lang: str, centre_free: bool) -> tuple[str, ...]:
    """A 75-ball card's table without marks in `lang` (the request's), drawn once by the one
    drawer (verify/_card_table.html) with placeholders, and cut at them (`re.split` with one
    group: text, a name, text...)."""
    cut = _TABLE_SHELLS.get((lang, centre_free))
    if cut is None:
        grid = [
            [
                _ProbeSquare(None if (r, c) == CENTRE and centre_free else f"QxN{r * SIZE + c}xQ")
                for c in range(SIZE)
            ]
            for r in range(SIZE)
        ]
        lines = {name: _ProbeTotal(f"QxT{name}xQ") for name in LINE_NAMES}
        text = render_template(CardClaims.table_template, card=_ProbeCard(), grid=grid, lines=lines)
        cut = _TABLE_SHELLS[(lang, centre_free)] = tuple(_TABLE_TOKEN.split(text))
    return cut


def _fill_card_table(cut: tuple[str, ...], card: Any) -> str:
    """The cut table with this card's numbers, totals and serial."""
    out = [cut[0]]
    totals = card.lines_by_name
    for i in range(1, len(cut), 2):
        name = cut[i]
        if name == "SERIAL":
            out.append(str(card.serial))
        elif name[0] == "N":
            square = int(name[1:])
            out.append(str(card.number_at(square // SIZE, square % SIZE)))
        else:
            out.append(str(totals[name[1:]].total))
        out.append(cut[i + 1])
    return "".join(out)


# -- drawing a deck's tables ahead of need, in a worker process

_pool: ProcessPoolExecutor | None = None
_guard = threading.Lock()
_factory: Callable[..., Flask] | None = None


def start(app: Flask, factory: Callable[..., Flask]) -> None:
    """Draw decks' tables ahead of need from now on (`serve` calls it), starting with the decks
    of the games in play and the decks with no game yet: a 75-ball deck's here (`predraw`), a
    90-ball deck's in a worker process at a lower CPU priority than the station, started when
    the first such deck is drawn. `factory` is the app factory the worker makes its own app with
    (its templates and catalogs)."""
    global _factory
    with _guard:
        if _factory is None:
            _factory = factory
            atexit.register(stop)
    pages = CardPages.of(app)
    if pages.ahead is None:
        pages.ahead = Ahead(app, pages)
        pages.ahead.start()
    with app.app_context():
        conn = get_db()
        # the decks in play, and the decks loaded for a first game (a deck given to `serve`
        # is loaded before the station listens for decks): their games start with nothing to draw
        for row in conn.execute(
            "SELECT deck_id FROM decks WHERE deck_id IN "
            "(SELECT deck_id FROM games WHERE status = 'active') "
            "OR deck_id NOT IN (SELECT deck_id FROM games) ORDER BY added DESC"
        ):
            predraw(app, get_deck(conn, row["deck_id"]))


def stop(app: Flask | None = None) -> None:
    """No more worker process (the next `start` makes a new one, which is given the decks
    again)."""
    global _pool, _factory
    with _guard:
        pool, _pool, _factory = _pool, None, None
    if app is not None:
        pages = CardPages.of(app)
        pages.sent.clear()
        ahead, pages.ahead = pages.ahead, None
        if ahead is not None:
            ahead.stop()
    if pool is not None:
        # a deck being drawn must not hold the station's exit: its worker is ended, not awaited
        end_pool(pool, kill=True)


def _worker_start(recipe: Recipe) -> None:
    """The worker process, at a lower CPU priority than the station, makes its app."""
    worker_ignores_ctrl_c()
    try:
        os.nice(10)
    except (AttributeError, OSError):  # pragma: no cover - Windows has no nice()
        pass
    _worker_app_of(recipe)


def predraw(app: Flask, deck: Deck[Any]) -> list[Future[dict[int, str]]]:
    """Draw every table of the deck not kept yet, in both languages: a 75-ball deck's here and
    now (filled-in tables: a tenth of a second for 3003 cards), a 90-ball deck's in the worker
    process (none when the station draws nothing ahead, without `start`: then each table is
    drawn by its first page). Called when a deck is loaded and when a game starts
    (`StationState.deck_listeners`)."""
    pages, deck_id = CardPages.of(app), deck.deck_id
    if pages.ahead is not None:  # its state and the page around its cards too
        pages.ahead.want(deck_id)
    futures: list[Future[dict[int, str]]] = []
    factory = _factory
    if factory is None:
        return futures
    if all(pages.tables.count(deck_id, lang) >= len(deck.cards) for lang in LANGUAGES):
        return futures  # drawn (a game of a deck loaded before): nothing per card to do
    kind = claims_of(deck.variant)
    if isinstance(kind, CardClaims):
        for lang in LANGUAGES:
            with app.test_request_context(f"/?lang={lang}"):
                drawn = {
                    c.serial: draw_table(kind, c)
                    for c in deck.cards
                    if pages.tables.get(deck_id, lang, c.serial) is None
                }
            pages.tables.put(deck_id, lang, drawn)
            pages.per_card_work += len(drawn)
        return futures
    pool = _pool_now(_worker_recipe(app, factory))
    serials = [c.serial for c in deck.cards]
    house = _house_language()
    for lang in sorted(LANGUAGES, key=lambda code: code != house):  # the hall's first
        key = (deck_id, lang)
        with pages.drawing_lock:
            if key in pages.drawing or pages.tables.count(deck_id, lang) >= len(serials):
                continue  # being drawn (a deck loaded, then its game started), or drawn
            chunks = [serials[i : i + PREDRAW_CHUNK] for i in range(0, len(serials), PREDRAW_CHUNK)]
            pages.drawing[key] = len(chunks)
        for chunk in chunks:
            try:
                fut = pool.submit(_in_worker, deck_id, _manifest(pages, deck), lang, chunk)
            except RuntimeError:  # the pool was stopped meanwhile
                pages.drawing.pop(key, None)
                return futures
            fut.add_done_callback(_keep(pages, key))
            futures.append(fut)
            pages.per_card_work += len(chunk)
    return futures


def _pool_now(recipe: Recipe) -> ProcessPoolExecutor:
    """The worker process, started with the first deck it is given."""
    global _pool
    with _guard:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                1, mp_context=context, initializer=_worker_start, initargs=(recipe,)
            )
        return _pool


def _worker_recipe(app: Flask, factory: Callable[..., Flask]) -> Recipe:
    """How the worker makes its app: the station's own (made by `factory`), read-only."""
    made = hall(app).made_with
    if made is None:  # an app not made by a factory's Recipe: the same database, by its path
        return Recipe(factory, None, app.instance_path, {"DATABASE": hall(app).config.database})
    return Recipe(factory, made.test_config, made.instance_path, made.settings)


def _manifest(pages: CardPages, deck: Deck[Any]) -> str | None:
    """The deck for the worker's next task if it was not given it yet (it keeps it; one worker
    takes the tasks in order)."""
    if deck.deck_id in pages.sent:
        return None
    pages.sent.add(deck.deck_id)
    return deck.to_json()


def _house_language() -> str | None:
    """The hall's language (most phones open their card in it), when it can be read."""
    try:
        return hall_settings.house_language()
    except (sqlite3.Error, RuntimeError):  # no app, a lost database: any order will do
        return None


def _keep(pages: CardPages, key: tuple[str, str]) -> Callable[[Future[dict[int, str]]], None]:
    def done(fut: Future[dict[int, str]]) -> None:
        if not fut.cancelled() and fut.exception() is None:
            pages.tables.put(key[0], key[1], fut.result())
        with pages.drawing_lock:
            left = pages.drawing.get(key, 1) - 1
            if left <= 0:
                pages.drawing.pop(key, None)
            else:
                pages.drawing[key] = left

    return done


_worker_app: Flask | None = None
_worker_decks: dict[str, Deck[Any]] = {}


def _worker_app_of(recipe: Recipe) -> Flask:
    """The worker's app: the station's own, read-only, as the phones' process makes it (its
    templates and catalogs are what it draws with). It writes no file: no folder, database or
    key of its own, so nothing of it is left anywhere when the worker ends, however it ends."""
    global _worker_app
    if _worker_app is None:
        _worker_app = recipe.make(READ_ONLY=True, DEVICE_URL=None)
    return _worker_app


def _in_worker(deck_id: str, manifest: str | None, lang: str, serials: list[int]) -> dict[int, str]:
    """In the worker: the tables of `serials` in `lang`, drawn by its app (made at its start).
    The deck's `manifest` comes with its first task only (one worker takes the tasks in order)."""
    app = _worker_app
    assert app is not None, "the worker makes its app when it starts (_worker_start)"
    deck = _worker_deck(deck_id, manifest)
    kind = claims_of(deck.variant)
    with app.test_request_context(f"/?lang={lang}"):
        return {s: draw_table(kind, deck.card(s)) for s in serials}


def _worker_deck(deck_id: str, manifest: str | None) -> Deck[Any]:
    """The deck a task is about: given with the first task that needs it, kept after."""
    import json

    if manifest is not None:
        _worker_decks[deck_id] = deck_from_dict(json.loads(manifest))
    return _worker_decks[deck_id]


def kept_size_mb(pages: CardPages) -> float:
    """What the kept tables and shells take, in MB (sys.getsizeof of the strings)."""
    total = sum(sys.getsizeof(t) for kept in list(pages.tables._by.values()) for t in kept.values())
    total += sum(sys.getsizeof(p) for s in pages.shells.values() for p in s.parts)
    return total / 1e6
