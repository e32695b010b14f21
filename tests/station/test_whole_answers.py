"""A change (POST and the like) runs in the Flask app in a worker with one hand-over each way
(web/whole.py, issue 32): the worker gets the body the loop read, whole, and gives back the whole
answer, which the loop writes as one head and one body. Checked with plain WSGI apps on a real
event loop, and through the real server with a real socket."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
import requests
from testkit import TEST_PIN, Caller, eventually

from bingo_hall.manifest import new_deck
from bingo_hall.web.whole import WholeAnswers


def _scope(method: str = "POST", body: bytes = b"") -> dict:
    return {
        "type": "http",
        "method": method,
        "path": "/echo",
        "query_string": b"a=1",
        "http_version": "1.1",
        "headers": [(b"content-length", str(len(body)).encode())],
        "client": ("10.0.0.7", 5000),
        "server": ("127.0.0.1", 80),
    }


def _served(
    app, body: bytes, here: threading.RLock | None = None, name: str = "change"
) -> tuple[list[dict], list[str], str]:
    """The messages the answer sends, the names of the threads the app ran in, and the name of
    the event loop's own thread. `here`: the write lock, for a Maestro's call (`on_loop`)."""
    sent: list[dict] = []
    threads: list[str] = []

    def traced(environ, start_response):
        threads.append(threading.current_thread().name)
        return app(environ, start_response)

    async def receive() -> dict:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    failed: list[BaseException] = []

    def serve() -> None:  # a loop of its own (a browser test's may be running in this thread)
        try:
            answers = WholeAnswers(traced, 1, name)
            asyncio.run(answers(_scope(body=body), receive, send, here=here))
        except BaseException as error:  # noqa: BLE001  (given to the test's thread)
            failed.append(error)

    loop_thread = threading.Thread(target=serve, name="the-loop")
    loop_thread.start()
    loop_thread.join(30)
    if failed:
        raise failed[0]
    return sent, threads, loop_thread.name


def _run(app, body: bytes) -> tuple[list[dict], list[str]]:
    """A guest's change: the messages the answer sends, and the threads the app ran in."""
    sent, threads, _ = _served(app, body)
    return sent, threads


def test_the_worker_gets_the_whole_body_and_the_answer_is_one_head_and_one_body():
    def echo(environ, start_response):
        got = environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))
        start_response("201 CREATED", [("Content-Type", "application/json")])
        said = {"got": got.decode(), "query": environ["QUERY_STRING"]}
        return [b'{"part": 1, ', json.dumps(said).encode()[1:]]  # an answer in two parts

    sent, threads = _run(echo, b'{"balls": 75}')
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 201
    assert (b"content-type", b"application/json") in sent[0]["headers"]
    assert json.loads(sent[1]["body"]) == {"part": 1, "got": '{"balls": 75}', "query": "a=1"}
    assert not sent[1].get("more_body", False)
    assert threads[0].startswith("change") and threads[0] != threading.main_thread().name


def test_the_answers_iterable_is_closed_as_wsgi_asks():
    closed = []

    class Parts(list):
        def close(self) -> None:
            closed.append(True)

    def app(environ, start_response):
        start_response("200 OK", [])
        return Parts([b"a", b"b"])

    sent, _ = _run(app, b"")
    assert sent[1]["body"] == b"ab" and closed == [True]


def test_an_app_that_fails_fails_the_request_instead_of_answering_half():
    def broken(environ, start_response):
        raise RuntimeError("the view broke")

    with pytest.raises(RuntimeError, match="the view broke"):
        _run(broken, b"")


@pytest.mark.process
def test_a_draw_through_the_real_server_answers_its_json_whole(app, live_server):
    deck = new_deck(4, seed="whole", name="Whole")
    gid = Caller(app.test_client(), deck).new_game()
    url = live_server.url
    token = requests.post(f"{url}/api/login", json={"pin": TEST_PIN}, timeout=10).json()["token"]
    drawn = requests.post(
        f"{url}/api/games/{gid}/draw", json={}, headers={"Authorization": f"Bearer {token}"}
    )
    assert drawn.status_code == 200, drawn.text
    assert int(drawn.headers["Content-Length"]) == len(drawn.content)
    assert 1 <= drawn.json()["ball"] <= 75
    called = requests.get(f"{url}/api/games/{gid}", timeout=10).json()
    assert [c["ball"] for c in called["calls"]] == [drawn.json()["ball"]], called


