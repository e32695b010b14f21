"""What the station's commands do to start it (`serve`, `demo`): the app built from the
command's options and the instance folder, the decks, the program and the hall's settings loaded
into it, the server run with what it prints, and the public process's own start (its card
tables drawn where its pages are served). The commands themselves are in this package's
__init__."""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ...cli.speech import Speech, speech
from ...errors import KitError
from ...machine import netaddr
from ...machine.paths import read_text_file
from ...machine.printed import Mismatch, mismatch
from ...web.config import from_environment
from ...web.instance import hall

if TYPE_CHECKING:
    from flask import Flask

    from ...manifest import Deck
    from ...web.station_server import Server


def _checked_pin(given: str | None) -> str | None:
    """--pin, else $BINGO_HALL_PIN; None lets the app keep (or make once) the PIN in its
    instance folder, so a restarted station keeps the PIN the Maestro already has."""
    pin = given if given is not None else from_environment().get("CALLER_PIN")
    if pin is None:
        return None
    if not pin.strip() or len(pin) > 64:
        source = "--pin" if given is not None else "$BINGO_HALL_PIN"
        raise KitError(
            "%(source)s must be 1 to 64 characters (not blank), not %(pin)r", source=source, pin=pin
        )
    return pin.strip()


def lan_address() -> str:
    """The laptop's address on the hall's Wi-Fi, as the cards' QR codes use it."""
    return netaddr.lan_address() or "127.0.0.1"


def build_app(
    db: str | None,
    pin: str | None,
    instance: str | None = None,
    device: str | None = None,
    threads: int | None = None,
    one_process: bool = False,
) -> Flask:
    """The app as the command line asks for it: `--instance` is Flask's instance folder (its
    `config.py` is read), and the options given on the command line win over that file."""
    from ...app import create_app

    settings: dict[str, Any] = {}
    if (checked := _checked_pin(pin)) is not None:
        settings["CALLER_PIN"] = checked
    if db:
        Path(db).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
        settings["DATABASE"] = str(Path(db).expanduser().resolve())
    if device:
        settings["DEVICE_URL"] = device
    if threads is not None:
        settings["THREADS"] = threads
    if one_process:
        settings["ONE_PROCESS"] = True
    folder = Path(instance).expanduser().resolve() if instance else None
    try:
        return create_app(instance_path=folder, settings=settings)
    except KitError:
        raise
    except Exception as exc:  # sqlite3.Error, OSError: a database we cannot open
        raise KitError("cannot open the database: %(reason)s", reason=exc) from None


def load_decks(app: Flask, paths: tuple[str, ...]) -> list[Deck[Any]]:
    from ...manifest import load_deck
    from ...web.db import connect
    from ..decks import store_deck

    decks = [load_deck(p) for p in paths]
    conn = connect(hall(app).config.database)
    try:
        with app.app_context():  # the station keeps them read (its first games read none)
            for deck in decks:
                store_deck(conn, deck)
    finally:
        conn.close()
    return decks


def load_program(app: Flask, path: str, words: Speech | None = None) -> str:
    """`serve --program FILE`: load the night's program (the same file again resumes it)."""
    from ...web.db import get_db
    from ..program import load_file

    text = read_text_file(path)
    with app.app_context():
        done = load_file(get_db(), text, Path(path).name)
    say = (words or speech()).say
    games = len(done.games)
    name = done.program.name if done.program is not None else ""
    if done.resumed:
        at = done.playing or done.next
        return say(
            "program resumed: %(name)s (%(n)s games, at game %(at)s)", name=name, n=games, at=at
        )
    return say(
        "program loaded: %(name)s (%(n)s games; Next game starts game 1)", name=name, n=games
    )


def save_hall_settings(app: Flask, **changes: Any) -> None:
    """The night's settings from the command line, kept in the database like the caller page's."""
    from ..hall_settings import SettingsChange, save

    with app.app_context():
        from ...web.db import get_db

        save(get_db(), SettingsChange.from_json(changes))


