"""Where a deck's printed QR codes point: the address the station had when the cards were printed.

`bingo-hall print` / `generate` note it beside the deck file (`NAME.deck.json` ->
`NAME.deck.printed.json`, a list of base URLs, newest last), and `serve` compares it with this
machine's addresses at start-up: on the night the laptop may have another address, and then
phones cannot open the cards (docs/station.md says what to do).
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from urllib.parse import urlsplit

from . import netaddr


def record_path(deck_path: str | Path) -> Path:
    p = Path(deck_path)
    stem = p.name[: -len(".json")] if p.name.endswith(".json") else p.name
    return p.with_name(stem + ".printed.json")


def printed_for(deck_path: str | Path) -> list[str]:
    """The base URLs the deck's cards were printed with (empty if never noted)."""
    try:
        data = json.loads(record_path(deck_path).read_text("utf-8"))
    except (OSError, ValueError):
        return []
    urls = data.get("base_urls") if isinstance(data, dict) else None
    return [u for u in urls if isinstance(u, str)] if isinstance(urls, list) else []


def remember(deck_path: str | Path, base_url: str) -> None:
    """Note that the deck's cards were printed pointing at `base_url` (best effort: a read-only
    folder only loses the start-up warning)."""
    urls = [u for u in printed_for(deck_path) if u.lower() != base_url.lower()] + [base_url]
    try:
        record_path(deck_path).write_text(json.dumps({"base_urls": urls}, indent=1), "utf-8")
    except OSError:
        pass


def own_addresses() -> set[str]:
    """This machine's addresses: loopback, its LAN address and what its name resolves to."""
    found = {"127.0.0.1", "::1", "localhost"}
    if lan := netaddr.lan_address():
        found.add(lan)
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(info[4][0]))
    except OSError:
        pass
    return found


def is_here(base_url: str, addresses: set[str] | None = None) -> bool:
    """Does the URL's host reach this machine? A name is looked up; one that does not resolve
    to an address of ours is not here."""
    host = (urlsplit(base_url).hostname or "").lower()
    mine = own_addresses() if addresses is None else addresses
    if host in mine:
        return True
    try:
        resolved = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except OSError:
        return False
    return bool(resolved & mine)


def stale_note(deck_name: str, deck_path: str | Path, addresses: set[str] | None = None):
    """One line for `serve` when the newest printing of the deck points elsewhere, else None."""
    urls = printed_for(deck_path)
    if not urls or is_here(urls[-1], addresses):
        return None
    return (
        f"warning: the cards of deck {deck_name} point at {urls[-1]}, which is not this "
        "machine's address, so phones cannot open them: scan cards at the caller page "
        "(Scan card), or reprint with --base-url"
    )
