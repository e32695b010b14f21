"""Issue 20, item 7: every answer carries the headers that keep the station's pages out of other
sites' frames and scripts (CSP, X-Frame-Options, nosniff, Referrer-Policy)."""

import pytest

from bingo_hall.app import create_app

PAGES = ["/", "/display", "/caller/login", "/t/", "/nope", "/api/games", "/static/station.css"]


def _policy(value: str) -> dict[str, list[str]]:
    out = {}
    for part in value.split(";"):
        name, *sources = part.split()
        out[name] = sources
    return out


@pytest.mark.parametrize("path", PAGES)
def test_every_answer_forbids_framing_sniffing_and_leaking_the_url(client, path):
    r = client.get(path)
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] in ("same-origin", "no-referrer", "strict-origin")
    csp = _policy(r.headers["Content-Security-Policy"])
    assert csp["frame-ancestors"] == ["'none'"]


def test_the_policy_allows_no_inline_code_and_no_other_origin(client):
    csp = _policy(client.get("/display").headers["Content-Security-Policy"])
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    for directive, sources in csp.items():
        assert "'unsafe-inline'" not in sources, directive
        assert "'unsafe-eval'" not in sources, directive
        # only this station: no host, scheme or wildcard source anywhere
        assert all(s.startswith("'") for s in sources), (directive, sources)


def test_the_companions_alone_send_the_headers_too(tmp_path):
    app = create_app(
        {"TESTING": True, "COMPANIONS_ONLY": True, "DATABASE": str(tmp_path / "c.sqlite")},
        instance_path=str(tmp_path),
    )
    r = app.test_client().get("/t/nope/view")
    assert r.status_code == 404
    assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
