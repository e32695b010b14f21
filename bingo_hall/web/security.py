"""What every answer of the station carries, and what it accepts, to keep a guest on the Wi-Fi
from using it against the Maestro or the players (docs/station.md, "Security"):

- `local_path`: the one check for a `?next=` target (the language switch, the caller login), so
  a link can never send a phone or the laptop to another site;
- `init_app`: the headers on every answer (a Content-Security-Policy with no inline script and
  no other origin, no framing, no MIME sniffing, no full URL in the Referer).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from flask import Blueprint, Flask, Response

#: browsers drop tabs and newlines anywhere in a URL and ignore leading spaces and controls
_DROPPED = re.compile(r"[\x00-\x1f\x7f]")

#: The pages load scripts, styles, images and fonts from the station only; live updates and
#: fetch() go to the station only; JSON data sits in <script type="application/json"> blocks,
#: which a CSP does not run. No page may be put in another site's frame.
CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def local_path(target: str | None, default: str = "/") -> str:
    """`target` if it is a path on this station, else `default`.

    The check is made on the URL as a browser would read it: tabs, newlines and other controls
    removed, backslashes read as slashes, percent-escapes decoded (until nothing changes). It
    must then start with one `/` (not `//` or `/\\`, which a browser takes for another host),
    and have no scheme or host. The answer is the target with the controls removed."""
    if not isinstance(target, str):
        return default
    cleaned = _DROPPED.sub("", target).strip()
    seen, decoded = None, cleaned
    while decoded != seen:
        seen, decoded = decoded, unquote(decoded)
    for form in (cleaned, _DROPPED.sub("", decoded)):
        as_browser = form.replace("\\", "/")
        if not as_browser.startswith("/") or as_browser.startswith("//"):
            return default
        parts = urlsplit(as_browser)
        if parts.scheme or parts.netloc:
            return default
    if "\\" in cleaned:
        return default
    return cleaned


def init_app(app: Flask) -> None:
    """The headers on every answer, and the core's own static files (at /web/static/: the
    error page's style sheet, since the CSP allows no style="" attribute)."""
    app.register_blueprint(
        Blueprint("web", __name__, static_folder="static", static_url_path="/web/static")
    )

    @app.after_request
    def _headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
