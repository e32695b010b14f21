"""A QR code drawn as inline SVG from the `qrcode` package's module matrix (no image files, sharp
at any density), and the URL a phone should open: the companions' join QR and /display's "phones:
join" QR share it."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import qrcode
import qrcode.constants

from ..machine.netaddr import lan_address


@lru_cache(maxsize=64)
def qr_svg(data: str, *, label: str = "") -> str:
    """One <svg> with one <path>: a unit square per dark module, 2-module quiet zone (made once
    per URL: a join QR is asked for by every page that shows it)."""
    qr = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(data)
    qr.make(fit=True)
    matrix = qr.get_matrix()
    size = len(matrix)
    d = "".join(
        f"M{x},{y}h1v1h-1z" for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark
    )
    title = f"<title>{_esc(label)}</title>" if label else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges" role="img" class="qr">{title}'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path d="{d}" fill="#000"/></svg>'
    )


def _esc(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def phone_url(host_url: str, path: str, lan_lookup: Callable[[], str | None] = lan_address) -> str:
    """The URL another phone can open. When the host browses the kit as localhost, a QR saying
    "localhost" would send the guests' phones to themselves, so use the LAN address instead."""
    scheme, _, rest = host_url.partition("://")
    host, _, port_part = rest.rstrip("/").partition("/")[0].partition(":")
    if host in ("localhost", "127.0.0.1", "[::1]"):
        lan = lan_lookup()
        if lan:
            host = lan
    port = f":{port_part}" if port_part else ""
    return f"{scheme}://{host}{port}{path}"
