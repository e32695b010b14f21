"""The raffle's pure rules (bingo_hall/money/raffle.py, issue 37 item 4): a sale is a colour and its
number ranges, sold once per colour; the committed order is the published draw over the tickets
sold (recomputed here by raffle_audit from docs/fairness.md, not by the kit's code); each draw,
a redraw too, takes the next ticket of the order, so no ticket wins twice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from raffle_audit import raffle_order as published_order

from bingo_hall.money.raffle import (
    RaffleDraw,
    RaffleError,
    RaffleTicket,
    follows_order,
    next_draw,
    parse_sale,
    raffle_order,
    tickets_sold,
    winners,
)

SEED = bytes(range(32))


def test_a_sale_is_a_colour_and_its_ranges_and_counts_each_ticket():
    sale = parse_sale(" Light  Blue ", "1-5, 9")
    assert sale.colour == "light blue" and sale.count == 6
    assert [t.number for t in sale.tickets()] == [1, 2, 3, 4, 5, 9]


def test_a_number_is_sold_once_in_a_colour_and_again_in_another():
    red = parse_sale("red", "1-10")
    with pytest.raises(RaffleError, match="red 7 is already sold"):
        parse_sale("Red", "7-12", [red])
    assert parse_sale("blue", "7-12", [red]).count == 6


@pytest.mark.parametrize(
    ("colour", "numbers", "words"),
    [("", "1", "colour"), ("7", "1", "colour"), ("red", "0-3", "numbers"), ("red", "x", "numbers")],
)
def test_a_bad_sale_is_refused_in_words(colour, numbers, words):
    with pytest.raises(RaffleError, match=words):
        parse_sale(colour, numbers)


def test_the_order_is_the_published_draw_over_the_tickets_sorted():
    sales = [parse_sale("red", "1-12"), parse_sale("blue", "40-45")]
    tickets = tickets_sold(sales)
    assert tickets[0] == RaffleTicket("blue", 40) and len(tickets) == 18
    expected = published_order(SEED.hex(), [(t.colour, t.number) for t in tickets], "Fiesta")
    got = raffle_order(SEED, reversed(tickets), "Fiesta")  # the sale order does not count
    assert [(t.colour, t.number) for t in got] == expected
    assert raffle_order(SEED, tickets, "other words") != got  # the public input counts


def test_past_256_tickets_the_order_is_still_the_published_draw():
    tickets = tickets_sold([parse_sale("green", "1-300")])  # a random number takes two bytes
    expected = published_order(SEED.hex(), [(t.colour, t.number) for t in tickets])
    assert [(t.colour, t.number) for t in raffle_order(SEED, tickets)] == expected


def test_each_prize_goes_to_the_next_ticket_and_a_redraw_to_the_one_after():
    order = raffle_order(SEED, tickets_sold([parse_sale("red", "1-6")]))
    first = next_draw(order, 2, [])
    assert first == RaffleDraw(1, 1, order[0])
    set_aside = RaffleDraw(1, 1, order[0], unclaimed="nobody came forward")
    again = next_draw(order, 2, [set_aside])
    assert again == RaffleDraw(1, 2, order[1])  # prize 1 again, the next ticket
    second = next_draw(order, 2, [set_aside, again])
    assert second == RaffleDraw(2, 3, order[2])
    made = [set_aside, again, second]
    assert next_draw(order, 2, made) is None
    assert {p: d.ticket for p, d in winners(made).items()} == {1: order[1], 2: order[2]}
    assert follows_order(order, made)
    assert not follows_order(order, [again])  # a draw that skipped the first ticket


def test_the_tickets_running_out_is_said_in_words():
    order = raffle_order(SEED, [RaffleTicket("red", 1)])
    gone = RaffleDraw(1, 1, order[0], unclaimed="left early")
    with pytest.raises(RaffleError, match="prize 1 has no ticket left"):
        next_draw(order, 1, [gone])


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 60),
    st.integers(1, 8),
    st.lists(st.booleans(), max_size=20),
    st.binary(min_size=32, max_size=32),
)
def test_no_ticket_wins_twice_whatever_is_redrawn(sold, prizes, nobody, seed):
    order = raffle_order(seed, tickets_sold([parse_sale("red", f"1-{sold}")]))
    made: list[RaffleDraw] = []
    for unclaimed in [*nobody, *[False] * prizes]:
        try:
            nxt = next_draw(order, prizes, made)
        except RaffleError:
            break  # every ticket drawn
        if nxt is None:
            break
        made.append(RaffleDraw(nxt.prize, nxt.place, nxt.ticket, "gone" if unclaimed else None))
    tickets = [d.ticket for d in made]
    assert len(set(tickets)) == len(tickets) and follows_order(order, made)
    won = winners(made)
    assert len({d.ticket for d in won.values()}) == len(won)
    assert len(won) == min(prizes, sold - sum(1 for d in made if d.unclaimed))
