"""Load once (issues 24 and 32): a card's or a ticket's QR page reads the game's state once per
change of the game, as many queries however many balls have been called, and shares it: the next
card's page reads nothing of the game. Counted with sqlite3's trace callback on the request's own
connection."""

from __future__ import annotations

import sqlite3

import pytest
from testkit import Caller

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_path
from bingo_hall.web import db

from .hall import Hall


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


def test_a_card_page_reads_the_game_once_per_change_however_long_the_round(client, queries):
    """Issue 32: the game's state is read once per change and shared by every card; the next
    card's page reads nothing of the game (only the hall's language, as every page does)."""
    hall = Hall(client)
    gid = hall.new_game("points")
    hall.post(f"/api/games/{gid}/players", {"name": "Ana"})
    path = [card_path(hall.deck.secret, hall.deck.deck_id, s) for s in range(1, 9)]
    early = _count(client, queries, path[4])
    early_next = _count(client, queries, path[5])
    b = hall.numbers(5, "B")
    hall.call(gid, *b[:4])
    hall.post(f"/api/games/{gid}/claims", {"serial": 5, "player": "Ana"})  # a penalty to read
    others = [n for n in range(1, 76) if n not in hall.deck.card(5).numbers][:30]
    hall.call(gid, others[0])
    mid = _count(client, queries, path[4])
    hall.call(gid, *others[1:])
    late = _count(client, queries, path[4])
    late_next = _count(client, queries, path[6])
    assert len(early) < 30, early  # a handful
    assert len(late) == len(mid), late
    assert sum("FROM games" in q for q in late) >= 1, late
    for nothing_of_the_game in (early_next, late_next):
        assert nothing_of_the_game == ["SELECT * FROM hall_settings"], nothing_of_the_game


def test_a_ticket_page_reads_the_game_once_per_change(client, queries):
    strips = new_strip_deck(2, seed="queries-90")
    hall = Caller(client, strips)
    gid = hall.new_game(draw="manual")
    path = card_path(strips.secret, strips.deck_id, 4)
    hall.call(gid, 1)
    early = _count(client, queries, path)
    hall.call(gid, *range(2, 40))
    late = _count(client, queries, path)
    assert len(late) == len(early) < 30, late
    again = _count(client, queries, card_path(strips.secret, strips.deck_id, 5))
    assert again == ["SELECT * FROM hall_settings"], again
