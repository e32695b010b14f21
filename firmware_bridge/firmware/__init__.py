"""MicroPython reference firmware. On the host it is imported by the emulator and the tests; on
the board these files are copied flat (see README.md) and this file is not needed."""
