"""A BHP/1 device with no hardware: the reference firmware (firmware/) running on the host, its
UART a pseudo-terminal (or a TCP port, where there are no ptys), its lamps drawn in the terminal,
its ball machine a random draw.

Faults can be injected on the line (dropped bytes, bad checksums) and the cable can be pulled
(`unplug`/`replug`): pulling it closes the pty, so the host sees its port fail, and the board loses
power, so it comes back dark, as a real USB-powered board would. With `link` set, the pty's path
is published as a symlink that survives replugs, so the host can reopen the same URL.
"""

from __future__ import annotations

import os
import random
import select
import socket
import threading
import time
from collections.abc import Callable
from typing import TextIO

from .firmware import main as firmware
from .firmware.bhp_device import Device

BALL_ROLL_MS = 300  # from DROP to the ball passing the reader


def board_text(lit: list[int] | tuple[int, ...], last: int | None, colour: bool = True) -> str:
    """The flashboard as text: a row per letter B I N G O, lit numbers highlighted, and the
    last call, as the hall would see it."""
    from bingo_hall.seventyfive.cards import LETTERS, call_name

    on, hot, dim, off = (
        ("\x1b[1;30;43m", "\x1b[1;37;41m", "\x1b[2m", "\x1b[0m") if colour else ("",) * 4
    )
    rows = []
    for r, letter in enumerate(LETTERS):
        cells = []
        for ball in range(15 * r + 1, 15 * r + 16):
            if not colour:
                cells.append(f"[{ball:>2}]" if ball in lit else "  . ")
            elif ball in lit:
                cells.append(f"{hot if ball == last else on}{ball:>2}{off}")
            else:
                cells.append(f"{dim}{ball:>2}{off}")
        rows.append(f" {letter} " + (" ".join(cells) if colour else "".join(cells)))
    rows.append("")
    shown = (
        f"{hot} {call_name(last)} {off}" if last and colour else (call_name(last) if last else "-")
    )
    rows.append(f" last call: {shown}   lit: {len(lit)}")
    return "\n".join(rows)


class TerminalDisplay:
    """Redraws the board on a terminal (or any text stream) on every change."""

    def __init__(self, out: TextIO, header: str = "", colour: bool = True) -> None:
        self.out = out
        self.header = header
        self.colour = colour
        self.footer: Callable[[], str] = lambda: ""

    def render(self, lit: list[int] | tuple[int, ...], last: int | None) -> None:
        clear = "\x1b[H\x1b[2J" if self.colour else ""
        board = board_text(lit, last, self.colour)
        self.out.write(f"{clear}{self.header}\n\n{board}\n {self.footer()}\n")
        self.out.flush()


