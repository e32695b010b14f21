"""One message convention: every user-facing error is a KitError, an English template with
%(name)s placeholders and its parameters; the web translates the template at the edge."""

from __future__ import annotations

import pytest

from bingo_hall.claims import MAX_TARGET, Rules
from bingo_hall.errors import DeckError, KitError
from bingo_hall.web.errors import Conflict, RequestError
from companions.errors import EntryError, tiles_total


def test_a_kit_error_reads_as_its_template_filled_in():
    exc = DeckError("a deck has at most %(n)s cards, not %(asked)s", n=10, asked=12)
    assert str(exc) == "a deck has at most 10 cards, not 12"
    assert exc.template == "a deck has at most %(n)s cards, not %(asked)s"
    assert exc.params == {"n": 10, "asked": 12}


def test_a_template_is_translated_before_it_is_filled_in():
    exc = KitError("%(n)s balls", n=90)
    assert exc.text({"%(n)s balls": "%(n)s bolas"}.get) == "90 bolas"


def test_a_message_without_parameters_keeps_its_percent_signs():
    assert str(KitError("100% of the balls are called")) == "100% of the balls are called"


@pytest.mark.parametrize(
    "exc",
    [
        RequestError("game %(n)s", n=1),
        Conflict("game %(n)s", n=1),
        EntryError("game %(n)s", field="x", n=1),
    ],
)
def test_the_web_and_the_table_games_share_the_convention(exc):
    assert isinstance(exc, KitError) and str(exc) == "game 1" and exc.params == {"n": 1}


def test_a_table_games_error_names_its_field_and_fills_its_template():
    with pytest.raises(EntryError) as caught:
        tiles_total(["Q"], {"1": 1}, field="rack")
    assert caught.value.field == "rack"
    assert caught.value.template == "%(tile)s is not a tile: use 1 to 13 or J"
    assert str(caught.value) == "Q is not a tile: use 1 to 13 or J"


def test_a_pure_rules_message_keeps_its_english_words():
    with pytest.raises(KitError) as caught:
        Rules(mode="normal", target=0)
    assert (
        str(caught.value) == f"the target must be a whole number of points from 1 to {MAX_TARGET}"
    )


def test_the_station_translates_a_pure_rules_message_at_the_edge(client, caller):
    gid = caller.new_game(mode="points")
    url = f"/api/games/{gid}/settings?lang=es"
    r = client.post(url, json={"target": 0}, headers=caller.auth)
    assert r.status_code == 400
    assert r.get_json()["error"] == (
        "el ajuste target: la meta debe ser un número entero de puntos del 1 al 1000000"
    )
