"""The night's program at the station (issue 37 item 1): loaded once, Next game starts each
game with everything set (mode or prize list, pattern, the ledger's price and prizes), the
Maestro skips and inserts games, the display's line names the game's place, and a station
restarted mid-night goes on from the game in play."""

from __future__ import annotations

from bingo_hall.app import create_app
from bingo_hall.manifest import new_strip_deck

PROGRAM = """\
name = "Club night"
name_es = "Noche del club"
currency = "GBP"

[[game]]
name = "Four Corners"
name_es = "Cuatro esquinas"
pattern = "four_corners"
price = "1.00"
prizes = { bingo = "20" }

[[game]]
name = "The X"
pattern = "x"
price = "1.50"
prizes = { bingo = { percent = 50 } }

[[game]]
name = "Line and house"
balls = 90
prize_list = "linea-bingo"
price = "2"
book = 6
[game.prizes]
linea = "10"
bingo = { amount = "40", jackpot = "200", within = 40, mode = "on-top" }
"""


def _load(caller, text=PROGRAM):
    r = caller.post("/api/program", {"text": text, "source": "club.toml"})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _next(caller):
    r = caller.post("/api/program/next")
    assert r.status_code == 200, r.get_json()
    return r.get_json()["game_id"]


def test_next_game_starts_the_game_with_its_pattern_price_and_prizes(caller):
    caller.load_deck(new_strip_deck(2, seed="program", name="Strips"))
    loaded = _load(caller)
    assert [g["status"] for g in loaded["games"]] == ["waiting"] * 3
    gid = _next(caller)
    game = caller.get(f"/api/games/{gid}").get_json()
    assert game["options"]["pattern"] == "four_corners" and game["balls"] == 75
    ledger = caller.get(f"/api/games/{gid}/ledger").get_json()
    assert ledger["currency"] == "GBP"
    assert [(p["cents"], p["book"]) for p in ledger["prices"]] == [(100, 1)]
    assert ledger["prizes"][0]["prize"] == "bingo" and ledger["prizes"][0]["cents"] == 2000


def test_skip_and_insert_follow_the_program(caller):
    caller.load_deck(new_strip_deck(2, seed="program", name="Strips"))
    _load(caller)
    _next(caller)
    skipped = caller.post("/api/program/skip").get_json()
    assert skipped["skipped"] == 1 and skipped["started"]["number"] == 2
    # a copy of game 1 goes in after game 2, the one in play: it is game 3 now, of 4
    r = caller.post("/api/program/insert", {"copy": 1, "name": "Corners again"})
    assert r.status_code == 200, r.get_json()
    state = caller.get("/api/program").get_json()
    assert [(g["number"], g["name"], g["status"]) for g in state["games"]] == [
        (1, "Four Corners", "skipped"),
        (2, "The X", "playing"),
        (3, "Corners again", "waiting"),
        (4, "Line and house", "waiting"),
    ]
    third = _next(caller)
    assert caller.get(f"/api/games/{third}").get_json()["options"]["pattern"] == "four_corners"
    snap = caller.get(f"/api/games/{third}").get_json()
    assert snap["program"]["en"] == "Game 3 of 4 · Corners again · £20.00"


def test_a_game_with_calls_is_played_not_skipped(caller):
    _load(caller)
    gid = _next(caller)
    r = caller.post(f"/api/games/{gid}/draw")
    assert r.status_code in (200, 201), r.get_json()
    r = caller.post("/api/program/skip")
    assert r.status_code == 409 and "already has calls" in r.get_json()["error"]


def test_a_bad_program_is_a_400_naming_the_line(caller):
    text = PROGRAM.replace('"x"', '"star"')
    line = text.splitlines().index('pattern = "star"') + 1
    r = caller.post("/api/program", {"text": text, "source": "a.toml"})
    assert r.status_code == 400
    assert r.get_json()["error"].startswith(f"a.toml:{line}: game 2: unknown pattern 'star'")


def test_program_actions_need_the_caller(client):
    assert client.post("/api/program/next", json={}).status_code == 401
    assert client.post("/api/program", json={"text": PROGRAM}).status_code == 401


def test_a_game_needs_a_deck_of_its_kind(caller):
    _load(caller)
    _next(caller)
    caller.post("/api/program/skip")  # game 2 starts
    r = caller.post("/api/program/skip")  # game 3 is 90 balls: no deck of strips loaded
    assert r.status_code == 409 and "load a deck" in r.get_json()["error"]


def test_a_restarted_station_resumes_the_program_at_the_game_in_play(app, caller, tmp_path):
    _load(caller)
    _next(caller)
    second = caller.post("/api/program/skip").get_json()["started"]["game_id"]
    again = create_app(
        {
            "TESTING": True,
            "DATABASE": app.config["DATABASE"],
            "SECRET_KEY": "test-secret",
            "CALLER_PIN": app.config["CALLER_PIN"],
        },
        instance_path=str(tmp_path),
    )
    from testkit import Caller

    maestro = Caller(again.test_client(), caller.deck)
    resumed = maestro.post("/api/program", {"text": PROGRAM, "source": "club.toml"}).get_json()
    assert resumed["resumed"] is True and resumed["playing"] == 2 and resumed["next"] == 3
    snap = maestro.get(f"/api/games/{second}").get_json()
    assert snap["program"]["en"].startswith("Game 2 of 3 · The X")


