"""The companions' blueprint and the folder its game packages live in: a module of its own that
the routes (`views`) register on, while the package's `__init__` imports the routes."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from flask import Blueprint
from jinja2 import FileSystemLoader

HERE = Path(__file__).resolve().parent


class ShellBlueprint(Blueprint):
    @cached_property
    def jinja_loader(self) -> FileSystemLoader:
        game_templates = sorted(p for p in HERE.glob("*/templates") if p.is_dir())
        return FileSystemLoader([str(HERE / "templates"), *map(str, game_templates)])


bp = ShellBlueprint("companions", __name__, url_prefix="/t", template_folder="templates")
