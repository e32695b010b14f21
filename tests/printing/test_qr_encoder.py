"""The kit's own QR encoder (alphanumeric mode, level M, one mask) must give exactly the matrix the
`qrcode` package makes for the same segment, version and mask: `qrcode` is the reference."""

from __future__ import annotations

import qrcode
from hypothesis import given, settings
from hypothesis import strategies as st
from qrcode.constants import ERROR_CORRECT_M
from qrcode.util import ALPHA_NUM, MODE_ALPHA_NUM, QRData

from bingo_hall.printing.qr import MASK, qr_matrix, qr_path, qr_version


def reference(data: str, version: int) -> list[list[bool]]:
    code = qrcode.QRCode(
        version=version, error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK
    )
    code.add_data(QRData(data, mode=MODE_ALPHA_NUM))
    code.make(fit=False)
    return [[bool(m) for m in row] for row in code.modules]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=ALPHA_NUM.decode(), min_size=1, max_size=200), st.integers(0, 4))
def test_alphanumeric_codes_match_the_qrcode_package_module_for_module(data, extra):
    version = min(40, qr_version(data) + extra)  # also larger versions (7+ carry version info)
    assert qr_matrix(data, version) == reference(data, version)


def test_the_chosen_version_is_the_smallest_that_holds_the_data():
    url = "HTTP://192.168.1.50:5000/C/ABCDEFGH/12000/ABCDEFGHIJKLMNOP"
    version = qr_version(url)
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK)
    code.add_data(QRData(url, mode=MODE_ALPHA_NUM))
    code.make(fit=True)
    assert version == code.version


@settings(max_examples=30, deadline=None)
@given(st.text(alphabet=ALPHA_NUM.decode(), min_size=1, max_size=120))
def test_the_printed_path_fills_exactly_the_dark_modules(data):
    version = qr_version(data)
    size, path = qr_path(data, version)
    filled = set()
    words = path.split()
    for i in range(0, len(words), 5):
        col, row, length, height, op = words[i : i + 5]
        assert (height, op) == ("1", "re")
        filled |= {(int(row), int(col) + k) for k in range(int(length))}
    matrix = reference(data, version)
    assert size == len(matrix)
    assert filled == {
        (r, c) for r, line in enumerate(matrix) for c, dark in enumerate(line) if dark
    }
