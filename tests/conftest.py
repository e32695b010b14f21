"""Shared fixtures: the flaskr trio (app, client, runner), the station's real server on loopback for
browser tests, and pytest-playwright pointed at Debian's Chromium (no browser downloads here)."""

from __future__ import annotations

import gc
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import shared_compiles
from hypothesis import settings
from testkit import TEST_PIN, Caller, LiveServer, eventually  # noqa: F401  (tests import from testkit)

from bingo_hall.app import create_app
from bingo_hall.machine.catalogs import catalog_dirs

# the Chromium the browser tests launch, and its arguments: benchmarks/_browser.py (shared with
# the benchmarks that drive a browser)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from _browser import ARGS as CHROMIUM_ARGS  # noqa: E402
from _browser import CHROMIUM  # noqa: E402

# Hypothesis's deadline fails an example that takes over 200 ms: a clock, which a busy machine
# (two cores shared with Chromium and other work) misses while the rule holds. Properties are
# checked on what they compute, never on how long it took (timings live in benchmarks/).
settings.register_profile("kit", deadline=None)
settings.load_profile("kit")

# the suite's thousand apps compile werkzeug's URL builders once (see shared_compiles.py)
shared_compiles.install()

#: fixtures that start Chromium: a test that asks for one is a browser test, marked or not
BROWSER_FIXTURES = {"page", "phone", "browser", "context", "new_context"}
#: fixtures that serve a station on a socket: a test that asks for one starts a real server
SERVER_FIXTURES = {"live_server", "serve"}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """`make test`'s last part (-m alone) runs a few files' tests: it reads no test module whose
    text never says `alone` (the marker cannot be on any of its tests), instead of importing
    and collecting the whole suite again to deselect it."""
    alone_only = config.getoption("markexpr", "").strip() == "alone"
    if alone_only and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return b"alone" not in collection_path.read_bytes()
    return None


#: seconds a `slow` or `alone` test may run before pytest-timeout fails it (the suite-wide
#: limit, pyproject's `timeout`, is for the others); a test's own `timeout` marker wins
SLOW_TIMEOUT = 900


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`make check` leaves out the browser tests (-m "not browser") and those that start a real
    server or process (-m "not process"): every test that opens Chromium or serves a station
    carries its marker, whether its file says so or not. A slow test is given SLOW_TIMEOUT.
    The order: see the end."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if BROWSER_FIXTURES & fixtures:
            item.add_marker(pytest.mark.browser)
        if SERVER_FIXTURES & fixtures:
            item.add_marker(pytest.mark.process)
        long = item.get_closest_marker("slow") or item.get_closest_marker("alone")
        if long and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
    # the files with long tests first (slow, then browser), each file's tests in their order, so
    # that on two cores the short ones fill the end instead of one core waiting for a long file
    # that came last
    rank: dict[str, int] = {}
    for item in items:
        long = (
            0 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("browser") else 2
        )
        rank[str(item.path)] = min(long, rank.get(str(item.path), 2))
    items.sort(key=lambda item: rank[str(item.path)])


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collecting made (every module of the kit and of the tests, hundreds of thousands of
    objects) lives until the run ends: Python's full garbage collections need not walk it again
    after every few thousand allocations of a test (gc.freeze, as the station does at start)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs():
    """`make` compiles the .po catalogs; do it here too when pytest runs on its own."""

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for folder in catalog_dirs():
        for po in Path(folder).glob("*/LC_MESSAGES/messages.po"):
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
                with po.open("rb") as src, mo.open("wb") as out:
                    write_mo(out, read_po(src))


@pytest.fixture(scope="session", autouse=True)
def per_user_data_folder(tmp_path_factory):
    """Commands run without --instance keep their files in the per-user data folder
    (bingo_hall/machine/paths.py): point it at a temporary folder so the suite never writes to the
    real home. Subprocesses inherit the variable."""
    with pytest.MonkeyPatch.context() as mp:
        folder = tmp_path_factory.mktemp("user-data")
        mp.setenv("XDG_DATA_HOME", str(folder))
        yield folder


@pytest.fixture
def kit_cli(capsys) -> Callable[[list[str]], tuple[int, str, str]]:
    """Run `bingo-hall ARGS` in-process through its real entry point (main, with its one-line
    errors): (exit code, stdout, stderr)."""
    from bingo_hall.cli import main

    def run(argv: list[str]) -> tuple[int, str, str]:
        try:
            main(argv)
            code = 0
        except SystemExit as exc:
            code = exc.code
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def _app_config(database: Path, keys: dict) -> dict:
    return {
        "TESTING": True,
        "DATABASE": str(database),
        "SECRET_KEY": "test-secret",
        "CALLER_PIN": TEST_PIN,
        **keys,
    }


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory) -> Callable[[dict], Path]:
    """An empty database with every area's tables, made once per set of config keys by the
    app's own migrations (db.migrate) and copied for each `app`: a copy costs a file's bytes,
    the migrations each a commit the disk must keep (synchronous=FULL). The app still opens
    it as at any start (WAL, the migrations' versions checked, the book's genesis written)."""
    from bingo_hall.web import db
    from bingo_hall.web.instance import hall

    templates: dict[str, Path] = {}

    def template(keys: dict) -> Path:
        key = repr(sorted(keys.items()))
        if key not in templates:
            folder = tmp_path_factory.mktemp("migrated")
            made = create_app(_app_config(folder / "made.sqlite", keys), instance_path=folder)
            conn = db.connect(str(folder / "template.sqlite"), create=True)
            conn.execute("PRAGMA journal_mode=WAL")
            db.migrate(conn, hall(made).migrations)
            conn.close()
            hall(made).db_keeper.close()
            templates[key] = folder / "template.sqlite"
        return templates[key]

    return template


@pytest.fixture
def app(tmp_path, request, migrated_database):
    """The hall's app on a fresh database (a copy of an empty, migrated one). A test that needs
    other settings (a shorter idle bound, a smaller table) says so with
    `@pytest.mark.hall_config(IDLE_S=4, ...)`: the keys of web/config.py, passed to `create_app`
    as a host's config.py would, never patched."""
    marker = request.node.get_closest_marker("hall_config")
    keys = marker.kwargs if marker else {}
    database = tmp_path / "test.sqlite"
    if "DATABASE" not in keys:
        shutil.copyfile(migrated_database(keys), database)
    made = create_app(_app_config(database, keys), instance_path=str(tmp_path))
    made.jinja_env.bytecode_cache = shared_compiles.TEMPLATES  # see shared_compiles.py
    return made


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def caller(client) -> Caller:
    """The Maestro, logged in with the caller PIN (see testkit.Caller)."""
    return Caller(client)


@pytest.fixture
def live_server(app) -> Iterator[LiveServer]:
    server = LiveServer(app)
    yield server
    server.close()


@pytest.fixture
def serve() -> Iterator[Callable[..., LiveServer]]:
    """Serve any app (e.g. one made with different config) for the length of a test;
    `serve(app, port)` serves it again on a port a closed server used."""
    servers: list[LiveServer] = []

    def start(app, port: int = 0) -> LiveServer:
        servers.append(LiveServer(app, port))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


@pytest.fixture(scope="session", autouse=True)
def patient_expectations() -> None:
    """A page's expected state is awaited up to 15 s, not Playwright's 5 s: with both cores busy a
    page can take longer to show it. A bound on a wait for what the page shows, never a sleep."""
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def phone(browser):
    """A phone-sized page (360 px wide, touch)."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    yield page
    context.close()
