"""Issue 25 (item 6) and issue 29: the station leans on uvicorn's internals in ONE class,
`bingo_hall.web.server.UvicornConnection`, and this is its contract. A uvicorn upgrade that
renames or drops what the class overrides or reads fails here, by name, before it fails a night:
the hooks it overrides must still be uvicorn's, the state it reads must still be set, and the
bounds it adds must still hold on a real server. pyproject.toml bounds uvicorn's version; raise
the bound only with this file passing."""

from __future__ import annotations

import ast
import asyncio
import inspect
import socket
import textwrap
from pathlib import Path

import pytest

from bingo_hall.web import server as srv
from bingo_hall.web.admission import ConnectionBudget
from bingo_hall.web.security import CSP

ROOT = Path(__file__).resolve().parents[2]
#: uvicorn's methods the class overrides or calls (each must exist on uvicorn's protocol, with these
#: parameters, or the override is never called)
HOOKS = {
    "connection_made": ["self", "transport"],
    "connection_lost": ["self", "exc"],
    "data_received": ["self", "data"],
    "pause_writing": ["self"],
    "resume_writing": ["self"],
    "send_400_response": ["self", "msg"],
    "on_message_begin": ["self"],
    "on_header": ["self", "name", "value"],
    "on_headers_complete": ["self"],
    "on_body": ["self", "body"],
    "on_message_complete": ["self"],
    "_unset_keepalive_if_required": ["self"],
    "timeout_keep_alive_handler": ["self"],
}
#: uvicorn's state the class reads
STATE = (
    "flow",
    "cycle",
    "loop",
    "transport",
    "timeout_keep_alive",
    "timeout_keep_alive_task",
    # what a connection taken over from a HallConnection is set up with (`take_over`)
    "connections",
    "server",
    "client",
    "scheme",
)


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_every_hook_the_class_overrides_is_still_uvicorns(hook):
    base = srv._HTTPProtocol
    assert hasattr(base, hook), f"uvicorn's {base.__name__} has no {hook} any more"
    params = list(inspect.signature(getattr(base, hook)).parameters)
    assert params == HOOKS[hook], f"uvicorn's {hook}{tuple(params)} changed"