def test_the_ledger_page_gives_the_odds_with_the_cards_sold(caller, client):
    from testkit import page_login

    _load(caller)
    gid = _next(caller)
    page_login(client)
    page = client.get(f"/caller/ledger?game={gid}&lang=en").get_data(as_text=True)
    assert "Record the sales first" in page
    assert caller.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-12"}).status_code == 201
    odds = caller.get(f"/api/games/{gid}/odds?within=20").get_json()
    # four corners on 12 cards: each card's 4 corners within 20 calls is C(20,4)/C(75,4) for
    # one card; with 12 cards at most 12 times that (the union bound), at least that once
    from math import comb

    one = comb(20, 4) / comb(75, 4)
    assert odds["cards"] == 12 and odds["within"] == 20 and odds["nights"] >= 10_000
    assert one * 100 - 1 <= odds["percent"] <= 12 * one * 100 + 1
    page = client.get(f"/caller/ledger?game={gid}&within=20&lang=en").get_data(as_text=True)
    assert "With 12 cards sold, " in page and "within 20 calls about 1 night in" in page


def test_the_summary_follows_the_program(caller):
    _load(caller)
    first = _next(caller)
    second = caller.post("/api/program/skip").get_json()["started"]["game_id"]
    from bingo_hall.money.night_text import game_heading
    from bingo_hall.station.ledger import summary
    from bingo_hall.web.db import get_db

    with caller.client.application.app_context():
        night = summary.night(get_db())
    by_id = {g.game_id: g for g in night.games}
    assert game_heading(by_id[first], "en").endswith(" · Program 1/3: Four Corners (skipped)")
    assert game_heading(by_id[second], "es").endswith(" · Programa 2/3: The X")


def test_the_game_record_follows_the_program(caller):
    _load(caller)
    first = _next(caller)
    caller.post("/api/program/skip")
    record = caller.get(f"/api/games/{first}/record").get_data(as_text=True)
    assert "program game 1 of 3: Four Corners (skipped)" in record


def test_next_game_starts_the_game_and_sets_its_money_in_one_transaction(caller):
    """A failure while Next game writes the ledger (here the database refuses the prize rows,
    as a disk gone bad would) leaves no game half started: no new game, the program's game
    still waiting, no price list."""
    from bingo_hall.web.db import get_db

    _load(caller)
    app = caller.client.application
    with app.app_context():
        conn = get_db()
        games_before = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        prices_before = conn.execute("SELECT COUNT(*) FROM ledger_prices").fetchone()[0]
        conn.execute(
            "CREATE TRIGGER refuse_prizes BEFORE INSERT ON ledger_prizes "
            "BEGIN SELECT RAISE(ABORT, 'the disk refused the write'); END"
        )
        conn.commit()
    refused = caller.post("/api/program/next")
    assert refused.status_code >= 500
    with app.app_context():
        conn = get_db()
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == games_before
        assert conn.execute("SELECT COUNT(*) FROM ledger_prices").fetchone()[0] == prices_before
        conn.execute("DROP TRIGGER refuse_prizes")
        conn.commit()
    state = caller.get("/api/program").get_json()
    assert [g["status"] for g in state["games"]] == ["waiting"] * 3
    # the same press once the disk is back starts game 1 with everything set
    gid = _next(caller)
    ledger = caller.get(f"/api/games/{gid}/ledger").get_json()
    assert [(p["cents"], p["book"]) for p in ledger["prices"]] == [(100, 1)]
    assert ledger["prizes"][0]["cents"] == 2000


MANUAL = PROGRAM.replace('pattern = "four_corners"', 'pattern = "four_corners"\ndraw = "manual"')


def test_next_game_asks_before_it_ends_a_game_still_being_played(caller):
    """Next game while game 1 has calls and its bingo is not won: refused in words that say
    what ends (an ended game cannot be restarted), nothing changed; with the confirm it ends."""
    _load(caller, MANUAL)
    g1 = _next(caller)
    caller.call(g1, 3, 18, 33)
    r = caller.post("/api/program/next")
    assert r.status_code == 409, r.get_json()
    said = r.get_json()["error"]
    assert "game 1" in said and "3 calls" in said and "start game 2" in said
    assert caller.get(f"/api/games/{g1}").get_json()["status"] == "active"
    state = caller.get("/api/program").get_json()
    assert state["playing"] == 1 and state["in_play"]["calls"] == 3
    r = caller.post("/api/program/next", {"confirm": True})
    assert r.status_code == 200, r.get_json()
    assert caller.get(f"/api/games/{g1}").get_json()["status"] == "ended"
    assert caller.get("/api/program").get_json()["playing"] == 2


def test_next_game_does_not_ask_once_the_games_prize_is_won_or_before_its_first_ball(caller):
    _load(caller, MANUAL)
    g1 = _next(caller)
    assert caller.get("/api/program").get_json()["in_play"] is None  # no call yet
    card = caller.deck.card(1)
    caller.call(g1, *[card.number_at(r, c) for r, c in ((0, 0), (0, 4), (4, 0), (4, 4))])
    assert caller.post(f"/api/games/{g1}/claims", {"serial": 1}).status_code == 201
    assert caller.post(f"/api/games/{g1}/award", {}).status_code == 200
    assert caller.get("/api/program").get_json()["in_play"] is None
    assert _next(caller) != g1
