"""Counting wrong guesses: after `max_failures` within `window_s` seconds, a key must wait.

A key is whatever is being protected or whoever is guessing ("table:ABCDE", "addr:10.0.0.7"):
the companions' notebook PINs count per table and per address. Kept in memory on the app
(`instance.area_state`), so a restart forgets the counts, which is fine for a party night.
"""

from __future__ import annotations

import threading
import time


class FailureLimiter:
    def __init__(self, max_failures: int = 5, window_s: float = 300.0) -> None:
        self.max_failures = max_failures
        self.window_s = window_s
        self._lock = threading.Lock()
        self._failures: dict[str, list[float]] = {}

    def retry_after(self, *keys: str) -> int:
        """Seconds to wait before any of `keys` may try again (0: try now)."""
        now = time.monotonic()
        wait = 0
        with self._lock:
            for key in keys:
                recent = [t for t in self._failures.get(key, []) if now - t < self.window_s]
                if recent:
                    self._failures[key] = recent
                else:
                    self._failures.pop(key, None)
                if len(recent) >= self.max_failures:
                    wait = max(wait, int(self.window_s - (now - recent[0])) + 1)
        return wait

    def fail(self, *keys: str) -> None:
        now = time.monotonic()
        with self._lock:
            for key in keys:
                self._failures.setdefault(key, []).append(now)
