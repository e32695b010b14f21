"""Typed configuration: one frozen HallConfig on the app's state, built once from the defaults,
the instance's config.py and the command line; every key the hall reads is declared, and the
environment is read in one place."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from testkit import parsed

from bingo_hall.app import create_app
from bingo_hall.web.config import DEFAULTS, ENVIRONMENT, HallConfig, from_environment
from bingo_hall.web.instance import hall

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    p for top in ("bingo_hall", "companions", "firmware_bridge") for p in (ROOT / top).rglob("*.py")
]
#: keys Flask and Flask-Babel read themselves (the hall sets them, never reads them)
FLASK_KEYS = {
    "SESSION_COOKIE_SAMESITE",
    "SESSION_COOKIE_HTTPONLY",
    "SESSION_COOKIE_NAME",
    "TESTING",
}


def config_reads(tree: ast.AST) -> set[str]:
    """The keys read as `<...>.config["KEY"]` or `<...>.config.get("KEY", ...)`."""
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            target, key = node.value, node.slice
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "get" and node.args:
            target, key = node.func.value, node.args[0]  # type: ignore[attr-defined]
        else:
            continue
        if getattr(target, "attr", "") == "config" and isinstance(key, ast.Constant):
            keys.add(key.value)
    return keys


def test_the_reader_finds_a_config_read():
    tree = ast.parse('a = app.config["DATABASE"]\nb = current_app.config.get("MAX_JSON_BYTES", 1)')
    assert config_reads(tree) == {"DATABASE", "MAX_JSON_BYTES"}


def test_every_key_the_hall_reads_is_declared():
    read = set().union(*(config_reads(parsed(p)) for p in SOURCES))
    assert read - set(HallConfig.keys()) - FLASK_KEYS == set()


def test_the_environment_is_read_in_one_place():
    readers = [
        p.relative_to(ROOT).as_posix()
        for p in SOURCES
        if any(var in p.read_text() for var in ENVIRONMENT)
        and ("os.environ" in p.read_text() or "envvar=" in p.read_text())
    ]
    assert readers == ["bingo_hall/web/config.py"]
    assert from_environment({"BINGO_HALL_PIN": "1234"}) == {"CALLER_PIN": "1234"}
    assert from_environment({"BINGO_HALL_PIN": ""}) == {}


def test_the_config_is_frozen_and_typed(app):
    config = hall(app).config
    assert isinstance(config, HallConfig)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.caller_pin = "0"  # type: ignore[misc]
    assert config.max_json_bytes == DEFAULTS["MAX_JSON_BYTES"] == 2 * 1024 * 1024


def test_config_py_then_the_command_line_win_over_the_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("BINGO_HALL_PIN", "111111")
    (tmp_path / "config.py").write_text('CALLER_PIN = "222222"\nMAX_JSON_BYTES = 1000\n')
    from_file = create_app(instance_path=tmp_path)
    assert hall(from_file).config.caller_pin == "222222"
    assert hall(from_file).config.max_json_bytes == 1000
    command_line = create_app(instance_path=tmp_path, settings={"CALLER_PIN": "333333"})
    assert hall(command_line).config.caller_pin == "333333"
    assert hall(command_line).config.max_json_bytes == 1000
    (tmp_path / "config.py").unlink()
    assert hall(create_app(instance_path=tmp_path)).config.caller_pin == "111111"


def test_a_json_body_over_the_configured_limit_is_refused(tmp_path):
    app = create_app(
        {"DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "k", "MAX_JSON_BYTES": 64},
        instance_path=tmp_path,
    )
    r = app.test_client().post("/api/login", json={"pin": "x" * 100})
    assert r.status_code == 413
    assert r.get_json()["error"] == "the request body is larger than 64 bytes"


def test_a_tunable_is_declared_once_and_no_test_patches_one():
    """The server's, admission's and the stores' tunables are HallConfig keys: no module keeps
    its own constant of the same name (a second source of the default), and no test patches an
    upper-case module attribute (it passes the value: `@pytest.mark.hall_config(IDLE_S=4)`)."""
    declared = set(HallConfig.keys())
    twice = []
    for path in SOURCES:
        for node in parsed(path).body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                name = getattr(target, "id", "")
                if name in declared or f"COMPANIONS_{name}" in declared:
                    twice.append(f"{path.relative_to(ROOT)}: {name}")
    assert twice == []
    patched = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(parsed(path)):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", "") == "setattr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and str(node.args[1].value).isupper()
            ):
                patched.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.args[1].value}")
    assert patched == []


def test_the_patch_finder_finds_a_patched_tunable():
    tree = ast.parse('monkeypatch.setattr(srv, "IDLE_S", 4)\nmonkeypatch.setattr(m, "f", g)')
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert [str(c.args[1].value).isupper() for c in calls if len(c.args) >= 2] == [True, False]


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("IDLE_S", "15", "IDLE_S must be a positive whole number, not '15'"),
        ("THREADS", 0, "THREADS must be a positive whole number, not 0"),
        ("HEAD_S", -1, "HEAD_S must be a positive number of seconds, not -1"),
        ("BODY_S", True, "BODY_S must be a positive number of seconds, not True"),
        ("COMPANIONS_MAX_ENTRIES", 2.5, "COMPANIONS_MAX_ENTRIES must be a positive whole number"),
    ],
)
def test_a_bad_tunable_in_config_py_stops_the_start_up_with_its_name(tmp_path, key, value, words):
    from bingo_hall.errors import KitError

    (tmp_path / "config.py").write_text(f"{key} = {value!r}\n")
    with pytest.raises(KitError) as raised:
        create_app(instance_path=tmp_path)
    assert words in str(raised.value) and "\n" not in str(raised.value)


def test_seconds_may_be_whole_and_threads_come_from_config_py_or_the_command_line(tmp_path):
    from bingo_hall.station.cli.start import build_app

    (tmp_path / "config.py").write_text("THREADS = 6\nSEND_STALL_S = 5\n")
    from_file = hall(build_app(None, "1234", str(tmp_path))).config
    assert (from_file.threads, from_file.send_stall_s) == (6, 5.0)
    assert isinstance(from_file.send_stall_s, float)
    command_line = hall(build_app(None, "1234", str(tmp_path), threads=9)).config
    assert command_line.threads == 9  # `serve --threads 9` wins over config.py
    (tmp_path / "config.py").unlink()
    assert hall(build_app(None, "1234", str(tmp_path))).config.threads == DEFAULTS["THREADS"]


@pytest.mark.hall_config(
    THREADS=5, ACTION_THREADS=2, MAESTRO_THREADS=3, CONNECTIONS_PER_ADDRESS=7, KEPT_FOR_LAPTOP=100
)
def test_the_server_sizes_its_pools_and_budgets_from_the_apps_config(live_server):
    from bingo_hall.web.plumbing import open_files_limit

    server = live_server.server.hall
    workers = [pool.executor._max_workers for pool in server.pools()]
    assert workers == [5, 2, 3, 2]
    assert server.budget.per_address == 7
    assert server.budget.total == max(7, (open_files_limit() or 8192) - 100)
