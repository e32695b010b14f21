"""The hall's own changes are in the book too (issue 35's left-overs): a player renamed or taken
off the table (the record's names change, so the book says when and from what), and the hall's
settings (the language pages open in, the traditional calls on the big screen)."""

from __future__ import annotations

import json
import sqlite3

from testkit import Caller


def entries(app, kind: str) -> list[tuple[dict, dict]]:
    conn = sqlite3.connect(app.config["DATABASE"])
    rows = conn.execute("SELECT data, personal FROM book WHERE kind = ?", (kind,)).fetchall()
    conn.close()
    return [(json.loads(d), json.loads(p or "{}")) for d, p in rows]


def test_a_renamed_and_a_removed_player_are_booked_with_their_names_as_personal_data(
    app, client, kit_cli, tmp_path
):
    hall = Caller(client)
    gid = hall.new_game()
    for name in ("Ana", "Luis"):
        assert hall.post(f"/api/games/{gid}/players", {"name": name}).status_code in (200, 201)
    r = hall.post(f"/api/games/{gid}/players/rename", {"name": "Ana", "new_name": "Ana María"})
    assert r.status_code == 200, r.get_json()
    assert hall.post(f"/api/games/{gid}/players/remove", {"name": "Luis"}).status_code == 200
    [(renamed, who)] = entries(app, "player.rename")
    assert renamed == {"game_id": gid} and (who["player"], who["now"]) == ("Ana", "Ana María")
    [(removed, gone)] = entries(app, "player.remove")
    assert removed == {"game_id": gid, "kept": False} and gone["player"] == "Luis"
    out = tmp_path / "redacted.book.jsonl"
    assert (
        kit_cli(["book", "export", "--db", app.config["DATABASE"], "--redact", "-o", str(out)])[0]
        == 0
    )
    text = out.read_text()
    assert "player.rename" in text and "Ana María" not in text and "Luis" not in text


def test_a_change_of_the_halls_settings_is_booked(app, client):
    hall = Caller(client)
    r = hall.post("/api/hall/settings", {"lang": "es", "traditional_calls": True})
    assert r.status_code == 200, r.get_json()
    [(changed, _)] = entries(app, "hall_settings")
    assert changed == {"changes": {"lang": "es", "traditional_calls": True}}
