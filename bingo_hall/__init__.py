"""Bingo Hall Kit: line-unique bingo decks, a fair caller station, claims and table scorekeepers.

The rules live in pure modules (`cards`, `deck`, `manifest`, `rng`, `claims`); printing, the web
station and the serial bridge are adapters around them (see docs/dev/architecture.md).
"""

__version__ = "0.1.0"
