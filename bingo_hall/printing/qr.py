"""The card's QR code as vector data: the module matrix reduced to horizontal runs of dark modules,
so the printer draws one filled path that stays crisp at any size.

Speed: a deck prints thousands of codes, and the `qrcode` package spends milliseconds on each
(mask scoring, and Reed-Solomon on polynomial objects). Every card URL is upper case, so it fits
QR alphanumeric mode, and for that case this module encodes the data itself (ISO/IEC 18004:
one alphanumeric segment, level M, Reed-Solomon from log/antilog tables) into a template of the
fixed patterns that `qrcode` draws once per version, with one fixed mask (`MASK`): every mask
gives a valid code that any reader decodes. A test checks the result is the very matrix `qrcode`
makes for the same segment, version and mask. Other data (a base URL with characters outside
alphanumeric mode) goes through `qrcode` itself. Level M survives a pen mark or a bingo marker
across a corner of the code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter

import qrcode
from qrcode.base import rs_blocks
from qrcode.constants import ERROR_CORRECT_M
from qrcode.util import ALPHA_NUM, MODE_ALPHA_NUM, length_in_bits, mask_func

MASK = 0
Runs = tuple[tuple[int, int, int], ...]  # (row, first column, length) of each dark run
QrPath = tuple[int, str]  # (size in modules, the dark runs as PDF rectangles)
_ALPHA = {ch: i for i, ch in enumerate(ALPHA_NUM.decode())}
_PAD = (0xEC, 0x11)
_DARK = re.compile("1+")

# GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1.
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


def _alphanumeric(data: str) -> bool:
    return all(ch in _ALPHA for ch in data)


def _capacity_bits(version: int) -> int:
    return 8 * sum(b.data_count for b in rs_blocks(version, ERROR_CORRECT_M))


def _segment_bits(length: int, version: int) -> int:
    count_bits = length_in_bits(MODE_ALPHA_NUM, version)  # type: ignore[arg-type]  # the stub says Final[int], not the Literal
    return 4 + count_bits + 11 * (length // 2) + 6 * (length % 2)


def qr_version(longest: str) -> int:
    """The smallest QR version that holds `longest` at level M (the deck's longest URL)."""
    if _alphanumeric(longest):
        for version in range(1, 41):
            if _segment_bits(len(longest), version) <= _capacity_bits(version):
                return version
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK)
    code.add_data(longest)
    code.make(fit=True)
    return code.version


@lru_cache(maxsize=8)
def _generator(n: int) -> tuple[int, ...]:
    """For each byte value f, f times the generator prod(x - a^i), i < n (leading 1 left out),
    as an n-byte integer: one entry per feedback byte, so the division below is a shift and a
    xor."""
    poly = [1]
    for i in range(n):
        nxt = [0] * (len(poly) + 1)
        for j, coef in enumerate(poly):
            nxt[j] ^= coef
            if coef:
                nxt[j + 1] ^= _EXP[_LOG[coef] + i]
        poly = nxt
    logs = [_LOG[c] for c in poly[1:]]
    rows = [bytes(n)] + [bytes(_EXP[_LOG[f] + g] for g in logs) for f in range(1, 256)]
    return tuple(int.from_bytes(row, "big") for row in rows)


def _ecc(data: list[int], n: int) -> list[int]:
    """Reed-Solomon: the remainder of data(x) * x^n divided by the generator (an LFSR whose
    n-byte register is one integer, first byte most significant)."""
    table = _generator(n)
    shift, full = 8 * (n - 1), (1 << 8 * n) - 1
    rem = 0
    for byte in data:
        rem = ((rem << 8) & full) ^ table[byte ^ (rem >> shift)]
    return list(rem.to_bytes(n, "big"))


