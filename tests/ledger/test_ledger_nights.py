"""Random nights through the station's API (issues 33 and 39): games of two rounds or more, a
price list per game (a price per card or per book, up to three prices) with each sale at one of
them, cards sold for the whole game and for single rounds, paper stock issued to two sellers and
what was not sold returned, voided or left out, percentage, fixed and jackpot prizes (paid
instead of the prize or on top of it), winners on the same call, sales voided, payouts marked
paid in cash or otherwise, the float and the count of the cash box. Every payout is worked out
here, from the printed tickets and the rules as docs/ledger.md states them, never from the
ledger's code; then, for every night:

* a game's percentage prizes never pay more than the game took;
* no card is sold twice for the same round;
* a jackpot paid instead of the prize never pays less than the prize it replaces;
* issued = sold + returned + void (+ the cards still out, named) for every game with stock;
* over/short = counted - (float + takings - cash payouts), to the cent;
* the summary's totals equal the sum of its lines, to the cent.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from testkit import TEST_PIN, Caller

from bingo_hall.app import create_app
from bingo_hall.manifest import new_strip_deck

DECK = new_strip_deck(3, seed="random-nights", name="Noche")  # 18 tickets, 3 strips
TICKETS = {t.serial: t for t in DECK.cards}


def rows_of(serial: int) -> list[set[int]]:
    return [{n for n in r if n is not None} for r in TICKETS[serial].grid]


def holds(serial: int, prize: str, called: set[int]) -> bool:
    """Línea: a row of the ticket called; bingo: all 15 (read off the printed grid)."""
    full = [r <= called for r in rows_of(serial)]
    return any(full) if prize == "linea" else all(full)


def cut_down(cents: int, pct: int) -> int:
    """pct % of cents, rounded down to the cent (the fraction stays with the cause)."""
    return cents * pct // 100


def shares(cents: int, winners: int) -> list[int]:
    """Equal shares, the odd cents one each to the earliest claims."""
    base, odd = divmod(cents, winners)
    return [base + 1 if i < odd else base for i in range(winners)]


# ---- a night, drawn by Hypothesis -----------------------------------------------------------

prize_rules = st.fixed_dictionaries(
    {
        "linea": st.one_of(
            st.none(),
            st.builds(lambda c: {"kind": "fixed", "cents": c}, st.integers(0, 3000)),
            st.builds(lambda p: {"kind": "percent", "percent": p}, st.integers(1, 40)),
        ),
        "bingo": st.one_of(
            st.builds(lambda c: {"kind": "fixed", "cents": c}, st.integers(0, 5000)),
            st.builds(lambda p: {"kind": "percent", "percent": p}, st.integers(1, 60)),
            st.builds(
                lambda c, p, w, j, m: {
                    "kind": "jackpot",
                    "cents": c,
                    "percent": p,
                    "within": w,
                    "jackpot": j,
                    "mode": m,
                },
                st.integers(0, 1000),
                st.integers(0, 60),
                st.integers(50, 90),  # a full house of 18 tickets: ~60-85 calls
                st.integers(0, 8000),
                st.sampled_from(["instead", "on-top"]),
            ),
        ),
    }
)

#: a sale: which blocks of cards (whole books of its price), for the round being sold or the
#: whole game, at which price of the game's list
sale = st.tuples(
    st.lists(st.integers(0, 17), min_size=1, max_size=4), st.booleans(), st.integers(0, 2)
)

round_plan = st.fixed_dictionaries(
    {
        "sales": st.lists(sale, max_size=4),
        "void": st.one_of(st.none(), st.integers(0, 50)),  # a sale voided and sold again
        "order": st.permutations(range(1, 91)),
        "pay": st.booleans(),  # mark this round's payouts paid
        "cash": st.booleans(),  # ... in cash (else by cheque or transfer)
    }
)

#: paper stock: tickets 1..split to Ana, the rest to the door; each ticket not sold comes back
#: (returned), is void, or stays out
stock_plan = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {
            "split": st.integers(1, 17),
            "fate": st.lists(st.sampled_from(["return", "void", "out"]), min_size=18, max_size=18),
        }
    ),
)

#: the night's cash box: the float, and the count as the expected sum plus `delta` (over or
#: short), given as a total or in notes and coins
till_plan = st.fixed_dictionaries(
    {
        "float": st.integers(0, 20000),
        "delta": st.integers(-1000, 1000),
        "pieces": st.booleans(),
    }
)

#: the euro's notes and coins, in cents
EURO = (50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1)


def in_pieces(cents: int) -> dict[str, int]:
    """An amount in the fewest euro notes and coins."""
    out = {}
    for value in EURO:
        n, cents = divmod(cents, value)
        if n:
            out[str(value)] = n
    return out


def as_ranges(cards: set[int]) -> str:
    """Cards as ranges the host types: {1, 2, 3, 7} is "1-3, 7"."""
    parts: list[list[int]] = []
    for c in sorted(cards):
        if parts and parts[-1][1] == c - 1:
            parts[-1][1] = c
        else:
            parts.append([c, c])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in parts)


game_plan = st.fixed_dictionaries(
    {
        "prices": st.lists(
            st.tuples(st.integers(1, 1000), st.sampled_from([1, 2, 3, 6])), min_size=1, max_size=3
        ),
        "stock": stock_plan,
        "prizes": prize_rules,
        "rounds": st.lists(round_plan, min_size=2, max_size=3),
    }
)


@dataclass
class Books:
    """What the test knows of the night: the sales it made and every payout it expects."""

    sales: list[dict] = field(default_factory=list)  # accepted: round (None), counts_in, cents
    expected: list[tuple[int, int, str, list[int]]] = field(default_factory=list)
    pot: int = 0
    taken: dict[int, int] = field(default_factory=dict)  # per game
    #: per award: what of it is not a share of the takings (a fixed sum, the pot), per game
    not_percent: dict[tuple[int, int, str], int] = field(default_factory=dict)
    #: a jackpot paid instead of the prize, won: the award and the prize it replaced
    instead: list[tuple[tuple[int, int, str], int]] = field(default_factory=list)
    #: per game with stock: issued, sold, returned, void, still out
    stock: dict[int, dict[str, int]] = field(default_factory=dict)
    paid_cash: int = 0  # payouts marked paid in cash


def percent_part(rule: dict, takings: int) -> int:
    return 0 if rule["kind"] == "fixed" else cut_down(takings, rule["percent"])


def normal(rule: dict, takings: int) -> int:
    return (0 if rule["kind"] == "percent" else rule["cents"]) + percent_part(rule, takings)


def sell(hall: Caller, gid: int, plan: dict, books: Books, game: dict, rnd: int) -> None:
    for blocks, whole_game, which in plan["sales"]:
        price_id, (cents, book) = game["price_ids"][which % len(game["price_ids"])]
        per_deck = 18 // book
        chosen = sorted({b % per_deck for b in blocks})
        text = ", ".join(f"{b * book + 1}-{(b + 1) * book}" for b in chosen)
        r = hall.post(
            f"/api/games/{gid}/ledger/sales",
            {"serials": text, "round": "all" if whole_game else rnd, "price": price_id},
        )
        cards = {s for b in chosen for s in range(b * book + 1, (b + 1) * book + 1)}
        sold_for = [
            s
            for s in books.sales
            if s["game"] == gid and s["round"] in (None, rnd) and not s["void"]
        ]
        if whole_game:
            sold_for = [s for s in books.sales if s["game"] == gid and not s["void"]]
        clash = any(cards & s["cards"] for s in sold_for)
        assert r.status_code == (409 if clash else 201), (text, r.get_json())
        if r.status_code == 201:
            books.sales.append(
                {
                    "id": r.get_json()["sale_id"],
                    "game": gid,
                    "round": None if whole_game else rnd,
                    "counts_in": rnd,
                    "cards": cards,
                    "cents": len(chosen) * cents,
                    "void": False,
                }
            )
    mine = [s for s in books.sales if s["game"] == gid and s["counts_in"] == rnd and not s["void"]]
    if plan["void"] is not None and mine:
        wrong = mine[plan["void"] % len(mine)]
        r = hall.post(f"/api/ledger/sales/{wrong['id']}/correct", {"reason": "wrong cards"})
        assert r.status_code == 200, r.get_json()
        wrong["void"] = True


def play_round(hall: Caller, gid: int, plan: dict, books: Books, game: dict, rnd: int) -> None:
    takings = sum(
        s["cents"]
        for s in books.sales
        if s["game"] == gid and s["counts_in"] == rnd and not s["void"]
    )
    called: list[int] = []
    for prize in ("linea", "bingo"):
        order = iter(plan["order"][len(called) :])
        while not any(holds(t, prize, set(called)) for t in TICKETS):
            ball = next(order)
            hall.call(gid, ball)
            called.append(ball)
        winners = [t for t in TICKETS if holds(t, prize, set(called))]  # on the same call
        for t in winners:
            r = hall.post(f"/api/games/{gid}/claims", {"serial": t, "prize": prize})
            assert r.status_code == 201 and r.get_json()["valid"], r.get_json()
        r = hall.post(f"/api/games/{gid}/award", {"prize": prize})
        assert r.status_code == 200, r.get_json()
        rule = game["prizes"][prize]
        if rule is None:
            continue
        paid, from_pot = normal(rule, takings), 0
        if rule["kind"] == "jackpot" and len(called) <= rule["within"] and books.pot > 0:
            if rule["mode"] == "on-top":
                paid, from_pot = paid + books.pot, books.pot
            elif books.pot > paid:
                paid, from_pot = books.pot, books.pot
            if rule["mode"] == "instead":
                books.instead.append(((gid, rnd, prize), normal(rule, takings)))
        books.pot -= from_pot
        fixed = 0 if rule["kind"] == "percent" else rule["cents"]
        replaced = rule["kind"] == "jackpot" and rule["mode"] == "instead" and from_pot > 0
        books.not_percent[(gid, rnd, prize)] = from_pot + (0 if replaced else fixed)
        event(f"{prize}: {'one winner' if len(winners) == 1 else 'winners on the same call'}")
        if from_pot:
            event(f"jackpot won, {rule['mode']}")
        books.expected.append((gid, rnd, prize, shares(paid, len(winners))))


def play_night(hall: Caller, night: list[dict], till: dict) -> Books:
    books = Books()
    r = hall.post("/api/ledger/cash/float", {"cents": till["float"]})
    assert r.status_code == 201, r.get_json()
    for game in night:
        gid = hall.new_game(draw="manual")
        listed = [
            {"label": f"price {i}", "cents": cents, "book": book}
            for i, (cents, book) in enumerate(game["prices"])
        ]
        r = hall.post(f"/api/games/{gid}/ledger/prices", {"prices": listed})
        assert r.status_code == 200, r.get_json()
        game["price_ids"] = [
            (p["price_id"], (p["cents"], p["book"])) for p in r.get_json()["prices"]
        ]
        stock = game["stock"]
        if stock is not None:
            for serials, seller in (
                (f"1-{stock['split']}", "Ana"),
                (f"{stock['split'] + 1}-18", "the door"),
            ):
                r = hall.post(
                    f"/api/games/{gid}/ledger/stock/issue", {"serials": serials, "seller": seller}
                )
                assert r.status_code == 201, r.get_json()
        rules = {p: r for p, r in game["prizes"].items() if r is not None}
        r = hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": rules})
        assert r.status_code == 200, r.get_json()
        jackpot = game["prizes"]["bingo"]
        books.pot += jackpot["jackpot"] if jackpot["kind"] == "jackpot" else 0
        for rnd, plan in enumerate(game["rounds"], start=1):
            if rnd > 1:
                assert hall.post(f"/api/games/{gid}/rounds").status_code == 201
            sell(hall, gid, plan, books, game, rnd)
            play_round(hall, gid, plan, books, game, rnd)
            if plan["pay"]:
                for p in hall.get(f"/api/games/{gid}/ledger").get_json()["payouts"]:
                    if p["round"] == rnd:
                        r = hall.post(
                            f"/api/ledger/payouts/{p['payout_id']}/paid", {"cash": plan["cash"]}
                        )
                        assert r.status_code == 200
                books.paid_cash += (
                    sum(sum(cents) for g, r_, _p, cents in books.expected if (g, r_) == (gid, rnd))
                    * plan["cash"]
                )
        assert hall.post(f"/api/games/{gid}/end").status_code == 200
        if stock is not None:
            back(hall, gid, stock, books)
        books.taken[gid] = sum(
            s["cents"] for s in books.sales if s["game"] == gid and not s["void"]
        )
    return books


def back(hall: Caller, gid: int, stock: dict, books: Books) -> None:
    """At the end of the game each ticket not sold is returned, void or left out, as planned."""
    sold = {c for s in books.sales if s["game"] == gid and not s["void"] for c in s["cards"]}
    fate = {
        kind: {c for c in range(1, 19) if c not in sold and stock["fate"][c - 1] == kind}
        for kind in ("return", "void", "out")
    }
    for kind in ("return", "void"):
        if fate[kind]:
            r = hall.post(
                f"/api/games/{gid}/ledger/stock/{kind}",
                {"serials": as_ranges(fate[kind]), "reason": "torn"},
            )
            assert r.status_code == 201, r.get_json()
    books.stock[gid] = {
        "issued": 18,
        "sold": len(sold),
        "returned": len(fate["return"]),
        "void": len(fate["void"]),
        "missing": len(fate["out"]),
    }


@pytest.mark.slow  # about 25 nights of up to 90 calls each through the API
@pytest.mark.cpu
@settings(
    max_examples=int(os.environ.get("NIGHTS", "25")), suppress_health_check=[HealthCheck.too_slow]
)
@given(st.lists(game_plan, min_size=1, max_size=2), till_plan)
def test_random_nights_pay_what_the_rules_say_and_the_summary_adds_up(night, till):
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "DATABASE": str(Path(folder) / "night.sqlite"),
                "SECRET_KEY": "test-secret",
                "CALLER_PIN": TEST_PIN,
            },
            instance_path=folder,
        )
        hall = Caller(app.test_client(), DECK)
        books = play_night(hall, night, till)
        counted = count_the_box(hall, books, till)
        check_night(hall, books)
        check_the_door(hall, books, till, counted)


def count_the_box(hall: Caller, books: Books, till: dict) -> int:
    """The treasurer counts the box: what it should hold, plus the plan's over or short."""
    expected = till["float"] + sum(books.taken.values()) - books.paid_cash
    counted = max(0, expected + till["delta"])
    body = {"pieces": in_pieces(counted)} if till["pieces"] and counted else {"cents": counted}
    r = hall.post("/api/ledger/cash/count", body)
    assert r.status_code == 201, r.get_json()
    return counted


