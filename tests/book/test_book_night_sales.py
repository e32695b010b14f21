"""Night sales in the night's book: a book sold once for the program's games is an entry, each
game's share of it is an entry when the game plays it, and `book verify` replays the payouts of
percentage prizes from takings that hold those shares; a share the book changed is a finding."""

from __future__ import annotations

import json

from ledger.test_ledger_night_sales import PROGRAM, house, next_game, night_sale, prices
from testkit import TEST_PIN, Caller

from bingo_hall.app import create_app
from bingo_hall.audit import read_book
from bingo_hall.audit.replay import deck_entry, replay
from bingo_hall.manifest import deck_from_dict, new_strip_deck

STRIPS = new_strip_deck(3, seed="club-night-book", name="Club strips")


def club_night(folder):
    """Game 1 (50 % of its takings) and game 3 (50 %) are won; a night sale for the whole
    night, one for games 2-3 made during game 1, and one voided before any game paid."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "hall.sqlite"),
            "SECRET_KEY": "s",
            "CALLER_PIN": TEST_PIN,
        },
        instance_path=str(folder),
    )
    hall = Caller(app.test_client(), STRIPS)
    assert hall.post("/api/program", {"text": PROGRAM, "source": "club.toml"}).status_code == 200
    g1 = next_game(hall)
    book = prices(hall, g1)["Book of 6"]
    night_sale(hall, "1-12", "night", book)
    night_sale(hall, "13-18", "2-3", book)
    wrong = night_sale(hall, "13-18", "4", "Single")["night_sale_id"]
    assert hall.post(f"/api/ledger/night-sales/{wrong}/void", {"reason": "books, not singles"})
    house(hall, STRIPS, g1, 1)
    next_game(hall)
    g3 = next_game(hall)
    house(hall, STRIPS, g3, 14)
    return hall, folder / "hall.sqlite"


def exported_book(kit_cli, db, out):
    code, _, err = kit_cli(["book", "export", "--db", str(db), "-o", str(out)])
    assert code == 0, err
    return out


def test_a_night_of_night_sales_verifies_and_its_percent_payouts_replay(tmp_path, kit_cli):
    hall, db = club_night(tmp_path)
    out = exported_book(kit_cli, db, tmp_path / "night.book.jsonl")
    deck_file = tmp_path / "strips.deck.json"
    deck_file.write_text(STRIPS.to_json())
    code, text, err = kit_cli(["book", "verify", str(out), "--deck", str(deck_file)])
    assert code == 0, text + err
    deck, digest = deck_entry(deck_file.read_text(), deck_from_dict)
    state, found = replay(read_book(out.read_text()), {deck.deck_id: (deck, digest)})
    assert found == []
    # game 1 took a quarter of £6.00 (£1.50): half is 75p; game 3 took £1.50 of it and half of
    # the £3.00 sold for games 2-3 (£3.00 in all): half is £1.50
    assert [p["cents"] for p in state.payouts] == [75, 150]
    kinds = [e.kind for e in read_book(out.read_text()).entries]
    assert kinds.count("ledger.night_sale") == 3 and kinds.count("ledger.night_void") == 1
    assert kinds.count("ledger.night_share") == 2 + 1 + 2  # games 1, 2, 3: four, then game 3's


def test_a_share_changed_in_the_book_is_a_finding(tmp_path, kit_cli):
    _, db = club_night(tmp_path)
    out = exported_book(kit_cli, db, tmp_path / "night.book.jsonl")
    lines = out.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"ledger.night_share"' in line)
    entry = json.loads(lines[at])
    assert entry["data"]["cents"] == 150
    entry["data"]["cents"] = 600
    lines[at] = json.dumps(entry)
    deck_file = tmp_path / "strips.deck.json"
    deck_file.write_text(STRIPS.to_json())
    deck, digest = deck_entry(deck_file.read_text(), deck_from_dict)
    _, found = replay(read_book("\n".join(lines) + "\n"), {deck.deck_id: (deck, digest)})
    assert any("share of night sale 1 is 600" in f.message for f in found), found