def _codewords(data: str, version: int) -> list[int]:
    """Data and error-correction codewords, interleaved as the symbol stores them."""
    count_bits = length_in_bits(MODE_ALPHA_NUM, version)  # type: ignore[arg-type]  # the stub says Final[int], not the Literal
    acc, nbits = (MODE_ALPHA_NUM << count_bits) | len(data), 4 + count_bits
    values = [_ALPHA[ch] for ch in data]
    for i in range(0, len(values) - 1, 2):
        acc = (acc << 11) | (45 * values[i] + values[i + 1])
    nbits += 11 * (len(values) // 2)
    if len(values) % 2:
        acc, nbits = (acc << 6) | values[-1], nbits + 6
    blocks = rs_blocks(version, ERROR_CORRECT_M)
    capacity = 8 * sum(b.data_count for b in blocks)
    if nbits > capacity:
        raise ValueError(f"{len(data)} characters do not fit QR version {version}")
    pad = min(4, capacity - nbits)  # the terminator, then zeros to a whole byte
    pad += -(nbits + pad) % 8
    acc, nbits = acc << pad, nbits + pad
    stream = list(acc.to_bytes(nbits // 8, "big"))
    stream.extend(_PAD[i % 2] for i in range(capacity // 8 - len(stream)))

    data_blocks, ecc_blocks, at = [], [], 0
    for b in blocks:
        chunk = stream[at : at + b.data_count]
        at += b.data_count
        data_blocks.append(chunk)
        ecc_blocks.append(_ecc(chunk, b.total_count - b.data_count))
    out: list[int] = []
    for group in (data_blocks, ecc_blocks):
        for i in range(max(len(g) for g in group)):
            out.extend(g[i] for g in group if i < len(g))
    return out


@lru_cache(maxsize=4)
def _template(version: int) -> tuple[int, int, int, Callable[[str], tuple[str, ...]]]:
    """What every code of a version shares: the fixed patterns (finders, timing, alignment,
    format and version info) drawn by `qrcode`, and the data cells in placement order.

    Returns (size, number of data cells, mask bits as an int, picker). The picker takes the
    string "<data bits><0><1>" and gives the symbol's rows, each followed by a '0' separator, as
    a tuple of characters: a data cell picks its bit, a fixed cell picks the '0' or the '1'.
    """
    code = qrcode.QRCode(
        version=version, error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK
    )
    n = code.modules_count = version * 4 + 17
    code.modules = [[None] * n for _ in range(n)]
    code.setup_position_probe_pattern(0, 0)
    code.setup_position_probe_pattern(n - 7, 0)
    code.setup_position_probe_pattern(0, n - 7)
    code.setup_position_adjust_pattern()
    code.setup_timing_pattern()
    code.setup_type_info(False, MASK)
    if version >= 7:
        code.setup_type_number(False)
    masked = mask_func(MASK)
    order = []
    row, step = n - 1, -1
    for col in range(n - 1, 0, -2):  # two columns at a time, zigzag, skipping the timing column
        if col <= 6:
            col -= 1
        while 0 <= row < n:
            for c in (col, col - 1):
                if code.modules[row][c] is None:
                    order.append((row, c))
            row += step
        row -= step
        step = -step
    cells = len(order)
    position = {cell: k for k, cell in enumerate(order)}
    zero, one = cells, cells + 1
    source = []
    for r in range(n):
        for c in range(n):
            fixed = code.modules[r][c]
            source.append(position[(r, c)] if fixed is None else (one if fixed else zero))
        source.append(zero)
    flips = 0
    for r, c in order:
        flips = (flips << 1) | bool(masked(r, c))
    return n, cells, flips, itemgetter(*source)


def _symbol(data: str, version: int) -> tuple[int, str]:
    """(size, the rows as one string of '0'/'1', each row followed by a '0')."""
    n, cells, flips, pick = _template(version)
    words = _codewords(data, version)
    bits = int.from_bytes(bytes(words), "big") << (cells - 8 * len(words))
    return n, "".join(pick(format(bits ^ flips, f"0{cells}b") + "01"))


def qr_matrix(data: str, version: int) -> list[list[bool]]:
    """The module matrix (True = dark), quiet zone not included."""
    if _alphanumeric(data):
        n, text = _symbol(data, version)
        return [[ch == "1" for ch in text[r * (n + 1) : r * (n + 1) + n]] for r in range(n)]
    code = qrcode.QRCode(
        version=version, error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK
    )
    code.add_data(data)
    code.make(fit=False)
    return [[bool(m) for m in line] for line in code.modules]


def qr_runs(data: str, version: int) -> tuple[int, Runs]:
    """(size in modules, dark runs) of the QR code for `data`, quiet zone not included."""
    matrix = qr_matrix(data, version)
    runs = []
    for r, row in enumerate(matrix):
        start = None
        for c, dark in enumerate(row):
            if dark and start is None:
                start = c
            elif not dark and start is not None:
                runs.append((r, start, c - start))
                start = None
        if start is not None:
            runs.append((r, start, len(row) - start))
    return len(matrix), tuple(runs)


def qr_path(data: str, version: int) -> QrPath:
    """(size in modules, PDF path): each dark run as "col row length 1 re", in module units with
    y downwards, ready to fill. This is what the printer draws; workers make it in parallel."""
    if _alphanumeric(data):
        n, text = _symbol(data, version)
        width = n + 1
        parts = []
        for m in _DARK.finditer(text):
            row, col = divmod(m.start(), width)
            parts.append(f"{col} {row} {m.end() - m.start()} 1 re")
        return n, " ".join(parts)
    n, runs = qr_runs(data, version)
    return n, " ".join(f"{col} {r} {length} 1 re" for r, col, length in runs)
