"""`bingo-hall linked new|order|tally|verify` through the kit's real entry point: the files
written, what each command prints, and bad input as one line with exit 2."""

from __future__ import annotations

import hashlib
import json
import socket
import stat
from pathlib import Path

import pytest
from station.helpers import order_from_document

from bingo_hall.audit import StationKey
from bingo_hall.linked.game import read_game
from bingo_hall.linked.keys import Signer
from bingo_hall.linked.result import make_result
from bingo_hall.linked.seed import parse_code
from bingo_hall.manifest import new_strip_deck
from linked.hall import during, signed_head, station_seed_of

WINDOW = ["--start", "2026-12-05T19:30", "--end", "2026-12-05T21:00", "--zone", "Europe/London"]


@pytest.fixture
def organised(tmp_path: Path, kit_cli):
    keys = [StationKey.new() for _ in range(3)]
    halls = tmp_path / "halls.csv"
    halls.write_text(
        "# name, region, fingerprint\n"
        f"The Regal,North,{keys[0].fingerprint}\n"
        f"Gala Leeds,North,{keys[1].fingerprint}\n",
        encoding="utf-8",
    )
    code, out, err = kit_cli(
        [
            "linked",
            "new",
            "Christmas linked game",
            *WINDOW,
            "--national",
            "1000",
            "--regional",
            "250.50",
            "--halls",
            str(halls),
            "--hall",
            f"Mecca Bristol,South,{keys[2].fingerprint}",
            "-o",
            str(tmp_path / "game"),
        ]
    )
    assert code == 0, err
    return tmp_path / "game", keys, out


def _results(folder: Path, keys: list[StationKey]) -> None:
    """Each hall's result, made by the real code: hall i wins with the deck's ticket i, on the
    call that completes its full house (found here from the numbers and the document's order)."""
    game = read_game((folder / "game.linked.json").read_text())
    seed = station_seed_of(parse_code((folder / "seed.txt").read_text()))
    order = order_from_document(seed, "", 90)
    deck = new_strip_deck(30, seed="cli")
    out = folder.parent / "results"
    out.mkdir(exist_ok=True)
    names = {h.fingerprint: h.name for h in game.halls}
    for key, ticket in zip(keys, deck.cards, strict=False):
        done = next(i for i in range(1, 91) if ticket.numbers <= set(order[:i]))
        result = make_result(
            game,
            names[key.fingerprint],
            Signer.of_station(key),
            signed_head(key),
            order[:done],
            during(40),
            deck.deck_id,
            ticket,
        )
        (out / f"{names[key.fingerprint]}.json").write_text(result.text())


def test_new_writes_the_game_for_every_hall_and_keeps_its_seed_and_key_private(organised):
    folder, keys, out = organised
    game = json.loads((folder / "game.linked.json").read_text())
    assert [h["name"] for h in game["halls"]] == ["The Regal", "Gala Leeds", "Mecca Bristol"]
    assert [h["fingerprint"] for h in game["halls"]] == [k.fingerprint for k in keys]
    assert game["balls"] == 90 and game["pattern"] == "full-house"
    assert game["prizes"] == {"currency": "GBP", "national": 100000, "regional": 25050, "hall": 0}
    seed = station_seed_of(parse_code((folder / "seed.txt").read_text()))
    assert game["commitment"] == hashlib.sha256(seed).hexdigest()
    text = (folder / "game.linked.json").read_text()
    assert (folder / "seed.txt").read_text().strip() not in text
    for secret in ("seed.txt", "organiser.pem"):
        assert stat.S_IMODE((folder / secret).stat().st_mode) == 0o600
    assert game["commitment"] in out


def test_order_prints_the_documents_order_for_the_code(organised, kit_cli):
    folder, _keys, _ = organised
    code_text = (folder / "seed.txt").read_text().strip()
    code, out, err = kit_cli(["linked", "order", str(folder / "game.linked.json"), code_text])
    assert code == 0, err
    expected = order_from_document(station_seed_of(parse_code(code_text)), "", 90)
    assert out.splitlines()[-1].split() == [str(b) for b in expected]