def check_the_door(hall: Caller, books: Books, till: dict, counted: int) -> None:
    night = hall.get("/api/ledger/summary").get_json()
    # issued = sold + returned + void (+ what is still out) for every game with stock
    for g in night["games"]:
        assert g["stock"] == books.stock.get(g["game_id"]), g
        if g["stock"]:
            st_ = g["stock"]
            assert st_["issued"] == st_["sold"] + st_["returned"] + st_["void"] + st_["missing"]
    # over/short = counted - (float + takings - cash payouts), to the cent
    taken = sum(books.taken.values())
    cash = night["cash"]
    assert cash["paid_cash"] == books.paid_cash
    assert cash["over_short"] == counted - (till["float"] + taken - books.paid_cash)
    rows = list(
        csv.DictReader(io.StringIO(hall.get("/caller/ledger/summary.csv").get_data(as_text=True)))
    )
    total = {r["row"]: int(r["cents"]) for r in rows if r["row"].startswith("total")}
    assert total["total expected"] == (
        total["total float"] + total["total taken"] - total["total cash payouts"]
    )
    assert total["total over/short"] == total["total counted"] - total["total expected"]
    gaps = {}
    for r in rows:
        if r["row"] == "gap":
            gaps[int(r["game"])] = gaps.get(int(r["game"]), 0) + int(r["cards"])
    assert gaps == {g: s["missing"] for g, s in books.stock.items() if s["missing"]}


