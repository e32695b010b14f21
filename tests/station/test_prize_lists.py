"""A host's own prize lists (issue 28): `prizes/*.toml` in the instance folder, read once when the
station starts, offered for 90-ball decks in the new-game form and the API (mode = the file's
key) and played; a broken one stops `serve` and `demo` with one line naming the file and the
problem (exit code 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from testkit import TEST_PIN, Caller

from bingo_hall.app import create_app
from bingo_hall.manifest import new_strip_deck
from bingo_hall.ninety.prize_list_file import PrizeListError

DIWALI = """
key = "diwali"
name = "Diwali Tambola"
name_es = "Tambola de Diwali"
open = true

[[prize]]
key = "corners"
name = "Corners"
name_es = "Esquinas"
cells = [["top", "first"], ["top", "last"], ["bottom", "first"], ["bottom", "last"]]
amount = "250"

[[prize]]
key = "full-house"
name = "Full House"
lines = 3
amount = "1000"

[[prize]]
key = "second-house"
name = "Second Full House"
lines = 3
after = "full-house"
"""


def make_app(folder: Path):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "test.sqlite"),
            "SECRET_KEY": "test-secret",
            "CALLER_PIN": TEST_PIN,
        },
        instance_path=str(folder),
    )


def with_list(folder: Path, name: str, text: str) -> Path:
    (folder / "prizes").mkdir(exist_ok=True)
    path = folder / "prizes" / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(2, seed="host-lists", name="Diwali strips")


@pytest.fixture
def hall(tmp_path, strips):
    with_list(tmp_path, "diwali.toml", DIWALI)
    return Caller(make_app(tmp_path).test_client(), strips)


def numbers(deck, serial: int) -> list[int]:
    return [n for row in deck.cards[serial - 1].grid for n in row if n is not None]


def test_a_hosts_list_is_played_by_its_key_with_its_own_names_and_order(hall, strips):
    gid = hall.new_game(mode="diwali", draw="manual")
    prizes = hall.get(f"/api/games/{gid}").get_json()["prizes"]
    assert prizes["mode"] == "diwali" and prizes["order"] == "open"
    assert prizes["open"] == ["corners", "full-house"]  # the second house waits for the first
    assert prizes["names"]["corners"] == {"en": "Corners", "es": "Esquinas"}
    assert prizes["plan_names"] == {"en": "Diwali Tambola", "es": "Tambola de Diwali"}
    grid = strips.cards[0].grid
    top = [n for n in grid[0] if n is not None]
    bottom = [n for n in grid[2] if n is not None]
    hall.call(gid, top[0], top[-1], bottom[0], bottom[-1])
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "corners"})
    assert r.status_code == 201 and r.get_json()["valid"] is True
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "second-house"})
    assert r.status_code == 409
    assert r.get_json()["error"] == (
        "Second Full House is not open yet: it opens once Full House is won"
    )
    assert hall.post(f"/api/games/{gid}/award", {"prize": "corners"}).status_code == 200
    corners = {top[0], top[-1], bottom[0], bottom[-1]}
    hall.call(gid, *[n for n in numbers(strips, 1) if n not in corners])
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "full-house"})
    assert r.get_json()["valid"] is True
    done = hall.post(f"/api/games/{gid}/award", {"prize": "full-house"}).get_json()
    assert done["open"] == ["second-house"] and done["finished"] is False


def test_the_amounts_in_a_hosts_list_are_what_the_ledger_pays_until_the_host_changes_them(
    hall, strips
):
    """The file says Corners 250 and Full House 1000 (the second house names no sum): the
    ledger pays those as fixed prizes; a rule set in the ledger replaces the file's sum."""
    gid = hall.new_game(mode="diwali", draw="manual")

    def fixed_sums():
        prizes = hall.get(f"/api/games/{gid}/ledger").get_json()["prizes"]
        return {p["prize"]: (p["kind"], p["cents"]) for p in prizes}

    assert fixed_sums() == {"corners": ("fixed", 25000), "full-house": ("fixed", 100000)}
    grid = strips.cards[0].grid
    top = [n for n in grid[0] if n is not None]
    bottom = [n for n in grid[2] if n is not None]
    hall.call(gid, top[0], top[-1], bottom[0], bottom[-1])
    hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "corners", "player": "Asha"})
    assert hall.post(f"/api/games/{gid}/award", {"prize": "corners"}).status_code == 200
    paid = hall.get(f"/api/games/{gid}/ledger").get_json()["payouts"]
    assert [(p["prize"], p["player"], p["cents"]) for p in paid] == [("corners", "Asha", 25000)]
    changed = {"prizes": {"full-house": {"kind": "fixed", "amount": "800"}}}
    assert hall.post(f"/api/games/{gid}/ledger/prizes", changed).status_code == 200
    assert fixed_sums() == {"corners": ("fixed", 25000), "full-house": ("fixed", 80000)}