def test_the_state_the_class_reads_is_set_by_uvicorn():
    """A connection as uvicorn makes it, given a transport: what the class reads is there."""
    import uvicorn

    loop = asyncio.new_event_loop()
    try:
        config = uvicorn.Config(app=lambda *a: None, lifespan="off")
        config.load()
        from uvicorn.server import ServerState

        hall = srv.HallApp.__new__(srv.HallApp)
        hall.budget = ConnectionBudget(10, per_address=10)
        cls = srv.UvicornConnection.for_app(hall)
        conn = cls(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        a, b = socket.socketpair()
        transport = _FakeTransport(a)
        conn.connection_made(transport)
        for name in STATE:
            assert hasattr(conn, name), f"uvicorn no longer sets {name} on a connection"
        assert conn.write_paused is False  # flow.write_paused
        conn.on_message_begin()  # and, per request, uvicorn's url and headers
        assert conn.url == b"" and conn.headers == []
        assert isinstance(srv.STATUS_LINE[200], bytes) and conn.server_state.default_headers == []
        assert conn.admitted
        conn.connection_lost(None)
        a.close()
        b.close()
    finally:
        loop.close()


def test_the_connections_own_set_up_is_still_all_that_uvicorns_sets_up():
    """`UvicornConnection.take_over` sets up a guest's connection as uvicorn's `connection_made`
    does (with the peer's address read once by the HallConnection): uvicorn's must still set these
    and nothing else, or a state uvicorn relies on would be missing."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(srv._HTTPProtocol.connection_made)))
    assigned = {
        target.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute)
    }
    called = {
        ast.unparse(node.func)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func).startswith("self.")
    }
    assert assigned == {"transport", "flow", "server", "client", "scheme"}
    assert called == {"self.connections.add", "self.logger.log"}


class _FakeTransport:
    """What uvicorn asks of a transport when a connection is made (a real socket's names)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.closed = False

    def get_extra_info(self, name: str, default=None):
        if name == "peername":
            return ("127.0.0.1", 40000)
        if name == "sockname":
            return ("127.0.0.1", 8000)
        if name == "socket":
            return self.sock
        return default

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def write(self, data: bytes) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def test_only_that_class_touches_uvicorns_internals():
    """No other module imports uvicorn's protocols, and in server.py only UvicornConnection
    reads a connection's `cycle` or `flow`."""
    for path in sorted((ROOT / "bingo_hall").rglob("*.py")) + sorted(
        (ROOT / "companions").rglob("*.py")
    ):
        text = path.read_text()
        if path.name != "server.py" or path.parent.name != "web":
            assert "uvicorn.protocols" not in text, path
            assert "httptools_impl" not in text, path
    tree = ast.parse((ROOT / "bingo_hall/web/server.py").read_text())
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "UvicornConnection":
            inside |= {id(n) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("cycle", "flow"):
            assert id(node) in inside, f"server.py line {node.lineno} reads .{node.attr}"


# --- the bounds, on a real server ---------------------------------------------------------------
@pytest.fixture
def station(live_server):
    return live_server


def _exchange(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send `data`, read until the server closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except OSError:
            pass
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                return out
            if not chunk:
                return out
            out += chunk


def test_a_head_larger_than_the_limit_is_answered_431_with_the_security_headers(station):
    limit = station.server.hall.config.max_head_bytes
    big = b"GET /display HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (limit + 10)
    answer = _exchange(station.port, big + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 431 ")
    assert CSP.encode() in answer and b"x-frame-options: DENY" in answer


def test_too_many_headers_are_answered_431(station):
    limit = station.server.hall.config.max_headers
    many = b"".join(b"X-%d: y\r\n" % i for i in range(limit + 5))
    answer = _exchange(station.port, b"GET /display HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 431 ")


def test_a_malformed_request_gets_the_servers_400_with_the_security_headers(station):
    answer = _exchange(station.port, b"GARBAGE \x01\x02 what\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert CSP.encode() in answer


@pytest.mark.hall_config(HEAD_S=0.3)
def test_a_head_that_does_not_arrive_in_time_is_answered_408(station):
    # HEAD_S is the app's: well within the read's 5 s here (the default, 10 s, would not be)
    answer = _exchange(station.port, b"GET /display HTTP/1.1\r\nHost: x\r\n", timeout=5.0)
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_a_connection_over_the_budget_is_answered_503_too_many_connections(station):
    hall = station.server.hall
    budget = ConnectionBudget(total=0, per_address=64)
    budget.laptop = frozenset()  # type: ignore[assignment]  (here loopback is a guest)
    kept, hall.budget = hall.budget, budget
    try:
        answer = _exchange(station.port, b"GET /display HTTP/1.1\r\nHost: x\r\n\r\n")
    finally:
        hall.budget = kept
    assert answer.startswith(b"HTTP/1.1 503 ")
    assert b"too many connections" in answer and CSP.encode() in answer
    assert b"demasiadas conexiones" in answer  # before the reader's language is known
    assert b"disk" not in answer


def test_a_live_stream_is_still_written_in_chunks(station, caller):
    """`response_chunked` reads uvicorn's cycle: a stream's events must arrive framed."""
    import requests

    game_id = caller.new_game()  # the same app and database as the server's
    with requests.get(
        f"{station.url}/api/games/{game_id}/events", stream=True, timeout=10
    ) as stream:
        assert stream.headers.get("transfer-encoding") == "chunked"
        lines = stream.iter_lines(decode_unicode=True)
        assert next(lines).startswith("retry:")


def test_the_servers_tick_it_replaces_is_still_uvicorns():
    """`_Uvicorn.main_loop` ticks once a second and `should_exit` wakes it: uvicorn's server must
    still run `main_loop()`, tick with `on_tick(counter)` (the date header at a counter of 0) and
    keep `should_exit` as a plain attribute its signal handlers set."""
    import uvicorn

    assert list(inspect.signature(uvicorn.Server.main_loop).parameters) == ["self"]
    assert list(inspect.signature(uvicorn.Server.on_tick).parameters) == ["self", "counter"]
    assert "self.main_loop()" in inspect.getsource(uvicorn.Server._serve)
    assert "self.should_exit = True" in inspect.getsource(uvicorn.Server.handle_exit)
    assert "counter % 10 == 0" in inspect.getsource(uvicorn.Server.on_tick)


def test_a_server_asked_to_stop_is_woken_not_left_to_its_next_tick(app):
    """A stop asked from another thread (Ctrl+C, `Server.close`) wakes the server's loop: with a
    tick of a minute, the server still stops within `close`'s wait (15 s)."""
    from bingo_hall.web.station_server import Server

    server = Server(app)
    server.uvicorn.tick_s = 60.0
    server.start()
    server.close()
    assert server._thread is not None and not server._thread.is_alive(), "it waited to tick"
