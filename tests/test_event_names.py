"""The event names the pages listen for (their JavaScript) are the names of the event types the
services publish (bingo_hall/station/events.py, companions/web/live.py): a page waiting for an
event nobody sends, or an event no page takes, fails here."""

from __future__ import annotations

import re
from pathlib import Path

from bingo_hall.station.events import (
    EVENT_NAMES,
    EVENT_TYPES,
    ROOM_EVENTS,
    AutoDrawChanged,
    CheckAsked,
    VerdictShown,
)
from companions.web.live import TableChanged

ROOT = Path(__file__).resolve().parent.parent
STATION_JS = sorted((ROOT / "bingo_hall" / "station").rglob("*.js"))
COMPANIONS_JS = sorted((ROOT / "companions" / "web").rglob("*.js"))

#: what an EventSource itself fires, not the station: the connection opened or failed
CONNECTION = {"open", "error", "message"}
#: the event every stream starts with (the whole state), sent by the stream itself
FIRST = "snapshot"

#: `es.addEventListener("call", ...)`, `window.stationEvents.addEventListener("scores", ...)`,
#: `source.addEventListener("view", ...)`, the station modules' `Station.listen("prize", ...)`:
#: listeners on a stream (not on document or a button)
LISTENER = re.compile(
    r"(?:\b(?:es|source|stationEvents|events|stream)\s*\.\s*addEventListener|\b(?:S|Station)\s*\.\s*listen)"
    r"\(\s*[\"']([\w-]+)[\"']"
)
#: `for (const kind of ["snapshot", "call", ...]) es.addEventListener(kind, ...)`
LISTENED_LIST = re.compile(r"for\s*\(\s*(?:const|let|var)\s+\w+\s+of\s+\[([^\]]*)\]\s*\)")


#: `const handlers = { call(d) {...}, undo: f }` or `follow(url, { ... })` (live.js): one handler
#: per event name
HANDLERS = re.compile(r"(?:\bhandlers\s*=\s*|\bfollow\(\s*[^,()]+,\s*)\{")


def _top_level_keys(js: str, opening: int) -> set[str]:
    """The keys of the object literal whose `{` is at `opening` (nested blocks left out)."""
    depth, end = 0, opening
    for end in range(opening, len(js)):
        depth += {"{": 1, "}": -1}.get(js[end], 0)
        if depth == 0:
            break
    body = js[opening + 1 : end]
    while re.search(r"\{[^{}]*\}", body):
        body = re.sub(r"\{[^{}]*\}", "", body)
    while re.search(r"\([^()]*\)", body):
        body = re.sub(r"\([^()]*\)", "#", body)
    return set(re.findall(r"(?:^|,)\s*(\w+)\s*(?:#|:)", body))


def listened(js: str) -> set[str]:
    """The stream events a script listens for."""
    names = set(LISTENER.findall(js))
    for body in LISTENED_LIST.findall(js):
        words = re.findall(r"[\"']([\w-]+)[\"']", body)
        if FIRST in words:  # a list of stream events (it starts from the snapshot)
            names.update(words)
    for found in HANDLERS.finditer(js):
        names |= _top_level_keys(js, found.end() - 1)
    return names - CONNECTION


def listened_in(paths: list[Path]) -> set[str]:
    return set().union(*(listened(p.read_text()) for p in paths))


def test_the_reader_finds_the_listeners_a_page_writes():
    js = (
        "const es = new EventSource(url);\n"
        'for (const kind of ["snapshot", "call", "undo"]) es.addEventListener(kind, f);\n'
        'es.addEventListener("open", g);\n'
        'window.stationEvents.addEventListener("scores", h);\n'
        'document.addEventListener("DOMContentLoaded", k);\n'
        'for (const b of ["x", "y"]) b.hidden = true;\n'
    )
    assert listened(js) == {"snapshot", "call", "undo", "scores"}


def test_the_reader_finds_the_handlers_given_to_live_js():
    js = (
        "const handlers = {\n"
        "  snapshot(d) { if (d.round) { go(d); } },\n"
        "  call(d) { s.calls.push(d.ball); },\n"
        "  prize: (d) => show(d),\n"
        "};\n"
        "follow(`/api/games/${s.game}/events`, handlers, { onDown() { x(); } });\n"
        "follow(url, { view(d) { draw(d); }, next(d) { go(d.code); } });\n"
    )
    assert listened(js) == {"snapshot", "call", "prize", "view", "next"}


def test_every_event_a_station_page_listens_for_is_an_event_type():
    names = listened_in(STATION_JS)
    assert {"call", "undo", "verdict"} <= names  # the reader still understands the scripts
    assert names - {FIRST} <= EVENT_NAMES, names - {FIRST} - EVENT_NAMES


def test_every_event_type_has_a_page_that_listens_for_it():
    assert EVENT_NAMES - listened_in(STATION_JS) == set()


def test_only_the_verdict_the_automatic_draw_and_the_asked_checks_are_kept_from_the_phones():
    room_only = {VerdictShown.NAME, AutoDrawChanged.NAME, CheckAsked.NAME}
    assert ROOM_EVENTS == room_only == {e.NAME for e in EVENT_TYPES if e.ROOM_ONLY}


def test_a_card_page_listens_for_no_event_its_stream_skips():
    card_js = [p for p in STATION_JS if p.name == "card.js"]
    assert card_js, "the card page's script moved: update this test"
    assert not listened(card_js[0].read_text()) & ROOM_EVENTS


def test_a_table_phone_listens_for_the_messages_a_table_change_sends():
    assert listened_in(COMPANIONS_JS) == set(TableChanged.MESSAGES)
