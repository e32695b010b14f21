"""Station commands. `demo` makes the demo deck; the station itself is being built (issue 4)."""

from __future__ import annotations

from pathlib import Path

import click

from ..manifest import new_deck, save_deck


@click.command()
@click.option("--dir", "out_dir", default="instance", show_default=True)
def demo(out_dir: str) -> None:
    """Make the demo deck."""
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    path = save_deck(new_deck(40, seed="demo", name="Demo"), Path(out_dir) / "demo.deck.json")
    click.echo(f"demo deck: {path}")
