"""The caller page on a tablet (issue 26, item 5): real Chromium at every common tablet width from
768 px up, upright and on its side. The Tabla's numbers stay inside their balls (no
"1617181920…"), balls never overlap, the page never scrolls sideways, and the claims panel's
Player menu stays inside its panel even with a long name."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from testkit import TEST_PIN

SIZES = [(768, 1024), (820, 1180), (900, 1200), (1000, 800), (1024, 768), (1180, 820), (1366, 1024)]
LONG = "María de los Ángeles Fernández-Gutiérrez"

CROWDED = """() => {
  const out = [];
  const d = document.documentElement;
  if (d.scrollWidth > window.innerWidth + 1) out.push(`page ${d.scrollWidth} wide`);
  for (const row of document.querySelectorAll('.tabla .tabla-row')) {
    const balls = [...row.querySelectorAll('.ball')];
    balls.forEach((b, i) => {
      const r = b.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(b);
      const t = range.getBoundingClientRect();
      if (t.left < r.left + 1 || t.right > r.right - 1) out.push(`${b.dataset.ball} spills`);
      const next = balls[i + 1];
      if (next && next.getBoundingClientRect().left < r.right)
        out.push(`${b.dataset.ball} overlaps`);
    });
  }
  const box = document.querySelector('.claims-panel');
  const panel = box && box.getBoundingClientRect();
  for (const sel of box ? ['#claim-player', '#claim-line', '#claim-serial'] : []) {
    const menu = document.querySelector(sel);
    if (!menu) continue;
    const m = menu.getBoundingClientRect();
    if (m.left < panel.left || m.right > panel.right) out.push(`${sel} outside its panel`);
  }
  return out;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("balls", [75, 90])
def test_the_caller_page_works_on_a_tablet_upright_and_on_its_side(
    page, live_server, caller, balls
):
    if balls == 90:
        from bingo_hall.manifest import new_strip_deck

        caller.deck = caller.load_deck(new_strip_deck(2, seed="tablet", name="Tiras"))
    gid = caller.new_game("lines-house" if balls == 90 else "normal", "manual")
    if balls == 75:
        r = caller.post(f"/api/games/{gid}/players", {"name": LONG})
        assert r.status_code == 201, r.get_json()
    caller.call(gid, 16, 17, 18, 19, 20, 88 if balls == 90 else 72)
    page.goto(f"{live_server.url}/caller/login?next=/caller/games/{gid}")
    page.fill("input[name=pin]", TEST_PIN)
    page.click("button[type=submit]")
    expect(page.locator("#station")).to_have_attribute("data-live", "yes")
    if balls == 75:
        expect(page.locator("#claim-player option")).to_have_count(2)
    found = []
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        found += [f"{w}x{h}: {x}" for x in page.evaluate(CROWDED)]
    assert found == []
