"""The linked game's pure core: the seed code, the game file, a hall's result and the tally, each
checked against what docs/linked.md and docs/fairness.md say, not against the code's own output.
The 200-hall tally is test_linked_halls.py."""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import UTC, datetime

import pytest
from station.helpers import order_from_document

from bingo_hall.errors import KitError
from bingo_hall.linked.game import LinkedError, Window, read_game
from bingo_hall.linked.keys import Signer
from bingo_hall.linked.result import make_result
from bingo_hall.linked.seed import SeedError, check_code, code_text, linked_order, parse_code
from bingo_hall.linked.tally import State, Submission, read_tally, tally, verify_tally
from bingo_hall.manifest import new_deck, new_strip_deck
from linked.hall import (
    TIERS,
    WINDOW,
    during,
    organise,
    signed_head,
    station_keys,
    station_seed_of,
)

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def test_the_seed_code_is_16_crockford_characters_in_groups_of_four_carrying_80_bits():
    seed = bytes(range(10))
    code = code_text(seed)
    groups = code.split("-")
    assert [len(g) for g in groups] == [4, 4, 4, 4]
    assert all(c in CROCKFORD for c in "".join(groups))
    # 80 bits, most significant first: the code is the seed's bits five at a time
    value = sum(CROCKFORD.index(c) << (5 * i) for i, c in enumerate(reversed("".join(groups))))
    assert value.to_bytes(10, "big") == seed


def test_a_code_typed_in_lower_case_with_o_for_zero_and_l_for_one_is_the_same_seed():
    seed = parse_code("0001-0000-0000-0000")
    assert parse_code("ooOl 0000 0000 0000") == seed
    assert parse_code("000100000000000 0") == seed


@pytest.mark.parametrize(
    ("typed", "says"),
    [("K7QM-3XHD-9RTW-ZB4", "not 15"), ("K7QM-3XHD-9RTW-ZB4U", "U"), ("", "not 0")],
)
def test_a_mistyped_code_is_refused_in_one_line(typed, says):
    with pytest.raises(SeedError) as err:
        parse_code(typed)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_a_code_checks_against_the_commitment_of_its_round_seed():
    org = organise(station_keys(2), ["North"])
    assert len(org.seed) == 32  # a round seed as every round of the station has
    assert org.game.commitment == hashlib.sha256(org.seed).hexdigest()
    assert check_code(org.code.lower(), org.game.commitment) == org.seed
    other = code_text(bytes(10))
    with pytest.raises(SeedError, match="does not match this game's commitment"):
        check_code(other, org.game.commitment)


@pytest.mark.parametrize("balls", [75, 90])
def test_every_hall_calls_the_order_of_the_fairness_document_with_no_public_input(balls):
    seed = station_seed_of(bytes.fromhex("00112233445566778899"))
    assert list(linked_order(seed, balls)) == order_from_document(seed, "", balls)


def test_the_game_file_reads_back_as_the_organisers_game_with_its_window_zone_and_halls():
    keys = station_keys(3)
    org = organise(keys, ["North", "South"])
    game = read_game(org.game.text())
    assert game == org.game
    assert game.pattern == "full_card"
    assert [h.fingerprint for h in game.halls] == [k.fingerprint for k in keys]
    assert [h.region for h in game.halls] == ["North", "South", "North"]
    assert game.window.start.utcoffset() is not None
    assert game.window.start.astimezone(UTC) == datetime(2026, 12, 5, 19, 30, tzinfo=UTC)
    assert game.tiers == TIERS
    assert "seed" not in org.game.text().lower().replace("commitment", "")


def test_a_90_ball_linked_game_plays_the_full_house_by_default():
    org = organise(station_keys(1), ["North"], balls=90)
    assert read_game(org.game.text()).pattern == "full-house"


@pytest.mark.parametrize("key", ["kite", "letter_z", "double_postage_stamp"])
def test_a_75_ball_linked_game_plays_any_pattern_of_the_book(key):
    org = organise(station_keys(1), ["North"], balls=75, pattern=key)
    assert read_game(org.game.text()).pattern == key


def test_a_75_ball_pattern_that_is_not_in_the_book_is_refused_naming_the_book():
    with pytest.raises(KitError) as refused:
        organise(station_keys(1), ["North"], balls=75, pattern="star")
    said = str(refused.value)
    assert "a pattern of the book (see docs/patterns.md)" in said and "'star'" in said
    assert len(said.splitlines()) == 1


def test_a_game_file_changed_on_the_way_is_refused_by_its_signature():
    org = organise(station_keys(2), ["North"])
    data = json.loads(org.game.text())
    data["prizes"]["national"] += 1
    with pytest.raises(LinkedError, match="signature does not hold"):
        read_game(json.dumps(data))


@pytest.mark.parametrize(
    ("start", "end", "zone", "says"),
    [
        ("2026-12-05T19:30", "2026-12-05T21:00", "Europe/Londres", "time zone"),
        ("2026-12-05 7pm", "2026-12-05T21:00", "Europe/London", "YYYY-MM-DDTHH:MM"),
        ("2026-12-05T21:00", "2026-12-05T19:30", "Europe/London", "ends before it starts"),
    ],
)
def test_a_window_that_cannot_be_played_is_refused_in_one_line(start, end, zone, says):
    with pytest.raises(LinkedError, match=says):
        Window.parse(start, end, zone)


