"""Where the kit keeps its own files when nobody says where.

The station's database, the kept caller PIN, the session key and the demo deck with its PDF live
in one folder per user, the platform's usual place for application data (platformdirs):

- Linux: `$XDG_DATA_HOME/bingo-hall`, i.e. `~/.local/share/bingo-hall` by default,
- macOS: `~/Library/Application Support/bingo-hall`,
- Windows: `%LOCALAPPDATA%\\bingo-hall`.

Not the current directory, so `bingo-hall demo` run anywhere never litters it, and not the
package's folder, which is read-only or thrown away when the kit is installed with pip or pipx.
`--instance DIR` chooses another folder.
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_path

from ..errors import KitError

APP_NAME = "bingo-hall"


def default_instance_dir() -> Path:
    """The per-user data folder (not created here: the station makes it when it starts)."""
    return user_data_path(APP_NAME, appauthor=False)


def read_text_file(path: str | Path) -> str:
    """A host's text file (UTF-8), or a KitError naming the file and why it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KitError(
            "cannot read %(path)s (%(kind)s)", path=str(path), kind=exc.__class__.__name__
        ) from None
