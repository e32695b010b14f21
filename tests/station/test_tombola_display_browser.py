"""Italian Tombola on /display in real Chromium (issue 37 item 3): the board of 90 drawn as the
tabellone (six blocks of 3 rows of 5, split by gaps, the numbers where the 90-ball Tabla has
them), the prizes in order under their Italian names with the reader's words, the called numbers
lit as they come. The screenshot is the one docs/claims.md shows."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tambolakit import row
from testkit import Caller, doc_shot

from bingo_hall.manifest import new_strip_deck

pytestmark = pytest.mark.browser
SLOW = 15_000


def box(screen, n: int) -> dict:
    return screen.locator(f'#station .tabla [data-ball="{n}"]').bounding_box()


def test_the_tombola_display_draws_the_tabellone_in_six_blocks_of_fifteen(
    browser, live_server, client, tmp_path
):
    strips = new_strip_deck(1, seed="tombola-display", name="Tombola di Natale")
    hall = Caller(client, strips)
    gid = hall.new_game(mode="tombola", draw="manual")
    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(f"{live_server.url}/display?lang=en")
    expect(screen.locator("#station")).to_have_attribute("data-live", "yes", timeout=SLOW)
    steps = screen.locator("#prize-steps li .prize-name")
    # beside the board, each prize by its name alone; its gloss is the chip's title
    expect(steps).to_have_text(["Ambo", "Terno", "Quaterna", "Cinquina", "Tombola"])
    expect(steps.first).to_have_attribute("title", "Ambo (two in a row)")
    top = row(strips, 1, 0)
    hall.call(gid, top[0], top[1])
    for n in (top[0], top[1]):
        expect(screen.locator(f'#station .tabla [data-ball="{n}"]')).to_have_class(
            "ball called" if n != top[1] else "ball called last", timeout=SLOW
        )
    # the rows run 1-10 ... 81-90, and the blocks are split: the step from 5 to 6 is wider
    # than from 4 to 5, and the step from row 3 (21) to row 4 (31) wider than from 11 to 21
    b = {n: box(screen, n) for n in (4, 5, 6, 11, 21, 31, 86, 90)}
    across, block_gap = b[5]["x"] - b[4]["x"], b[6]["x"] - b[5]["x"]
    down, block_down = b[21]["y"] - b[11]["y"], b[31]["y"] - b[21]["y"]
    assert block_gap > across * 1.2 and block_down > down * 1.2
    assert b[86]["x"] == pytest.approx(b[6]["x"], abs=1) and b[90]["y"] > b[31]["y"]
    screen.screenshot(path=doc_shot("station-tombola-display.png", tmp_path))
