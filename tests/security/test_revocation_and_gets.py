"""Issue 29, items 9 and 10: a logout and a PIN change end every login (sessions and API tokens
carry a generation), and a GET changes nothing: showing a checked card to the room is a POST with
the CSRF token, so a link (even a cross-site redirect carrying the Maestro's cookie) cannot put a
verdict on the big screen."""

from testkit import TEST_PIN, Caller, page_login, restart_with_pin

from bingo_hall.station.games import channel
from bingo_hall.web.instance import hall as hall_state


def _verdicts(sub) -> list:
    out = []
    while (event := sub.get(timeout=0)) is not None:
        if event.name == "verdict":
            out.append(event.data)
    return out


def test_a_get_of_a_check_with_the_maestros_cookie_shows_nothing_to_the_room(app, caller):
    gid = caller.new_game()
    browser = app.test_client()
    csrf = page_login(browser)
    sub = hall_state(app).hub.subscribe(channel(gid))
    for query in ("", "?format=html", "?quiet=0"):  # what a link or a redirect could ask
        assert browser.get(f"/api/games/{gid}/check/7{query}").status_code == 200
    assert _verdicts(sub) == []
    refused = browser.post(f"/api/games/{gid}/check/7")  # no CSRF token: another site's form
    assert refused.status_code == 403 and _verdicts(sub) == []
    shown = browser.post(f"/api/games/{gid}/check/7", headers={"X-CSRF-Token": csrf})
    assert shown.status_code == 200
    [verdict] = _verdicts(sub)
    assert verdict["serial"] == 7 and verdict["source"] == "check"


def test_a_session_cookie_taken_before_logout_no_longer_draws(app, caller):
    gid = caller.new_game()
    browser = app.test_client()
    csrf = page_login(browser)
    stolen = browser.get_cookie("session").value
    headers = {"X-CSRF-Token": csrf}
    assert browser.post(f"/api/games/{gid}/draw", headers=headers).status_code == 200
    assert browser.post("/caller/logout", data={"csrf_token": csrf}).status_code == 302
    thief = app.test_client()
    thief.set_cookie("session", stolen)
    assert thief.post(f"/api/games/{gid}/draw", headers=headers).status_code == 401
    # and every API token of that generation ended too
    assert caller.post(f"/api/games/{gid}/draw").status_code == 401


def test_a_token_is_ended_by_the_api_logout(app, client):
    maestro = Caller(client)
    gid = maestro.new_game()
    assert maestro.post("/api/logout").status_code == 200
    assert maestro.post(f"/api/games/{gid}/draw").status_code == 401
    again = Caller(client)  # the PIN still logs in
    assert again.post(f"/api/games/{gid}/draw").status_code == 200


def test_a_pin_changed_and_changed_back_does_not_bring_old_logins_back(app, client):
    maestro = Caller(client)
    gid = maestro.new_game()
    old_token = dict(maestro.auth)
    restart_with_pin(app, "975310")
    assert client.post(f"/api/games/{gid}/draw", headers=old_token).status_code == 401
    restart_with_pin(app, TEST_PIN)  # back to the first PIN
    assert client.post(f"/api/games/{gid}/draw", headers=old_token).status_code == 401
    assert Caller(client).post(f"/api/games/{gid}/draw").status_code == 200


def test_a_restart_keeps_the_generation(tmp_path):
    """Logins ended before a restart stay ended after it (the generation is in SQLite)."""
    from bingo_hall.app import create_app

    config = {"TESTING": True, "DATABASE": str(tmp_path / "h.sqlite"), "SECRET_KEY": "k"}
    first = create_app({**config, "CALLER_PIN": TEST_PIN}, instance_path=str(tmp_path))
    maestro = Caller(first.test_client())
    gid = maestro.new_game()
    old_token = dict(maestro.auth)
    assert maestro.post("/api/logout").status_code == 200
    second = create_app({**config, "CALLER_PIN": TEST_PIN}, instance_path=str(tmp_path))
    r = second.test_client().post(f"/api/games/{gid}/draw", headers=old_token)
    assert r.status_code == 401
