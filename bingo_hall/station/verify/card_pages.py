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
import logging
import sys
import threading
import time
from typing import Any
from urllib.parse import parse_qs

from flask import Flask, render_template
from flask_babel import get_locale
from markupsafe import Markup

from ...manifest import Deck
from ...signing import signature_is_valid
from ...web.admission import Scope
from ...web.db import get_db
from ...web.i18n import locale_of
from ...web.inputs import is_ascii_number
from ...web.instance import area_state, hall
from ..model import Game
from ..state import station_state
from . import page_shell
from .ahead import STALE, Ahead
from .bare_table import TableCut, TableText
from .deck_now import DeckNow, read_now
from .page_shell import CARD, PATH, STATE, TABLE, Placeholder, Shell
from .variants import ClaimsKind, claims_of


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
            built = read_now(conn, deck, seen)
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
        if shell is None:
            if not draw:
                return None
            shell = self._shell(key, kind, deck, card, now)
        table = self.table(kind, card, lang, draw)
        if table is None:  # (only on the loop: no cut made yet)
            return None
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

    def waiter(self, scope: Scope, loop: asyncio.AbstractEventLoop) -> Any:
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

    def answer(self, app: Flask, scope: Scope) -> bytes | None:
        """The card page a GET asks for, when everything it needs is kept and current; None
        sends the request to Flask (which builds what is missing, or answers a 404 or
        `?part=verdict`). No SQL, no template, no Flask: the event loop's own work."""
        path = scope.get("path", "")
        parts = path.split("/")
        if len(parts) != 5 or parts[1] not in ("c", "C") or scope.get("method") != "GET":
            return None
        _, _, deck_id, serial, sig = parts
        query = scope.get("query_string", b"").decode("latin-1")
        if query and any(k != "lang" for k in parse_qs(query, keep_blank_values=True)):
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