def test_the_new_game_form_offers_the_hosts_list_for_ninety_ball_decks(hall):
    # the form is behind the PIN session: log in as the caller page does
    login = hall.client.get("/caller/login").get_data(as_text=True)
    token = login.split('name="csrf_token" value="')[1].split('"')[0]
    hall.client.post("/caller/login", data={"pin": TEST_PIN, "csrf_token": token})
    html = hall.client.get("/caller/new").get_data(as_text=True)
    for mode in ("linea-bingo", "lines-house", "tambola", "diwali"):
        assert f'value="{mode}"' in html
    assert "Diwali Tambola" in html and "diwali.toml" in html


def test_an_unknown_mode_names_the_hosts_list_among_the_plans(hall):
    r = hall.post("/api/games", {"deck_id": hall.deck.deck_id, "mode": "holi"})
    assert r.status_code == 400 and "'diwali'" in r.get_json()["error"]


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("party.toml", "[[prize]]\nkey = 'x'\n", "prize 'x' has no rule"),
        ("party.toml", "open = 'yes'\n", "open must be true or false"),
        ("party.toml", "key = [", "not a TOML file"),
        ("tambola.toml", "[[prize]]\nkey = 'x'\nnumbers = 5\n", "is one the kit already uses"),
        ("my list.toml", "[[prize]]\nkey = 'x'\nnumbers = 5\n", "may hold only letters"),
    ],
)
def test_a_broken_list_stops_the_station_naming_the_file_and_the_problem(
    tmp_path, name, text, problem
):
    path = with_list(tmp_path, name, text)
    with pytest.raises(PrizeListError) as err:
        make_app(tmp_path)
    assert str(err.value).startswith(f"{path}: ") and problem in str(err.value)


@pytest.mark.parametrize("command", ["serve", "demo"])
def test_serve_and_demo_stop_on_a_broken_list_with_one_line_and_exit_code_2(
    tmp_path, kit_cli, command
):
    path = with_list(tmp_path, "wedding.toml", "[[prize]]\nkey = 'early'\nnumbers = 16\n")
    argv = [command, "--instance", str(tmp_path), "--pin", "1234", "--port", "1"]
    code, out, err = kit_cli(argv)
    assert code == 2, (out, err)
    assert err.count("\n") == 1
    assert str(path) in err and "numbers must be a whole number from 1 to 15" in err


def test_a_game_whose_list_left_the_prizes_folder_plays_on_from_its_own_record(tmp_path, strips):
    """A game's rules are its record's: the list it started with, whatever the folder holds
    now (the file removed, or edited to pay another prize)."""
    path = with_list(tmp_path, "diwali.toml", DIWALI)
    hall = Caller(make_app(tmp_path).test_client(), strips)
    gid = hall.new_game(mode="diwali", draw="manual")
    path.unlink()
    again = Caller(make_app(tmp_path).test_client(), strips)
    r = again.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["prizes"]["sequence"] == ["corners", "full-house", "second-house"]
    new = {"deck_id": strips.deck_id, "mode": "diwali"}
    assert again.post("/api/games", new).status_code == 400  # no longer offered for a new game


def test_a_second_full_house_goes_to_another_ticket_on_a_later_call(hall, strips):
    """`after = "full-house"`: the first Full House's winner can never take the second, nor can
    a ticket that completed on the same call (it shares the first); the second is the next
    ticket to complete all 15 on a later call."""
    one = numbers(strips, 1)
    same = next(s for s in range(7, 13) if set(numbers(strips, s)) & set(one))  # strip 2
    x = min(set(numbers(strips, same)) & set(one))  # the call that completes both
    later = 2  # strip 1 shares no number with ticket 1
    gid = hall.new_game(mode="diwali", draw="manual")
    first = [n for n in dict.fromkeys(one + numbers(strips, same)) if n != x] + [x]
    hall.call(gid, *first)
    r = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "full-house"})
    assert r.get_json()["valid"] is True
    won = hall.post(f"/api/games/{gid}/award", {"prize": "full-house"}).get_json()
    assert [w["serial"] for w in won["winners"]] == [1] and won["at_call"] == len(first)
    again = hall.post(f"/api/games/{gid}/claims", {"serial": 1, "prize": "second-house"})
    assert again.status_code == 201 and again.get_json()["valid"] is False
    assert again.get_json()["verdict"]["barred"] == "won-before"
    page = hall.get(f"/api/games/{gid}/check/1?prize=second-house&format=html&lang=en")
    assert "Second Full House goes to another ticket: this one won the prize before it" in (
        page.get_data(as_text=True)
    )
    shared = hall.post(f"/api/games/{gid}/claims", {"serial": same, "prize": "second-house"})
    assert shared.get_json()["valid"] is False
    assert shared.get_json()["verdict"]["barred"] == "same-call"
    assert hall.post(f"/api/games/{gid}/award", {"prize": "second-house"}).status_code == 409
    hall.call(gid, *[n for n in numbers(strips, later) if n not in first])
    next_one = hall.post(f"/api/games/{gid}/claims", {"serial": later, "prize": "second-house"})
    assert next_one.get_json()["valid"] is True
    done = hall.post(f"/api/games/{gid}/award", {"prize": "second-house"}).get_json()
    assert [w["serial"] for w in done["winners"]] == [later] and done["finished"] is False
