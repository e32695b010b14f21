"""Flashboard displays for the reference firmware: where each of the 75 numbers and the last call
live on a WS2812 strip or on MAX7219 drivers. MicroPython-compatible; the drivers (`neopixel`,
`machine.SPI`) are passed in, so the host tests drive these classes with fakes of the same shape.

Layout (README.md, "Wiring"): five rows B I N G O of fifteen lamps, row r holding 15r+1..15r+15
left to right, as on a hall flashboard; then the last call on two seven-segment digits.
"""

# Seven-segment patterns for 0-9, bits a..g = 0..6 (a top, then clockwise, g middle).
DIGITS = (0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F)
SEGMENTS_PER_DIGIT = 7
NUMBER_LAMPS = 75


def lamp_index(ball, serpentine=False):
    """Position of a ball's lamp on the strip. A serpentine strip runs right-to-left on odd rows
    (the usual way to wire a strip in one piece behind a panel)."""
    row, col = divmod(ball - 1, 15)
    if serpentine and row % 2:
        col = 14 - col
    return row * 15 + col


def last_call_segments(last):
    """Segment bits of the two digits showing the last call (blank when there is none)."""
    if last is None:
        return (0, 0)
    tens, units = divmod(last, 10)
    return (DIGITS[tens] if tens else 0, DIGITS[units])


class Ws2812Display:
    """75 number pixels, then 2 x 7 segment pixels for the last call (89 WS2812 LEDs).
    `pixels` is a `neopixel.NeoPixel` (indexable, `.write()`)."""

    def __init__(self, pixels, on=(255, 140, 0), last=(255, 0, 0), serpentine=False):
        self.pixels = pixels
        self.on = on
        self.last = last
        self.serpentine = serpentine

    def render(self, lit, last):
        off = (0, 0, 0)
        for i in range(NUMBER_LAMPS + 2 * SEGMENTS_PER_DIGIT):
            self.pixels[i] = off
        for ball in lit:
            colour = self.last if ball == last else self.on
            self.pixels[lamp_index(ball, self.serpentine)] = colour
        for d, bits in enumerate(last_call_segments(last)):
            for s in range(SEGMENTS_PER_DIGIT):
                if bits >> s & 1:
                    self.pixels[NUMBER_LAMPS + d * SEGMENTS_PER_DIGIT + s] = self.last
        self.pixels.write()


class Max7219Display:
    """Two daisy-chained MAX7219s in matrix mode for the 75 lamps (chip 0: balls 1-64, chip 1:
    65-75, eight per digit register) and a third in decode mode for the last call's two digits.
    `write(frame)` sends one 16-bit word per chip (first word to the last chip in the chain)."""

    CHIPS = 3

    def __init__(self, write):
        self._write = write
        self._command_all(0x0C, 1)  # leave shutdown
        self._command_all(0x0F, 0)  # no display test
        self._command_all(0x0A, 8)  # mid intensity
        self._command_all(0x0B, 7)  # scan all 8 digits
        self._words([(0x09, 0), (0x09, 0), (0x09, 0x03)])  # chip 2 decodes digits 0-1

    def _words(self, per_chip):
        frame = bytearray()
        for reg, value in reversed(per_chip):
            frame += bytes((reg, value))
        self._write(bytes(frame))

    def _command_all(self, reg, value):
        self._words([(reg, value)] * self.CHIPS)

    def rows(self, lit):
        """The 16 matrix bytes (8 per chip): lamp k (0-based) is bit k%8 of byte k//8."""
        rows = bytearray(16)
        for ball in lit:
            k = ball - 1
            rows[k // 8] |= 1 << (k % 8)
        return rows

    def render(self, lit, last):
        rows = self.rows(lit)
        if last is None:
            digits = (0x0F, 0x0F)  # code B blank
        else:
            digits = (last // 10 if last >= 10 else 0x0F, last % 10)
        for d in range(8):
            third = digits[1 - d] if d < 2 else 0
            self._words([(d + 1, rows[d]), (d + 1, rows[8 + d]), (d + 1, third)])
