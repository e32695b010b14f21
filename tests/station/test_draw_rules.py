"""The pure draw rules (bingo_hall.draw) against docs/fairness.md and the seed's calling rules."""

import hashlib

import pytest

from bingo_hall import draw
from bingo_hall.station.spoken import english_number, spanish_number, spoken_call

from .helpers import order_from_document

SEED = bytes(range(32))


def test_commitment_is_the_sha256_of_the_seed():
    assert draw.commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_draw_order_is_the_documented_hmac_fisher_yates_shuffle():
    assert list(draw.draw_order(SEED)) == order_from_document(SEED)
    assert list(draw.draw_order(SEED, "Marta 1987")) == order_from_document(SEED, "Marta 1987")


def test_draw_order_holds_each_of_the_75_balls_once():
    assert sorted(draw.draw_order(SEED)) == list(range(1, 76))


def test_public_input_changes_the_order():
    assert draw.draw_order(SEED, "x") != draw.draw_order(SEED)


def test_an_undone_ball_comes_out_again_so_undo_cannot_reroll():
    order = draw.draw_order(SEED)
    assert draw.next_auto_ball(order, [order[0]]) == order[1]
    # the Maestro undid the 2nd call: the next draw gives the same ball again
    assert draw.next_auto_ball(order, [order[0]]) == order[1]


def test_no_ball_after_all_75():
    with pytest.raises(draw.DrawError):
        draw.next_auto_ball(draw.draw_order(SEED), range(1, 76))


@pytest.mark.parametrize("ball", [0, 76, -1, "7", 3.0, True, None])
def test_a_ball_is_a_whole_number_from_1_to_75(ball):
    with pytest.raises(draw.DrawError):
        draw.check_ball(ball)


def test_a_manual_ball_already_called_is_refused():
    with pytest.raises(draw.DrawError, match="N 31"):
        draw.check_manual_ball(31, [5, 31])


def test_audit_finds_the_first_call_off_the_committed_order():
    order = list(draw.draw_order(SEED))
    ok = draw.audit_round(SEED, hashlib.sha256(SEED).hexdigest(), None, order[:10])
    assert ok.commitment_ok and ok.order_ok
    tampered = order[:4] + [order[5], order[4]]
    bad = draw.audit_round(SEED, "0" * 64, None, tampered)
    assert not bad.commitment_ok and not bad.order_ok and bad.first_difference == 5


def test_parse_seed_wants_64_hex_digits():
    assert draw.parse_seed(SEED.hex().upper()) == SEED
    with pytest.raises(draw.DrawError):
        draw.parse_seed("abc")


@pytest.mark.parametrize(
    ("n", "words"),
    [
        (1, "uno"),
        (16, "dieciséis"),
        (21, "veintiuno"),
        (22, "veintidós"),
        (30, "treinta"),
        (31, "treinta y uno"),
        (45, "cuarenta y cinco"),
        (70, "setenta"),
        (75, "setenta y cinco"),
    ],
)
def test_spanish_number_words_follow_the_rae_spelling(n, words):
    assert spanish_number(n) == words


def test_english_number_words_are_hyphenated():
    assert english_number(31) == "thirty-one" and english_number(15) == "fifteen"
    assert english_number(60) == "sixty"


def test_the_voice_says_the_letter_then_the_number_as_the_maestro_calls_n31():
    assert spoken_call(31, "es") == "N... treinta y uno"
    assert spoken_call(31, "en") == "N... thirty-one"
    assert spoken_call(75, "es") == "O... setenta y cinco"
