"""The device side of BHP/1 (../PROTOCOL.md): what a flashboard or ball machine does with the
host's commands. It is the reference firmware's core and also the emulator's, so the emulator
behaves exactly like a board built from this folder.

It runs unchanged on MicroPython: no dataclasses, no typing, no f-strings with `=`, and every
piece of hardware behind a small object (display, dropper, send) passed in by `main.py` or by the
emulator. Time is integer milliseconds from the caller, so tests need no sleeping.
"""

try:  # on the host this is a package; on the board framing.py sits beside this file
    from firmware_bridge.framing import FrameDecoder, encode
except ImportError:  # pragma: no cover - MicroPython
    from framing import FrameDecoder, encode

try:  # pragma: no cover - MicroPython's wrap-safe tick arithmetic
    from time import ticks_add, ticks_diff
except ImportError:

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b


KINDS = ("board", "balldrop", "combo")
EVENT_RESEND_MS = 500
EVENT_TRIES = 10  # resends after the first send (PROTOCOL.md, "Events")


class NoDisplay:
    """A ball machine without lamps."""

    def render(self, lit, last):
        pass


class Device:
    """One BHP/1 device. `send(bytes)` writes to the UART; `display.render(lit, last)` shows the
    lit numbers (a list, in the order they were shown) and the last call; `dropper.release(dev)`
    opens the ball gate (a ball machine later reports the ball through `ball_read`)."""

    def __init__(self, kind, send, display=None, dropper=None, name="bhk-ref", version="1.0"):
        if kind not in KINDS:
            raise ValueError("kind must be board, balldrop or combo")
        self.kind = kind
        self.name = name
        self.version = version
        self.send = send  # the UART write; a replugged emulator swaps it
        self.display = display or NoDisplay()
        self.dropper = dropper
        self.decoder = FrameDecoder()
        self.lit = []  # shown balls, oldest first; the last call is lit[-1]
        self.dropped = []  # balls released since the last CLEAR
        self.applied = 0  # commands applied (a repeated seq is answered, not counted)
        self.rejected = 0  # valid frames that were not a well-formed host message
        self.events_lost = 0
        self._last = None  # (seq, payload, reply frame) of the last command
        self._eseq = 0
        self._outbox = []  # [eseq, frame, due_ms, resends_left]

    # --- input ---------------------------------------------------------------------------
    def receive(self, data, now):
        """Bytes from the UART. Only valid frames are acted on (framing.FrameDecoder)."""
        for payload in self.decoder.feed(data):
            self._handle(payload, now)

    def _handle(self, payload, now):
        text = payload.decode()
        if text[0] == "A":
            self._ack(text[1:])
            return
        if text[0] != "C":
            self.rejected += 1
            return
        parts = text[1:].split(" ")
        seq = _number(parts[0], 1, 65535)
        if seq is None or len(parts) < 2:
            self.rejected += 1
            return
        verb = parts[1]
        if verb != "HELLO" and self._last is not None and self._last[0] == seq:
            if self._last[1] == payload:  # the host's resend: answer again, do not redo
                self.send(self._last[2])
                return
        reply = self._apply(verb, parts[2:], now)
        frame = encode(f"R{seq} {reply}")
        self._last = (seq, payload, frame)
        self.send(frame)

    def _apply(self, verb, args, now):
        """The command's effect; returns the reply after `R<seq> `."""
        if verb == "HELLO":
            if args != ["BHP/1"]:
                return "ERR VERSION"
            self.applied += 1
            return f"OK {self.kind} {self.name} {self.version}"
        if verb in ("PING", "CLEAR", "DROP"):
            if args:
                return "ERR ARG"
            self.applied += 1
            if verb == "CLEAR":
                self.lit = []
                self.dropped = []
                self._draw()
            elif verb == "DROP":
                if self.kind == "board" or self.dropper is None:
                    self.applied -= 1
                    return "ERR KIND"
                if len(set(self.dropped) | set(self.lit)) >= 75:
                    self.applied -= 1
                    return "ERR EMPTY"
                self.dropper.release(self)
            return "OK"
        if verb in ("SHOW", "HIDE"):
            ball = _number(args[0], 1, 75) if len(args) == 1 else None
            if ball is None:
                return "ERR ARG"
            self.applied += 1
            if ball in self.lit:
                self.lit.remove(ball)
            if verb == "SHOW":
                self.lit.append(ball)
            self._draw()
            return "OK"
        return "ERR VERB"

    def _draw(self):
        self.display.render(self.lit, self.lit[-1] if self.lit else None)

    def _ack(self, rest):
        eseq = _number(rest, 1, 65535)
        if eseq is None:
            self.rejected += 1
            return
        self._outbox = [e for e in self._outbox if e[0] != eseq]

    # --- events --------------------------------------------------------------------------
    def ball_read(self, ball, now):
        """The sensor read a ball: report it until the host acknowledges (500 ms x 10)."""
        self._eseq = self._eseq % 65535 + 1
        if ball not in self.dropped:
            self.dropped.append(ball)
        frame = encode(f"E{self._eseq} BALL {ball}")
        self._outbox.append([self._eseq, frame, ticks_add(now, EVENT_RESEND_MS), EVENT_TRIES])
        self.send(frame)
        return self._eseq

    def poll(self, now):
        """Resend unacknowledged events that are due; give up on one after 10 resends."""
        keep = []
        for event in self._outbox:
            if ticks_diff(now, event[2]) >= 0:
                if event[3] == 0:
                    self.events_lost += 1
                    continue
                event[3] -= 1
                event[2] = ticks_add(now, EVENT_RESEND_MS)
                self.send(event[1])
            keep.append(event)
        self._outbox = keep

    @property
    def pending_events(self):
        return [e[0] for e in self._outbox]


def _number(text, low, high):
    """A decimal in [low, high] written without sign or leading zeros, else None."""
    if not text or not text.isdigit() or (len(text) > 1 and text[0] == "0") or len(text) > 5:
        return None
    value = int(text)
    return value if low <= value <= high else None
