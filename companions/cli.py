"""`bingo-hall companions`: the table scorekeepers alone, for a party with no bingo."""

from __future__ import annotations

from pathlib import Path

import click

from bingo_hall.errors import KitError
from bingo_hall.machine import netaddr
from bingo_hall.web.config import DEFAULT
from bingo_hall.web.station_server import Server


@click.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@click.option("--db", "db_path", default=None, help="SQLite file [default: per-user data folder].")
@click.option(
    "--threads",
    default=None,
    show_default=f"{DEFAULT.threads}, or THREADS in the instance's config.py",
    type=click.IntRange(4, 256),
    help="Worker threads for pages and entries; open phones' live updates take none.",
)
def companions(host: str, port: int, db_path: str | None, threads: int | None) -> None:
    """Serve only the phone scorekeepers (Burako, Rummy, ...) at /t/."""
    from bingo_hall.app import create_app
    from bingo_hall.machine.paths import default_instance_dir

    config: dict[str, object] = {"COMPANIONS_ONLY": True}
    if threads is not None:
        config["THREADS"] = threads
    if db_path:
        parent = Path(db_path).expanduser().resolve().parent
        if not parent.is_dir():
            raise KitError("the folder for --db does not exist: %(parent)s", parent=parent)
        config["DATABASE"] = str(Path(db_path).expanduser().resolve())
    try:
        app = create_app(instance_path=default_instance_dir(), settings=config)
    except Exception as exc:  # sqlite3.DatabaseError and friends: a bad --db file
        raise KitError(
            "cannot open the database %(db_path)s: %(reason)s", db_path=db_path or "", reason=exc
        ) from exc
    server = Server(app, host, port)
    # What phones type or scan: the LAN address, as the station's banner and the join QR use.
    shown = (netaddr.lan_address() or "127.0.0.1") if host in ("0.0.0.0", "::", "") else host
    with server.stopped_by_signals():  # before the banner: a Ctrl+C on reading it stops too
        click.echo(f"table scores at http://{shown}:{server.port}/t/  (Ctrl+C to stop)")
        server.run()
