"""Issue 20, item 4: storage failures. On a real, small tmpfs that is filled up, the pages and
/display keep answering and changes answer 503 "free disk space" (and go through once space is
freed); a database file deleted or replaced under the running station is refused with a clear
message instead of a new, empty hall. The tmpfs needs root (mount), as this machine has."""

import os
import shutil
import sqlite3
import subprocess

import pytest

from bingo_hall.app import create_app
from bingo_hall.signing import card_path
from bingo_hall.web import db

FULL = "the station cannot save: free disk space"
LOST = "deleted or replaced while it was running"


@pytest.fixture
def disk(tmp_path):
    """A 4 MiB tmpfs of its own, and a way to fill it to the last byte."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt)], capture_output=True
    )
    assert done.returncode == 0, f"these tests mount a tmpfs (root needed): {done.stderr!r}"
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], check=True)


def fill(folder) -> None:
    """Write a file until the filesystem has no byte left (ENOSPC)."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for chunk in (65536, 4096, 1):
            try:
                while True:
                    os.write(fd, b"x" * chunk)
            except OSError:
                pass
    finally:
        os.close(fd)
    assert shutil.disk_usage(folder).free == 0


def station(folder, tmp_path):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "hall.sqlite"),
            "SECRET_KEY": "test",
            "CALLER_PIN": "246810",
        },
        instance_path=str(tmp_path / "instance"),
    )


def test_journal_mode_is_set_once_at_start_up_not_per_connection(tmp_path):
    app = station(tmp_path, tmp_path)
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # a connection leaves the mode alone (setting it writes to the file, which fails on a
    # full disk): a file in the default mode stays in it
    other = tmp_path / "plain.sqlite"
    sqlite3.connect(other).close()
    conn = db.connect(str(other))
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


def test_with_the_disk_full_pages_keep_working_and_changes_say_free_disk_space(disk, tmp_path):
    from testkit import Caller

    app = station(disk, tmp_path)
    client = app.test_client()
    caller = Caller(client)
    gid = caller.new_game(draw="manual")
    caller.call(gid, 7, 22)
    card = card_path(caller.deck.secret, caller.deck.deck_id, 3)
    fill(disk)
    for path in ("/display", f"/display/{gid}", f"/api/games/{gid}", "/api/games", card, "/t/"):
        assert client.get(path).status_code == 200, path
    r = caller.post(f"/api/games/{gid}/calls", {"ball": 41})
    assert r.status_code == 503 and r.get_json()["error"] == FULL
    es = client.post(
        f"/api/games/{gid}/calls",
        json={"ball": 41},
        headers={**caller.auth, "Accept-Language": "es"},
    )
    assert es.status_code == 503 and "libere espacio en el disco" in es.get_json()["error"]
    r = client.post("/t/new/burako", json={"teams": [["Ana"], ["Caro"]]})
    assert r.status_code == 503 and r.get_json()["error"] == FULL
    # nothing half-written: the game still has its two calls, and space back means it goes on
    assert [c["ball"] for c in client.get(f"/api/games/{gid}").get_json()["calls"]] == [7, 22]
    os.remove(disk / "filler")
    assert caller.post(f"/api/games/{gid}/calls", {"ball": 41}).status_code == 201


def test_a_database_deleted_while_serving_is_refused_not_recreated_empty(tmp_path):
    app = station(tmp_path, tmp_path)
    client = app.test_client()
    assert client.get("/display").status_code == 200
    os.remove(tmp_path / "hall.sqlite")
    for suffix in ("-wal", "-shm"):
        if (tmp_path / f"hall.sqlite{suffix}").exists():
            os.remove(tmp_path / f"hall.sqlite{suffix}")
    r = client.get("/api/games")
    assert r.status_code == 503 and LOST in r.get_json()["error"]
    page = client.get("/display")
    assert page.status_code == 503 and "put the file back" in page.get_data(as_text=True)
    assert not (tmp_path / "hall.sqlite").exists()  # no new, empty hall was made


def test_a_database_replaced_while_serving_is_refused(tmp_path):
    app = station(tmp_path, tmp_path)
    client = app.test_client()
    assert client.get("/api/games").status_code == 200
    empty = tmp_path / "other.sqlite"
    sqlite3.connect(empty).close()
    os.replace(empty, tmp_path / "hall.sqlite")
    r = client.get("/api/games")
    assert r.status_code == 503 and LOST in r.get_json()["error"]


@pytest.mark.browser
def test_the_caller_page_shows_free_disk_space_when_a_draw_cannot_be_saved(
    disk, tmp_path, serve, page
):
    from playwright.sync_api import expect
    from testkit import Caller, scripts_ran

    app = station(disk, tmp_path)
    gid = Caller(app.test_client()).new_game()
    server = serve(app)
    page.goto(f"{server.url}/caller/login?lang=en&next=/caller/games/{gid}")
    page.fill("input[name=pin]", "246810")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/caller/games/{gid}")
    scripts_ran(page)
    # the station checkpoints its WAL apart (db.Checkpointer), so a WAL already on the disk can
    # be written over and a draw saved with no byte free: empty it first, so the draw needs room
    with sqlite3.connect(disk / "hall.sqlite", timeout=30) as conn:
        assert conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0  # not busy
    fill(disk)
    page.click("#draw")
    expect(page.locator("#message")).to_have_text(FULL)
    expect(page.locator(".tabla .ball.called")).to_have_count(0)


def test_out_of_open_files_is_not_called_a_disk_problem(monkeypatch):
    """Issue 29, item 2: when the process has used every file it may open, SQLite cannot open
    the database; the answer says "too many connections", never "check the disk"."""
    import sqlite3

    from bingo_hall.web import db

    exc = sqlite3.OperationalError("unable to open database file")
    exc.sqlite_errorcode = db.SQLITE_CANTOPEN  # type: ignore[attr-defined]
    monkeypatch.setattr(db, "_out_of_files", lambda margin=16: True)
    assert "too many connections" in db.storage_problem(exc)
    monkeypatch.setattr(db, "_out_of_files", lambda margin=16: False)
    assert "check the disk" in db.storage_problem(exc)


def test_the_open_files_check_counts_this_process_files():
    import resource

    from bingo_hall.web import db

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert db._out_of_files() is False  # a test process is far from its limit
    assert db._out_of_files(margin=soft) is True  # with no room at all, any file is too many