def test_a_result_is_signed_by_the_station_book_key_and_names_the_card_and_calls():
    keys = station_keys(1)
    org = organise(keys, ["North"])
    order = linked_order(org.seed, 75)
    deck = new_deck(5, seed="result")
    result = make_result(
        org.game,
        "Hall 1",
        Signer.of_station(keys[0]),
        signed_head(keys[0]),
        order[:40],
        during(20),
        deck.deck_id,
        deck.cards[2],
    )
    data = json.loads(result.text())
    assert data["count"] == 40 and data["calls"] == list(order[:40])
    assert data["deck"] == deck.deck_id and data["serial"] == 3
    assert data["card"]["columns"] == [list(c) for c in deck.cards[2].columns]
    assert data["book"]["fingerprint"] == keys[0].fingerprint
    raw = base64.b64decode(data["key"])
    assert hashlib.sha256(raw).hexdigest()[:16] == keys[0].fingerprint


@pytest.mark.parametrize(("balls", "make"), [(75, new_deck), (90, new_strip_deck)])
def test_a_tally_any_hall_can_verify_and_a_changed_one_fails(balls, make):
    keys = station_keys(2)
    org = organise(keys, ["North", "South"], balls=balls)
    order = linked_order(org.seed, balls)
    deck = make(4, seed="tally")
    subs = []
    for i, key in enumerate(keys):
        ticket = deck.cards[i]
        at = org.game.figure.completed_at(ticket, order)
        result = make_result(
            org.game,
            f"Hall {i + 1}",
            Signer.of_station(key),
            signed_head(key),
            order[:at],
            during(30),
            deck.deck_id,
            ticket,
        )
        subs.append(Submission(f"hall{i + 1}.json", result.text()))
    made = tally(org.game, org.code, subs, during(100), org.key)
    found = read_tally(made.text())
    assert verify_tally(org.game, found, subs) == []
    assert [s.state for s in found.standings] == [State.WON, State.WON]
    data = json.loads(made.text())
    national = data["awards"][0]
    national["winners"] = ["Hall 2"] if national["winners"] == ["Hall 1"] else ["Hall 1"]
    said = verify_tally(org.game, read_tally(json.dumps(data)))
    assert any("signature does not hold" in line for line in said)
    assert any("awards are not what the halls' counts give" in line for line in said)


def test_the_tally_refuses_a_seed_code_that_is_not_the_committed_one():
    org = organise(station_keys(1), ["North"])
    with pytest.raises(SeedError):
        tally(org.game, code_text(bytes(10)), [], during(100), org.key)


def test_only_the_organisers_key_signs_the_tally():
    org = organise(station_keys(1), ["North"])
    with pytest.raises(Exception, match="not the organiser's key"):
        tally(org.game, org.code, [], during(100), Signer.new())


def test_the_window_is_kept_in_its_zone_across_a_daylight_saving_change():
    summer = Window.parse("2026-07-05T19:30", "2026-07-05T21:00", "Europe/London")
    assert summer.start.astimezone(UTC).hour == 18
    assert WINDOW.start.astimezone(UTC).hour == 19


def test_a_tally_the_organiser_signed_over_a_changed_hall_or_award_still_fails():
    """The signature says who made the tally, not that it is right: a hall moved to another
    region, or a prize given to a hall that did not win it, fails even when signed."""
    from dataclasses import replace

    from bingo_hall.linked.tally import LABEL, Award, Tier

    keys = station_keys(2)
    org = organise(keys, ["North", "South"])
    made = tally(org.game, org.code, [], during(100), org.key)

    def signed(t):
        return replace(t, signature=org.key.sign(LABEL, t))

    first = made.standings[0]
    moved = replace(
        made,
        standings=(replace(first, hall=replace(first.hall, region="South")), *made.standings[1:]),
    )
    said = verify_tally(org.game, read_tally(signed(moved).text()))
    assert said == ["the tally does not list the game's halls as the game registers them"]
    gift = replace(made, awards=(Award(Tier.NATIONAL, None, 30, ("Hall 2",), (100_000,)),))
    said = verify_tally(org.game, read_tally(signed(gift).text()))
    assert said == ["the tally's awards are not what the halls' counts give"]


def test_a_four_corners_game_counts_the_call_of_the_last_corner():
    deck = new_deck(3, seed="corners")
    card = deck.cards[0]
    corners = {card.columns[c][r] for r in (0, 4) for c in (0, 4)}
    org = organise(station_keys(1), ["North"], pattern="four_corners")
    order = list(linked_order(org.seed, 75))
    assert org.game.figure.completed_at(card, order) == max(order.index(n) for n in corners) + 1


def test_a_one_line_game_of_90_balls_counts_the_call_that_completes_any_row():
    deck = new_strip_deck(1, seed="one line")
    ticket = deck.cards[0]
    org = organise(station_keys(1), ["North"], balls=90, pattern="one-line")
    order = list(linked_order(org.seed, 90))
    first_row = min(max(order.index(n) for n in row) + 1 for row in ticket.rows)
    assert org.game.figure.completed_at(ticket, order) == first_row


@pytest.mark.parametrize(("balls", "pattern"), [(75, "full-house"), (90, "full_card")])
def test_a_pattern_the_game_does_not_play_is_refused_in_one_line(balls, pattern):
    with pytest.raises(KitError, match=f"linked game's pattern is .* not '{pattern}'"):
        organise(station_keys(1), ["North"], balls=balls, pattern=pattern)
