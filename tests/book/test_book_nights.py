"""Random nights through the station's services (issues 33 and 39's nights: games of two
rounds or more, sales for the whole game and for single rounds, price lists, stock and the cash
box, percentage, fixed and jackpot prizes, winners on the same call, corrections, payouts marked
paid): `book verify` passes on every one, and the night replayed from the book alone equals the
database's (calls, awards, sales, payouts)."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ledger.test_ledger_nights import DECK, game_plan, play_night, till_plan
from testkit import TEST_PIN, Caller

from bingo_hall.app import create_app
from bingo_hall.audit import read_book
from bingo_hall.audit.replay import deck_entry, replay
from bingo_hall.manifest import deck_from_dict


def database_night(db: Path) -> dict:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    calls = {
        (r["game_id"], r["number"]): [
            c["ball"]
            for c in conn.execute(
                "SELECT ball FROM calls WHERE round_id = ? AND undone_at IS NULL ORDER BY seq",
                (r["id"],),
            )
        ]
        for r in conn.execute("SELECT id, game_id, number FROM rounds")
    }
    awards = sorted(
        (r["game_id"], r["number"], r["prize"], r["serial"])
        for r in conn.execute(
            "SELECT a.game_id, r.number, a.prize, a.serial FROM prize_awards a "
            "JOIN rounds r ON r.id = a.round_id"
        )
    )
    sales = sorted(
        (
            r["id"],
            r["cents"],
            r["id"] in {c[0] for c in conn.execute("SELECT sale_id FROM ledger_corrections")},
        )
        for r in conn.execute("SELECT id, cents FROM ledger_sales")
    )
    payouts = sorted(
        (r["id"], r["cents"], r["player"]) for r in conn.execute("SELECT * FROM ledger_payouts")
    )
    conn.close()
    return {"calls": calls, "awards": awards, "sales": sales, "payouts": payouts}


def book_night(state) -> dict:
    return {
        "calls": {key: log.live() for key, log in state.rounds.items()},
        "awards": sorted(
            (a["game_id"], a["round"], a["prize"], s) for a in state.awards for s in a["serials"]
        ),
        "sales": sorted((i, s["cents"], s["void"]) for i, s in state.sales.items()),
        "payouts": sorted((p["payout_id"], p["cents"], p["player"]) for p in state.payouts),
    }


@pytest.mark.slow  # six nights of up to 90 calls each through the API
@pytest.mark.cpu
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(game_plan, min_size=1, max_size=2), till_plan)
def test_random_nights_verify_and_the_book_replays_to_the_database(night, till):
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "night.sqlite"
        app = create_app(
            {"TESTING": True, "DATABASE": str(db), "SECRET_KEY": "s", "CALLER_PIN": TEST_PIN},
            instance_path=folder,
        )
        hall = Caller(app.test_client(), DECK)
        play_night(hall, night, till)
        from click.testing import CliRunner

        from bingo_hall.cli.book import book as book_cmd

        out = Path(folder) / "night.book.jsonl"
        deck_file = Path(folder) / "deck.json"
        deck_file.write_text(DECK.to_json())
        r = CliRunner().invoke(book_cmd, ["export", "--db", str(db), "-o", str(out)])
        assert r.exit_code == 0, r.output
        r = CliRunner().invoke(book_cmd, ["verify", str(out), "--deck", str(deck_file)])
        assert r.exit_code == 0, r.output
        parsed = read_book(out.read_text())
        deck, digest = deck_entry(deck_file.read_text(), deck_from_dict)
        state, found = replay(parsed, {deck.deck_id: (deck, digest)})
        assert found == []
        assert book_night(state) == database_night(db)
