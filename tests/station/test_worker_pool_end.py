"""A worker process ended while it was sending its result back (the station stops while a
deck's tables come back from the worker) must not keep the station's process from ending: the
pool's manager thread would read the rest of that result for ever, and the interpreter's exit
joins that thread. `end_pool(kill=True)` makes it stop."""

from __future__ import annotations

import gc
import multiprocessing
import os
import struct
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.queues import SimpleQueue
from pathlib import Path

import pytest
from testkit import eventually

from bingo_hall.web.plumbing import end_pool

pytestmark = pytest.mark.process


def _half_sent(flag: str) -> None:
    """In the worker: the first bytes of a result frame written to the pool's result pipe (as a
    large result is, in parts), then nothing more, as if the worker were ended right there."""
    (queue,) = [o for o in gc.get_objects() if isinstance(o, SimpleQueue)]
    fd = queue._writer.fileno()
    os.write(fd, struct.pack("!i", 1_000_000) + b"\x80\x04 partial")  # 1 MB announced
    Path(flag).touch()
    time.sleep(600)


def test_a_worker_ended_while_sending_its_result_does_not_keep_the_process_from_ending(tmp_path):
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    pool.submit(int).result(timeout=60)  # the worker started
    flag = tmp_path / "half-sent"
    pool.submit(_half_sent, str(flag))
    eventually(flag.exists, timeout=60)  # the frame's first bytes are in the pipe
    manager = pool._executor_manager_thread
    assert manager is not None
    end_pool(pool, kill=True)
    manager.join(timeout=30)  # what the interpreter's exit does, without a bound
    assert not manager.is_alive(), "the pool's manager thread still reads the half-sent result"
