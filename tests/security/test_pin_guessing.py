"""Issue 20, item 1: guessing the caller PIN is infeasible even from changing addresses, while
the Maestro is never locked out: one station-wide budget of wrong PINs with exponential
back-off; the laptop (loopback) never waits; a Maestro already logged in is not affected; the
console shows every attempt."""

import logging

from testkit import TEST_PIN

from bingo_hall.machine.netaddr import lan_address
from bingo_hall.station.auth import PIN_RULE
from bingo_hall.web.limits import Backoff

WRONG = "000000"


def _from(address: str) -> dict:
    return {"REMOTE_ADDR": address}


def test_the_budget_doubles_the_wait_after_five_wrong_pins_up_to_a_minute():
    budget, now, waits = Backoff(PIN_RULE), 0.0, []
    for _ in range(13):
        now += budget.wait(now)
        waits.append(budget.fail(now))
    # by hand: five wrong PINs, then 1, 2, 4 ... seconds, never more than a minute
    assert waits == [0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 60, 60, 60]


def test_a_quiet_quarter_of_an_hour_forgets_the_streak():
    budget = Backoff(PIN_RULE)
    for _ in range(8):
        budget.fail(0.0)
    assert budget.wait(1.0) > 0
    assert budget.wait(PIN_RULE.forget_s + 1.0) == 0 and budget.failures == 0


def test_a_guesser_gets_about_one_guess_a_minute_so_a_six_digit_pin_takes_months():
    guesses = PIN_RULE.tries_per_day()
    assert 24 * 60 <= guesses <= 24 * 60 + 10  # one a minute once the waits reach the cap
    days_for_half_the_pins = (10**6 / 2) / guesses
    assert days_for_half_the_pins > 300  # docs/station.md says "about a year"


def test_guesses_from_ever_new_addresses_share_one_budget(client):
    for i in range(5):
        r = client.post("/api/login", json={"pin": WRONG}, environ_base=_from(f"10.0.0.{i}"))
        assert r.status_code == 401
    r = client.post("/api/login", json={"pin": WRONG}, environ_base=_from("10.0.7.7"))
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    # the right PIN from a machine on the Wi-Fi waits too: nothing is checked while locked
    r = client.post("/api/login", json={"pin": TEST_PIN}, environ_base=_from("10.0.8.8"))
    assert r.status_code == 429


def test_the_laptop_is_never_locked_out_and_its_typos_do_not_count(client):
    for i in range(20):
        client.post("/api/login", json={"pin": WRONG}, environ_base=_from(f"10.1.0.{i}"))
    for _ in range(10):  # the Maestro mistyping at the laptop
        assert client.post("/api/login", json={"pin": WRONG}).status_code == 401
    assert client.post("/api/login", json={"pin": TEST_PIN}).status_code == 200
    r = client.post(
        "/api/login", json={"pin": TEST_PIN}, environ_base=_from("::1")
    )  # IPv6 loopback
    assert r.status_code == 200


def test_the_laptop_by_its_own_network_address_is_never_locked_out(client):
    own = lan_address()
    assert own, "this test needs the machine to have a network address"
    for i in range(20):
        client.post("/api/login", json={"pin": WRONG}, environ_base=_from(f"10.1.1.{i}"))
    r = client.post("/api/login", json={"pin": TEST_PIN}, environ_base=_from(own))
    assert r.status_code == 200


def test_the_laptop_alone_never_spends_the_budget(client):
    for _ in range(10):
        assert client.post("/api/login", json={"pin": WRONG}).status_code == 401
    r = client.post("/api/login", json={"pin": TEST_PIN}, environ_base=_from("10.2.0.1"))
    assert r.status_code == 200


def test_a_maestro_already_logged_in_keeps_calling_during_a_guessing_attack(client, caller):
    gid = caller.new_game(draw="manual")
    for i in range(12):
        client.post("/api/login", json={"pin": WRONG}, environ_base=_from(f"10.3.0.{i}"))
    tablet = _from("192.168.1.77")
    assert client.post("/api/login", json={"pin": TEST_PIN}, environ_base=tablet).status_code == 429
    r = client.post(f"/api/games/{gid}/calls", json={"ball": 7}, headers=caller.auth)
    assert r.status_code == 201
    r = client.post(
        f"/api/games/{gid}/calls", json={"ball": 8}, headers=caller.auth, environ_base=tablet
    )
    assert r.status_code == 201


def test_the_caller_page_login_shares_the_budget_and_says_how_long_to_wait(client):
    for i in range(5):
        client.post("/api/login", json={"pin": WRONG}, environ_base=_from(f"10.4.0.{i}"))
    phone = client.application.test_client()
    phone.get("/caller/login?lang=en", environ_base=_from("10.4.1.1"))
    with phone.session_transaction() as sess:
        token = sess["csrf"]
    r = phone.post(
        "/caller/login?lang=en",
        data={"pin": TEST_PIN, "csrf_token": token},
        environ_base=_from("10.4.1.1"),
    )
    assert r.status_code == 429 and "Try again in" in r.get_data(as_text=True)


def test_the_console_shows_each_attempt_as_it_happens(client, caplog):
    caplog.set_level(logging.INFO, logger="bingo_hall.logins")
    client.post("/api/login", json={"pin": WRONG}, environ_base=_from("10.5.0.1"))
    assert "wrong PIN from 10.5.0.1" in caplog.text
    for i in range(5):
        client.post("/api/login", json={"pin": WRONG}, environ_base=_from(f"10.5.1.{i}"))
    client.post("/api/login", json={"pin": TEST_PIN}, environ_base=_from("10.5.2.2"))
    assert "PIN try from 10.5.2.2 refused" in caplog.text
    client.post("/api/login", json={"pin": TEST_PIN})
    assert "PIN accepted from 127.0.0.1" in caplog.text
    lines = [r.getMessage() for r in caplog.records if r.name == "bingo_hall.logins"]
    assert len(lines) == 8  # one line per attempt, in order
    assert lines[0].startswith("wrong PIN from 10.5.0.1") and lines[-1].startswith("PIN accepted")
