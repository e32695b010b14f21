"""Static files a phone fetches once: versioned URLs, long cache headers, served on the event loop.

Every `url_for(<area>.static, filename=...)` carries `?v=<hash of the file>`, and an answer to a
URL with the file's current version says `Cache-Control: public, max-age=31536000, immutable`: a
phone that comes back, opens a second page or reconnects its stream asks for nothing. A new
version of a file is a new URL, so nothing stale is ever used. A URL without the version (or
with an old one) is answered with `no-cache` and an ETag, so it is checked (304) but never stale.

ES modules import each other by path (`import { el } from "/web/static/dom.js"`); the import paths
in a module are given their version as it is served, so the modules a page imports are cached
for good too (the module's own version covers its imports' versions). A text file is compressed
once, when it is read (`Entry.gzipped`), and a browser that accepts gzip gets those bytes. A
page's only script named in ONE_SCRIPT (the card page's, which a thousand phones load within
seconds) is served with the modules it imports inlined, made once at start-up (`bundled`): one
request instead of one per module; and the stylesheets it needs are joined into one at start-up
(ONE_STYLESHEET). A join is then the page, one script, one stylesheet and the card's stream.

`StaticFiles` answers from memory on the station's event loop (`HallApp` in dispatch.py asks
`serves(scope)` before handing a request to Flask), so a thousand phones fetching the scripts
take no worker thread from the Maestro. The files are a fixed set, read and hashed once: any
other path under a static prefix, an alias with `..` included, is a 404 from a dictionary
look-up, so nothing a guest sends reads the disk or grows memory. Under any other server (Flask's
test client) Flask's own static view serves the files on disk (a joined stylesheet is the
station's server's alone).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import mimetypes
import os
import posixpath
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from flask import Flask, request
from werkzeug.wrappers import Response

from .admission import Receive, Send
from .security import HEADERS

#: how long a versioned file may be kept (a year: its URL changes when the file does)
FOREVER = "public, max-age=31536000, immutable"
#: an unversioned URL: the browser keeps it but checks it (ETag) before each use
CHECK = "no-cache"
EXTENSION_KEY = "bingo_hall.static_files"
_SECURITY = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

#: the scripts served with the modules they import inlined (`bundled`): each is its page's only
#: script, so no module runs twice (two scripts of a page importing one module share it)
ONE_SCRIPT = frozenset({"/verify/static/card.js"})
#: stylesheets made at start-up by joining others, in order (a page that needs both then asks
#: for one): the card page's
ONE_STYLESHEET = {"/verify/static/card.css": ("/static/station.css", "/verify/static/verify.css")}

#: `import ... from "x"`, `import "x"`, `export ... from "x"`, `import("x")` in a module
_IMPORT = re.compile(
    r"""(\b(?:import|export)\b[^"'`;()]*?\bfrom\s*|\bimport\s*\(?\s*)(["'])([^"']+\.m?js)\2"""
)


@dataclass(frozen=True)
class Entry:
    body: bytes
    version: str
    mimetype: str
    gzipped: bytes | None = None  # the body compressed once (text files, when it is smaller)

    @property
    def etag(self) -> str:
        return f'"{self.version}"'

    @property
    def etags(self) -> tuple[bytes, bytes]:
        """The body's ETag and the compressed body's (a representation of its own)."""
        return self.etag.encode(), f'"{self.version}.gz"'.encode()

    @functools.cached_property
    def fresh_query(self) -> bytes:
        """The query string of the file's versioned URL (`?v=<version>`), as a phone asks it."""
        return b"v=" + self.version.encode()

    @functools.cached_property
    def heads(self) -> dict[str, list[tuple[bytes, bytes]]]:
        """The answer's headers by its Cache-Control (made once, not per request): a 304's,
        then a 200's (with the file's type and length)."""
        out = {}
        vary = [(b"vary", b"accept-encoding")] if self.gzipped is not None else []
        for cache in (FOREVER, CHECK):
            common = [(b"cache-control", cache.encode()), *vary, *_SECURITY]
            for tag, body, gz in (
                (self.etags[0], self.body, ""),
                (self.etags[1], self.gzipped, " gz"),
            ):
                if body is None:
                    continue
                out[cache + gz] = [*common, (b"etag", tag)]
                out[cache + gz + " 200"] = [
                    *out[cache + gz],
                    (b"content-type", self.mimetype.encode()),
                    *([(b"content-encoding", b"gzip")] if gz else []),
                    (b"content-length", str(len(body)).encode()),
                ]
        return out


