"""Where a table's history is replayed: in a process of its own while the station
serves, so that a flood of score entries (a Clue notebook's replay runs its solver, tens of
milliseconds of CPU each) never holds the station's interpreter lock, which the Maestro's draws
and the event loop need. Elsewhere (tests, the command line) in the calling thread.

`start()` (the station's `serve` calls it) makes one worker process, spawned (never forked from
a threaded server); a worker that dies is replaced, and the replay is then done in the calling
thread. Results and refusals are the same either way: an EntryError crosses back with its
message, field, parameters and entry.
"""

from __future__ import annotations

import atexit
import multiprocessing
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bingo_hall.values import JsonValue
from bingo_hall.web.plumbing import end_pool, worker_ignores_ctrl_c
from companions.errors import EntryError
from companions.web.registry import GameKind

_pool: ProcessPoolExecutor | None = None
_guard = threading.Lock()
_kinds: dict[str, GameKind] | None = None  # in the worker process


def start() -> None:
    """Replay in a worker process from now on (idempotent)."""
    global _pool
    with _guard:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(1, mp_context=context, initializer=worker_ignores_ctrl_c)
            atexit.register(stop)


def stop() -> None:
    global _pool
    with _guard:
        pool, _pool = _pool, None
    if pool is not None:
        end_pool(pool)


def replay(
    kind: GameKind, settings: object, players: Sequence[str], entries: Sequence[object]
) -> JsonValue:
    """`kind.engine.replay(settings, players, entries)`, in the worker process when one runs
    (the game's settings and entry values cross to it pickled)."""
    pool = _pool
    if pool is None:
        return kind.engine.replay(settings, players, entries)
    try:
        outcome = pool.submit(_in_worker, kind.name, settings, players, entries).result()
    except BrokenProcessPool:
        stop()
        start()
        return kind.engine.replay(settings, players, entries)
    if outcome[0] == "refused":
        _, template, field, params, entry_id = outcome
        raise EntryError(template, field=field, entry_id=entry_id, **params)
    view: JsonValue = outcome[1]
    return view


def _in_worker(
    name: str, settings: object, players: Sequence[str], entries: Sequence[object]
) -> tuple[Any, ...]:
    global _kinds
    if _kinds is None:
        from companions.web.games import load_kinds

        _kinds = load_kinds()
    try:
        return ("view", _kinds[name].engine.replay(settings, players, entries))
    except EntryError as exc:
        return ("refused", exc.template, exc.field, exc.params, exc.entry_id)
