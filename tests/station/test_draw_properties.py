"""Whatever the Maestro does (draws, undos, repeated requests), the live calls of an auto round
are always the first balls of the committed order, with no ball twice and seq always growing."""

import hashlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import order_from_document

ACTIONS = st.lists(st.sampled_from(["draw", "undo", "stale-draw", "retry"]), max_size=25)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS)
@pytest.mark.slow
@pytest.mark.cpu
def test_live_calls_are_always_a_prefix_of_the_committed_order(client, actions, caller):
    h = caller.auth
    gid = caller.new_game()
    commitment = client.get(f"/api/games/{gid}").get_json()["commitment"]
    seqs = []
    for i, action in enumerate(actions):
        snap = client.get(f"/api/games/{gid}").get_json()
        if action == "draw":
            r = client.post(
                f"/api/games/{gid}/draw", json={"expect_seq": snap["last_seq"]}, headers=h
            )
            assert r.status_code == 200
            seqs.append(r.get_json()["seq"])
        elif action == "stale-draw":  # a second tab that did not see the last call
            stale = snap["last_seq"] - 1
            r = client.post(f"/api/games/{gid}/draw", json={"expect_seq": stale}, headers=h)
            assert r.status_code == 409
        elif action == "retry":  # the same key twice: one ball
            key = {**h, "Idempotency-Key": f"k{i}"}
            a = client.post(f"/api/games/{gid}/draw", headers=key).get_json()
            b = client.post(f"/api/games/{gid}/draw", headers=key).get_json()
            assert a == b
            seqs.append(a["seq"])
        else:
            r = client.post(f"/api/games/{gid}/undo", json={"reason": "test"}, headers=h)
            assert r.status_code == (200 if snap["calls"] else 409)
    assert seqs == sorted(set(seqs))
    live = [c["ball"] for c in client.get(f"/api/games/{gid}").get_json()["calls"]]
    seed = bytes.fromhex(client.post(f"/api/games/{gid}/end", headers=h).get_json()["seed"])
    assert hashlib.sha256(seed).hexdigest() == commitment
    assert live == order_from_document(seed)[: len(live)]
