"""A join storm (issue 24): the page around a card is rendered once per game and language and
kept, and each card's page is still its own: its serial, its path (the verdict's URL, the
language links) and its data, never the first card's."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from bingo_hall.signing import card_path

from .hall import Hall


def _state(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="card-state">(.*?)</script>', html)
    assert found, html
    return json.loads(found.group(1))


def test_each_card_page_names_its_own_card_after_the_first_is_kept(client):
    hall = Hall(client)
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(7, "B")[:2])
    for lang, word in (("en", "Card"), ("es", "Cartón")):
        for serial in (5, 7, 12):
            path = card_path(hall.deck.secret, hall.deck.deck_id, serial)
            html = client.get(f"{path}?lang={lang}").get_data(as_text=True)
            assert f"<title>{word} {serial} · Bingo Hall</title>" in html
            assert f"<h1>{word} {serial} <small>" in html
            assert f'data-src="{path}?part=verdict&amp;lang={lang}"' in html
            assert f"?next={quote(path + '?lang=' + lang, safe='/')}" in html
            assert f'data-serial="{serial}"' in html
            state = _state(html)
            assert state["serial"] == serial and state["game"] == gid
            card = hall.deck.card(serial)  # its numbers are its table's (card.js reads them)
            first = re.search(r'<td class="sq[^"]*" data-number="(\w+)"', html)
            assert first and first.group(1) == str(card.number_at(0, 0))


def test_a_card_page_before_and_after_its_game_starts(client):
    hall = Hall(client)
    path = card_path(hall.deck.secret, hall.deck.deck_id, 3)
    before = client.get(path).get_data(as_text=True)
    assert 'data-game=""' in before and 'id="card-state"' not in before
    gid = hall.new_game()
    after = client.get(path).get_data(as_text=True)
    assert f'data-game="{gid}"' in after and _state(after)["game"] == gid