class _PtyWire:
    """The emulator's end of a pseudo-terminal (POSIX): the host opens the slave's path."""

    def __init__(self) -> None:
        import tty  # POSIX only

        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.name = os.ttyname(self.slave)

    def read(self) -> bytes | None:
        try:
            ready, _, _ = select.select([self.master], [], [], 0.005)
            return os.read(self.master, 4096) if ready else None
        except OSError:
            time.sleep(0.005)
            return None

    def write(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except OSError:
            pass  # nobody has the port open: the bytes are lost, as on a real cable

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


class _TcpWire:
    """A TCP port instead (`socket://127.0.0.1:PORT`), for Windows, which has no ptys: one host
    at a time, as on a cable."""

    def __init__(self, port: int) -> None:
        self.listener = socket.create_server(("127.0.0.1", port))
        self.port = self.listener.getsockname()[1]
        self.name = f"socket://127.0.0.1:{self.port}"
        self.client: socket.socket | None = None

    def read(self) -> bytes | None:
        try:
            if self.client is None:
                if select.select([self.listener], [], [], 0.005)[0]:
                    self.client, _ = self.listener.accept()
                    self.client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                return None
            if not select.select([self.client], [], [], 0.005)[0]:
                return None
            data = self.client.recv(4096)
        except OSError:
            data = b""
        if not data and self.client is not None:  # the host hung up: wait for the next one
            self.client.close()
            self.client = None
        return data or None

    def write(self, data: bytes) -> None:
        if self.client is not None:
            try:
                self.client.sendall(data)
            except OSError:
                pass

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        self.listener.close()


class _EmulatorHal:
    """The firmware's hardware layer on a wire (pty or TCP), with line faults."""

    def __init__(self, wire: _PtyWire | _TcpWire, emu: Emulator) -> None:
        self.wire = wire
        self.emu = emu
        self.display = emu.display
        self.dropper = self
        self._rolling: list[tuple[float, int]] = []

    def uart_read(self) -> bytes | None:
        data = self.wire.read()
        p = self.emu.drop_bytes
        if data and p:
            data = bytes(b for b in data if self.emu.rng.random() >= p)
        return data

    def uart_write(self, data: bytes) -> None:
        rng = self.emu.rng
        if self.emu.bad_checksum and rng.random() < self.emu.bad_checksum:
            data = data[:-2] + (b"0" if data[-2:-1] != b"0" else b"1") + data[-1:]
        if self.emu.drop_bytes:
            data = bytes(b for b in data if rng.random() >= self.emu.drop_bytes)
        self.wire.write(data)

    def ticks_ms(self) -> int:
        return int(time.monotonic() * 1000)

    def release(self, device: Device) -> None:
        """DROP: pick a ball that is neither lit nor out already, and read it after it rolls."""
        out = set(device.lit) | set(device.dropped) | {b for _, b in self._rolling}
        left = [b for b in range(1, 76) if b not in out]
        if left:
            self._rolling.append(
                (time.monotonic() + BALL_ROLL_MS / 1000, self.emu.rng.choice(left))
            )

    def read_ball(self) -> int | None:
        if self._rolling and self._rolling[0][0] <= time.monotonic():
            return self._rolling.pop(0)[1]
        return None


class Emulator:
    """`Emulator(kind).start()`; `.path` is the port to give the bridge."""

    def __init__(
        self,
        kind: str = "board",
        *,
        link: str | None = None,
        tcp: int | None = None,
        drop_bytes: float = 0.0,
        bad_checksum: float = 0.0,
        seed: int | None = None,
        out: TextIO | None = None,
        colour: bool = True,
        name: str = "bhk-emu",
    ) -> None:
        self.kind = kind
        self.link = link
        self.tcp = tcp
        self.drop_bytes = drop_bytes
        self.bad_checksum = bad_checksum
        self.rng = random.Random(seed)
        self.name = name
        self.display = TerminalDisplay(out, colour=colour) if out is not None else None
        self.device: Device | None = None
        self.boots = 0
        self._wire: _PtyWire | _TcpWire | None = None
        self._thread: threading.Thread | None = None
        self._running = False
        self.port_name = ""

    @property
    def path(self) -> str:
        """The URL to give the bridge: the stable link, the pty's path or socket://..."""
        return self.link if self.link and self.tcp is None else self.port_name

    def start(self) -> Emulator:
        if self.tcp is not None:
            tcp = _TcpWire(self.tcp)
            self.tcp = tcp.port  # a replug listens on the same port
            wire: _PtyWire | _TcpWire = tcp
        else:
            wire = _PtyWire()
        self._wire = wire
        self.port_name = wire.name
        if self.link and self.tcp is None:
            tmp = f"{self.link}.tmp{os.getpid()}"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.port_name, tmp)
            os.replace(tmp, self.link)
        if self.display is not None:
            self.display.header = f" BHP/1 {self.kind} emulator on {self.path}"
            self.display.footer = self._line_report
        hal = _EmulatorHal(wire, self)
        if self.device is None:  # power on: a fresh board, dark
            self.device = firmware.build(hal, self.kind, self.name)
            self.boots += 1
        else:  # the same board on a new cable
            self.device.send = hal.uart_write
            if self.device.dropper is not None:
                self.device.dropper = hal
        self._running = True
        device = self.device
        self._thread = threading.Thread(
            target=firmware.loop, args=(device, hal, lambda: not self._running), daemon=True
        )
        self._thread.start()
        return self

    def unplug(self, power_loss: bool = True) -> None:
        """Pull the cable: the host's port fails; with power_loss the board forgets everything."""
        self._running = False
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self.link and self.tcp is None and os.path.islink(self.link):
            os.unlink(self.link)  # as udev removes /dev/ttyACM0: the old pty's number may be reused
        if self._wire is not None:
            self._wire.close()
            self._wire = None
        if power_loss:
            self.device = None

    def replug(self) -> Emulator:
        return self.start()

    def stop(self) -> None:
        self.unplug()

    def _line_report(self) -> str:
        dev = self.device
        if dev is None:
            return ""
        d = dev.decoder
        return (
            f"frames {d.frames}  dropped {d.dropped} (checksum {d.bad_checksum}, long "
            f"{d.too_long}, garbage {d.garbage})  commands {dev.applied}  boots {self.boots}"
        )

    def inject(self, data: bytes) -> None:
        """Put raw bytes on the line towards the host, as noise would (tests, demonstrations)."""
        if self._wire is not None:
            self._wire.write(data)

    def lit(self) -> list[int]:
        return list(self.device.lit) if self.device else []
