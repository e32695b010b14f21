"""BHP/1 framing (PROTOCOL.md, "Framing"): one frame per line, `<payload>*<CK>\\n`, where CK is
the NMEA-style XOR of the payload's bytes in two upper-case hex digits.

This module is shared verbatim by the host and by the MicroPython firmware (it is copied to the
board as `framing.py`), so it keeps to what MicroPython has: no dataclasses, no typing imports,
only bytes methods. Annotations are ignored by MicroPython and cost nothing on CPython.
"""

#: Longest frame, counting `*CK` and the final `\n` (a `\r` before it is tolerated, not counted).
MAX_FRAME = 64
#: Longest payload that fits: 64 minus `*`, two hex digits and `\n`.
MAX_PAYLOAD = MAX_FRAME - 4

_HEX = b"0123456789ABCDEF"


def checksum(payload: bytes) -> int:
    """XOR of every byte of the payload, as in NMEA 0183 sentences."""
    ck = 0
    for b in payload:
        ck ^= b
    return ck


def _printable(payload: bytes) -> bool:
    for b in payload:
        if b < 0x20 or b > 0x7E or b == 0x2A:  # '*' is the checksum separator
            return False
    return True


def encode(payload: str | bytes) -> bytes:
    """One frame on the wire for `payload` (str or bytes). Raises ValueError for a payload the
    protocol does not allow, so the host can never put an invalid frame on the line."""
    if isinstance(payload, str):
        payload = payload.encode()
    if not payload or len(payload) > MAX_PAYLOAD or not _printable(payload):
        raise ValueError("BHP/1 payload must be 1-60 printable ASCII bytes without '*'")
    ck = checksum(payload)
    return payload + b"*" + bytes((_HEX[ck >> 4], _HEX[ck & 15])) + b"\n"


def _hexval(b: int) -> int:
    i = _HEX.find(bytes((b,)))
    return i  # -1 when not an upper-case hex digit


class FrameDecoder:
    """Turns a byte stream into valid payloads. Anything else is dropped and counted, never
    returned: a bad checksum, a line over 64 bytes, or garbage (no `*CK`, bytes that are not
    printable ASCII). After any fault the decoder resynchronises at the next `\\n`.

    Counters: `frames` (valid), `bad_checksum`, `too_long`, `garbage`.
    """

    def __init__(self) -> None:
        self._buf = b""
        self._skipping = False  # inside an over-long line: discard up to the next newline
        self.frames = 0
        self.bad_checksum = 0
        self.too_long = 0
        self.garbage = 0

    @property
    def dropped(self) -> int:
        return self.bad_checksum + self.too_long + self.garbage

    def counters(self) -> dict[str, int]:
        return {
            "frames": self.frames,
            "bad_checksum": self.bad_checksum,
            "too_long": self.too_long,
            "garbage": self.garbage,
        }

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return the payloads (bytes) of the frames they completed."""
        out: list[bytes] = []
        start = 0
        n = len(data)
        while start < n:
            nl = data.find(b"\n", start)
            if nl < 0:
                if not self._skipping:
                    self._buf += data[start:]
                    if len(self._buf) > MAX_FRAME:  # `\r` may still come, so allow 64 + 1
                        self._buf = b""
                        self._skipping = True
                        self.too_long += 1
                break
            if self._skipping:
                self._skipping = False
            else:
                line = self._buf + data[start:nl]
                payload = self._check(line)
                if payload is not None:
                    out.append(payload)
            self._buf = b""
            start = nl + 1
        return out

    def _check(self, line: bytes) -> bytes | None:
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line:
            return None  # a bare newline is a harmless keep-alive; not counted
        if len(line) + 1 > MAX_FRAME:
            self.too_long += 1
            return None
        if len(line) < 4 or line[-3] != 0x2A:
            self.garbage += 1
            return None
        payload = line[:-3]
        hi = _hexval(line[-2])
        lo = _hexval(line[-1])
        if hi < 0 or lo < 0 or not _printable(payload):
            self.garbage += 1
            return None
        if checksum(payload) != hi * 16 + lo:
            self.bad_checksum += 1
            return None
        self.frames += 1
        return payload
