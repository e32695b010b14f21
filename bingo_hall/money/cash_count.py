"""The cash in the box at the end of the night: counted as a total or by notes and coins, and
what it is over or short of what the ledger expects."""

from __future__ import annotations

from dataclasses import dataclass

from .amounts import MAX_CENTS, LedgerError, parse_cents

#: the notes and coins of each currency, in cents, largest first
DENOMINATIONS: dict[str, tuple[int, ...]] = {
    "EUR": (50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1),
    "GBP": (5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1),
    "USD": (10000, 5000, 2000, 1000, 500, 200, 100, 50, 25, 10, 5, 1),
}
MAX_PIECES = 100_000  # notes or coins of one kind in the box


@dataclass(frozen=True)
class Count:
    """The cash counted in the box: a total, or `pieces` (denomination in cents, how many)."""

    cents: int
    pieces: tuple[tuple[int, int], ...] = ()


def parse_count(total: object, pieces: object, currency: str) -> Count:
    """A count as a total ("412,50") or by denomination ({"2000": 3, "50": 4}: the key is the
    note or coin in cents), never both. Each denomination must be one the currency has."""
    if pieces in (None, {}, ""):
        if total is None or (isinstance(total, str) and not total.strip()):
            raise LedgerError("give the cash counted: a total, or the notes and coins")
        return Count(parse_cents(total))
    if total not in (None, ""):
        raise LedgerError("give the cash counted as a total or by notes and coins, not both")
    if not isinstance(pieces, dict):
        raise LedgerError('the notes and coins are an object such as {"2000": 3}')
    known = DENOMINATIONS.get(currency)
    if known is None:
        raise LedgerError(
            "count %(code)s as a total: its notes and coins are not listed", code=currency
        )
    out: dict[int, int] = {}
    for key, n in pieces.items():
        value = int(key) if isinstance(key, str) and key.isdigit() else None
        if value is None or value not in known:
            raise LedgerError("%(key)s is not a note or coin of %(code)s", key=key, code=currency)
        if isinstance(n, str) and n.strip().isdigit():
            n = int(n.strip())
        if n in (None, ""):
            n = 0
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_PIECES:
            raise LedgerError(
                "how many of %(key)s: a whole number from 0 to %(n)s", key=key, n=MAX_PIECES
            )
        out[value] = out.get(value, 0) + n
    cents = sum(v * n for v, n in out.items())
    if cents > MAX_CENTS:
        raise LedgerError("an amount is at most a million")
    return Count(cents, tuple(sorted(((v, n) for v, n in out.items() if n), reverse=True)))


def over_short(counted: int, float_cents: int, takings: int, cash_payouts: int) -> int:
    """What the box holds over (+) or short (-) of what the ledger expects in it: the float,
    plus the takings, less the payouts paid in cash."""
    return counted - (float_cents + takings - cash_payouts)
