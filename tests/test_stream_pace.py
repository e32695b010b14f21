"""One rule for a live stream's skips, heartbeats and end, whichever server writes it: the WSGI
iterator (`EventStream`) and the station's event loop both ask `StreamPace`."""

from __future__ import annotations

from bingo_hall.web.config import DEFAULT
from bingo_hall.web.hub import HEARTBEAT, EventHub, EventStream, StreamPace


def test_a_quiet_stream_owes_a_heartbeat_only_after_heartbeat_s():
    pace = StreamPace(100.0, heartbeat_s=15.0, max_seconds=None, skip=frozenset())
    assert not pace.heartbeat_due(114.9)
    assert pace.heartbeat_due(115.0)
    pace.sent(115.0)  # anything sent restarts the quiet time
    assert not pace.heartbeat_due(129.0)


def test_a_stream_ends_after_max_seconds_and_never_without_one():
    assert not StreamPace(10.0, 1.0, 300.0, frozenset()).over(309.9)
    assert StreamPace(10.0, 1.0, 300.0, frozenset()).over(310.0)
    assert not StreamPace(10.0, 1.0, None, frozenset()).over(10.0**9)


def test_a_phone_skips_the_room_events_and_takes_the_rest():
    pace = StreamPace(0.0, 1.0, None, frozenset({"verdict"}))
    assert not pace.takes("verdict") and pace.takes("call")


def test_the_wsgi_stream_skips_and_beats_by_the_same_rule():
    hub = EventHub(DEFAULT.stream_queue_size)
    sub = hub.subscribe("c")
    stream = EventStream(
        sub, "event: snapshot\ndata: {}\n\n", retry_ms=1, heartbeat_s=0.01, skip=frozenset({"x"})
    )
    body = iter(stream)
    assert next(body).startswith(b"retry: 1")
    hub.publish("c", "x", {})  # skipped: what comes next is a heartbeat, then the call
    assert next(body) == HEARTBEAT
    hub.publish("c", "call", {"ball": 7})
    assert next(body) == b'event: call\ndata: {"ball":7}\n\n'
    stream.close()
