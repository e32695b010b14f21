"""Issue 20, item 2: table codes cannot be found by guessing. Codes are 8 letters from the
unambiguous alphabet (typed as "ABCD-EF23"), and unknown codes are slowed down per address and
over the whole station, while phones already at a table and the laptop are never held up."""

import re
import sqlite3

import pytest

from companions.web.codes import CODE_ALPHABET, CODE_LENGTH

UNAMBIGUOUS = set("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")  # no 0/O, no 1/I


def _from(address: str) -> dict:
    return {"REMOTE_ADDR": address}


@pytest.fixture
def table(app):
    """A Burako table made by the laptop; its code."""
    r = app.test_client().post("/t/new/burako", json={"teams": [["Ana"], ["Caro"]]})
    assert r.status_code == 201
    return r.get_json()["code"]


def _phone(app, address):
    """A phone that never opened a table (no cookies) at `address`."""
    c = app.test_client()
    return lambda path: c.get(path, environ_base=_from(address))


def test_new_codes_are_eight_unambiguous_letters_shown_in_two_groups(app, table):
    assert len(table) == 8 and set(table) <= UNAMBIGUOUS
    page = app.test_client().get(f"/t/{table}").get_data(as_text=True)
    assert f"{table[:4]}-{table[4:]}" in page


def test_guessing_is_hopeless_even_at_the_unlimited_rate_of_the_attack_sweep():
    per_minute, tables = 20_669, 50  # the sweep's rate; a very busy hall
    minutes_to_find_one = len(CODE_ALPHABET) ** CODE_LENGTH / tables / 2 / per_minute
    assert minutes_to_find_one / (60 * 24 * 365) > 1  # more than a year, before any limit


def test_a_code_typed_with_a_dash_spaces_or_lower_case_joins(app, table):
    typed = f" {table[:4].lower()}-{table[4:]} "
    r = _phone(app, "192.168.1.20")(f"/t/join?code={typed}")
    assert r.status_code == 302 and r.headers["Location"].startswith(f"/t/{table}")


def test_a_table_made_with_an_old_five_letter_code_still_opens(app, table):
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute("UPDATE companion_tables SET code = 'ABC23' WHERE code = ?", (table,))
    phone = _phone(app, "192.168.1.21")
    assert phone("/t/join?code=abc23").status_code == 302
    r = phone("/t/ABC23")
    assert r.status_code == 200 and "ABC23" in r.get_data(as_text=True)


def test_unknown_codes_from_one_address_are_slowed_down(app, table):
    guesser = _phone(app, "10.9.0.1")
    for i in range(10):
        assert guesser(f"/t/join?code=ZZZZZZ{i + 2}").status_code == 404
    r = guesser("/t/join?code=ZZZZZZZZ")
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert guesser(f"/t/{table}/view").status_code == 429  # a right guess is not even looked at
    assert _phone(app, "10.9.0.2")(f"/t/{table}/view").status_code == 200


def test_unknown_codes_from_many_addresses_share_one_budget(app, table):
    at_the_table = app.test_client()  # a phone that opened the table before the attack
    assert at_the_table.get(f"/t/{table}", environ_base=_from("192.168.1.30")).status_code == 200
    for i in range(100):
        assert _phone(app, f"10.8.{i // 200}.{i % 200}")("/t/QQQQQQQQ/view").status_code == 404
    assert _phone(app, "10.8.9.9")("/t/QQQQQQQQ/view").status_code == 429
    assert _phone(app, "10.8.9.10")(f"/t/{table}/view").status_code == 429
    # players at their tables keep scoring, and the laptop always opens its tables
    r = at_the_table.get(f"/t/{table}/view", environ_base=_from("192.168.1.30"))
    assert r.status_code == 200
    assert app.test_client().get(f"/t/{table}/view").status_code == 200


def test_the_join_form_says_how_long_to_wait_in_spanish(app):
    guesser = _phone(app, "10.7.0.1")
    for i in range(10):
        guesser(f"/t/join?code=YYYYYYY{i + 2}&lang=es")
    r = guesser("/t/join?code=YYYYYYYY&lang=es")
    assert r.status_code == 429
    text = r.get_data(as_text=True)
    assert re.search(r"Demasiados códigos de mesa equivocados\. Vuelve a intentarlo en \d+ s", text)
