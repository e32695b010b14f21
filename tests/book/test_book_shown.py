"""The book's head is shown, signed (the caller page, the game record, the night's summary CSV);
a redacted export hides names but still verifies; an old database starts its book with a
genesis entry that counts what was there (issue 35)."""

from __future__ import annotations

import base64
import json
import sqlite3

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from testkit import TEST_PIN, Caller

from bingo_hall.app import create_app
from bingo_hall.audit import Head


def last_entry(app) -> tuple[int, str]:
    conn = sqlite3.connect(app.config["DATABASE"])
    seq, h = conn.execute("SELECT seq, hash FROM book ORDER BY seq DESC LIMIT 1").fetchone()
    conn.close()
    return seq, h


def signature_holds(head: dict) -> bool:
    """Checked with `cryptography` directly, on the message docs/audit.md's head names."""
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(head["public_key"]))
    try:
        key.verify(base64.b64decode(head["signature"]), Head(head["seq"], head["hash"]).message())
    except Exception:
        return False
    return True


def test_the_game_record_carries_the_signed_head_of_the_book(app, client):
    hall = Caller(client)
    gid = hall.new_game()
    for _ in range(3):
        assert hall.post(f"/api/games/{gid}/draw").status_code == 200
    rec = hall.get(f"/api/games/{gid}/record").get_json()
    seq, h = last_entry(app)
    assert (rec["book"]["seq"], rec["book"]["hash"]) == (seq, h)
    assert signature_holds(rec["book"])


def test_the_caller_page_shows_the_head(app, client):
    hall = Caller(client)
    gid = hall.new_game()
    assert hall.post(f"/api/games/{gid}/draw").status_code == 200
    form = client.get("/caller/login").get_data(as_text=True)
    token = form.split('name="csrf_token" value="')[1].split('"')[0]
    assert (
        client.post("/caller/login", data={"pin": TEST_PIN, "csrf_token": token}).status_code == 302
    )
    page = client.get(f"/caller/games/{gid}").get_data(as_text=True)
    seq, h = last_entry(app)  # the session's login is an entry; the page's GET adds none
    assert f'data-book-head="{h}"' in page
    assert h[:12] in page
    kinds = [r[0] for r in sqlite3.connect(app.config["DATABASE"]).execute("SELECT kind FROM book")]
    assert kinds.count("login") == 2  # the API token's and the page's session


def test_a_redacted_copy_hides_names_and_still_verifies(tmp_path, kit_cli, client, app):
    from bingo_hall.manifest import new_strip_deck

    deck = new_strip_deck(1, seed="redact", name="R")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    numbers = sorted(n for r in deck.cards[0].grid for n in r if n is not None)
    hall.call(gid, *numbers[:15])
    r = hall.post(
        f"/api/games/{gid}/claims", {"serial": 1, "prize": "linea", "player": "Rosa Díaz"}
    )
    assert r.status_code == 201
    out = tmp_path / "copy.book.jsonl"
    deck_file = tmp_path / "r.deck.json"
    deck_file.write_text(deck.to_json())
    db = app.config["DATABASE"]
    assert kit_cli(["book", "export", "--db", db, "--redact", "-o", str(out)])[0] == 0
    assert "Rosa" not in out.read_text()
    full = tmp_path / "full.book.jsonl"
    assert kit_cli(["book", "export", "--db", db, "-o", str(full)])[0] == 0
    assert "Rosa Díaz" in full.read_text()
    code, text, err = kit_cli(["book", "verify", str(out), "--deck", str(deck_file)])
    assert code == 0, text + err


def test_an_old_database_starts_its_book_with_a_genesis_that_counts_what_was_there(tmp_path):
    config = {
        "TESTING": True,
        "DATABASE": str(tmp_path / "old.sqlite"),
        "SECRET_KEY": "s",
        "CALLER_PIN": TEST_PIN,
    }
    app = create_app(config, instance_path=str(tmp_path))
    hall = Caller(app.test_client())
    gid = hall.new_game()
    for _ in range(4):
        assert hall.post(f"/api/games/{gid}/draw").status_code == 200
    conn = sqlite3.connect(config["DATABASE"])  # as a station before the book was
    conn.executescript("DROP TABLE book; DELETE FROM schema_version WHERE area = 'book';")
    conn.close()
    create_app(config, instance_path=str(tmp_path))  # the upgrade
    conn = sqlite3.connect(config["DATABASE"])
    rows = conn.execute("SELECT seq, kind, data, prev FROM book").fetchall()
    conn.close()
    assert len(rows) == 1
    seq, kind, data, prev = rows[0]
    assert (seq, kind, prev) == (1, "genesis", "0" * 64)
    before = json.loads(data)["before"]
    assert (before["decks"], before["games"], before["rounds"], before["calls"]) == (1, 1, 1, 4)


def test_a_nights_export_starts_from_its_anchor_and_verifies(tmp_path, kit_cli, client, app):
    from datetime import UTC, datetime, timedelta

    hall = Caller(client)
    gid = hall.new_game()
    assert hall.post(f"/api/games/{gid}/draw").status_code == 200
    now = datetime.now(UTC)
    night = (now if now.hour >= 12 else now - timedelta(days=1)).strftime("%Y-%m-%d")
    out = tmp_path / "night.book.jsonl"
    db = app.config["DATABASE"]
    assert kit_cli(["book", "export", "--db", db, "--night", night, "-o", str(out)])[0] == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines[0]["night"] == night and lines[1]["prev"] == lines[0]["anchor"]
    deck_file = tmp_path / "d.json"
    deck_file.write_text(hall.deck.to_json())
    code, text, err = kit_cli(["book", "verify", str(out), "--deck", str(deck_file)])
    assert code == 0, text + err
    code, _, err = kit_cli(["book", "export", "--db", db, "--night", "27/11", "-o", str(out)])
    assert code == 2 and err.count("\n") == 1 and "YYYY-MM-DD" in err


def test_the_ledger_command_prints_the_signed_head_at_the_summarys_foot(app, client, kit_cli):
    hall = Caller(client)
    gid = hall.new_game()
    assert hall.post(f"/api/games/{gid}/ledger/price", {"cents": 100}).status_code == 200
    assert hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-4"}).status_code == 201
    seq, h = last_entry(app)
    code, out, err = kit_cli(["ledger", "--db", app.config["DATABASE"], "--csv"])
    assert code == 0, err
    assert f"{h[:12]} · {seq} · " in out.splitlines()[-1]
