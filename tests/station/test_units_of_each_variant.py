"""A 90-ball game deals in tickets, not cards: the pages a UK caller and the club's members read
name the variant's own paper (/join said "Your card · Card number" for a ticket printed "Strip 1
Ticket 1"; the caller page said "Card 1 asks for a check … its card has a bingo" for a line)."""

from __future__ import annotations

import pytest
from testkit import Caller, page_login

from bingo_hall.manifest import new_deck, new_strip_deck


@pytest.mark.parametrize(
    ("deck", "mode", "words", "not_words"),
    [
        (
            new_strip_deck(1, seed="units"),
            "lines-house",
            ["Your ticket", "Ticket number"],
            ["Card number"],
        ),
        (new_deck(5, seed="units"), "normal", ["Your card", "Card number"], ["Ticket number"]),
    ],
    ids=["tickets", "cards"],
)
def test_join_names_the_paper_the_game_is_played_with(client, deck, mode, words, not_words):
    hall = Caller(client, deck)
    hall.new_game(mode, "manual")
    page = client.get("/join?lang=en").get_data(as_text=True)
    assert all(w in page for w in words), words
    assert not any(w in page for w in not_words)


def test_the_caller_page_names_a_tickets_request_as_a_ticket(client):
    hall = Caller(client, new_strip_deck(1, seed="units"))
    gid = hall.new_game("lines-house", "manual")
    page_login(client)
    page = client.get(f"/caller/games/{gid}?lang=en").get_data(as_text=True)
    assert "Ticket {n} asks for a check" in page and "its ticket holds a prize" in page
    assert "record the BINGO" not in page and "its card has a bingo" not in page


def test_the_door_sells_a_90_ball_games_tickets_not_cards(client):
    hall = Caller(client, new_strip_deck(1, seed="units"))
    gid = hall.new_game("lines-house", "manual")
    page_login(client)
    page = client.get(f"/caller/ledger?game={gid}&lang=en").get_data(as_text=True)
    assert "Sell tickets" in page and "Tickets sold this round" in page
    assert "Sell cards" not in page and "Cards sold this round" not in page
