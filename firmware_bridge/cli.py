"""`bingo-hall bridge` (follow a station, drive a device) and `bingo-hall emulate` (a device on a
pty, no hardware needed). Loaded lazily by bingo_hall.cli."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path
from types import FrameType

import click

from bingo_hall.errors import KitError
from bingo_hall.web.config import from_environment

from .protocol import DEVICE_KINDS


def _stop_on_sigterm() -> None:
    """A service manager's stop (SIGTERM) ends the command as Ctrl-C does, cleanly."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


@click.command()
@click.option("--device", required=True, help="/dev/ttyUSB0, COM3, socket://host:port, a pty…")
@click.option("--station", default="http://127.0.0.1:5000", show_default=True)
@click.option("--pin", default=None, help="The caller PIN (or $BINGO_HALL_PIN).  [required]")
@click.pass_context
def bridge(ctx: click.Context, device: str, station: str, pin: str | None) -> None:
    """Drive an LED flashboard / ball machine (BHP/1) from a running caller station."""
    pin = pin or from_environment().get("CALLER_PIN")
    if pin is None:
        option = next(p for p in ctx.command.params if p.name == "pin")
        raise click.MissingParameter(ctx=ctx, param=option)
    import threading

    from .follow import Follower
    from .host import DeviceLink, check_url
    from .station_client import HttpSource

    check_url(device)
    # Ctrl-C and a service manager's stop (SIGTERM) only ask the loop below to end: raised as an
    # exception they could land while the link holds a lock, and the clean stop would wait on it
    stopping = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopping.set())
    source = HttpSource(station, pin)
    source.login()
    follower = Follower(source, link=None)
    link = DeviceLink(device, on_ball=follower.on_ball)
    follower.link = link
    link.start()
    threading.Thread(target=follower.run, daemon=True).start()
    click.echo(f"following {station}, device {device} (Ctrl-C to stop)")

    def drops_from_stdin() -> None:  # each line (Enter) releases a ball; ends at end of input
        for _ in sys.stdin:
            if not link.drop():
                click.echo("the ball machine is not ready", err=True)

    threading.Thread(target=drops_from_stdin, daemon=True).start()
    seen: tuple[object, ...] = ()
    try:
        while not stopping.is_set():
            status = link.status()
            now = (status["state"], status["detail"], follower.game_id, follower.error)
            if now != seen:
                seen = now
                game = f"game {now[2]}" if now[2] else "no active game"
                click.echo(f"device {now[0]}: {now[1]} · {game} {now[3]}".rstrip())
                if link.hello and link.hello.drops_balls and now[0] == "connected":
                    click.echo("press Enter to release a ball")
                sys.stdout.flush()
            stopping.wait(0.2)
    finally:
        follower.stop()
        link.stop()


@click.command()
@click.option("--kind", type=click.Choice(DEVICE_KINDS), default="board", show_default=True)
@click.option("--link", "link_path", help="Also publish the pty as this path (kept on replug).")
@click.option(
    "--tcp",
    type=click.IntRange(0, 65535),
    help="Listen on this local TCP port instead of a pty (0: any); for Windows.",
)
@click.option("--drop-bytes", type=click.FloatRange(0, 0.5), default=0.0, help="Lose bytes.")
@click.option("--bad-checksum", type=click.FloatRange(0, 0.9), default=0.0, help="Spoil frames.")
@click.option(
    "--disconnect-every", type=click.FloatRange(min=1), help="Unplug for 1 s every N seconds."
)
@click.option("--seed", type=int, help="Seed for faults and the ball machine.")
@click.option("--no-draw", is_flag=True, help="Do not draw the board.")
def emulate(
    kind: str,
    link_path: str | None,
    tcp: int | None,
    drop_bytes: float,
    bad_checksum: float,
    disconnect_every: float | None,
    seed: int | None,
    no_draw: bool,
) -> None:
    """A BHP/1 board or ball machine on a pseudo-terminal (or a TCP port), to try the bridge
    without hardware."""
    from .emulator import Emulator

    _stop_on_sigterm()
    if tcp is None and not hasattr(os, "openpty"):
        raise KitError("no pseudo-terminals here: use --tcp PORT and --device socket://...")
    if tcp is not None and link_path:
        raise click.UsageError("--link is for a pty; with --tcp the port is the stable name")
    emu = Emulator(
        kind,
        link=link_path,
        tcp=tcp,
        drop_bytes=drop_bytes,
        bad_checksum=bad_checksum,
        seed=seed,
        out=None if no_draw else sys.stdout,
        colour=sys.stdout.isatty(),
    )
    try:
        emu.start()
    except OSError as exc:
        raise KitError("cannot start the emulator: %(exc)s", exc=exc) from None
    click.echo(f"BHP/1 {kind} on {emu.path}  (bingo-hall bridge --device {emu.path} ...)")
    try:
        while True:
            if disconnect_every:
                time.sleep(disconnect_every)
                click.echo("-- unplugged (power lost) --")
                emu.unplug()
                time.sleep(1)
                emu.replug()
                click.echo(f"-- plugged in again on {emu.path} --")
            else:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        emu.stop()


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
def firmware(folder: str) -> None:
    """Copy the reference firmware into FOLDER, flat, as the board holds it. A config.py already
    there is kept (it holds the host's pins); the code is replaced, so this also updates."""
    from .firmware import board_files

    dest = Path(folder).expanduser()
    kept = []
    try:
        dest.mkdir(parents=True, exist_ok=True)
        for src in board_files():
            if src.name == "config.py" and (dest / src.name).exists():
                kept.append(src.name)
                continue
            shutil.copyfile(src, dest / src.name)
    except OSError as exc:
        raise KitError(
            "cannot copy the firmware to %(dest)s: %(problem)s",
            dest=dest,
            problem=exc.strerror or exc,
        ) from None
    click.echo(f"firmware in {dest}: " + " ".join(p.name for p in board_files()))
    if kept:
        click.echo("your config.py was kept")
    click.echo("edit config.py there, then copy the files to the board: mpremote cp *.py :")
