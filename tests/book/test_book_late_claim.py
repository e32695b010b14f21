"""A prize a player claimed late (the ticket completed it calls before, the player missed it)
still wins at the station, as docs/claims.md says; the book's replay judges it the same way: the
ticket completes the prize by the call it was awarded on, not only on it."""

from __future__ import annotations

from testkit import Caller

from bingo_hall.manifest import new_strip_deck


def test_a_late_claim_awarded_at_the_station_replays_in_the_book(app, client, kit_cli, tmp_path):
    strips = new_strip_deck(1, seed="late claim", name="Club")
    hall = Caller(client, strips)
    gid = hall.new_game("tambola", "manual")
    ticket = strips.card(2)
    top, rest = list(ticket.rows[0]), [n for r in ticket.rows[1:] for n in r]
    hall.call(gid, *top, *rest[:3])  # the top line complete on call 5, claimed on call 8
    made = hall.post(f"/api/games/{gid}/claims", {"serial": 2, "prize": "top-line"})
    assert made.status_code == 201 and made.get_json()["valid"], made.get_json()
    assert hall.post(f"/api/games/{gid}/award", {"prize": "top-line"}).status_code == 200
    book = tmp_path / "night.book.jsonl"
    db = app.config["DATABASE"]
    assert kit_cli(["book", "export", "--db", db, "-o", str(book)])[0] == 0
    deck = tmp_path / "strips.deck.json"
    deck.write_text(strips.to_json(), encoding="utf-8")
    code, out, err = kit_cli(["book", "verify", str(book), "--deck", str(deck)])
    assert code == 0, out + err
    assert "does not complete" not in out
