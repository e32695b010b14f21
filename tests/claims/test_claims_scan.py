"""Real Chromium with a camera: the caller page's "Scan card" reads a card's QR code through the
laptop camera with the jsQR file the package ships (no internet at the hall). Chromium's fake
camera plays a video made here from the kit's own QR code of a card printed for another address."""

from contextlib import contextmanager
from pathlib import Path

import pytest
import qrcode
from playwright.sync_api import expect
from testkit import TEST_PIN, Caller, scripts_ran

from bingo_hall.manifest import new_strip_deck
from bingo_hall.signing import card_url

from .hall import Hall

W, H = 640, 480


def qr_video(text: str, path: Path) -> Path:
    """A one-frame Y4M video (the format Chromium's fake camera plays) of the QR code of `text`,
    black on white, as a card held up to the camera."""
    qr = qrcode.QRCode(border=4, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    matrix = qr.get_matrix()
    scale = min(W, H) * 9 // 10 // len(matrix)
    left, top = (W - scale * len(matrix)) // 2, (H - scale * len(matrix)) // 2
    luma = bytearray(b"\xeb" * (W * H))
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                for y in range(top + r * scale, top + (r + 1) * scale):
                    start = y * W + left + c * scale
                    luma[start : start + scale] = b"\x10" * scale
    chroma = b"\x80" * (W * H // 4)
    header = f"YUV4MPEG2 W{W} H{H} F10:1 Ip A1:1 C420jpeg\n".encode()
    path.write_bytes(header + b"FRAME\n" + bytes(luma) + chroma + chroma)
    return path


@contextmanager
def scanning(browser_type, launch_args, live_server, gid, deck, serial, tmp_path):
    """A Chromium logged in on game `gid`'s caller page, whose camera shows the QR code of card
    (or ticket) `serial`, printed for another address than the station's."""
    url = card_url("http://192.168.77.5:5000", deck.secret, deck.deck_id, serial)
    video = qr_video(url, tmp_path / f"card{serial}.y4m")
    args = list(launch_args.get("args", [])) + [
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={video}",
    ]
    browser = browser_type.launch(**{**launch_args, "args": args})
    try:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.grant_permissions(["camera"], origin=live_server.url)
        page = context.new_page()
        page.goto(f"{live_server.url}/caller/login?next=/caller/games/{gid}")
        page.fill("input[name=pin]", TEST_PIN)
        page.press("input[name=pin]", "Enter")
        page.wait_for_url(f"**/caller/games/{gid}")
        scripts_ran(page)
        yield page
    finally:
        browser.close()


@pytest.mark.browser
def test_scan_card_reads_the_qr_through_the_camera_and_ignores_the_printed_host(
    client, live_server, browser_type, browser_type_launch_args, tmp_path
):
    hall = Hall(client)
    gid = hall.new_game()
    hall.call(gid, *hall.numbers(23, "I"))
    with scanning(
        browser_type, browser_type_launch_args, live_server, gid, hall.deck, 23, tmp_path
    ) as page:
        page.click("#scan-card")
        card = page.locator("#claim-result .vcard-wrap")
        expect(card).to_have_attribute("data-serial", "23", timeout=15000)
        expect(card).to_have_attribute("data-bingo", "yes")
        expect(page.locator("#claim-result")).to_have_class("verdict-valid")
        expect(page.locator("#scan-box")).to_be_hidden()  # the camera is let go


@pytest.mark.browser
def test_scan_card_reads_a_ninety_ball_ticket_on_the_prize_panel(
    client, live_server, browser_type, browser_type_launch_args, tmp_path
):
    strips = new_strip_deck(1, seed="scan-90", name="Tiras")
    hall = Caller(client, strips)
    gid = hall.new_game(draw="manual")
    hall.call(gid, *(n for n in strips.cards[2].grid[0] if n is not None))
    with scanning(
        browser_type, browser_type_launch_args, live_server, gid, strips, 3, tmp_path
    ) as page:
        page.click("#scan-card")
        row = page.locator('#claim-result tr[data-row="L1"]')
        expect(row).to_have_class("complete", timeout=15000)
        expect(page.locator("#claim-serial")).to_have_value("3")
        expect(page.locator("#scan-box")).to_be_hidden()