def test_tally_prints_the_winners_with_their_prizes_and_each_refused_file_in_one_line(
    organised, kit_cli
):
    folder, keys, _ = organised
    _results(folder, keys)
    (folder.parent / "results" / "holiday.jpg").write_bytes(b"\xff\xd8\xff")
    code, out, err = kit_cli(
        ["linked", "tally", str(folder / "game.linked.json"), str(folder.parent / "results")]
    )
    assert code == 0, err
    tally = json.loads((folder / "tally.json").read_text())
    counts = {h["name"]: h["count"] for h in tally["halls"]}
    low = min(counts.values())
    first = [n for n, c in counts.items() if c == low]
    national = next(line for line in out.splitlines() if line.startswith("national:"))
    assert f"call {low}" in national and all(n in national for n in first)
    assert "£1,000.00" in national or len(first) > 1
    assert [line for line in out.splitlines() if "holiday.jpg" in line] == [
        "holiday.jpg: refused: it is not a result: it is not JSON"
    ]


def test_verify_holds_for_the_organisers_tally_gives_a_halls_place_and_fails_on_a_changed_one(
    organised, kit_cli
):
    folder, keys, _ = organised
    _results(folder, keys)
    game, results = str(folder / "game.linked.json"), str(folder.parent / "results")
    assert kit_cli(["linked", "tally", game, results])[0] == 0
    tally_file = folder / "tally.json"
    code, out, err = kit_cli(
        [
            "linked",
            "verify",
            str(tally_file),
            "--game",
            game,
            "--results",
            results,
            "--hall",
            keys[1].fingerprint,
        ]
    )
    assert code == 0, err
    assert "OK" in out.splitlines()[-1]
    assert any(line.startswith("Gala Leeds: won at call") for line in out.splitlines())
    data = json.loads(tally_file.read_text())
    data["halls"][0]["count"] = 1
    tally_file.write_text(json.dumps(data))
    code, out, _ = kit_cli(["linked", "verify", str(tally_file), "--game", game])
    assert code == 1
    assert "signature does not hold" in out and "FAILED" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            [
                "new",
                "X",
                *WINDOW[:-1],
                "Mars/Base",
                "--national",
                "1",
                "--hall",
                "a,b,c",
                "-o",
                "n",
            ],
            "time zone",
        ),
        (["new", "X", *WINDOW, "--national", "1", "--hall", "a,b", "-o", "n"], "NAME,REGION"),
        (
            ["new", "X", *WINDOW, "--national", "-5", "--hall", "a,b,0123456789abcdef", "-o", "n"],
            "negative",
        ),
        (["new", "X", *WINDOW, "--national", "1", "-o", "n"], "needs its halls"),
        (
            [
                "new",
                "X",
                *WINDOW,
                "--national",
                "1",
                "--hall",
                "a,b,0123456789abcdef",
                "-o",
                "{game}",
            ],
            "already exists",
        ),
        (["order", "{game}/game.linked.json", "AAAA-BBBB-CCCC-DDDD"], "does not match"),
        (["order", "{game}/game.linked.json", "AAAA"], "16 letters"),
        (["tally", "{game}/game.linked.json", "{game}/nowhere"], "no folder of results"),
        (["tally", "{game}/seed.txt", "{game}"], "not JSON"),
        (["verify", "{game}/game.linked.json", "--game", "{game}/game.linked.json"], "not a tally"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_exit_2(organised, kit_cli, tmp_path, args, says):
    folder, _keys, _ = organised
    argv = ["linked"] + [a.replace("{game}", str(folder)) for a in args]
    argv = [str(tmp_path / a) if a == "n" else a for a in argv]
    code, out, err = kit_cli(argv)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert says in err


def test_serve_without_a_game_in_the_folder_is_one_line_and_exit_2(tmp_path, kit_cli):
    code, out, err = kit_cli(["linked", "serve", str(tmp_path / "nowhere"), "--port", "0"])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "game.linked.json" in err


def test_serve_on_a_port_taken_is_one_line_and_exit_2(organised, kit_cli):
    folder = organised[0]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = kit_cli(["linked", "serve", str(folder), "--port", str(port)])
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and f"cannot listen on 127.0.0.1:{port}" in err
