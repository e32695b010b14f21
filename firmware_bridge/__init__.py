"""The firmware bridge: BHP/1, an open serial protocol for LED flashboards and ball machines
(PROTOCOL.md), the host bridge that follows the caller station, an emulator on a pty and
MicroPython reference firmware (firmware/)."""
