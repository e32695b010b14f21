"""Where the book's key lives (docs/audit.md): beside the database, so a station started with
`serve --db FILE` and `book export --db FILE` (and `ledger --db FILE`) use the one key; a
station whose key an earlier version kept in the instance folder keeps that key (its
fingerprint, printed on earlier summaries, stays the station's)."""

from __future__ import annotations

import json

from testkit import TEST_PIN

from bingo_hall.audit import StationKey
from bingo_hall.station.cli.start import build_app
from bingo_hall.web.book_store import station_key


def test_a_station_served_with_db_exports_with_the_same_db(tmp_path, kit_cli):
    """serve's app as `bingo-hall serve --db night.sqlite3 --instance DIR` builds it, then
    export with the same --db and no --instance: signed by the key the station shows."""
    instance, nights = tmp_path / "instance", tmp_path / "nights"
    db = nights / "night.sqlite3"
    app = build_app(str(db), TEST_PIN, str(instance))
    shown = station_key(app).fingerprint
    out = tmp_path / "night.book.jsonl"
    code, said, err = kit_cli(["book", "export", "--db", str(db), "-o", str(out)])
    assert code == 0, err
    head = json.loads(out.read_text().splitlines()[-1])["head"]
    assert head["fingerprint"] == shown and f"key {shown}" in said


def test_a_key_kept_in_the_instance_folder_by_an_earlier_station_stays_the_stations(tmp_path):
    instance, nights = tmp_path / "instance", tmp_path / "nights"
    instance.mkdir()
    earlier = StationKey.new()
    (instance / "book_key.pem").write_bytes(earlier.to_pem())
    app = build_app(str(nights / "night.sqlite3"), TEST_PIN, str(instance))
    assert station_key(app).fingerprint == earlier.fingerprint
    beside = StationKey.from_pem((nights / "book_key.pem").read_bytes())
    assert beside.fingerprint == earlier.fingerprint
    assert (nights / "book_key.pem").stat().st_mode & 0o077 == 0  # the owner's alone
