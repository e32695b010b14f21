"""The `bingo-hall` command. Each subcommand lives in the module of the area it drives and is
imported only when used, so `bingo-hall deck` never loads reportlab or Flask.

Errors a user can cause become one line on stderr and exit code 2, never a traceback, in the
language the command speaks (`--lang`, else the environment's: `speech`).
"""

from __future__ import annotations

import importlib
import sys

import click

from ..errors import KitError
from .speech import lang_in_argv, speech

# command name -> "module:attribute". Areas add their commands here.
COMMANDS: dict[str, str] = {
    "deck": "bingo_hall.cli.deck:deck",
    "print": "bingo_hall.printing.cli:print_cmd",
    "generate": "bingo_hall.printing.cli:generate",
    "kit": "bingo_hall.printing.cli:kit",
    "serve": "bingo_hall.station.cli:serve",
    "demo": "bingo_hall.station.cli:demo",
    "audit": "bingo_hall.station.cli:audit",
    "book": "bingo_hall.cli.book:book",
    "init-db": "bingo_hall.station.cli:init_db",
    "ledger": "bingo_hall.station.ledger.cli:ledger",
    "program": "bingo_hall.cli.program:program",
    "linked": "bingo_hall.cli.linked:linked",
    "bridge": "firmware_bridge.cli:bridge",
    "emulate": "firmware_bridge.cli:emulate",
    "firmware": "firmware_bridge.cli:firmware",
    "companions": "companions.cli:companions",
}


class LazyGroup(click.Group):
    """click's documented lazy-loading group: subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        command = getattr(importlib.import_module(module), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is not a click command")
        return command


@click.group(cls=LazyGroup)
@click.version_option(package_name="bingo-hall")
def cli() -> None:
    """Bingo Hall Kit: print line-unique decks, call games, verify claims, keep table scores."""


def fail(message: str) -> None:
    """Print one line on stderr and exit 2: the kit's only way of reporting a user error."""
    click.echo(f"bingo-hall: error: {message}", err=True)
    sys.exit(2)


def main(argv: list[str] | None = None) -> None:
    words = speech(lang_in_argv(sys.argv[1:] if argv is None else argv))
    try:
        cli.main(args=argv, prog_name="bingo-hall", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo(f"bingo-hall: {words.say('aborted')}", err=True)
        sys.exit(130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        fail(exc.format_message().replace("\n", " "))
    except KitError as exc:
        fail(words.error(exc))