def mac_port_hint(port: int, platform: str) -> str:
    """On a Mac, port 5000 is usually the system's AirPlay Receiver, not another station."""
    if platform != "darwin" or port != 5000:
        return ""
    return (
        " (on a Mac the AirPlay Receiver holds port 5000: turn it off in System Settings > "
        "General > AirDrop & Handoff, or use --port 5001 and print the cards with --base-url "
        "http://ADDRESS:5001)"
    )


def run_server(
    app: Flask,
    host: str,
    port: int,
    notes: Iterable[str] = (),
    printed: Iterable[tuple[str, str]] = (),
    words: Speech | None = None,
    maestro_host: str = "127.0.0.1",
    maestro_port: int | None = None,
) -> None:
    """Serve until Ctrl+C. `printed` is (deck name, deck file) pairs: a deck whose cards were
    printed for another host or port is pointed out here and on the caller page. The Maestro's
    port is `maestro_port`, else the hall's port + 1 where it is free, else any free one."""
    from ...app import start_workers
    from ...web.admission import phones_allowed
    from ..state import station_state
    from ..verify import card_pages

    say = (words or speech()).say
    split = not hall(app).config.one_process  # the hall's port in a process of its own
    try:
        server = _server(app, host, port, maestro_host, maestro_port, split, say)
    except KitError as exc:
        raise KitError(
            "%(error)s%(hint)s", error=str(exc), hint=mac_port_hint(port, sys.platform)
        ) from None
    start_workers()  # the table scorekeepers' replays never hold the Maestro's interpreter
    if server.split:  # the phones' process keeps the card pages current (phones_started)
        station_state(app).deck_listeners.append(lambda deck: tell_phones(app, deck))
    else:
        card_pages.start(app)
    read_tonights_decks_soon(app)
    shown = lan_address() if host in ("0.0.0.0", "") else host
    real_port = server.port
    found = [m for name, path in printed if (m := mismatch(name, path, port=real_port, host=host))]
    app.config["PRINTED_MISMATCHES"] = found
    notes = [*notes, *(printed_warning(m, words or speech()) for m in found)]
    settings = hall(app).config
    url = f"http://{shown}:{real_port}"
    laptop = "127.0.0.1" if maestro_host in ("0.0.0.0", "", "127.0.0.1") else maestro_host
    caller_url = f"http://{laptop}:{server.maestro_port}"
    with server.stopped_by_signals():  # before the banner: a Ctrl+C on reading it stops too
        click.echo(say("Bingo Hall station: %(url)s", url=f"{url}/"))
        click.echo("  " + say("Caller (this laptop): %(url)s", url=f"{caller_url}/caller"))
        click.echo("  " + say("Phones and cards: %(url)s", url=f"{url}/"))
        click.echo("  " + say("big screen:  %(url)s", url=f"{caller_url}/display"))
        click.echo("  " + say("caller PIN:  %(pin)s", pin=settings.caller_pin))
        click.echo("  " + say("database:    %(path)s", path=settings.database))
        if server.phones is not None:
            pid = server.phones.pid
            click.echo("  " + say("phones and screens: served by process %(pid)s", pid=pid))
        phones = phones_allowed(server.open_files, settings)
        click.echo(
            "  "
            + say(
                "open files: %(files)s, room for about %(n)s phones",
                files=server.open_files or "-",
                n=phones,
            )
        )
        for note in notes:
            click.echo(f"  {note}")
        click.echo(say("Press Ctrl+C to stop."), nl=True)
        try:
            server.run()
        finally:
            card_pages.stop(app)