def _run_here(app, lock: threading.RLock) -> tuple[list[dict], list[str], str]:
    """A Maestro's call (`here`: the write lock), see `_served`."""
    return _served(app, b"{}", here=lock, name="maestro-change")


def _ok(environ, start_response):
    start_response("200 OK", [("Content-Type", "application/json")])
    return [b'{"ball": 7}']


def test_a_maestros_call_is_answered_on_the_loop_itself_when_the_write_lock_is_free():
    lock = threading.RLock()
    sent, threads, loop = _run_here(_ok, lock)
    assert threads == [loop]  # no hand-over: no thread to wake, none to win a core back
    assert sent[1]["body"] == b'{"ball": 7}'
    assert lock.acquire(blocking=False), "the write lock was left held"
    lock.release()


def test_a_maestros_call_that_finds_the_write_lock_held_goes_to_a_worker_not_the_loop():
    lock = threading.RLock()
    taken, go = threading.Event(), threading.Event()

    def writer() -> None:  # a guest's change being written in a worker
        with lock:
            taken.set()
            go.wait(30)

    held = threading.Thread(target=writer)
    held.start()
    taken.wait(30)
    try:
        sent, threads, loop = _run_here(_ok, lock)
    finally:
        go.set()
        held.join(30)
    assert threads[0].startswith("maestro-change") and threads[0] != loop
    assert sent[0]["status"] == 200


def test_a_call_that_fails_on_the_loop_releases_the_write_lock():
    def broken(environ, start_response):
        raise RuntimeError("the view broke")

    lock = threading.RLock()
    with pytest.raises(RuntimeError, match="the view broke"):
        _run_here(broken, lock)
    assert lock.acquire(blocking=False), "the write lock was left held"
    lock.release()


def _waiting_to_draw() -> str | None:
    """The name of the thread in which a draw is waiting for the write lock, if any."""
    import sys

    names = {t.ident: t.name for t in threading.enumerate()}
    for ident, frame in sys._current_frames().items():
        while frame is not None:
            if frame.f_code.co_name == "_add_call":
                return names.get(ident, "?")
            frame = frame.f_back
    return None


@pytest.mark.process
def test_a_draw_waiting_for_the_write_lock_never_holds_up_the_maestros_other_requests(
    app, live_server
):
    """The draw is answered on the loop only when the lock is free: held by another writer, it
    waits in a worker, and the station goes on answering the Maestro (and everyone) meanwhile."""
    from bingo_hall.web.instance import hall

    deck = new_deck(4, seed="whole", name="Whole")
    gid = Caller(app.test_client(), deck).new_game()
    url = live_server.url
    token = requests.post(f"{url}/api/login", json={"pin": TEST_PIN}, timeout=10).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    drawn: list[requests.Response] = []
    lock = hall(app).write_lock
    with lock:  # another writer holds it (this test's thread)
        drawing = threading.Thread(
            target=lambda: drawn.append(
                requests.post(f"{url}/api/games/{gid}/draw", json={}, headers=auth, timeout=60)
            )
        )
        drawing.start()
        eventually(lambda: _waiting_to_draw() is not None, timeout=60)
        assert _waiting_to_draw().startswith("maestro-change")  # a worker, not the loop
        for _ in range(3):  # the loop answers while the draw waits
            r = requests.get(f"{url}/api/games/{gid}", headers=auth, timeout=10)
            assert r.status_code == 200 and r.json()["calls"] == []
        assert not drawn
    drawing.join(60)
    assert drawn and drawn[0].status_code == 200, drawn and drawn[0].text
    called = requests.get(f"{url}/api/games/{gid}", timeout=10).json()
    assert [c["ball"] for c in called["calls"]] == [drawn[0].json()["ball"]]
