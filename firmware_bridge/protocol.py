"""The host's half of BHP/1 (PROTOCOL.md) as pure values: commands it sends, replies and events
it reads, and the plan that brings a device from what it shows to what the station has called.

No serial port here (STYLE.md: pure core, thin adapters); `host.py` puts these on the wire.
"""

from __future__ import annotations

from dataclasses import dataclass

VERSION = "BHP/1"
VERBS = ("HELLO", "SHOW", "HIDE", "CLEAR", "DROP", "PING")
SEQ_MAX = 65535
DEVICE_KINDS = ("board", "balldrop", "combo")
MAX_BALL = 90  # SHOW and HIDE carry 1-90: the 75-ball game, or 90-ball strips
MACHINE_BALLS = 75  # BALL events stay 1-75 in BHP/1 (a 75-ball machine; PROTOCOL.md)
BOARD_LAMPS = 75  # the reference flashboard's lamps (B1-O75): it answers ERR ARG above


class ProtocolError(ValueError):
    """A valid frame whose payload is not a BHP/1 message the host understands."""


class BallRefused(Exception):
    """The station will not take a ball from the machine (already called, game drawn
    automatically, no active game): the event is acknowledged and the Maestro is told why."""


def next_seq(seq: int) -> int:
    """Sequence numbers run 1..65535 and wrap to 1 (0 is never used)."""
    return seq % SEQ_MAX + 1


@dataclass(frozen=True)
class Command:
    """`C<seq> <VERB> [ARG]`, host to device."""

    seq: int
    verb: str
    arg: str | None = None

    def payload(self) -> str:
        return f"C{self.seq} {self.verb}" + (f" {self.arg}" if self.arg is not None else "")


@dataclass(frozen=True)
class Reply:
    """`R<seq> OK [INFO...]` or `R<seq> ERR <CODE>`."""

    seq: int
    ok: bool
    info: tuple[str, ...] = ()


@dataclass(frozen=True)
class Event:
    """`E<eseq> BALL <ball>`: the ball machine read a ball. The host answers `A<eseq>`."""

    eseq: int
    ball: int


@dataclass(frozen=True)
class Hello:
    """What a device said about itself in its HELLO reply."""

    kind: str
    firmware: str
    version: str

    @property
    def drops_balls(self) -> bool:
        return self.kind in ("balldrop", "combo")


def _int(text: str, low: int, high: int) -> int:
    # ASCII only: "²" and "①" pass isdigit() but not int()
    if (
        not (text.isascii() and text.isdigit())
        or (len(text) > 1 and text[0] == "0")
        or len(text) > 5
    ):
        raise ProtocolError(f"not a number: {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise ProtocolError(f"{value} outside {low}-{high}")
    return value


def parse_device_message(payload: bytes | str) -> Reply | Event:
    """Read a device-to-host payload (already checked by the framing)."""
    text = payload.decode("ascii") if isinstance(payload, bytes) else payload
    head, _, rest = text.partition(" ")
    if not head or head[0] not in "RE":
        raise ProtocolError(f"unknown message {text!r}")
    number = _int(head[1:], 1, SEQ_MAX)
    words = rest.split(" ") if rest else []
    if head[0] == "R":
        if not words or words[0] not in ("OK", "ERR") or (words[0] == "ERR" and len(words) != 2):
            raise ProtocolError(f"malformed reply {text!r}")
        return Reply(number, words[0] == "OK", tuple(words[1:]))
    if len(words) != 2 or words[0] != "BALL":
        raise ProtocolError(f"malformed event {text!r}")
    return Event(number, _int(words[1], 1, MACHINE_BALLS))


def parse_hello(reply: Reply) -> Hello:
    """`R<seq> OK <kind> <firmware-name> <version>`."""
    if not reply.ok:
        code = reply.info[0] if reply.info else "?"
        raise ProtocolError(f"device refused HELLO {VERSION} ({code})")
    if len(reply.info) != 3 or reply.info[0] not in DEVICE_KINDS:
        raise ProtocolError(f"device's HELLO reply is not BHP/1: {' '.join(reply.info)!r}")
    return Hello(*reply.info)


def plan(shown: tuple[int, ...], wanted: tuple[int, ...]) -> list[tuple[str, int | None]]:
    """The commands that turn a board showing `shown` (in call order) into `wanted`.

    A board lights every shown ball and shows the most recent one as the last call (PROTOCOL.md,
    SHOW/HIDE). New calls at the end become SHOWs; an undo becomes a HIDE. When that would take
    more commands than starting over (a new game), it is a CLEAR and a SHOW per call, as a resync.
    """
    if shown == wanted:
        return []
    common = 0
    while common < min(len(shown), len(wanted)) and shown[common] == wanted[common]:
        common += 1
    removed, added = shown[common:], wanted[common:]
    steps: list[tuple[str, int | None]] = [("HIDE", b) for b in reversed(removed)]
    steps += [("SHOW", b) for b in added]
    if not wanted or len(steps) > len(wanted) + 1:
        return [("CLEAR", None)] + [("SHOW", b) for b in wanted]
    return steps


def apply(shown: tuple[int, ...], verb: str, ball: int | None) -> tuple[int, ...]:
    """What the board shows after a command it acknowledged (the host's model of the board)."""
    if verb == "CLEAR":
        return ()
    if verb in ("SHOW", "HIDE") and ball is not None:
        rest = tuple(b for b in shown if b != ball)
        return rest + (ball,) if verb == "SHOW" else rest
    return shown
