"""The join QR: drawn from the qrcode matrix as SVG, carrying a URL another phone can open."""

from __future__ import annotations

import re

import zxingcpp
from PIL import Image, ImageDraw

from bingo_hall.machine.netaddr import lan_address
from bingo_hall.web.qr import phone_url, qr_svg


def rasterise(svg: str, scale: int = 8) -> Image.Image:
    """Paint the SVG's unit squares with Pillow (independent of the code that drew them)."""
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    img = Image.new("L", (size * scale, size * scale), 255)
    draw = ImageDraw.Draw(img)
    for x, y in re.findall(r"M(\d+),(\d+)h1v1h-1z", svg):
        x, y = int(x) * scale, int(y) * scale
        draw.rectangle([x, y, x + scale - 1, y + scale - 1], fill=0)
    return img


def test_the_svg_qr_decodes_to_the_join_url():
    url = "http://192.168.1.20:8080/t/AB3CD"
    found = zxingcpp.read_barcodes(rasterise(qr_svg(url)))
    assert [f.text for f in found] == [url]


def test_a_label_is_escaped_in_the_svg_title():
    assert "<script>" not in qr_svg("x", label="<script>alert(1)</script>")


def test_a_lan_address_is_kept_as_the_phones_see_it():
    assert phone_url("http://192.168.1.20:8080/", "/t/AB3CD") == "http://192.168.1.20:8080/t/AB3CD"


def test_localhost_is_replaced_by_the_lan_address_so_other_phones_can_reach_it():
    url = phone_url("http://localhost:5000/", "/t/AB3CD", lan_lookup=lambda: "192.168.1.20")
    assert url == "http://192.168.1.20:5000/t/AB3CD"


def test_localhost_stays_when_the_machine_has_no_lan_address():
    url = phone_url("http://127.0.0.1:5000/", "/t/AB3CD", lan_lookup=lambda: None)
    assert url == "http://127.0.0.1:5000/t/AB3CD"


def test_the_default_lookup_finds_this_machines_address_or_none():
    lan = lan_address()
    assert lan is None or not lan.startswith("127.")