class StaticFiles:
    """The app's static folders (the app's and every blueprint's), by URL prefix: a fixed set
    of files, read and hashed once, on first use (the server asks for it at start-up), and
    answered from memory ever after. Nothing a request says adds to it: a path that is not
    exactly one of these files (`/static/x/../vendor/jsQR.js`, `/static/nothing`) is refused
    with a 404 by a dictionary look-up, so a guest's random paths cost neither memory nor a
    read of the disk. A file edited on disk is served once the station starts again."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._prefixes: list[tuple[str, str]] | None = None
        self._starts: tuple[str, ...] | None = None  # the URL prefixes alone (`serves`)
        self._entries: dict[str, Entry] | None = None
        self._lock = threading.Lock()

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

    def entries(self) -> dict[str, Entry]:
        """Every static file by its URL path, read once."""
        if self._entries is None:
            with self._lock:
                if self._entries is None:
                    self._entries = self._load()
        return self._entries

    def _load(self) -> dict[str, Entry]:
        files: dict[str, str] = {}
        for prefix, folder in reversed(self.prefixes()):  # a longer prefix wins
            root = os.path.realpath(folder)
            for here, _dirs, names in os.walk(root):
                for name in names:
                    full = os.path.join(here, name)
                    rel = os.path.relpath(full, root).replace(os.sep, "/")
                    files[prefix + rel] = full
        made: dict[str, Entry] = {}
        for path in sorted(files):
            self._read(path, files, made, frozenset())
        for path, parts in ONE_STYLESHEET.items():
            found = [made[part].body for part in parts if part in made]
            if len(found) == len(parts):
                made[path] = _entry(b"\n".join(found), "text/css")
        return made

    def _read(
        self, path: str, files: dict[str, str], made: dict[str, Entry], seen: frozenset[str]
    ) -> Entry | None:
        if path in made:
            return made[path]
        full = files.get(path)
        if full is None:
            return None
        with open(full, "rb") as f:
            body = f.read()
        mimetype = mimetypes.guess_type(full)[0] or "application/octet-stream"
        if mimetype in ("text/javascript", "application/javascript"):
            mimetype = "text/javascript"
            if path in ONE_SCRIPT:
                body = bundled(path, files) or body
            body = _versioned_imports(
                path, body, lambda target: self._read(target, files, made, seen | {path}), seen
            )
        made[path] = _entry(body, mimetype)
        return made[path]

    def entry(self, path: str) -> Entry | None:
        """The file at URL `path` exactly, or None."""
        return self.entries().get(path)

    def version(self, path: str) -> str | None:
        found = self.entry(path)
        return None if found is None else found.version

    # -- the event loop's side (bingo_hall.web.server)

    def serves(self, scope: dict[str, Any]) -> bool:
        """Whether this request is this object's to answer: a GET or HEAD under a static
        prefix (a known file, or a 404 for any other path there)."""
        if scope.get("method") not in ("GET", "HEAD"):
            return False
        if self._starts is None:
            self._starts = tuple(p for p, _ in self.prefixes())
        path: str = scope.get("path", "")
        return path.startswith(self._starts)

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        status, headers, body = self.answer(scope)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def answer(self, scope: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The answer to a request this object `serves`: its status, headers and body."""
        found = self.entry(scope["path"])
        if found is None:  # not one of the files: never looked for on disk
            body = b"not found\nno encontrado\n"
            headers = [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *_SECURITY,
            ]
            return 404, headers, body
        raw = scope.get("query_string", b"")
        fresh = raw == found.fresh_query  # the URL a page names: no parsing
        if not fresh and raw:
            fresh = parse_qs(raw.decode("latin-1")).get("v") == [found.version]
        cache = FOREVER if fresh else CHECK
        given = accepts = b""
        for name, value in scope.get("headers", ()):
            if name == b"if-none-match":
                given = value  # the last one, as a dict of the headers would keep
            elif name == b"accept-encoding":
                accepts = value
        body = found.body
        if found.gzipped is not None and b"gzip" in accepts.lower():
            cache, body = cache + " gz", found.gzipped
        tag = found.etags[1] if cache.endswith(" gz") else found.etags[0]
        if given and tag in [t.strip() for t in given.split(b",")]:
            return 304, list(found.heads[cache]), b""
        body = b"" if scope["method"] == "HEAD" else body
        return 200, list(found.heads[cache + " 200"]), body


