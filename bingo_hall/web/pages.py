"""Pages every guest asks for (the big screen's /display, the phones' /join), built once per
change of what they show, not once per request (issue 38).

What such a page shows changes only when the station publishes an event (a call, an undo, a new
game, a claim, a sale: every change is published after its commit, `hub.EventHub.publish`), so
the hub's count of events published is the page's version: a page is kept under its `key` (its
path, the reader's language, the address its QR names) and that version, and built again only
after the next event. Sixteen screens reloading /display between two calls cost one render.

The cache is bounded (`SIZE` pages, the oldest dropped), and only one request builds a missing
page while the others wait for it, so a burst of guests after a call costs one render too.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from .instance import area_state, hall

#: pages kept at most (keys: the few paths, two languages, a handful of addresses)
SIZE = 32


class ChangeCache:
    """Pages by (key, the hub's count of published events), at most `size` of them."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._pages: OrderedDict[tuple[Hashable, int], str] = OrderedDict()
        self._lock = threading.Lock()  # the dictionary
        self._building = threading.Lock()  # one build at a time: a burst waits for it
        self.built = 0  # pages built so far (tests read it)

    def page(self, key: Hashable, version: int, build: Callable[[], str]) -> str:
        """The page for `key` at `version`, built by `build()` if it is not kept."""
        full = (key, version)
        found = self._get(full)
        if found is not None:
            return found
        with self._building:
            found = self._get(full)  # built by the request this one waited for
            if found is not None:
                return found
            made = build()
            self.built += 1
            with self._lock:
                self._pages[full] = made
                while len(self._pages) > self.size:
                    self._pages.popitem(last=False)
            return made

    def _get(self, full: tuple[Hashable, int]) -> str | None:
        with self._lock:
            found = self._pages.get(full)
            if found is not None:
                self._pages.move_to_end(full)
            return found


def shared_page(key: Hashable, build: Callable[[], str]) -> str:
    """The app's page for `key` as of the last published change (`ChangeCache`). The version is
    read before the page is built: a change that lands during the build is seen by the next
    request, never missed."""
    version = hall().hub.published
    return area_state("shared_pages", ChangeCache).page(key, version, build)
