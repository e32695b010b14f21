"""The card's QR code as vector data: the qrcode package's module matrix, reduced to horizontal runs
of dark modules, so the printer draws one filled path that stays crisp at any size.

Speed: qrcode spends most of its time choosing the best of 8 masks. Every mask gives a valid code
that any reader decodes, so we fix one (`MASK`) and the version (the smallest that holds the
longest URL of the deck), which makes a code about 6x cheaper. Level M survives a pen mark or a
bingo marker across a corner of the code.
"""

from __future__ import annotations

import qrcode
from qrcode.constants import ERROR_CORRECT_M

MASK = 0
Runs = tuple[tuple[int, int, int], ...]  # (row, first column, length) of each dark run


def qr_version(longest: str) -> int:
    """The smallest QR version that holds `longest` at level M (the deck's longest URL)."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK)
    code.add_data(longest)
    code.make(fit=True)
    return code.version


def qr_runs(data: str, version: int) -> tuple[int, Runs]:
    """(size in modules, dark runs) of the QR code for `data`, quiet zone not included."""
    code = qrcode.QRCode(
        version=version, error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK
    )
    code.add_data(data)
    code.make(fit=False)
    runs = []
    for r, row in enumerate(code.modules):
        start = None
        for c, dark in enumerate(row):
            if dark and start is None:
                start = c
            elif not dark and start is not None:
                runs.append((r, start, c - start))
                start = None
        if start is not None:
            runs.append((r, start, len(row) - start))
    return len(code.modules), tuple(runs)