def check_night(hall: Caller, books: Books) -> None:
    payouts = []
    for gid in books.taken:
        payouts += hall.get(f"/api/games/{gid}/ledger").get_json()["payouts"]
    got = {}
    for p in payouts:
        got.setdefault((p["game_id"], p["round"], p["prize"]), []).append(p["cents"])
    # every payout is what the rules say, share by share
    assert got == {(g, r, p): s for g, r, p, s in books.expected}
    # a game's percentage prizes never pay more than the game took: what the ledger paid, less
    # the fixed sums and the pots in it
    for gid, taken in books.taken.items():
        shares_paid = [
            sum(cents) - books.not_percent[key] for key, cents in got.items() if key[0] == gid
        ]
        assert all(s >= 0 for s in shares_paid) and sum(shares_paid) <= taken
    # no card is sold twice for the same round
    for gid in books.taken:
        sales = [
            s for s in hall.get(f"/api/games/{gid}/ledger").get_json()["sales"] if not s["void"]
        ]
        for rnd in {s["round"] for s in sales if s["round"]} | {1}:
            cards = [
                c
                for s in sales
                if s["round"] in (None, rnd)
                for part in s["serials"].split(", ")
                for c in range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1)
            ]
            assert len(cards) == len(set(cards)), (gid, rnd, cards)
    # a jackpot paid instead of the prize never pays less than the prize it replaces
    assert all(sum(got[key]) >= prize for key, prize in books.instead)
    # the summary's totals are the sums of its lines, to the cent
    night = hall.get("/api/ledger/summary").get_json()
    rows = list(
        csv.DictReader(io.StringIO(hall.get("/caller/ledger/summary.csv").get_data(as_text=True)))
    )
    total = {
        r["row"][len("total ") :]: int(r["cents"]) for r in rows if r["row"].startswith("total")
    }
    lines = [r for r in rows if r["row"] == "payout"]
    assert total["taken"] == sum(int(r["cents"]) for r in rows if r["row"] == "round")
    assert total["taken"] == night["taken"] == sum(books.taken.values())
    assert total["awarded"] == sum(int(r["cents"]) for r in lines) == night["awarded"]
    assert total["awarded"] == sum(sum(s) for *_k, s in books.expected)
    assert total["paid"] == sum(int(r["cents"]) for r in lines if r["paid"] == "yes")
    assert total["carried"] == books.pot == night["carried"]
    assert total["left"] == total["taken"] - total["awarded"] - total["carried"] == night["left"]
    assert sum(g["taken"] for g in night["games"]) == night["taken"]
    assert sum(g["awarded"] for g in night["games"]) == night["awarded"]
