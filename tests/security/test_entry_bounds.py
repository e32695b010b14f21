"""Issue 29, items 4 and 5: a table's entries are bounded by count and bytes, and a correction
keeps only the newest COMPANIONS_MAX_REVISIONS old versions, so a guest's flood of 30 KB
corrections cannot fill the disk; the refusal says so in words (Spanish too). The replay that
checks an entry runs outside SQLite's writer, so the station can write while a table's replay
is running."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from bingo_hall.app import create_app
from bingo_hall.web.instance import hall
from companions.web import store

#: about 27 KB of notes on a Rummy hand (the engine keeps what it knows and ignores the rest)
BULKY = {f"note{i}": ch * 9000 for i, ch in enumerate("xyz")}
HAND = {"closed_by": "Ana", "racks": {"Beto": "9"}}


@pytest.fixture
def app(tmp_path, request):
    config = {"TESTING": True, "COMPANIONS_ONLY": True, "SECRET_KEY": "test-secret"}
    config["DATABASE"] = str(tmp_path / "companions.sqlite")
    marker = request.node.get_closest_marker("hall_config")  # as tests/conftest.py's app
    return create_app({**config, **(marker.kwargs if marker else {})}, instance_path=str(tmp_path))


def _table(client) -> str:
    r = client.post("/t/new/rummy", json={"players": ["Ana", "Beto"], "settings": {"games": 50}})
    assert r.status_code == 201
    return r.get_json()["code"]


def _count(app, sql: str, *args) -> int:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute(sql, args).fetchone()[0]
    finally:
        conn.close()


def test_a_flood_of_corrections_keeps_only_the_newest_old_versions(app):
    client = app.test_client()
    code = _table(client)
    revisions = hall(app).config.companions_max_revisions
    entry_id = client.post(f"/t/{code}/entries", json=HAND).get_json()["id"]
    for i in range(revisions + 15):
        r = client.put(f"/t/{code}/entries/{entry_id}", json={**HAND, **BULKY, "n": i})
        assert r.status_code == 200, r.get_json()
    kept = _count(app, "SELECT COUNT(*) FROM companion_revisions WHERE entry_id = ?", entry_id)
    assert kept == revisions
    newest = _count(app, "SELECT MAX(id) FROM companion_revisions WHERE entry_id = ?", entry_id)
    assert newest is not None  # the history is kept: the newest old versions stay
    stored = _count(app, "SELECT SUM(LENGTH(payload)) FROM companion_revisions")
    assert stored <= revisions * (len(str(BULKY)) + 200)


@pytest.mark.slow
@pytest.mark.cpu
def test_a_table_refuses_entries_past_its_bytes_in_words(app):
    client = app.test_client()
    code = _table(client)
    table_bytes = hall(app).config.companions_max_table_bytes
    statuses = []
    for _ in range(table_bytes // 27_000 + 5):
        r = client.post(f"/t/{code}/entries", json={**HAND, **BULKY})
        statuses.append(r.status_code)
        if r.status_code == 400:
            break
        undo = client.post(f"/t/{code}/entries/{r.get_json()['id']}/undo")  # kept, undone
        assert undo.status_code == 200
    assert statuses[-1] == 400 and set(statuses[:-1]) == {201} and len(statuses) > 60
    assert "This table is full" in r.get_json()["error"]
    assert "2 MB" in r.get_json()["error"]
    stored = _count(app, "SELECT SUM(LENGTH(payload)) FROM companion_entries")
    assert stored <= table_bytes
    es = client.post(
        f"/t/{code}/entries?lang=es", json={**HAND, **BULKY}, headers={"Accept-Language": "es"}
    )
    assert es.status_code == 400 and "Esta mesa está llena" in es.get_json()["error"]


@pytest.mark.hall_config(COMPANIONS_MAX_ENTRIES=12)
def test_a_table_refuses_entries_past_its_count(app):
    client = app.test_client()
    code = _table(client)
    for _ in range(12):
        assert client.post(f"/t/{code}/entries", json=HAND).status_code == 201
    r = client.post(f"/t/{code}/entries", json=HAND)
    assert r.status_code == 400 and "at most 12 entries" in r.get_json()["error"]


def test_a_replay_does_not_hold_sqlites_writer(app, monkeypatch):
    """While a table's entry is being replayed, another connection can write at once (a draw
    needs SQLite's writer)."""
    client = app.test_client()
    code = _table(client)
    replaying, release = threading.Event(), threading.Event()
    real = store.replay

    def slow_replay(*args, **kwargs):
        replaying.set()
        release.wait(timeout=30)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "replay", slow_replay)
    posting = threading.Thread(
        target=lambda: client.post(f"/t/{code}/entries", json=HAND), daemon=True
    )
    posting.start()
    try:
        assert replaying.wait(timeout=30)
        other = sqlite3.connect(app.config["DATABASE"], timeout=0.5)
        try:
            other.execute("BEGIN IMMEDIATE")  # raises "database is locked" if the writer is held
            other.execute("ROLLBACK")
        finally:
            other.close()
    finally:
        release.set()
        posting.join(timeout=30)
    assert _count(app, "SELECT COUNT(*) FROM companion_entries") == 1
