"""Real Chromium: /display on a phone and on the projector (issue 15): the last call's ring stays
inside its own ball on a phone, and the big screen shows a "phones: join" QR that decodes to the
station's current address."""

from __future__ import annotations

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

RING = """() => {
  const last = document.querySelector('.tabla .ball.last');
  const cs = getComputedStyle(last);
  const out = Math.max(0, parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset));
  const r = last.getBoundingClientRect();
  const ring = {left: r.left - out, right: r.right + out, top: r.top - out, bottom: r.bottom + out};
  const hits = [];
  for (const other of document.querySelectorAll('.tabla .ball:not(.last)')) {
    const o = other.getBoundingClientRect();
    if (ring.left < o.right && ring.right > o.left && ring.top < o.bottom && ring.bottom > o.top)
      hits.push(other.dataset.ball);
  }
  return hits;
}"""


@pytest.mark.browser
def test_the_last_call_ring_does_not_cover_its_neighbours_on_a_phone(caller, live_server, phone):
    gid = caller.new_game("normal", "manual")
    caller.call(gid, 3, 38)  # N 38: neighbours on every side
    phone.goto(f"{live_server.url}/display/{gid}")
    expect(phone.locator(".tabla .ball.last")).to_have_attribute("data-ball", "38")
    assert phone.evaluate(RING) == []


@pytest.mark.browser
def test_the_big_screen_shows_a_join_qr_with_the_station_address(
    caller, live_server, page, tmp_path
):
    gid = caller.new_game()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/display/{gid}")
    qr = page.locator(".join svg.qr")
    expect(qr).to_be_visible()
    shown = page.locator(".join [data-join]").text_content()
    assert shown.endswith(f":{live_server.url.rsplit(':', 1)[1]}/join")
    shot = tmp_path / "join.png"
    qr.screenshot(path=str(shot))
    decoded = zxingcpp.read_barcodes(Image.open(shot))
    assert [d.text for d in decoded] == [shown]


def test_a_big_screen_opened_on_the_maestros_port_shows_phones_the_halls_port(app):
    """`make run` opens the big screen on the Maestro's own port (loopback, not for phones): its
    "phones: join" address must be the hall's port, the one phones can reach."""
    import re
    import urllib.request

    from bingo_hall.web.station_server import Server

    server = Server(app, maestro_port=0).start()
    try:
        assert server.maestro_port != server.port
        url = f"http://127.0.0.1:{server.maestro_port}/display"
        with urllib.request.urlopen(url, timeout=30) as answer:
            page = answer.read().decode()
    finally:
        server.close()
    shown = re.findall(r"data-join>([^<]+)<", page)
    assert shown and all(s.endswith(f":{server.port}/join") for s in shown), shown
