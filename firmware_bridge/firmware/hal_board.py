"""The hardware layer on a real RP2040 or ESP32 running MicroPython: the BHP/1 link (USB serial
or a UART), the display (display.py), the ball gate solenoid and the ball reader.

The ball reader is a barcode/QR scanner module on its own UART (GM65 class, set to "serial
output, continuous mode"): each ball carries a label with its number, the scanner sends the
number as a line of digits when a ball rolls past its window.
"""

import sys

import machine
from bhp_device import NoDisplay, ticks_add, ticks_diff
from display import Max7219Display, Ws2812Display

try:
    from time import ticks_ms
except ImportError:  # CPython, where the host tests run this file with a fake `machine`
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)


def safe_mode(config):
    """A jumper from SAFE_PIN to GND at power-up keeps the firmware from starting, so the USB
    serial port stays a REPL for `mpremote` (BHP/1 on USB turns Ctrl-C off)."""
    pin = machine.Pin(config.SAFE_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    return pin.value() == 0


class Dropper:
    """A solenoid on a MOSFET: DROP pulses it for SOLENOID_PULSE_MS without blocking the loop."""

    def __init__(self, pin, pulse_ms):
        self.pin = machine.Pin(pin, machine.Pin.OUT, value=0)
        self.pulse_ms = pulse_ms
        self.off_at = None

    def release(self, device):
        self.pin.value(1)
        self.off_at = ticks_add(ticks_ms(), self.pulse_ms)

    def service(self):
        if self.off_at is not None and ticks_diff(ticks_ms(), self.off_at) >= 0:
            self.pin.value(0)
            self.off_at = None


class Hal:
    def __init__(self, config):
        if config.LINK == "usb":
            import select

            import micropython

            micropython.kbd_intr(-1)  # Ctrl-C (0x03) is not in BHP/1, but never let it stop us
            self._poll = select.poll()
            self._poll.register(sys.stdin, select.POLLIN)
            self._uart = None
        else:
            self._uart = machine.UART(
                config.UART_ID,
                config.BAUD,
                tx=machine.Pin(config.UART_TX),
                rx=machine.Pin(config.UART_RX),
                timeout=0,
            )
        self._scanner = machine.UART(
            config.SCANNER_UART_ID,
            9600,
            tx=machine.Pin(config.SCANNER_TX),
            rx=machine.Pin(config.SCANNER_RX),
            timeout=0,
        )
        self._scan = b""
        self.display = self._display(config)
        self.dropper = Dropper(config.SOLENOID_PIN, config.SOLENOID_PULSE_MS)

    def _display(self, config):
        if config.DISPLAY == "ws2812":
            import neopixel

            pixels = neopixel.NeoPixel(machine.Pin(config.WS2812_PIN), 89)
            return Ws2812Display(pixels, serpentine=config.SERPENTINE)
        if config.DISPLAY == "max7219":
            spi = machine.SPI(
                config.MAX7219_SPI,
                1000000,
                sck=machine.Pin(config.MAX7219_SCK),
                mosi=machine.Pin(config.MAX7219_MOSI),
            )
            cs = machine.Pin(config.MAX7219_CS, machine.Pin.OUT, value=1)

            def write(frame):
                cs.value(0)
                spi.write(frame)
                cs.value(1)

            return Max7219Display(write)
        return NoDisplay()

    def uart_read(self):
        self.dropper.service()
        if self._uart is not None:
            return self._uart.read()
        data = b""
        while self._poll.poll(1 if not data else 0):
            data += sys.stdin.buffer.read(1)
        return data

    def uart_write(self, data):
        if self._uart is not None:
            self._uart.write(data)
        else:
            sys.stdout.buffer.write(data)

    def ticks_ms(self):
        return ticks_ms()

    def read_ball(self):
        """A ball number from the scanner, once per label read; anything else is ignored."""
        chunk = self._scanner.read()
        if chunk:
            self._scan = (self._scan + chunk.replace(b"\r", b"\n"))[-64:]
        while b"\n" in self._scan:
            line, self._scan = self._scan.split(b"\n", 1)
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= 75:
                return int(text)
        return None
