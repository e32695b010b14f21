"""The station's private temporary folder: the unix socket between its two processes
(web/phones_process.py). Nothing secret is ever put there (no key, no database).

A clean stop removes the folder. A station ended by kill -9 (or a power cut) never runs its stop,
so its folder is named after its process (`bingo-hall-<pid>-XXXXXXXX`) and the next station to
start removes every such folder of this user's whose process no longer runs (`sweep`). Folders
`bingo-hall-tables-*`, which earlier kits left at every start with a database and a key in them,
are removed too: this kit makes none.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

PREFIX = "bingo-hall-"
#: a station's folder: its process id, then mkdtemp's random letters
_OURS = re.compile(rf"{PREFIX}(\d+)-[A-Za-z0-9_]+")
#: what earlier kits' tables worker left behind (a database, a PIN file and a book key)
_EARLIER = re.compile(rf"{PREFIX}tables-[A-Za-z0-9_]+")


def private_folder() -> str:
    """A new folder only this user can open (mode 700), after the gone stations' are removed."""
    sweep()
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")


def sweep(base: str | None = None) -> list[str]:
    """Remove the folders left in the temporary folder by this user's stations that no longer
    run; the names of those removed."""
    base = base or tempfile.gettempdir()
    uid = os.getuid() if hasattr(os, "getuid") else None
    removed: list[str] = []
    try:
        entries = list(os.scandir(base))
    except OSError:
        return removed
    for entry in entries:
        ours = _OURS.fullmatch(entry.name)
        if not ours and not _EARLIER.fullmatch(entry.name):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            if uid is not None and entry.stat(follow_symlinks=False).st_uid != uid:
                continue
        except OSError:
            continue
        if ours and _running(int(ours[1])):
            continue
        shutil.rmtree(Path(base) / entry.name, ignore_errors=True)
        removed.append(entry.name)
    return removed


def _running(pid: int) -> bool:
    """Does a process with this id run? (Another user's counts: it may not be signalled.)"""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True