#: a whole import statement of a module: `import { a, b as c } from "x";`, `import * as n from
#: "x";` or `import "x";`, on lines of its own
_IMPORT_LINE = re.compile(
    r"""^[ \t]*import\s*(?:\{([^}]*)\}\s*from\s*|\*\s*as\s+(\w+)\s+from\s*)?"""
    r"""(["'])([^"']+)\3[ \t]*;?[ \t]*$""",
    re.M,
)
_EXPORT_DECL = re.compile(r"^export\s+(?=(?:async\s+)?function\b|const\b|class\b)", re.M)
_EXPORT_NAME = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|class)\s+([\w$]+)", re.M)


def _entry(body: bytes, mimetype: str) -> Entry:
    """A file as served: its version, and a text file compressed once when that is smaller."""
    gzipped = None
    if mimetype.startswith("text/"):
        mimetype += "; charset=utf-8"
        small = gzip.compress(body, 9, mtime=0)
        gzipped = small if len(small) < len(body) else None
    return Entry(body, hashlib.sha256(body).hexdigest()[:12], mimetype, gzipped)


def bundled(entry: str, files: dict[str, str]) -> bytes | None:
    """The module at URL `entry` with every module it imports (by a path under a static prefix,
    in `files`: URL path -> file) inlined, each once, in the order they run: each imported
    module becomes a function's scope returning its exports, and each import statement a
    `const` of the names it takes. None (the module is served as it is) for what this does not
    follow: a module that exports a `let` or a default, re-exports, or imports dynamically."""
    order: list[str] = []
    texts: dict[str, str] = {}

    def visit(path: str, seen: tuple[str, ...]) -> bool:
        if path in texts:
            return True
        full = files.get(path)
        if full is None or path in seen:
            return False
        with open(full, encoding="utf-8") as f:
            text = f.read()
        if re.search(r"^export\s+(?:default|let|var|\*|\{)|\bimport\s*\(", text, re.M):
            return False
        texts[path] = text
        for m in _IMPORT_LINE.finditer(text):
            if not visit(_target(path, m.group(4)), (*seen, path)):
                return False
        order.append(path)
        return True

    if not visit(entry, ()):
        return None
    names = {path: f"__module{i}" for i, path in enumerate(order)}

    def imports_as_consts(path: str, text: str) -> str:
        def const(m: re.Match[str]) -> str:
            module = names[_target(path, m.group(4))]
            if m.group(2):
                return f"const {m.group(2)} = {module};"
            if m.group(1) is None:
                return ""  # imported for what it does: it ran already, in order
            taken = [p.strip().replace(" as ", ": ") for p in m.group(1).split(",") if p.strip()]
            return f"const {{ {', '.join(taken)} }} = {module};"

        return _IMPORT_LINE.sub(const, text)

    out = [f"// {entry} with the modules it imports, inlined by the station (static_files.py)"]
    for path in order[:-1]:
        text = imports_as_consts(path, texts[path])
        exported = _EXPORT_NAME.findall(text)
        body = _EXPORT_DECL.sub("", text)
        out.append(f"// {path}\nconst {names[path]} = (() => {{\n{body}\n")
        out.append(f"return Object.freeze({{ {', '.join(exported)} }});\n}})();")
    out.append(imports_as_consts(entry, texts[entry]))
    return "\n".join(out).encode("utf-8")


def _target(path: str, spec: str) -> str:
    """The URL path an import names from the module at `path` (a versioned one without its
    query)."""
    spec = spec.split("?", 1)[0]
    if spec.startswith("./") or spec.startswith("../"):
        return posixpath.normpath(path.rsplit("/", 1)[0] + "/" + spec)
    return spec


def _versioned_imports(
    path: str, body: bytes, find: Callable[[str], Entry | None], seen: frozenset[str]
) -> bytes:
    """A module's import paths with their versions (`find` gives the imported file's entry)."""
    base = path.rsplit("/", 1)[0] + "/"

    def versioned(m: re.Match[str]) -> str:
        spec = m.group(3)
        if spec.startswith("/"):
            target = spec
        elif spec.startswith("./") or spec.startswith("../"):
            target = posixpath.normpath(base + spec)
        else:
            return m.group(0)
        found = None if target in seen or target == path else find(target)
        if found is None:
            return m.group(0)
        quote = m.group(2)
        return f"{m.group(1)}{quote}{target}?v={found.version}{quote}"

    return _IMPORT.sub(versioned, body.decode("utf-8")).encode("utf-8")


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
