"""Small things a host sees on the night (issue 15): the browser's /favicon.ico, the big screen's
address on the login page as a link, and Spanish that says "cartón" for the card everywhere."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.append(dict(attrs).get("href"))


def test_favicon_is_served_from_the_package(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200
    data = r.get_data()
    # An ICO directory (reserved 0, type 1) holding a PNG image.
    assert data[:4] == b"\x00\x00\x01\x00" and b"\x89PNG" in data


def test_the_login_page_links_to_the_big_screen(client):
    page = client.get("/caller/login?lang=es").get_data(as_text=True)
    found = Links()
    found.feed(page)
    assert "/display" in found.hrefs
    assert "&lt;a" not in page  # the link is markup, not escaped text


CATALOGS = sorted(
    str(p.relative_to(ROOT))
    for top in ("bingo_hall/station", "companions")
    for p in (ROOT / top).rglob("translations/es/LC_MESSAGES/messages.po")
)


def _spanish(catalog: str) -> list[str]:
    text = (ROOT / catalog).read_text("utf-8")
    return [line for line in text.splitlines() if line.startswith("msgstr")]


@pytest.mark.parametrize("catalog", CATALOGS)
def test_the_spanish_pages_say_carton_never_tarjeta(catalog):
    assert not [line for line in _spanish(catalog) if "tarjeta" in line.lower()]


def test_the_station_counts_decks_in_cartones():
    lines = _spanish("bingo_hall/station/translations/es/LC_MESSAGES/messages.po")
    assert 'msgstr "%(n)s cartones"' in lines


@pytest.mark.browser
def test_one_call_is_singular_on_the_spanish_card_page(client, caller, live_server, phone):
    from testkit import marked_card

    from bingo_hall.signing import card_path

    gid = caller.new_game("normal", "manual")
    caller.call(gid, 7)
    url = live_server.url + card_path(caller.deck.secret, caller.deck.deck_id, 1) + "?lang=es"
    page = marked_card(phone, url)
    assert "1 bola cantada ·" in page and "1 bolas" not in page
    caller.call(gid, 8)
    assert "2 bolas cantadas" in marked_card(phone, url)
