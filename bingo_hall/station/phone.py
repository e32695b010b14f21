"""The players' phone page, where the big screen's "Phones: join" QR leads (`/join`): the last
ball, the calls, a box to open one's card by its printed number, and the table games.

A card whose QR will not scan (creased, wet, a phone without a camera app) is followed by typing
the big number printed on it: /join then shows that card's table (drawn by the one drawer,
verify/_vcard.html) with the calls marked, kept marked by phone_card.js as the balls come. It is
a view, never the card's signed page: the signed path (what the printed QR holds) is the proof of
holding a card, which a claim and a sale-by-scan rely on, so a typed number never hands it out
(docs/station.md, "Security"). Typed numbers are slowed down as table codes are
(`bingo_hall.web.limits`): every new number a phone opens counts against its address, and
numbers that are no card of the deck count for the whole station; numbers this phone already
opened (kept in its session) and the laptop itself are never held up.
"""

from __future__ import annotations

import math
import sqlite3
import threading
import time
from typing import Any

from flask import (
    Blueprint,
    current_app,
    make_response,
    render_template,
    request,
    session,
)
from flask_babel import get_locale, gettext
from markupsafe import Markup
from werkzeug.wrappers import Response

from ..errors import KitError
from ..manifest import Deck
from ..variants import variant_for
from ..web.db import get_db
from ..web.i18n import LANGUAGES
from ..web.instance import area_state
from ..web.limits import Backoff, BackoffPerKey, BackoffRule, from_this_machine
from ..web.pages import shared, shared_page
from .decks import get_deck
from .games import get_game
from .snapshots import snapshot
from .verify.variants import claims_of

bp = Blueprint("phone", __name__)

#: the kept drawings of typed cards (their own cache: a guest typing many numbers never pushes
#: /join or /display out of theirs)
CARDS = "followed_cards"

#: As the companions' table codes: 10 in a row from one address, or 100 unknown numbers over the
#: whole station, then 1 s, doubling up to a minute; forgotten after 10 quiet minutes.
NUMBER_PER_ADDRESS = BackoffRule(free=10, first_wait_s=1.0, max_wait_s=60.0, forget_s=600.0)
NUMBER_OVERALL = BackoffRule(free=100, first_wait_s=1.0, max_wait_s=60.0, forget_s=600.0)
REMEMBERED = 12  # card numbers a phone's session keeps


class _NumberGate:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.per_address = BackoffPerKey(NUMBER_PER_ADDRESS)
        self.overall = Backoff(NUMBER_OVERALL)


def shown_game(conn: sqlite3.Connection) -> int | None:
    """The game phones follow: the newest one in play, else the newest finished one."""
    row = conn.execute(
        "SELECT id FROM games ORDER BY status = 'active' DESC, id DESC LIMIT 1"
    ).fetchone()
    return row[0] if row else None


#: where a followed card goes in the kept /join page (never reachable from a request: the kept
#: page holds nothing the request said, and its JSON escapes "<")
FOLLOWED = "<!--bh:followed-card-->"


def _page(
    error: str | None = None,
    number: str = "",
    status: int = 200,
    retry: int = 0,
    deck: Deck[Any] | None = None,
    serial: int | None = None,
):
    """/join, with the card typed (`serial` of `deck`) when there is one, or its answer to a
    typed number that opens no card (`error`)."""
    gid = shown_game(get_db())
    lang_arg = request.args.get("lang") if request.args.get("lang") in LANGUAGES else None
    lang = str(get_locale())
    if error is None:  # the page every phone asks for: built once per change (web/pages.py)
        key = ("join", gid, lang, lang_arg)
        page = shared_page(key, lambda: _build(gid, lang_arg, None, ""))
        if deck is not None and serial is not None:
            drawn = ("followed", deck.deck_id, serial, lang)
            card = shared_page(drawn, lambda: _followed(deck, serial), CARDS)
            page = page.replace(FOLLOWED, card, 1)
    else:
        page = _build(gid, lang_arg, error, number)
    resp = make_response(page, status)
    if retry:
        resp.headers["Retry-After"] = str(retry)
    return resp


def _build(gid: int | None, lang_arg: str | None, error: str | None, number: str) -> str:
    snap = snapshot(get_db(), gid).to_json() if gid is not None else None
    return render_template(
        "phone/join.html",
        snap=snap,
        # what the hall plays with names the player's paper: a card, or a ticket of a strip
        layout=variant_for(snap["balls"]).layout if snap else "card",
        error=error,
        number=number,
        lang_arg=lang_arg,
        followed_slot=Markup(FOLLOWED),
        lang_next="/join",  # never the query: nothing of the request is in a kept page
    )


def _followed(deck: Deck[Any], serial: int) -> str:
    """A card of the shown game's deck as its page draws it (verify/_vcard.html), unmarked:
    phone_card.js marks it from the calls. Its table, never its signed path."""
    card = deck.card(serial)
    kind = claims_of(deck.variant)
    return render_template(
        "phone/_followed.html", serial=serial, grid=kind.grid(card, None), **kind.drawn(card)
    )


@bp.get("/join")
@shared
def join() -> Response:
    return _page()


def _held(who: str, now: float, gate: _NumberGate) -> int:
    wait = max(gate.per_address.get(who, now).wait(now), gate.overall.wait(now))
    return math.ceil(wait)


@bp.get("/join/card")
def card_by_number() -> Response:
    raw = request.args.get("n", "").strip()
    number = raw.lstrip("#").strip()
    if not number:
        return _page(gettext("Type the big number printed on your card."), raw, 400)
    if not (number.isascii() and number.isdigit()) or len(number) > 6:
        return _page(gettext("A card number is digits only, like 17."), raw, 400)
    conn = get_db()
    gid = shown_game(conn)
    if gid is None:
        message = gettext("No game has started yet: try again when the Maestro starts one.")
        return _page(message, raw, 404)
    deck = get_deck(conn, get_game(conn, gid).deck_id)
    serial = int(number)
    known = f"{deck.deck_id}:{serial}" in session.get("cards", [])
    who = request.remote_addr or "?"
    if not (known or from_this_machine(who)):
        gate = area_state("phone_number_gate", _NumberGate)
        with gate.lock:  # wait-check-count is one step: a burst gets one lookup through
            now = time.monotonic()
            if wait := _held(who, now, gate):
                current_app.logger.warning("card number lookups from %s held %s s", who, wait)
                message = gettext("Too many card numbers. Try again in %(s)s seconds.", s=wait)
                return _page(message, raw, 429, retry=wait)
            gate.per_address.get(who, now).fail(now)
            if not 1 <= serial <= len(deck.cards):
                gate.overall.fail(now)
    try:
        deck.card(serial)
    except KitError:
        message = gettext(
            "There is no card %(n)s in tonight's deck (%(name)s).", n=serial, name=deck.name
        )
        return _page(message, raw, 404)
    cards = [c for c in session.get("cards", []) if c != f"{deck.deck_id}:{serial}"]
    session["cards"] = [*cards, f"{deck.deck_id}:{serial}"][-REMEMBERED:]
    return _page(deck=deck, serial=serial)
