"""Reference firmware entry point. On the board MicroPython runs this file at boot; `main()` picks
the hardware layer from config.py. On the host, the emulator and the tests call `build` and
`loop` with their own hardware layer, so the same code answers the bridge in both places.

A hardware layer ("hal") is any object with:
  uart_read() -> bytes | None      what arrived since the last call (may wait a few ms)
  uart_write(data: bytes)
  ticks_ms() -> int
  read_ball() -> int | None        a ball the sensor read, once
  display                          .render(lit, last)  (see display.py)
  dropper                          .release(device) or None for a board without a ball machine
"""

try:
    from firmware_bridge.firmware.bhp_device import Device
except ImportError:  # pragma: no cover - MicroPython
    from bhp_device import Device

FIRMWARE_NAME = "bhk-ref"
FIRMWARE_VERSION = "1.0"


def build(hal, kind, name=FIRMWARE_NAME, version=FIRMWARE_VERSION):
    dropper = None if kind == "board" else hal.dropper
    device = Device(kind, hal.uart_write, hal.display, dropper, name, version)
    device.display.render([], None)
    return device


def step(device, hal):
    """One pass of the main loop: serve the UART, the ball sensor and event resends."""
    data = hal.uart_read()
    now = hal.ticks_ms()
    if data:
        device.receive(data, now)
    ball = hal.read_ball()
    if ball:
        device.ball_read(ball, now)
    device.poll(now)


def loop(device, hal, should_stop=None):
    while should_stop is None or not should_stop():
        step(device, hal)


def main():  # pragma: no cover - runs on the board
    import config
    import hal_board

    if hal_board.safe_mode(config):
        print("BHP/1 firmware not started: SAFE_PIN is held low (REPL free)")
        return
    hal = hal_board.Hal(config)
    loop(build(hal, config.KIND), hal)


if __name__ == "__main__":  # pragma: no cover
    main()
