"""Static files a phone fetches once (issue 24): every page names them with a versioned URL, a
versioned URL may be kept for good, an old or bare one is checked (ETag, 304), an ES module's
imports are versioned too, and the files are answered by the event loop even while every worker
thread is busy."""

from __future__ import annotations

import gzip
import re
import threading
import urllib.error
import urllib.request

from testkit import Caller

from bingo_hall.signing import card_path
from bingo_hall.web.instance import hall


def _get(url: str, headers: dict[str, str] | None = None):
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers=headers or {}), timeout=20
        ) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def _page_assets(client, live_server) -> list[str]:
    hall = Caller(client)
    hall.new_game()
    html = _get(live_server.url + card_path(hall.deck.secret, hall.deck.deck_id, 2))[2].decode()
    return [
        u.replace("&amp;", "&") for u in re.findall(r'(?:src|href)="(/[^"]*static[^"]*)"', html)
    ]


def test_a_page_names_its_files_with_versions_that_may_be_kept_for_good(client, live_server):
    assets = _page_assets(client, live_server)
    assert any(a.startswith("/verify/static/card.js?v=") for a in assets), assets
    for asset in assets:
        status, headers, _ = _get(live_server.url + asset)
        assert status == 200, asset
        assert "immutable" in headers["Cache-Control"], (asset, headers["Cache-Control"])
        assert headers["Content-Security-Policy"]  # the same headers as every answer


def test_a_bare_or_old_url_is_checked_and_a_known_copy_costs_a_304(live_server):
    url = live_server.url + "/web/static/live.js"
    status, headers, body = _get(url)
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    assert b"export function follow" in body
    again = _get(url, {"If-None-Match": headers["ETag"]})
    assert again[0] == 304 and again[2] == b""
    old = _get(url + "?v=000000000000")[1]
    assert old["Cache-Control"] == "no-cache"


def test_a_modules_imports_carry_their_versions(client, live_server):
    card_js = next(a for a in _page_assets(client, live_server) if "card.js" in a)
    body = _get(live_server.url + card_js)[2].decode()
    imports = re.findall(r'from "([^"]+)"', body)
    assert imports and all("?v=" in i for i in imports), imports
    for i in imports:
        assert "immutable" in _get(live_server.url + i)[1]["Cache-Control"]


def test_no_file_outside_a_static_folder_is_served(live_server):
    for path in ("/web/static/../security.py", "/web/static/%2e%2e/security.py", "/web/static/"):
        assert _get(live_server.url + path)[0] == 404, path


def test_static_files_are_answered_while_every_worker_is_busy(app, serve):
    release, busy = threading.Event(), threading.Semaphore(0)

    def hold():
        busy.release()
        release.wait(120)
        return "done"

    app.add_url_rule("/test-hold", "test_hold", hold)
    server = serve(app)
    try:
        # a request from this machine is the laptop's: it is read by the Maestro's workers
        holders = [
            threading.Thread(target=_get, args=(server.url + "/test-hold",))
            for _ in range(hall(app).config.maestro_threads)
        ]
        for t in holders:
            t.start()
        for _ in holders:
            assert busy.acquire(timeout=60)  # every read worker is now held
        status, _, body = _get(server.url + "/web/static/dom.js")
        assert status == 200 and b"export function el" in body
    finally:
        release.set()


def test_the_card_pages_one_script_comes_with_the_modules_it_imports_inlined(client, live_server):
    """A join is fewer requests: the card page's script is served with dom.js, live.js,
    card_access.js and judge.js inside it (static_files.ONE_SCRIPT), so a phone asks for one
    script, and it still names the module's own functions and its imports' (the browser tests
    run it)."""
    scripts = [a for a in _page_assets(client, live_server) if ".js" in a]
    assert len(scripts) == 1 and scripts[0].startswith("/verify/static/card.js?v="), scripts
    status, headers, body = _get(live_server.url + scripts[0])
    text = body.decode()
    assert status == 200 and "immutable" in headers["Cache-Control"]
    assert not re.search(r"^\s*import\b", text, re.M), "an import left for the phone to ask"
    for defined in ("function el(", "function follow(", "function access(", "function judgeCard("):
        assert text.count(defined) == 1, defined  # each module inlined once


def test_a_browser_that_accepts_gzip_gets_the_file_compressed_once_at_start_up(client, live_server):
    script = next(a for a in _page_assets(client, live_server) if ".js" in a)
    url = live_server.url + script
    status, plain_headers, plain = _get(url)
    status_gz, headers, body = _get(url, {"Accept-Encoding": "gzip, deflate"})
    assert status == status_gz == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == plain and len(body) < len(plain) / 2
    assert headers["Vary"] == plain_headers["Vary"] == "accept-encoding"  # caches keep both
    assert "Content-Encoding" not in plain_headers  # a client that did not ask gets it plain
    again = {"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]}
    assert headers["ETag"] != plain_headers["ETag"] and _get(url, again)[0] == 304
