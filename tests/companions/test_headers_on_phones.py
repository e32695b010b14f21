"""The table page's header on a phone (issue 26, item 14): the game's name is read whole, never
cut to "Israeli …" or "Domin…", beside the table code and the language switch, at 360 and 390
px, in both languages."""

from __future__ import annotations

import pytest

PLAYERS = {
    "rummy": ["Ana", "Beto"],
    "domino": ["Ana", "Beto"],
    "qwinto": ["Ana", "Beto"],
    "clue": ["Ana", "Beto", "Caro"],
}

CUT = """() => {
  const t = document.querySelector('.bar h1 .title');
  const code = document.querySelector('.bar h1 .code').getBoundingClientRect();
  const bar = document.querySelector('.bar').getBoundingClientRect();
  return {cut: t.scrollWidth > t.clientWidth + 1, text: t.textContent,
          codeInside: code.left >= bar.left && code.right <= bar.right,
          wide: document.documentElement.scrollWidth};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 390])
def test_the_game_name_is_never_cut_in_the_phone_header(panel_app, serve, browser, width):
    server = serve(panel_app)
    client = panel_app.test_client()
    context = browser.new_context(
        viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    found = []
    for game, players in PLAYERS.items():
        r = client.post(f"/t/new/{game}", json={"players": players})
        assert r.status_code == 201, r.get_json()
        for lang in ("en", "es"):
            page.goto(f"{server.url}/t/{r.get_json()['code']}?lang={lang}")
            seen = page.evaluate(CUT)
            if seen["cut"] or not seen["codeInside"] or seen["wide"] > width:
                found.append((game, lang, seen))
    context.close()
    assert found == []
