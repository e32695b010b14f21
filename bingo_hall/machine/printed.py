"""Where a deck's printed QR codes point: the address the station had when the cards were printed.

`bingo-hall print` / `generate` note it beside the deck file (`NAME.deck.json` ->
`NAME.deck.printed.json`, a list of base URLs, newest last), and `serve` compares it with this
machine's addresses at start-up: on the night the laptop may have another address, and then
phones cannot open the cards (docs/station.md says what to do).
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any
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


@dataclass(frozen=True)
class Mismatch:
    """Why phones cannot open a deck's printed cards on this station: `kind` is "elsewhere" (the
    QR host is not this machine), "port" (it is, on another port) or "host" (the station listens
    only on an address the QR host is not)."""

    deck_name: str
    printed_url: str
    kind: str
    printed_port: int
    listen_host: str
    listen_port: int | None

    def line(self) -> str:
        """The one line `serve` prints."""
        where = f"the cards of deck {self.deck_name} point at {self.printed_url}"
        if self.kind == "port":
            return (
                f"warning: {where}, but this station listens on port {self.listen_port}, so "
                f"phones that scan them reach nothing: serve with --port {self.printed_port} "
                f"(make run PORT={self.printed_port}), or reprint with --base-url "
                f"http://HOST:{self.listen_port}"
            )
        if self.kind == "host":
            return (
                f"warning: {where}, but this station listens only on {self.listen_host}, so "
                "phones cannot open them: serve with --host 0.0.0.0"
            )
        return (
            f"warning: {where}, which is not this machine's address, so phones cannot open "
            "them: scan cards at the caller page (Scan card), or reprint with --base-url"
        )


_EVERY_ADDRESS = ("", "0.0.0.0", "::")
_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def printed_port(base_url: str) -> int:
    parts = urlsplit(base_url)
    try:
        port = parts.port
    except ValueError:
        port = None
    return port or (443 if parts.scheme == "https" else 80)


def mismatch(
    deck_name: str,
    deck_path: str | Path,
    addresses: set[str] | None = None,
    port: int | None = None,
    host: str = "0.0.0.0",
) -> Mismatch | None:
    """Compare the newest printing of the deck with where the station listens (`host`, `port`;
    None skips the port): None when the printed QR codes reach it."""
    urls = printed_for(deck_path)
    if not urls:
        return None
    url = urls[-1]
    found: dict[str, Any] = dict(
        deck_name=deck_name, printed_url=url, printed_port=printed_port(url)
    )
    found |= dict(listen_host=host, listen_port=port)
    if not is_here(url, addresses):
        return Mismatch(kind="elsewhere", **found)
    if port is not None and found["printed_port"] != port:
        return Mismatch(kind="port", **found)
    listening = _LOOPBACK if host.lower() in _LOOPBACK else {host.lower()}
    if host not in _EVERY_ADDRESS and not is_here(url, listening):
        return Mismatch(kind="host", **found)
    return None


def stale_note(
    deck_name: str,
    deck_path: str | Path,
    addresses: set[str] | None = None,
    port: int | None = None,
    host: str = "0.0.0.0",
) -> str | None:
    """One line for `serve` when the newest printing of the deck does not reach it, else None."""
    found = mismatch(deck_name, deck_path, addresses, port, host)
    return found.line() if found else None
