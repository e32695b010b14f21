"""Load once (issue 24): a card's or a ticket's QR page reads the game, its round and its calls
once, a handful of SQL queries however many balls have been called (it used to be about 20, the
`games` row alone read 5 times). Counted with sqlite3's trace callback on the request's own
connection."""

from __future__ import annotations

import sqlite3

import pytest
from testkit import Caller

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_path
from bingo_hall.web import db

from .hall import Hall

#: the game, its round, the round's calls, the claims settings, the card's penalties, the awards;
#: and the hall's settings (its default language), which every page reads
HANDFUL = 7


@pytest.fixture
def queries(monkeypatch):
    """The SELECTs and writes every request's connection runs, in order."""
    seen: list[str] = []
    connect = db.connect

    def traced(*args, **kwargs) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(seen.append)
        return conn

    monkeypatch.setattr(db, "connect", traced)
    return seen


def _count(client, queries: list[str], path: str) -> list[str]:
    queries.clear()
    r = client.get(path)
    assert r.status_code == 200
    return [q for q in queries if q.lstrip().upper().startswith("SELECT")]


def test_a_card_page_costs_a_handful_of_queries_however_long_the_round(client, queries):
    hall = Hall(client)
    gid = hall.new_game("points")
    hall.post(f"/api/games/{gid}/players", {"name": "Ana"})
    path = card_path(hall.deck.secret, hall.deck.deck_id, 5)
    client.get(path)  # the deck is parsed once per station, not per page
    early = _count(client, queries, path)
    b = hall.numbers(5, "B")
    hall.call(gid, *b[:4])
    hall.post(f"/api/games/{gid}/claims", {"serial": 5, "player": "Ana"})  # a penalty to read
    others = [n for n in range(1, 76) if n not in hall.deck.card(5).numbers][:30]
    hall.call(gid, *others)
    late = _count(client, queries, path)
    assert len(early) <= HANDFUL, "\n".join(early)
    assert len(late) == len(early), late
    assert sum("FROM games" in q for q in late) == 1, late


def test_a_ticket_page_costs_a_handful_of_queries(client, queries):
    strips = new_strip_deck(2, seed="queries-90")
    hall = Caller(client, strips)
    gid = hall.new_game(draw="manual")
    path = card_path(strips.secret, strips.deck_id, 4)
    client.get(path)
    hall.call(gid, *range(1, 40))
    found = _count(client, queries, path)
    assert len(found) <= HANDFUL, "\n".join(found)
    assert sum("FROM games" in q for q in found) == 1, found
