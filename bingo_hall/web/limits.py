"""Slowing down guessers: a budget of failures with exponential back-off, used for the caller
PIN (station) and for table codes (companions), and what counts as the laptop itself.

A guesser on the hall's Wi-Fi can change address at will, so a budget per address alone does
not hold: each area keeps one for the whole station too (docs/station.md, "Security").
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass

from ..machine.netaddr import lan_address


@dataclass(frozen=True)
class BackoffRule:
    """`free` failures in a row are answered at once; from the last of them on, each failure
    makes the next try wait `first_wait_s`, then twice as long each time, up to `max_wait_s`.
    `forget_s` without a failure forgets the streak."""

    free: int
    first_wait_s: float
    max_wait_s: float
    forget_s: float

    def tries_per_day(self) -> int:
        """The most failures a patient guesser gets through in a day (each try made the moment
        the wait ends), counted by playing the rule out."""
        budget, now, tries, day = Backoff(self), 0.0, 0, 24 * 3600.0
        while now < day:
            wait = budget.wait(now)
            if wait:
                now += wait
                continue
            budget.fail(now)
            tries += 1
        return tries


class Backoff:
    """One budget. Times are given (`now`, seconds of a monotonic clock), so the rule can be
    read and tested on its own; the caller holds a lock around wait-check-fail."""

    def __init__(self, rule: BackoffRule) -> None:
        self.rule = rule
        self.failures = 0
        self.last_failure = -math.inf
        self.until = -math.inf

    def wait(self, now: float) -> float:
        """Seconds before the next try may be answered (0: now)."""
        if now - self.last_failure >= self.rule.forget_s:
            self.failures, self.until = 0, -math.inf
        return max(0.0, self.until - now)

    def fail(self, now: float) -> float:
        """Count a failure; the wait it imposes on the next try."""
        self.wait(now)
        self.failures += 1
        self.last_failure = now
        over = self.failures - self.rule.free
        if over >= 0:
            r = self.rule
            self.until = now + min(r.max_wait_s, r.first_wait_s * 2 ** min(over, 30))
        return max(0.0, self.until - now)

    def forgive(self) -> None:
        """Take back one failure counted ahead of a check that then succeeded (a slot is taken
        before an expensive check, so that a burst cannot pass the wait together)."""
        self.failures = max(0, self.failures - 1)
        if self.failures < self.rule.free:
            self.until = -math.inf


class BackoffPerKey:
    """A budget per key (a client address); keys whose streak is forgotten are dropped, so a
    guesser with many addresses cannot grow it without bound."""

    def __init__(self, rule: BackoffRule, max_keys: int = 10_000) -> None:
        self.rule = rule
        self.max_keys = max_keys
        self.budgets: dict[str, Backoff] = {}

    def get(self, key: str, now: float) -> Backoff:
        if key not in self.budgets and len(self.budgets) >= self.max_keys:
            self.budgets = {
                k: b for k, b in self.budgets.items() if now - b.last_failure < self.rule.forget_s
            }
            if len(self.budgets) >= self.max_keys:  # all recent: the oldest streak goes
                oldest = min(self.budgets, key=lambda k: self.budgets[k].last_failure)
                del self.budgets[oldest]
        return self.budgets.setdefault(key, Backoff(self.rule))


def from_this_machine(address: str | None) -> bool:
    """A request from the laptop the station runs on (the Maestro at the keyboard): a loopback
    address, or the laptop's own address on the hall's network (when its browser opened the
    station by the address the banner prints). The station is served directly, never behind a
    proxy, and a TCP connection cannot be made with a forged source address, so a guest cannot
    pass for it."""
    try:
        if ipaddress.ip_address(address or "").is_loopback:
            return True
    except ValueError:
        return False
    return address == lan_address()
