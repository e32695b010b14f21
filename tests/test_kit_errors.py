"""One message convention: every user-facing error is a KitError, an English template with
%(name)s placeholders and its parameters; the web translates the template at the edge."""

from __future__ import annotations

import io
import json

import pytest
from testkit import page_login

from bingo_hall.errors import DeckError, KitError
from bingo_hall.manifest import new_deck
from bingo_hall.seventyfive.claims import MAX_TARGET, Rules
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


def _deck_with_wrong_totals() -> dict:
    data = json.loads(new_deck(3, seed="totals").to_json())
    data["cards"][1]["totals"] = [0, 0, 0, 0, 0]
    return data


@pytest.mark.parametrize(
    "lang, words",
    [
        ("es", "cartón 2: los totales impresos no coinciden con sus números"),
        ("en", "card 2: the printed totals do not match its numbers"),
    ],
)
def test_a_deck_files_problem_reaches_the_api_in_the_readers_language(client, caller, lang, words):
    r = client.post(
        f"/api/decks?lang={lang}",
        data=json.dumps(_deck_with_wrong_totals()),
        headers=caller.auth,
        content_type="application/json",
    )
    assert r.status_code == 400
    assert r.get_json()["error"] == words


def test_an_uploaded_deck_files_problem_is_flashed_in_spanish(client):
    csrf = page_login(client)
    upload = io.BytesIO(json.dumps(_deck_with_wrong_totals()).encode())
    r = client.post(
        "/caller/decks?lang=es",
        data={"deck": (upload, "x.deck.json"), "csrf_token": csrf},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert r.status_code == 200
    assert "cartón 2: los totales impresos no coinciden con sus números" in r.get_data(as_text=True)


def test_a_message_inside_a_message_is_translated_too():
    inner = DeckError("%(n)s cards at most", n=3003)
    outer = DeckError("too many: %(exc)s", exc=inner)
    words = {"too many: %(exc)s": "demasiados: %(exc)s", "%(n)s cards at most": "%(n)s como mucho"}
    assert outer.text(words.get) == "demasiados: 3003 como mucho"
    assert str(outer) == "too many: 3003 cards at most"


def _too_many_cards(free_centre: bool) -> str:
    data = json.loads(new_deck(2, seed="count").to_json())
    data["free_centre"] = free_centre
    data["cards"] = [dict(data["cards"][0], serial=i + 1) for i in range(3004)]
    return json.dumps(data)


@pytest.mark.parametrize(
    "free_centre, spanish, english",
    [
        (
            True,
            "El límite viene del centro LIBRE: la columna N tiene entonces solo 4 números",
            "The limit comes from the FREE centre: the N column then holds only 4 numbers",
        ),
        (
            False,
            "Cada cartón necesita su propio conjunto de 5 números del 1 al 15 para la columna B",
            "Each card needs its own set of 5 numbers from 1-15 for the B column",
        ),
    ],
)
def test_a_deck_with_too_many_cards_is_refused_all_in_the_readers_language(
    client, caller, free_centre, spanish, english
):
    """The reason the deck is refused is a message inside a message: the whole answer is in
    Spanish (no English "the number of cards ..." inside a Spanish sentence)."""
    deck = _too_many_cards(free_centre)
    limit = 1365 if free_centre else 3003
    answers = {}
    for lang in ("es", "en"):
        r = client.post(
            f"/api/decks?lang={lang}",
            data=deck,
            headers=caller.auth,
            content_type="application/json",
        )
        assert r.status_code == 400
        answers[lang] = r.get_json()["error"]
    assert answers["es"].startswith(
        f"el mazo tiene 3004 cartones, demasiados: el número de cartones debe ser del 1 al {limit}"
    )
    assert spanish in answers["es"] and "number" not in answers["es"]
    assert answers["en"].startswith(
        f"the deck has 3004 cards, too many: the number of cards must be from 1 to {limit}"
    )
    assert english in answers["en"]


def _load_deck_in_spanish(client, caller, data: dict):
    return client.post(
        "/api/decks?lang=es",
        data=json.dumps(data),
        headers=caller.auth,
        content_type="application/json",
    )


def test_a_deck_whose_centre_disagrees_says_so_in_spanish(client, caller):
    data = json.loads(new_deck(2, seed="centre").to_json())
    data["free_centre"] = True  # the cards have a number in the centre
    r = _load_deck_in_spanish(client, caller, data)
    assert r.status_code == 400
    assert r.get_json()["error"] == "cartón 1: según el mazo, el centro es LIBRE"


def test_a_deck_of_an_unknown_game_lists_the_games_with_a_spanish_or(client, caller):
    data = json.loads(new_deck(2, seed="game").to_json())
    data["game"] = 80
    r = _load_deck_in_spanish(client, caller, data)
    assert r.status_code == 400
    assert "75 o 90, no 80" in r.get_json()["error"] and " or " not in r.get_json()["error"]


def test_a_json_file_that_is_no_deck_is_refused_in_spanish_words(client, caller):
    r = client.post(
        "/api/decks?lang=es", data="{}", headers=caller.auth, content_type="application/json"
    )
    assert r.status_code == 400
    assert r.get_json()["error"] == (
        "no es un archivo de mazo: no tiene formato (se esperaba 'bingo-hall-deck/1')"
    )
