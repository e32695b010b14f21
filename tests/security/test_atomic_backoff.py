"""Issue 29, item 6: every back-off takes its slot before the expensive check. A burst of wrong
Clue notebook PINs sent at the same moment (one per worker thread, each an scrypt check) gets
only the free tries through, not one per thread; a right PIN taken that way is forgiven."""

from __future__ import annotations

import threading

import pytest

from bingo_hall.app import create_app
from bingo_hall.web.limits import Backoff
from companions.web.pins import NOTEBOOK_PIN_RULE

PLAYERS = ["Ana", "Beto", "Caro"]


@pytest.fixture
def companions_app(tmp_path):
    config = {"TESTING": True, "COMPANIONS_ONLY": True, "SECRET_KEY": "test-secret"}
    config["DATABASE"] = str(tmp_path / "companions.sqlite")
    return create_app(config, instance_path=str(tmp_path))


def _notebook(client) -> str:
    r = client.post("/t/new/clue", json={"players": PLAYERS, "pin": "4821"})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["code"]


def test_a_burst_of_wrong_notebook_pins_gets_only_the_free_tries_through(companions_app):
    code = _notebook(companions_app.test_client())
    burst = NOTEBOOK_PIN_RULE.free + 7
    start = threading.Barrier(burst)
    statuses: list[int] = []

    def guess(i: int) -> None:
        client = companions_app.test_client()
        start.wait()
        r = client.post(f"/t/{code}/unlock", json={"pin": f"{i:04d}"})
        statuses.append(r.status_code)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(burst)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(statuses) == burst
    assert statuses.count(401) == NOTEBOOK_PIN_RULE.free  # checked: the free tries only
    assert statuses.count(429) == burst - NOTEBOOK_PIN_RULE.free


def test_the_right_pin_after_wrong_ones_is_forgiven_its_slot(companions_app):
    code = _notebook(companions_app.test_client())
    phone = companions_app.test_client()
    for pin in ("0000", "0001", "0002", "0003"):
        assert phone.post(f"/t/{code}/unlock", json={"pin": pin}).status_code == 401
    assert phone.post(f"/t/{code}/unlock", json={"pin": "4821"}).status_code == 200
    other = companions_app.test_client()  # the right PIN did not spend the last free try
    assert other.post(f"/t/{code}/unlock", json={"pin": "0004"}).status_code == 401


def test_forgiving_takes_back_the_wait_a_counted_try_set():
    budget = Backoff(NOTEBOOK_PIN_RULE)
    for _ in range(NOTEBOOK_PIN_RULE.free):
        budget.fail(0.0)
    assert budget.wait(0.0) > 0
    budget.forgive()
    assert budget.wait(0.0) == 0 and budget.failures == NOTEBOOK_PIN_RULE.free - 1
