"""This machine's address on the hall's network: what guests' phones use to reach the laptop.

Shared by the card printer (the QR base URL), the station's start-up banner and the companions'
join QR, so all three agree.
"""

from __future__ import annotations

import ipaddress
import socket


def lan_address() -> str | None:
    """The address other machines on the LAN would use to reach this one, if any.

    Connecting a UDP socket sends nothing; it only asks the OS which interface it would route
    through. TEST-NET-1 (192.0.2.1) is never a real host.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            address: str = s.getsockname()[0]
    except OSError:
        return None
    try:
        if ipaddress.ip_address(address).is_loopback or address == "0.0.0.0":
            return None
    except ValueError:
        return None
    return address
