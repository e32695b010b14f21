"""One ticket, one share (docs/claims.md): tickets that complete a prize on the same call share
it, and a ticket claimed twice for it on that call (one claim per row that holds an ambo, or a
doubled click) is one winner still. Checked on every 90-ball prize list with a fixed prize of
3,00 and two tickets, so the right payouts are 1,50 each; the calls are read off the printed
tickets (tambolakit), never from the code under test."""

from __future__ import annotations

import pytest
from tambolakit import row
from testkit import Caller

from bingo_hall.manifest import new_deck, new_strip_deck
from bingo_hall.seventyfive.cards import LINE_CELLS


@pytest.fixture(scope="module")
def strips():
    return new_strip_deck(2, seed="one-share", name="Tombola di Natale")  # tickets 1-12


def ok(resp, status: int = 200):
    assert resp.status_code == status, resp.get_json()
    return resp.get_json()


def in_order(*groups: list[int]) -> list[int]:
    """The balls of `groups` in turn, each once (two strips may share a number)."""
    out: list[int] = []
    for n in (n for g in groups for n in g):
        if n not in out:
            out.append(n)
    return out


def claim_twice_and_award(hall, gid, prize, balls):
    """Ticket 12 claims, then ticket 1 twice, all on the last call; the prize is fixed at 3,00."""
    ok(
        hall.post(
            f"/api/games/{gid}/ledger/prizes", {"prizes": {prize: {"kind": "fixed", "cents": 300}}}
        )
    )
    hall.call(gid, *balls)
    for serial, player in ((12, "Luis"), (1, "Ana"), (1, "Ana")):
        assert ok(
            hall.post(
                f"/api/games/{gid}/claims", {"serial": serial, "player": player, "prize": prize}
            ),
            201,
        )["valid"]
    won = ok(hall.post(f"/api/games/{gid}/award", {"prize": prize}))
    payouts = ok(hall.get(f"/api/games/{gid}/ledger"))["payouts"]
    return won, [(p["serial"], p["cents"]) for p in payouts]


def test_a_ticket_claimed_once_per_row_for_the_ambo_shares_the_prize_once(client, strips):
    """The reported night: ticket 1 holds an ambo on two rows and ticket 12 on one; claims for
    12, then 1, then 1 again. Two winners: 1,50 each, not 1,00 to 12 and 2,00 to 1."""
    hall = Caller(client, strips)
    gid = hall.new_game(mode="tombola", draw="manual")
    balls = in_order(row(strips, 12, 0)[:2], row(strips, 1, 0)[:2], row(strips, 1, 1)[:2])
    won, paid = claim_twice_and_award(hall, gid, "ambo", balls)
    assert [w["serial"] for w in won["winners"]] == [12, 1]
    assert paid == [(12, 150), (1, 150)]


@pytest.mark.parametrize(
    ("mode", "prize"),
    [("linea-bingo", "linea"), ("lines-house", "one-line"), ("tambola", "top-line")],
)
def test_a_doubled_claim_of_a_line_adds_no_share(client, strips, mode, prize):
    """Every other prize list: ticket 1's top row and ticket 12's, ticket 1 claimed twice."""
    hall = Caller(client, strips)
    gid = hall.new_game(mode=mode, draw="manual")
    won, paid = claim_twice_and_award(
        hall, gid, prize, in_order(row(strips, 12, 0), row(strips, 1, 0))
    )
    assert [w["serial"] for w in won["winners"]] == [12, 1]
    assert paid == [(12, 150), (1, 150)]


def test_a_75_ball_card_claimed_twice_is_paid_once(client):
    """The 75-ball round has one winner, whatever the claims (`claims.settle` takes one claim,
    lines or a pattern alike): card 3 claimed twice on its B line is paid the whole 3,00 once."""
    deck = new_deck(10, seed="one-share-75", name="Club")
    hall = Caller(client, deck)
    gid = hall.new_game(draw="manual")
    ok(
        hall.post(
            f"/api/games/{gid}/ledger/prizes",
            {"prizes": {"bingo": {"kind": "fixed", "cents": 300}}},
        )
    )
    card = deck.card(3)
    hall.call(gid, *[n for r, c in LINE_CELLS["B"] if (n := card.columns[c][r]) is not None])
    for _ in range(2):
        ok(hall.post(f"/api/games/{gid}/claims", {"serial": 3}), 201)
    ok(hall.post(f"/api/games/{gid}/award"))
    payouts = ok(hall.get(f"/api/games/{gid}/ledger"))["payouts"]
    assert [(p["serial"], p["cents"]) for p in payouts] == [(3, 300)]
