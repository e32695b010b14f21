"""The engines read values, not dicts: each game's settings and stored entries are read from their
JSON into frozen values where the shell reads them from SQLite, and a table stored as JSON before
(the format never changes) still replays to the same view."""

from __future__ import annotations

import dataclasses
import json
import sqlite3

from companions.web.games import load_kinds


def _frozen(value: object) -> bool:
    return dataclasses.is_dataclass(value) and type(value).__dataclass_params__.frozen


def test_every_game_reads_its_stored_settings_and_entries_into_frozen_values():
    for name, kind in load_kinds().items():
        settings = kind.engine.settings(dict(kind.default_settings))
        entry = kind.engine.entry({"id": 7, "player": None})
        assert _frozen(settings) and _frozen(entry), name
        assert entry.id == 7, name


def test_a_table_stored_as_json_in_the_database_replays_with_its_undone_entry_left_out(
    companions_app, tclient
):
    hand_1 = {"puras": 1, "muerto": "taken", "down": 30, "left": 5}  # 200 + 100 + 30 - 5 = 325
    hand_2 = {"muerto": "not_taken", "down": 10}  # -100 + 10 = -90
    undone = {"puras": 3, "muerto": "taken"}  # would add 700 to each side
    conn = sqlite3.connect(companions_app.config["DATABASE"])
    with conn:
        conn.execute(
            "INSERT INTO companion_tables (code, game, settings, players, members) "
            "VALUES (?, 'burako', ?, ?, ?)",
            (
                "STOREDAB",
                json.dumps({"target": 3000, "muerto_bonus": True}),
                json.dumps(["Ana & Beto", "Caro & Dani"]),
                json.dumps([["Ana", "Beto"], ["Caro", "Dani"]]),
            ),
        )
        for payload, is_undone in (({"teams": [hand_1, hand_2]}, 0), ({"teams": [undone] * 2}, 1)):
            conn.execute(
                "INSERT INTO companion_entries (table_code, payload, player, undone) "
                "VALUES ('STOREDAB', ?, 'Ana', ?)",
                (json.dumps(payload), is_undone),
            )
    conn.close()
    answer = tclient.get("/t/STOREDAB/view").get_json()
    assert answer["view"]["totals"] == [325, -90]
    assert [h["undone"] for h in answer["history"]] == [False, True]