def _server(
    app: Flask,
    host: str,
    port: int,
    maestro_host: str,
    maestro_port: int | None,
    split: bool,
    say: Callable[..., str],
) -> Server:
    """The station's server; the default Maestro's port (the hall's + 1) falls back to a free
    one when it is taken: it is printed on the console and named on no card."""
    from ...web.phones_process import Restarted

    def restarted(news: Restarted) -> None:
        line = say(
            "the phones' process %(old)s ended (%(code)s); process %(new)s serves the phones now",
            old=news.old,
            code=news.code,
            new=news.new,
        )
        click.echo(line)

    wanted = maestro_port
    if wanted is None:
        wanted = port + 1 if 0 < port < 65535 else 0
    from ...web.station_server import Server

    def server(maestro: int) -> Server:
        return Server(
            app,
            host,
            port,
            split=split,
            maestro_host=maestro_host,
            maestro_port=maestro,
            started=phones_started,
            on_restart=restarted,
        )

    try:
        return server(wanted)
    except KitError:
        if maestro_port is not None or wanted == 0:
            raise
    return server(0)


def printed_warning(m: Mismatch, words: Speech) -> str:
    """The banner's line for cards printed for another address: `Mismatch.line` in English, the
    caller page's words (the station's catalog) in Spanish."""
    if words.lang == "en":
        return m.line()
    params = {"deck": m.deck_name, "url": m.printed_url}
    if m.kind == "port":
        text = words.say(
            "The cards of deck %(deck)s point at %(url)s, but the station listens on port "
            "%(port)s: phones that scan them reach nothing. Restart it with --port %(printed)s, "
            "or reprint the cards.",
            port=m.listen_port,
            printed=m.printed_port,
            **params,
        )
    elif m.kind == "host":
        text = words.say(
            "The cards of deck %(deck)s point at %(url)s, but the station listens only on "
            "%(host)s: phones cannot open them. Restart it with --host 0.0.0.0.",
            host=m.listen_host,
            **params,
        )
    else:
        text = words.say(
            "The cards of deck %(deck)s point at %(url)s, which is not this computer: phones "
            "cannot open them. Check cards here with Scan card, or reprint them.",
            **params,
        )
    return words.say("warning:     %(text)s", text=text)


#: the hub channel that tells the phones' process of a deck loaded or played (never a screen's)
DECK_CHANNEL = ("station", "deck")


def tell_phones(app: Flask, deck: Deck[Any]) -> None:
    """A deck loaded or a game started: the phones' process reads it and keeps its pages
    current (phones_started)."""
    hall(app).hub.publish(DECK_CHANNEL, "deck", deck.deck_id)


def read_tonights_decks_soon(app: Flask) -> None:
    """Read tonight's decks in a thread of their own, as the station starts: a deck's reading
    checks its every card, which the first game's start must not wait for."""
    from ...web.db import get_db
    from ..decks import read_tonights_decks

    def read() -> None:
        try:
            with app.app_context():
                read_tonights_decks(get_db())
        except Exception:  # a lost database: each deck is read when first asked
            logging.getLogger(__name__).exception("reading tonight's decks failed")

    threading.Thread(target=read, name="tonights-decks", daemon=True).start()


def phones_started(app: Flask) -> None:
    """In the phones' process (web/phones_process.py), its app made: the card pages are kept
    current there, where they are served; the table scorekeepers' replays run there too. The
    Maestro's process tells it of each deck loaded and each game started (`tell_phones`)."""
    from ...app import start_workers, stop_workers
    from ...web.db import get_db
    from ..decks import get_deck
    from ..verify import card_pages

    start_workers()
    card_pages.start(app)
    # its exit runs no atexit hook (a multiprocessing child): the workers are ended here, or the
    # process would wait for them until the Maestro's process ended it (8 s at every stop)
    hall(app).on_stop += [lambda: card_pages.stop(app), stop_workers]
    read_tonights_decks_soon(app)
    decks = hall(app).hub.subscribe(DECK_CHANNEL)

    def announce() -> None:
        while not decks.closed:
            event = decks.get(timeout=1.0)
            if event is None:
                continue
            try:
                with app.app_context():
                    card_pages.announce(app, get_deck(get_db(), event.data))
            except Exception:  # a deck gone meanwhile: its pages are made when asked
                continue

    threading.Thread(target=announce, name="decks-told", daemon=True).start()
