"""The night's book (issue 35): `bingo-hall book verify` passes on the book a real night wrote,
and fails, naming the entry, on every kind of tampering: a field changed, an entry deleted,
two entries swapped, the last one dropped, a byte of the signature changed; and on books that
are re-chained and re-signed with the station's own key, where only the replay with the pure
rules can tell (an award that does not follow from the calls, a wrong ledger sum, calls that
do not follow the revealed seed). Bad input is one line and exit 2."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from testkit import TEST_PIN, Caller

from bingo_hall import audit as pure
from bingo_hall.app import create_app
from bingo_hall.manifest import new_deck, new_strip_deck

DECK = new_strip_deck(3, seed="book-night", name="Noche")  # 18 tickets, 3 strips
CARDS = new_deck(12, seed="book-night", name="Cartones")  # 75 balls
TICKETS = {t.serial: t for t in DECK.cards}


def holds(serial: int, prize: str, called: set[int]) -> bool:
    """Línea: a row of the printed ticket called; bingo: all 15 (read off the grid)."""
    rows = [{n for n in r if n is not None} for r in TICKETS[serial].grid]
    full = [r <= called for r in rows]
    return any(full) if prize == "linea" else all(full)


def play(hall: Caller, gid: int, order: list[int]) -> list[int]:
    """Call balls until each prize is held, claim it for every ticket that holds it, award."""
    called: list[int] = []
    balls = iter(order)
    for prize in ("linea", "bingo"):
        while not any(holds(t, prize, set(called)) for t in TICKETS):
            ball = next(balls)
            hall.call(gid, ball)
            called.append(ball)
        for t in [t for t in TICKETS if holds(t, prize, set(called))]:
            r = hall.post(f"/api/games/{gid}/claims", {"serial": t, "prize": prize})
            assert r.status_code == 201 and r.get_json()["valid"], r.get_json()
        assert hall.post(f"/api/games/{gid}/award", {"prize": prize}).status_code == 200
    return called


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """A night on a real station: a game drawn by hand (prices, sales, a correction, prizes in
    money, claims, awards, payouts, a mark) and a game drawn by the station's seed (with an
    undo), both ended; the book exported, with the deck file beside it."""
    folder = tmp_path_factory.mktemp("night")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "hall.sqlite"),
            "SECRET_KEY": "test-secret",
            "CALLER_PIN": TEST_PIN,
        },
        instance_path=str(folder),
    )
    hall = Caller(app.test_client(), DECK)
    gid = hall.new_game(draw="manual")
    assert hall.post(f"/api/games/{gid}/ledger/price", {"cents": 150}).status_code == 200
    prizes = {"linea": {"kind": "percent", "percent": 20}, "bingo": {"kind": "fixed", "cents": 900}}
    assert hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": prizes}).status_code == 200
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-12", "round": "all"})
    assert r.status_code == 201
    r = hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "13-14"})
    sale = r.get_json()["sale_id"]
    r = hall.post(f"/api/ledger/sales/{sale}/correct", {"reason": "wrong cards"})
    assert r.status_code == 200
    assert hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "15-18"}).status_code == 201
    play(hall, gid, list(range(1, 91)))
    payout = hall.get(f"/api/games/{gid}/ledger").get_json()["payouts"][0]["payout_id"]
    assert hall.post(f"/api/ledger/payouts/{payout}/paid").status_code == 200
    assert hall.post(f"/api/games/{gid}/end").status_code == 200
    auto = hall.new_game(draw="auto")
    for _ in range(5):
        assert hall.post(f"/api/games/{auto}/draw").status_code == 200
    r = hall.post(f"/api/games/{auto}/undo", {"reason": "the ball rolled off"})
    assert r.status_code == 200, r.get_json()
    for _ in range(3):
        assert hall.post(f"/api/games/{auto}/draw").status_code == 200
    assert hall.post(f"/api/games/{auto}/end").status_code == 200
    cards = hall.load_deck(CARDS)  # a 75-ball game: a row of card 3 called by hand, claimed
    r = hall.post("/api/games", {"deck_id": cards.deck_id, "mode": "normal", "draw": "manual"})
    normal = r.get_json()["game_id"]
    hall.call(normal, *[n for n in CARDS.card(3).rows[0] if n is not None])
    assert hall.post(f"/api/games/{normal}/check/3").status_code == 200  # shown to the room
    assert hall.post(f"/api/games/{normal}/claims", {"serial": 3}).get_json()["valid"]
    assert hall.post(f"/api/games/{normal}/award").status_code == 200
    assert hall.post(f"/api/games/{normal}/end").status_code == 200
    deck_file = folder / "noche.deck.json"
    deck_file.write_text(DECK.to_json())
    cards_file = folder / "cartones.deck.json"
    cards_file.write_text(CARDS.to_json())
    return {"folder": folder, "db": folder / "hall.sqlite", "deck": deck_file, "cards": cards_file}


@pytest.fixture
def exported(night, kit_cli, tmp_path) -> Path:
    out = tmp_path / "night.book.jsonl"
    code, _, err = kit_cli(["book", "export", "--db", str(night["db"]), "-o", str(out)])
    assert code == 0, err
    return out


def lines_of(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def verify(kit_cli, night, path: Path) -> tuple[int, str, str]:
    decks = ["--deck", str(night["deck"]), "--deck", str(night["cards"])]
    return kit_cli(["book", "verify", str(path), *decks])


def first_of(lines: list[dict], kind: str) -> int:
    return next(i for i, x in enumerate(lines) if x.get("kind") == kind)


def rechained(night, lines: list[dict], key: pure.StationKey | None = None) -> list[dict]:
    """What a station owner could do with the key: recompute every hash and sign again (with
    `key`, what anyone could do with a key of their own)."""
    key = key or pure.StationKey.from_pem((night["folder"] / "book_key.pem").read_bytes())
    prev, out = lines[0]["anchor"], [lines[0]]
    for x in lines[1:-1]:
        e = pure.Entry.from_json({**x, "prev": prev}).sealed()
        out.append(e.to_json())
        prev = e.hash
    out.append(key.sign(pure.Head(out[-1]["seq"], prev)).to_json())
    return out


def test_the_book_a_night_wrote_verifies(night, exported, kit_cli):
    code, out, err = verify(kit_cli, night, exported)
    assert code == 0, out + err
    assert out.strip().splitlines()[-1].startswith("OK: ")
    kinds = {x.get("kind") for x in lines_of(exported)}
    for kind in ("genesis", "deck", "game", "round", "reveal", "call", "undo", "claim", "prize"):
        assert kind in kinds
    for kind in ("award", "shown", "settings", "end"):
        assert kind in kinds
    for kind in ("ledger.price", "ledger.sale", "ledger.correction", "payout", "ledger.paid"):
        assert kind in kinds
    assert "login" in kinds  # the caller's API login, by its hashed id
    assert TEST_PIN not in exported.read_text()


TAMPERED_FIELDS = [
    ("call", "ball"),
    ("undo", "reason"),
    ("claim", "serial"),
    ("prize", "at_call"),
    ("award", "points"),
    ("ledger.sale", "cents"),
    ("payout", "cents"),
    ("ledger.paid", "payout_id"),
]


@pytest.mark.parametrize(("kind", "name"), TAMPERED_FIELDS)
def test_a_changed_field_of_each_kind_of_entry_fails_naming_it(
    night, exported, kit_cli, kind, name
):
    lines = lines_of(exported)
    i = first_of(lines, kind)
    value = lines[i]["data"][name]
    lines[i]["data"][name] = value + 1 if isinstance(value, int) else str(value) + "!"
    code, out, _ = verify(kit_cli, night, write(exported, lines))
    assert code == 1
    assert f"entry {lines[i]['seq']}: " in out


@pytest.mark.parametrize("kind", [k for k, _ in TAMPERED_FIELDS])
def test_a_deleted_entry_of_each_kind_fails_naming_the_one_after_it(night, exported, kit_cli, kind):
    lines = lines_of(exported)
    i = first_of(lines, kind)
    after = lines[i + 1]["seq"]
    del lines[i]
    code, out, _ = verify(kit_cli, night, write(exported, lines))
    assert code == 1
    assert f"entry {after}: " in out


def test_two_entries_swapped_fail(night, exported, kit_cli):
    lines = lines_of(exported)
    i = first_of(lines, "call")
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    code, out, _ = verify(kit_cli, night, write(exported, lines))
    assert code == 1
    assert f"entry {lines[i]['seq']}: " in out


def test_the_last_entry_dropped_fails(night, exported, kit_cli):
    lines = lines_of(exported)
    del lines[-2]  # the last entry, the signed head kept
    code, out, _ = verify(kit_cli, night, write(exported, lines))
    assert code == 1
    assert "signed head is not the last entry" in out


def test_a_byte_of_the_signature_changed_fails(night, exported, kit_cli):
    lines = lines_of(exported)
    sig = bytearray(__import__("base64").b64decode(lines[-1]["head"]["signature"]))
    sig[10] ^= 0x01
    lines[-1]["head"]["signature"] = __import__("base64").b64encode(bytes(sig)).decode()
    code, out, _ = verify(kit_cli, night, write(exported, lines))
    assert code == 1
    assert "signature does not hold" in out


def test_a_rechained_book_passes_the_chain_so_the_test_below_means_something(
    night, exported, kit_cli
):
    code, out, err = verify(kit_cli, night, write(exported, rechained(night, lines_of(exported))))
    assert code == 0, out + err


def test_a_rechained_award_that_does_not_follow_from_the_calls_fails(night, exported, kit_cli):
    lines = lines_of(exported)
    i = first_of(lines, "prize")
    winners = {w["serial"] for w in lines[i]["data"]["winners"]}
    loser = next(s for s in TICKETS if s not in winners)
    lines[i]["data"]["winners"][0]["serial"] = loser
    code, out, _ = verify(kit_cli, night, write(exported, rechained(night, lines)))
    assert code == 1
    assert f"entry {lines[i]['seq']}: ticket {loser} does not complete" in out


def test_a_rechained_prize_naming_a_ticket_twice_fails(night, exported, kit_cli):
    """One ticket is one share (docs/claims.md): a prize whose winners name a ticket twice
    (its claim counted twice) does not follow, though the ticket holds the prize."""
    lines = lines_of(exported)
    i = first_of(lines, "prize")
    first = lines[i]["data"]["winners"][0]
    lines[i]["data"]["winners"].append({**first, "claim_id": first["claim_id"] + 1000})
    code, out, _ = verify(kit_cli, night, write(exported, rechained(night, lines)))
    assert code == 1
    assert f"entry {lines[i]['seq']}: ticket {first['serial']} is named more than once" in out


def test_a_rechained_void_after_the_rounds_share_was_paid_fails(night, exported, kit_cli):
    """docs/ledger.md: a sale cannot be voided once its round paid a prize as a share of its
    takings. The night's correction moved after the línea's payout (20 % of round 1's takings)."""
    lines = lines_of(exported)
    correction = lines.pop(first_of(lines, "ledger.correction"))
    lines.insert(first_of(lines, "payout") + 1, correction)
    code, out, _ = verify(kit_cli, night, write(exported, rechained(night, lines)))
    assert code == 1
    sale = correction["data"]["sale_id"]
    assert f"sale {sale} is voided after round 1 paid a prize as a share" in out


def test_a_rechained_75_ball_award_to_a_card_without_a_bingo_fails(night, exported, kit_cli):
    lines = lines_of(exported)
    j = first_of(lines, "award")
    i = next(
        i
        for i, x in enumerate(lines)
        if x.get("kind") == "claim" and x["data"]["claim_id"] == lines[j]["data"]["claim_id"]
    )
    lines[i]["data"]["serial"] = lines[j]["data"]["serial"] = 4  # card 4 did not have the row
    code, out, _ = verify(kit_cli, night, write(exported, rechained(night, lines)))
    assert code == 1
    assert f"entry {lines[j]['seq']}: card 4 holds no bingo" in out


def test_a_rechained_wrong_ledger_sum_fails(night, exported, kit_cli):
    lines = lines_of(exported)
    i = first_of(lines, "ledger.sale")
    d = lines[i]["data"]
    d["cents"] -= 150  # 12 cards at 1,50 is 18,00, not 16,50
    code, out, _ = verify(kit_cli, night, write(exported, rechained(night, lines)))
    assert code == 1
    assert f"entry {lines[i]['seq']}: the sale's sum is wrong" in out


def test_a_rechained_payout_the_rules_do_not_give_fails(night, exported, kit_cli):
    lines = lines_of(exported)
    i = first_of(lines, "payout")
    lines[i]["data"]["cents"] += 500
    code, out, _ = verify(kit_cli, night, write(exported, rechained(night, lines)))
    assert code == 1
    assert f"entry {lines[i]['seq']}: the payout's sum is wrong" in out


def test_rechained_calls_that_do_not_follow_the_revealed_seed_fail(night, exported, kit_cli):
    lines = lines_of(exported)
    autos = [
        i for i, x in enumerate(lines) if x.get("kind") == "call" and x["data"]["source"] == "auto"
    ]
    a, b = lines[autos[0]]["data"], lines[autos[1]]["data"]
    a["ball"], b["ball"] = b["ball"], a["ball"]  # the same balls, out of the committed order
    code, out, _ = verify(kit_cli, night, write(exported, rechained(night, lines)))
    assert code == 1
    assert "is not the next ball of the order the revealed seed gives" in out


# ---- unusable input: one line, exit 2 -----------------------------------------------------


def test_a_truncated_book_is_unusable_input(night, exported, kit_cli):
    text = exported.read_text()
    exported.write_text(text[: len(text) // 2])
    code, out, err = verify(kit_cli, night, exported)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "bingo-hall: error:" in err


def test_a_file_that_is_not_a_book_is_unusable_input(night, kit_cli):
    code, _, err = verify(kit_cli, night, night["deck"])
    assert code == 2
    assert err.strip().splitlines() == [
        "bingo-hall: error: the file is not a Bingo Hall book (its first line names no book)"
    ]


def test_another_deck_is_unusable_input(night, exported, kit_cli, tmp_path):
    other = tmp_path / "other.deck.json"
    other.write_text(new_strip_deck(3, seed="another", name="Otra").to_json())
    code, _, err = kit_cli(["book", "verify", str(exported), "--deck", str(other)])
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "not one this book loaded" in err


def test_no_deck_for_the_nights_games_is_unusable_input(exported, kit_cli):
    code, _, err = kit_cli(["book", "verify", str(exported)])
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "--deck" in err


def test_the_book_table_refuses_changes(night):
    conn = sqlite3.connect(night["db"])
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE book SET data = '{}' WHERE seq = 2")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM book WHERE seq = 2")
    conn.close()


# ---- the line a broken copy breaks at ------------------------------------------------------


def test_a_line_that_is_not_json_is_named_by_its_own_number(night, exported, kit_cli):
    text = exported.read_text().splitlines()
    text[27] = "this is not JSON"  # line 28 of the file
    exported.write_text("\n".join(text) + "\n")
    code, _, err = verify(kit_cli, night, exported)
    assert code == 2
    assert err.strip().splitlines() == ["bingo-hall: error: line 28 is not JSON: it is not a book"]


def test_a_copy_cut_in_the_middle_of_a_line_is_cut_short_at_that_line(night, exported, kit_cli):
    text = exported.read_text().splitlines(keepends=True)
    cut = "".join(text[:29]) + text[29][: len(text[29]) // 2]  # half of line 30
    exported.write_text(cut)
    code, _, err = verify(kit_cli, night, exported)
    assert code == 2
    assert err.strip().splitlines() == ["bingo-hall: error: the copy is cut short at line 30"]


def test_a_copy_cut_at_a_lines_end_is_cut_short_at_that_line(night, exported, kit_cli):
    text = exported.read_text().splitlines(keepends=True)
    exported.write_text("".join(text[:30]))
    code, _, err = verify(kit_cli, night, exported)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "the copy is cut short at line 30" in err


def test_calls_out_of_the_seeds_order_name_the_call_entry_and_the_reveal(night, exported, kit_cli):
    lines = lines_of(exported)
    autos = [
        i for i, x in enumerate(lines) if x.get("kind") == "call" and x["data"]["source"] == "auto"
    ]
    a, b = lines[autos[0]]["data"], lines[autos[1]]["data"]
    a["ball"], b["ball"] = b["ball"], a["ball"]
    reveal = next(
        x
        for x in lines
        if x.get("kind") == "reveal"
        and (x["data"]["game_id"], x["data"]["round"]) == (a["game_id"], a["round"])
    )
    code, out, _ = verify(kit_cli, night, write(exported, rechained(night, lines)))
    assert code == 1
    named = {ln.split(":")[0] for ln in out.splitlines() if "is not the next ball" in ln}
    assert named == {f"entry {lines[autos[0]]['seq']}", f"entry {reveal['seq']}"}


# ---- against what the station published ----------------------------------------------------


def station_fingerprint(night) -> str:
    return pure.StationKey.from_pem((night["folder"] / "book_key.pem").read_bytes()).fingerprint


def signed_by_a_new_key(night, lines: list[dict]) -> list[dict]:
    """The whole book rewritten (an undo's reason changed), re-chained and signed by a key the
    rewriter made: it holds together."""
    i = first_of(lines, "undo")
    lines[i]["data"]["reason"] = "the Maestro asked"
    return rechained(night, lines, pure.StationKey.new())


def test_the_ok_line_names_the_key_and_says_to_compare_it(night, exported, kit_cli):
    code, out, _ = verify(kit_cli, night, exported)
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert f"signed by key {station_fingerprint(night)}" in last
    assert "compare it with the fingerprint the station published" in last


def test_the_published_key_accepts_the_stations_own_book(night, exported, kit_cli):
    fingerprint = station_fingerprint(night)
    code, out, err = kit_cli(
        [
            "book",
            "verify",
            str(exported),
            "--deck",
            str(night["deck"]),
            "--deck",
            str(night["cards"]),
            "--key",
            fingerprint.upper(),
        ]
    )
    assert code == 0, out + err
    assert out.strip().splitlines()[-1].endswith(f"signed by the published key {fingerprint}")


def test_a_book_re_signed_by_a_new_key_passes_alone_and_fails_against_the_published_key(
    night, exported, kit_cli
):
    forged = write(exported, signed_by_a_new_key(night, lines_of(exported)))
    code, out, _ = verify(kit_cli, night, forged)
    assert code == 0  # it holds together: only the published key tells
    new = lines_of(forged)[-1]["head"]["fingerprint"]
    assert f"signed by key {new}: compare it" in out
    decks = ["--deck", str(night["deck"]), "--deck", str(night["cards"])]
    published = station_fingerprint(night)
    code, out, _ = kit_cli(["book", "verify", str(forged), *decks, "--key", published])
    assert code == 1
    said = [ln for ln in out.splitlines() if "published key" in ln]
    assert said == [
        f"the book is signed by key {new}, not by the published key {published}: "
        "it is not the station's book as published"
    ]


def test_a_rewritten_book_without_the_published_head_fails(night, exported, kit_cli, tmp_path):
    """An undo's reason changed, re-chained and re-signed with the station's own key: only the
    head published before (its number and 12 digits of its hash) shows the rewrite."""
    lines = lines_of(exported)
    i = first_of(lines, "undo")
    published = f"{lines[i + 1]['seq']}:{lines[i + 1]['hash'][:12]}"
    lines[i]["data"]["reason"] = "the Maestro asked"
    forged = write(tmp_path / "forged.book.jsonl", rechained(night, lines))
    decks = ["--deck", str(night["deck"]), "--deck", str(night["cards"])]
    assert kit_cli(["book", "verify", str(forged), *decks])[0] == 0
    code, out, _ = kit_cli(["book", "verify", str(forged), *decks, "--head", published])
    assert code == 1
    assert f"does not contain the published head {published}" in out
    code, out, _ = kit_cli(["book", "verify", str(exported), *decks, "--head", published])
    assert code == 0  # the original holds it
    ahead = f"{lines[-2]['seq'] + 5}:{'0' * 12}"
    code, out, _ = kit_cli(["book", "verify", str(exported), *decks, "--head", ahead])
    assert code == 1 and "does not reach the published head" in out


@pytest.mark.parametrize(
    ("option", "value"), [("--key", "1a2b"), ("--head", "12"), ("--head", "x:0123456789ab")]
)
def test_a_malformed_key_or_head_is_unusable_input(night, exported, kit_cli, option, value):
    code, _, err = kit_cli(["book", "verify", str(exported), option, value])
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and option in err
