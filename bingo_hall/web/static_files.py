"""Static files a phone fetches once: versioned URLs, long cache headers, served on the event loop.

Every `url_for(<area>.static, filename=...)` carries `?v=<hash of the file>`, and an answer to a
URL with the file's current version says `Cache-Control: public, max-age=31536000, immutable`: a
phone that comes back, opens a second page or reconnects its stream asks for nothing. A new
version of a file is a new URL, so nothing stale is ever used. A URL without the version (or
with an old one) is answered with `no-cache` and an ETag, so it is checked (304) but never stale.

ES modules import each other by path (`import { el } from "/web/static/dom.js"`); the import paths
in a module are given their version as it is served, so the modules a page imports are cached
for good too (the module's own version covers its imports' versions).

`StaticFiles` answers from memory on the station's event loop (`bingo_hall.web.server` asks
`serves(scope)` before handing a request to Flask), so a thousand phones fetching the scripts
take no worker thread from the Maestro. Files are read once and again only when they change on
disk. Under any other server (Flask's test client) Flask's own static view serves them.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from flask import Flask, request
from werkzeug.wrappers import Response

from .security import HEADERS

#: how long a versioned file may be kept (a year: its URL changes when the file does)
FOREVER = "public, max-age=31536000, immutable"
#: an unversioned URL: the browser keeps it but checks it (ETag) before each use
CHECK = "no-cache"
EXTENSION_KEY = "bingo_hall.static_files"
#: seconds between two looks at a file on disk (an edited file is served within this time)
RECHECK_S = 2.0

#: `import ... from "x"`, `import "x"`, `export ... from "x"`, `import("x")` in a module
_IMPORT = re.compile(
    r"""(\b(?:import|export)\b[^"'`;()]*?\bfrom\s*|\bimport\s*\(?\s*)(["'])([^"']+\.m?js)\2"""
)


@dataclass(frozen=True)
class Entry:
    body: bytes
    version: str
    mimetype: str
    mtime_ns: int

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


class StaticFiles:
    """The app's static folders (the app's and every blueprint's), by URL prefix."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._prefixes: list[tuple[str, str]] | None = None
        self._entries: dict[str, Entry] = {}
        self._checked: dict[str, tuple[float, Entry | None]] = {}
        self._lock = threading.RLock()

    @classmethod
    def of(cls, app: Flask) -> StaticFiles:
        found = app.extensions.get(EXTENSION_KEY)
        if found is None:
            found = app.extensions[EXTENSION_KEY] = cls(app)
        return found

    def prefixes(self) -> list[tuple[str, str]]:
        """(URL prefix, folder) of every static route, read from the app's URL map once."""
        if self._prefixes is None:
            out = []
            for rule in self.app.url_map.iter_rules():
                if rule.endpoint != "static" and not rule.endpoint.endswith(".static"):
                    continue
                owner: Any = self.app
                if rule.endpoint != "static":
                    owner = self.app.blueprints.get(rule.endpoint.rsplit(".", 1)[0])
                folder = getattr(owner, "static_folder", None)
                if folder and rule.rule.endswith("<path:filename>"):
                    out.append((rule.rule[: -len("<path:filename>")], folder))
            self._prefixes = sorted(out, key=lambda p: -len(p[0]))
        return self._prefixes

    def _file(self, path: str) -> str | None:
        for prefix, folder in self.prefixes():
            if path.startswith(prefix):
                name = path[len(prefix) :]
                full = os.path.realpath(os.path.join(folder, name))
                root = os.path.realpath(folder)
                if name and full.startswith(root + os.sep) and os.path.isfile(full):
                    return full
                return None
        return None

    def entry(self, path: str, _seen: frozenset[str] = frozenset()) -> Entry | None:
        """The file at URL `path`, read (and its module imports versioned) when new or changed
        (looked at on disk at most every RECHECK_S: a page names a few files, a storm of pages
        then costs no system call)."""
        now = time.monotonic()
        known = self._checked.get(path)
        if known is not None and now - known[0] < RECHECK_S:
            return known[1]
        found = self._read(path, _seen)
        self._checked[path] = (now, found)
        return found

    def _read(self, path: str, _seen: frozenset[str]) -> Entry | None:
        full = self._file(path)
        if full is None:
            return None
        try:
            mtime = os.stat(full).st_mtime_ns
        except OSError:
            return None
        with self._lock:
            cached = self._entries.get(path)
            if cached is not None and cached.mtime_ns == mtime:
                return cached
            with open(full, "rb") as f:
                body = f.read()
            mimetype = mimetypes.guess_type(full)[0] or "application/octet-stream"
            if mimetype in ("text/javascript", "application/javascript"):
                mimetype = "text/javascript"
                body = self._versioned_imports(path, body, _seen | {path})
            if mimetype.startswith("text/"):
                mimetype += "; charset=utf-8"
            version = hashlib.sha256(body).hexdigest()[:12]
            made = self._entries[path] = Entry(body, version, mimetype, mtime)
            return made

    def _versioned_imports(self, path: str, body: bytes, seen: frozenset[str]) -> bytes:
        base = path.rsplit("/", 1)[0] + "/"

        def versioned(m: re.Match[str]) -> str:
            spec = m.group(3)
            if spec.startswith("/"):
                target = spec
            elif spec.startswith("./") or spec.startswith("../"):
                target = os.path.normpath(base + spec).replace(os.sep, "/")
            else:
                return m.group(0)
            found = None if target in seen else self.entry(target, seen)
            if found is None:
                return m.group(0)
            quote = m.group(2)
            return f"{m.group(1)}{quote}{target}?v={found.version}{quote}"

        return _IMPORT.sub(versioned, body.decode("utf-8")).encode("utf-8")

    def version(self, path: str) -> str | None:
        found = self.entry(path)
        return None if found is None else found.version

    # -- the event loop's side (bingo_hall.web.server)

    def serves(self, scope: dict[str, Any]) -> bool:
        """Whether this request is for a static file this object answers."""
        if scope.get("method") not in ("GET", "HEAD"):
            return False
        path = scope.get("path", "")
        return any(path.startswith(p) for p, _ in self.prefixes()) and self.entry(path) is not None

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        found = self.entry(scope["path"])
        if found is None:  # removed since serves(): Flask's 404 would be the same
            await _answer(send, 404, [(b"content-type", b"text/plain")], b"not found")
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        cache = FOREVER if query.get("v") == [found.version] else CHECK
        headers = [
            (b"cache-control", cache.encode()),
            (b"etag", found.etag.encode()),
            *((k.lower().encode(), v.encode()) for k, v in HEADERS.items()),
        ]
        given = dict(scope.get("headers", ())).get(b"if-none-match", b"")
        if found.etag.encode() in [t.strip() for t in given.split(b",")]:
            await _answer(send, 304, headers, b"")
            return
        headers.append((b"content-type", found.mimetype.encode()))
        headers.append((b"content-length", str(len(found.body)).encode()))
        body = b"" if scope["method"] == "HEAD" else found.body
        await _answer(send, 200, headers, body)


async def _answer(send: Callable, status: int, headers: list[tuple[bytes, bytes]], body: bytes):
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def init_app(app: Flask) -> None:
    """Versioned static URLs for every area (`url_for(..., filename=...)` gets `v`), and the same
    cache headers when Flask serves a static file itself."""
    files = StaticFiles.of(app)

    @app.url_defaults
    def _version(endpoint: str, values: dict[str, Any]) -> None:
        if (endpoint == "static" or endpoint.endswith(".static")) and "v" not in values:
            filename = values.get("filename")
            if filename:
                path = app.url_map.bind("").build(endpoint, {"filename": filename})
                version = files.version(path)
                if version:
                    values["v"] = version

    @app.after_request
    def _cache(response: Response) -> Response:
        endpoint = request.endpoint or ""
        if endpoint == "static" or endpoint.endswith(".static"):
            version = files.version(request.path)
            fresh = version is not None and request.args.get("v") == version
            response.headers["Cache-Control"] = FOREVER if fresh else CHECK
        return response
