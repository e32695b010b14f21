"""The treasurer's summary says where the pot carried to the next night comes from (each game's
jackpot set aside from its takings, each jackpot won from it) and how "left for the cause" is
worked out, in the night's own figures: a summary whose "Pot to the next night" carried
100.000,00 with no line saying where it came from left the host guessing."""

from __future__ import annotations

import re

import pytest
from testkit import Caller

from bingo_hall.manifest import new_deck


def amount(text: str) -> int:
    """An amount as printed ("1.234,50 €", "£1,234.50", "- 3.00") in cents."""
    digits = re.sub(r"[^\d]", "", text)
    return -int(digits) if text.strip().startswith("-") else int(digits)


@pytest.fixture
def night(app, client):
    """One game of 5 cards at 2,00 sets a jackpot of 100 aside (won within 1 call, on top of
    50 % of the takings); nobody has won it yet, so all of it is carried to the next night."""
    hall = Caller(client, new_deck(12, seed="pot-lines", name="Pot"))
    gid = hall.new_game("normal", "manual")
    assert hall.post(f"/api/games/{gid}/ledger/price", {"amount": "2"}).status_code == 200
    assert hall.post(f"/api/games/{gid}/ledger/sales", {"serials": "1-5"}).status_code == 201
    rule = {"kind": "jackpot", "within": 1, "jackpot": "100", "percent": 50}
    made = hall.post(f"/api/games/{gid}/ledger/prizes", {"prizes": {"bingo": rule}})
    assert made.status_code == 200, made.get_json()
    return hall, app.config["DATABASE"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_summary_says_where_the_pot_comes_from_and_how_left_for_the_cause_adds_up(
    night, kit_cli, lang
):
    hall, db = night
    code, out, err = kit_cli(["ledger", "--db", db, "--lang", lang])
    assert code == 0, err
    lines = out.splitlines()
    aside = [x for x in lines if ("set aside in game 1" if lang == "en" else "partida 1 (de") in x]
    assert len(aside) == 1 and amount(aside[0].split(":")[-1]) == 10000, out
    carried_word = "Jackpot carried" if lang == "en" else "Pozo que pasa"
    (carried,) = [x for x in lines if x.strip().startswith(carried_word)]
    assert amount(carried.split(":")[-1]) == 10000
    left_word = "Left for the cause" if lang == "en" else "Queda para"
    i = next(i for i, x in enumerate(lines) if x.strip().startswith(left_word))
    left = amount(lines[i].split(":")[-1])
    # the next line works it out: taken - prizes + brought - carried, in the night's figures
    parts = [amount(p) for p in re.findall(r"\d[\d.,]*", lines[i + 1])]
    taken, prizes, brought, pot = parts
    assert taken == 1000 and pot == 10000
    assert taken - prizes + brought - pot == left, lines[i : i + 2]
