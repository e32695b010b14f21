"""Issue 29: what a request must show before a worker gets it, and the connection budgets.
A body is read on the event loop within a size and a deadline (413, 408, with the security
headers); connections are counted per guest address and in total, the laptop's never refused."""

from __future__ import annotations

import socket

import pytest

from bingo_hall.web.admission import ConnectionBudget, guest_total
from bingo_hall.web.config import DEFAULT
from bingo_hall.web.instance import hall
from bingo_hall.web.security import CSP


def _exchange(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


def test_a_body_larger_than_the_limit_is_refused_before_it_is_read(live_server):
    limit = hall(live_server.app).config.max_content_length  # loopback is the Maestro's
    head = b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    head += b"Content-Length: %d\r\n\r\n" % (limit + 1)
    answer = _exchange(live_server.port, head + b"{")
    assert answer.startswith(b"HTTP/1.1 413 ") and CSP.encode() in answer


@pytest.mark.hall_config(MAESTRO_BODY_S=0.3)  # loopback is the Maestro's
def test_a_body_that_does_not_arrive_in_time_is_answered_408(live_server):
    head = b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    answer = _exchange(live_server.port, head + b"Content-Length: 20\r\n\r\n{")
    assert answer.startswith(b"HTTP/1.1 408 ") and CSP.encode() in answer


def test_a_whole_body_still_reaches_the_app(live_server):
    body = b'{"pin": "000000"}'
    head = b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    head += b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body)
    answer = _exchange(live_server.port, head + body)
    assert answer.startswith(b"HTTP/1.1 401 ") and b"wrong PIN" in answer


def test_one_address_gets_its_budget_and_no_more():
    budget = ConnectionBudget(total=1000, per_address=64)
    assert all(budget.admit("10.0.0.7") is None for _ in range(64))
    refusal = budget.admit("10.0.0.7")
    assert refusal is not None and "too many connections" in refusal.reason
    assert budget.admit("10.0.0.8") is None  # another address has its own
    budget.release("10.0.0.7")
    assert budget.admit("10.0.0.7") is None  # a closed connection gives its place back


def test_all_guests_together_stay_within_the_total_and_the_laptop_is_never_refused():
    budget = ConnectionBudget(total=3, per_address=64)
    assert [budget.admit(f"10.0.1.{i}") for i in range(3)] == [None] * 3
    refusal = budget.admit("10.0.1.9")
    assert refusal is not None and "to the station" in refusal.reason
    assert all(budget.admit("127.0.0.1") is None for _ in range(500))
    assert budget.admit("::1") is None and budget.guests == 3


def test_the_guests_total_keeps_room_for_the_laptop_below_the_open_files_limit():
    kept, per_address = DEFAULT.kept_for_laptop, DEFAULT.connections_per_address
    assert guest_total(8192, DEFAULT) == 8192 - kept
    assert guest_total(8192, DEFAULT) < 8192
    assert guest_total(100, DEFAULT) >= per_address  # a tiny limit still lets one guest in
    assert guest_total(0, DEFAULT) == DEFAULT.wanted_files - kept == 7168  # no limit (Windows)


def test_past_the_anonymous_share_a_guest_is_admitted_on_trial_into_the_room_kept_for_cards():
    from bingo_hall.web.admission import Trial

    budget = ConnectionBudget(total=10, per_address=64, kept_for_cards=3)
    assert [budget.admit(f"10.0.2.{i}") for i in range(7)] == [None] * 7  # anonymous: 10 - 3
    trials = [budget.admit(f"10.0.3.{i}") for i in range(3)]
    assert trials == [Trial(f"10.0.3.{i}") for i in range(3)]
    assert budget.admit("10.0.4.1").reason == "too many connections to the station"
    budget.release("10.0.3.0", kept_room=True)  # a trial that showed no card gives its place
    assert budget.admit("10.0.4.1") == Trial("10.0.4.1")
    budget.release("10.0.2.0")  # an anonymous place freed: the next guest is anonymous again
    assert budget.admit("10.0.4.2") is None
    assert budget.guests == 10 and budget.in_kept_room == 3
