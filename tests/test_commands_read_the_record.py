"""A game's rules come from its own record, never from whatever app happens to run: the commands
that read a night (`ledger` as text, CSV and PDF, in both languages; `book export` and `book
verify`) run with no station, over a night that played every game kind, a host's own 90-ball
prize list and a prize paid in money included (the treasurer's summary crashed on the night's
last game, a 90-ball game with a prize list, reaching for the running app's lists)."""

from __future__ import annotations

import json

import pytest
from tambolakit import numbers
from testkit import TEST_PIN, Caller

from bingo_hall.app import create_app
from bingo_hall.manifest import new_deck, new_strip_deck

HOST_LIST = """
key = "fiesta"
name = "Party house"
name_es = "Cartón lleno de la fiesta"

[[prize]]
key = "house"
name = "Full House"
name_es = "Cartón lleno"
lines = 3
amount = "50"
"""


@pytest.fixture
def night(tmp_path):
    """A whole night's database: a 75-ball Normal and Puntos game, then 90-ball línea-bingo,
    lines-house, Tambola, Italian Tombola and a host's list, each with sales and a prize in
    money, the last one won; the station (its app) is gone before any command runs."""
    (tmp_path / "prizes").mkdir()
    (tmp_path / "prizes" / "fiesta.toml").write_text(HOST_LIST, encoding="utf-8")
    config = {
        "TESTING": True,
        "DATABASE": str(tmp_path / "night.sqlite"),
        "SECRET_KEY": "s",
        "CALLER_PIN": TEST_PIN,
    }
    app = create_app(config, instance_path=str(tmp_path))
    client = app.test_client()
    cards = Caller(client, new_deck(12, seed="record-75", name="Cartones"))
    decks = {"cards.json": cards.deck}
    for mode in ("normal", "points"):
        gid = cards.new_game(mode, "manual")
        sell(cards, gid)
    strips = Caller(client, new_strip_deck(2, seed="record-90", name="Tiras"))
    decks["strips.json"] = strips.deck
    for mode in ("linea-bingo", "lines-house", "tambola", "tombola", "fiesta"):
        gid = strips.new_game(mode, "manual")
        sell(strips, gid)
    strips.call(gid, *numbers(strips.deck, 1))
    made = strips.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "house"})
    assert made.status_code == 201 and made.get_json()["valid"], made.get_json()
    assert strips.post(f"/api/games/{gid}/award", {"prize": "house"}).status_code == 200
    for name, deck in decks.items():
        (tmp_path / name).write_text(deck.to_json(), encoding="utf-8")
    del app, client
    return tmp_path


def sell(hall: Caller, gid: int) -> None:
    """Four tickets sold at 1, and the game's last prize paid in money: a jackpot of 40 within
    20 calls on top of 30 % of the takings (the summary works out the pot from every game's
    rules)."""
    assert hall.post(f"/api/games/{gid}/ledger/price", {"amount": "1"}).status_code == 200
    assert hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-4"}).status_code == 201
    snap = hall.get(f"/api/games/{gid}").get_json()
    last = snap["prizes"]["sequence"][-1] if snap.get("prizes") else "bingo"
    rule = {"kind": "jackpot", "within": 20, "jackpot": "40", "percent": 30, "mode": "on-top"}
    made = hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": {last: rule}})
    assert made.status_code == 200, made.get_json()


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("form", ["text", "csv", "pdf"])
def test_the_treasurers_summary_needs_no_station_on_a_night_of_every_game_kind(
    night, kit_cli, form, lang
):
    argv = ["ledger", "--db", str(night / "night.sqlite"), "--lang", lang]
    pdf = night / "summary.pdf"
    argv += {"text": [], "csv": ["--csv"], "pdf": ["--pdf", str(pdf)]}[form]
    code, out, err = kit_cli(argv)
    assert code == 0 and not err, err
    assert "Traceback" not in out
    # the host's list's house, won within 20 calls: the pot of the seven games' jackpots of 40
    # (none won before) on top of 30 % of its 4,00 taken
    paid = "281,20" if lang == "es" else "281.20"
    assert paid in out, out
    if form == "pdf":
        assert pdf.read_bytes().startswith(b"%PDF")


def test_the_book_of_such_a_night_exports_and_replays_with_no_station(night, kit_cli):
    book = night / "night.book.jsonl"
    db = str(night / "night.sqlite")
    code, out, err = kit_cli(
        ["book", "export", "--db", db, "--instance", str(night), "-o", str(book)]
    )
    assert code == 0, err
    games = [
        e["data"]
        for e in map(json.loads, book.read_text().splitlines()[1:])
        if e.get("kind") == "game"
    ]
    assert any("[[prize]]" in (g.get("prize_list") or "") for g in games), games
    decks = ["--deck", str(night / "cards.json"), "--deck", str(night / "strips.json")]
    code, out, err = kit_cli(["book", "verify", str(book), *decks])
    assert code == 0, out + err
    assert "not replayed" not in out + err  # the host's list is in the book: its prize replays
