"""The address printed in every card's QR code when the host does not give one.

Guests' phones must reach the caller station over the hall's Wi-Fi, so the default is this
machine's LAN address on the station's port. A loopback address only works on the laptop
itself, so that case comes with a warning the CLI shows before printing a whole deck.
"""

from __future__ import annotations

from ..machine.netaddr import lan_address


def default_base_url(port: int = 5000) -> tuple[str, str | None]:
    """(url, warning or None): http://<LAN address>:<port>, or loopback with a warning."""
    address = lan_address()
    if address is None:
        return (
            f"http://127.0.0.1:{port}",
            "no network address found, so the QR codes point to 127.0.0.1: phones will not "
            "reach the station; connect to the hall's Wi-Fi or give --base-url",
        )
    return f"http://{address}:{port}", None
