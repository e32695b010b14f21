"""Issue 20, item 3: `?next=` on the language switch and on the caller login only ever leads to
a page of this station, however the target is disguised (tabs, backslashes, escapes)."""

from urllib.parse import quote

import pytest
from testkit import TEST_PIN

from bingo_hall.web.security import local_path

ELSEWHERE = [
    "/%09/evil.example/x",
    "/\t/evil.example/x",
    "/\n/evil.example",
    "//evil.example/x",
    "/\\evil.example",
    "\\/evil.example",
    "/%5Cevil.example",
    "/%2F%2Fevil.example",
    "/%252F/evil.example",
    " //evil.example",
    "https://evil.example/",
    "https:/evil.example",
    "javascript:alert(1)",
    "evil.example",
]
HERE = ["/display", "/t/?lang=es", "/caller/games/3", "/verify/7?x=a%2Fb"]


def _leaves_the_station(location: str) -> bool:
    """What a browser does with the Location: drop tabs/newlines, read \\ as /; a target that
    starts with one slash and is not followed by another stays on this host."""
    seen = location.replace("\t", "").replace("\n", "").replace("\r", "").strip()
    seen = seen.replace("\\", "/")
    return not seen.startswith("/") or seen.startswith("//")


@pytest.mark.parametrize("target", ELSEWHERE)
def test_local_path_refuses_any_other_site(target):
    assert local_path(target, "/home") == "/home"


@pytest.mark.parametrize("target", HERE)
def test_local_path_keeps_a_page_of_the_station(target):
    assert local_path(target) == target


@pytest.mark.parametrize("target", ELSEWHERE)
def test_language_switch_never_redirects_to_another_site(client, target):
    r = client.get("/lang/es?next=" + quote(target, safe="/%"))
    assert r.status_code == 302
    assert not _leaves_the_station(r.headers["Location"])
    assert "evil" not in r.headers["Location"]


def test_language_switch_goes_back_to_a_station_page(client):
    r = client.get("/lang/es?next=" + quote("/display?x=1"))
    assert r.status_code == 302 and r.headers["Location"] == "/display?x=1"


def test_language_switch_goes_back_to_the_referring_page_of_this_station(client):
    r = client.get("/lang/en", headers={"Referer": "http://localhost/t/?a=1"})
    assert r.headers["Location"] == "/t/?a=1"
    r = client.get("/lang/en", headers={"Referer": "http://evil.example/t/"})
    assert r.headers["Location"] == "/"


def _log_in(client, target: str):
    client.get("/caller/login")
    with client.session_transaction() as sess:
        token = sess["csrf"]
    return client.post(
        "/caller/login?next=" + quote(target, safe="/%"),
        data={"pin": TEST_PIN, "csrf_token": token},
    )


@pytest.mark.parametrize("target", ELSEWHERE)
def test_caller_login_never_redirects_to_another_site(client, target):
    r = _log_in(client, target)
    assert r.status_code == 302
    assert not _leaves_the_station(r.headers["Location"])
    assert "evil" not in r.headers["Location"]
    # and once logged in, the login page sends the Maestro on with the same check
    again = client.get("/caller/login?next=" + quote(target, safe="/%"))
    assert "evil" not in again.headers["Location"]


def test_caller_login_goes_on_to_the_page_asked_for(client):
    r = _log_in(client, "/caller/new")
    assert r.headers["Location"] == "/caller/new"
