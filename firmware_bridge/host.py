"""The host end of a BHP/1 link: one serial port (any `serial.serial_for_url` URL), one engine
thread that owns the conversation, and a reader thread that turns bytes into frames.

The station side only says what the board should show (`show_calls`) and may ask for a DROP; the
link works out the commands (`protocol.plan`), resends unanswered ones (200 ms, 5 times), ACKs and
de-duplicates ball events, and when the device goes away it retries with backoff and resyncs with
HELLO, CLEAR and a SHOW per call (PROTOCOL.md, "Reliability"). Losing the device never raises into
the caller: it only changes `status()`.
"""

from __future__ import annotations

import errno
import queue
import threading
import time
from collections.abc import Callable, Sequence
from enum import StrEnum

import serial

from bingo_hall.errors import KitError

from .framing import FrameDecoder, encode
from .protocol import (
    BOARD_LAMPS,
    VERSION,
    BallRefused,
    Event,
    Hello,
    ProtocolError,
    Reply,
    apply,
    next_seq,
    parse_device_message,
    parse_hello,
    plan,
)

REPLY_TIMEOUT = 0.2
RESENDS = 5
BACKOFF = (0.1, 0.25, 0.5, 1.0, 2.0)  # seconds between reconnect attempts, then 2 s forever
IDLE_PING = 2.0  # an idle link is PINGed so an unplugged device is noticed


def check_url(url: str) -> None:
    """A malformed device URL is the user's mistake (KitError: one line, exit 2); a port that is
    not there yet is not: the bridge waits for the board to be plugged in."""
    try:
        serial.serial_for_url(url, do_not_open=True)
    except (ValueError, serial.SerialException) as exc:
        raise KitError(
            "--device %(url)r is not a serial port URL: %(reason)s", url=url, reason=exc
        ) from None


class LinkState(StrEnum):
    """What the caller page shows of the device (the member is the word in GET /api/device)."""

    CONNECTED = "connected"
    RETRYING = "retrying"  # the engine reconnects by itself
    ERROR = "error"  # retrying alone will not help (or the device refused something)
    OFF = "off"


class LinkLost(Exception):
    """The device stopped answering or the port failed; the engine reconnects. `state` is what
    the caller page shows meanwhile: "retrying", or "error" when retrying alone will not help
    (a malformed URL, a device that does not speak BHP/1). `reason` names the common cases
    ("absent", "silent", "lost") so the caller page can say them in the Maestro's language."""

    def __init__(
        self, message: str, state: LinkState = LinkState.RETRYING, reason: str = ""
    ) -> None:
        super().__init__(message)
        self.state = state
        self.reason = reason


class DeviceLink:
    """Drive one device. Thread-safe public methods; all port I/O happens on the engine thread.

    `on_ball(ball)` is called (on the engine thread) for each new ball event; the event is
    acknowledged only after it returns, so a ball the station could not take is offered again
    by the device's resend instead of being lost.
    """

    def __init__(
        self,
        url: str,
        *,
        on_ball: Callable[[int], object] | None = None,
        on_reply: Callable[[str, int | None, Reply], object] | None = None,
        baudrate: int = 115200,
        reply_timeout: float = REPLY_TIMEOUT,
        resends: int = RESENDS,
    ) -> None:
        self.url = url
        self.on_ball = on_ball
        self.on_reply = on_reply
        self.baudrate = baudrate
        self.reply_timeout = reply_timeout
        self.resends = resends
        self.hello: Hello | None = None
        self.shown: tuple[int, ...] = ()  # what the device acknowledged, in order
        self.no_lamp: set[int] = set()  # balls the board refused for want of a lamp (76-90)
        self.counters = {
            "resends": 0,
            "connects": 0,
            "events": 0,
            "duplicates": 0,
            "errors": 0,
            "caught_up": 0,  # times the link had sent everything asked of it (tests wait on it)
        }
        self.decoder = FrameDecoder()
        self._wanted: tuple[int, ...] = ()
        self._drops = 0
        self._lock = threading.Lock()
        self._inbox: queue.Queue[tuple[str, bytes | str]] = queue.Queue()
        self._stop = threading.Event()
        self._synced = threading.Condition(self._lock)
        self._state = (LinkState.OFF, "", "")
        self._port: serial.SerialBase | None = None
        self._seq = 0
        self._seen: set[int] = set()
        self._thread: threading.Thread | None = None
        # A ball the station refused stays reported until the next ball is entered or the calls
        # start again (Next round, a new game): the SHOWs that follow it, for calls made before
        # it, must not wipe it off the caller page the moment it appears.
        self._refusal = ""

    # --- public -------------------------------------------------------------------------
    def start(self) -> DeviceLink:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="bhp-link", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._inbox.put(("wake", b""))
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._close()
        self._set_state(LinkState.OFF, "stopped")

    def show_calls(self, calls: Sequence[int]) -> None:
        """The station's calls in order; the board will light them and show the last one."""
        calls = tuple(calls)
        with self._lock:
            if calls[: len(self._wanted)] != self._wanted:  # not more of the same round
                self._refusal = ""
            self._wanted = calls
        self._inbox.put(("wake", b""))

    def drop(self) -> bool:
        """Ask a ball machine to release one ball. Refused (False) unless the device is connected
        and has a ball machine: a DROP kept for later would release a ball out of the blue."""
        with self._lock:
            if self._state[0] not in (LinkState.CONNECTED, LinkState.ERROR) or not (
                self.hello and self.hello.drops_balls
            ):
                return False
            self._drops += 1
        self._inbox.put(("wake", b""))
        return True

    def status(self) -> dict[str, str]:
        """{"state": "connected"|"retrying"|"error"|"off", "detail": str} for the caller page."""
        with self._lock:
            state, detail, reason = self._state
            return {"state": state, "detail": detail, "reason": reason}

    def wait_synced(self, timeout: float = 5.0) -> bool:
        """Block until the device shows exactly the wanted calls (tests and the benchmark)."""
        with self._synced:
            return self._synced.wait_for(
                lambda: (
                    self._state[0] in (LinkState.CONNECTED, LinkState.ERROR)
                    and self.shown == self._wanted
                ),
                timeout,
            )

    # --- engine -------------------------------------------------------------------------
    def _set_state(self, state: LinkState, detail: str, reason: str = "") -> None:
        with self._lock:
            if state == LinkState.CONNECTED and self._refusal:
                state, detail = LinkState.ERROR, self._refusal
            self._state = (state, detail, reason)
            self._synced.notify_all()

    def _run(self) -> None:
        attempt = 0
        while not self._stop.is_set():
            try:
                self._connect()
                attempt = 0
                self._serve()
            except Exception as exc:  # never let the engine die: the game must go on
                self._close()
                if self._stop.is_set():
                    break
                if isinstance(exc, LinkLost):
                    self._set_state(exc.state, str(exc), exc.reason)
                else:
                    self._set_state(LinkState.ERROR, f"bridge fault: {exc!r}")
                self._stop.wait(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                attempt += 1

    def _connect(self) -> None:
        try:
            port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.05)
        except ValueError as exc:
            raise LinkLost(f"{self.url} is not a serial port URL: {exc}", LinkState.ERROR) from None
        except (serial.SerialException, OSError) as exc:
            message, reason = _open_error(self.url, exc)
            raise LinkLost(message, reason=reason) from None
        self._port = port
        self._inbox = queue.Queue()
        self.decoder = FrameDecoder()  # this connection's line, and its counters
        self._seen = set()  # a (re)connected device starts a new event session
        with self._lock:
            self._drops = 0
        threading.Thread(
            target=self._read, args=(port, self._inbox, self.decoder), daemon=True
        ).start()
        self.hello = parse_hello_or_lost(self._transact("HELLO", VERSION))
        self.shown = ()
        self.no_lamp = set()
        if not self._transact("CLEAR", None).ok:
            raise LinkLost("device refused CLEAR")
        self.counters["connects"] += 1
        h = self.hello
        self._set_state(LinkState.CONNECTED, f"{h.kind} {h.firmware} {h.version} on {self.url}")

    def _serve(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                wanted, drops = self._wanted, self._drops
            steps = plan(self.shown, wanted)
            if steps:
                verb, ball = steps[0]
                if verb == "HIDE" and ball in self.no_lamp:  # never lit: nothing to unlight
                    self.no_lamp.discard(ball)
                    reply = Reply(0, True)
                else:
                    reply = self._transact(verb, ball)
                self.shown = apply(self.shown, verb, ball)
                if not reply.ok:
                    self.counters["errors"] += 1
                    if verb == "SHOW" and ball and ball > BOARD_LAMPS and reply.info[0] == "ARG":
                        self.no_lamp.add(ball)
                    self._set_state(LinkState.ERROR, _refused(verb, ball, reply.info[0]))
                elif not wanted or self.shown == wanted:
                    self._set_state(LinkState.CONNECTED, self._connected_detail())
                continue
            if drops:
                with self._lock:
                    self._drops -= 1
                reply = self._transact("DROP", None)
                if not reply.ok:
                    self._set_state(LinkState.ERROR, f"device answered ERR {reply.info[0]} to DROP")
                continue
            with self._synced:
                self.counters["caught_up"] += 1
                self._synced.notify_all()
            try:
                kind, item = self._inbox.get(timeout=IDLE_PING)
            except queue.Empty:
                self._transact("PING", None)
                continue
            self._dispatch(kind, item, expect=None)

    def _connected_detail(self) -> str:
        h = self.hello
        detail = f"{h.kind} {h.firmware} {h.version} on {self.url}" if h else self.url
        dark = sorted(b for b in self.no_lamp if b in self._wanted)
        if dark:
            detail += " · no lamp for " + ", ".join(map(str, dark))
        return detail

    def _transact(self, verb: str, arg: object) -> Reply:
        """Send one command and wait for its reply, resending with the same seq (PROTOCOL.md)."""
        self._seq = next_seq(self._seq)
        frame = encode(f"C{self._seq} {verb}" + ("" if arg is None else f" {arg}"))
        for attempt in range(self.resends + 1):
            if self._stop.is_set():
                raise LinkLost("stopped")
            if attempt:
                self.counters["resends"] += 1
            self._write(frame)
            deadline = time.monotonic() + self.reply_timeout
            while (left := deadline - time.monotonic()) > 0:
                try:
                    kind, item = self._inbox.get(timeout=left)
                except queue.Empty:
                    break
                reply = self._dispatch(kind, item, expect=self._seq)
                if reply is not None:
                    if self.on_reply is not None:
                        self.on_reply(verb, arg if isinstance(arg, int) else None, reply)
                    return reply
        raise LinkLost(f"no answer to {verb} after {self.resends + 1} tries", reason="silent")

    def _dispatch(self, kind: str, item: bytes | str, expect: int | None) -> Reply | None:
        if kind == "lost":
            raise LinkLost(str(item), reason="lost")
        if kind != "frame":
            return None
        try:
            msg = parse_device_message(item)
        except ProtocolError:
            self.counters["errors"] += 1
            return None
        if isinstance(msg, Event):
            self._event(msg)
            return None
        return msg if msg.seq == expect else None  # a late reply to an earlier try: ignore

    def _event(self, event: Event) -> None:
        """ACK every copy; act on an eseq once (PROTOCOL.md, "Events")."""
        if event.eseq in self._seen:
            self.counters["duplicates"] += 1
        else:
            if self.on_ball is not None:
                try:
                    self.on_ball(event.ball)
                except BallRefused as exc:
                    with self._lock:
                        self._refusal = f"ball {event.ball} not entered: {exc}"
                    self._set_state(LinkState.ERROR, self._refusal)
                except Exception as exc:  # the station is down: no ACK, the device resends
                    self._set_state(LinkState.ERROR, f"ball {event.ball} not entered yet: {exc}")
                    return
                else:
                    with self._lock:
                        self._refusal = ""
            self._seen.add(event.eseq)
            self.counters["events"] += 1
        self._write(encode(f"A{event.eseq}"))

    # --- port ---------------------------------------------------------------------------
    def _write(self, frame: bytes) -> None:
        port = self._port
        if port is None:
            raise LinkLost("port closed")
        try:
            port.write(frame)
        except (serial.SerialException, OSError) as exc:
            raise LinkLost(f"write failed: {exc}", reason="lost") from None

    def _read(
        self,
        port: serial.SerialBase,
        inbox: queue.Queue[tuple[str, bytes | str]],
        decoder: FrameDecoder,
    ) -> None:
        while True:
            try:
                data = port.read(port.in_waiting or 1)  # type: ignore[attr-defined]  # every serial_for_url port has it; the stub's SerialBase does not
            except Exception as exc:  # pyserial raises several types on unplug
                if port.is_open:
                    inbox.put(("lost", f"device lost: {exc}"))
                return
            if not port.is_open:
                return
            for payload in decoder.feed(data):
                inbox.put(("frame", payload))

    def _close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.cancel_read()  # type: ignore[attr-defined]  # as in_waiting above
            except Exception:
                pass
            try:
                port.close()
            except Exception:
                pass


def _refused(verb: str, ball: int | None, code: str) -> str:
    """What the Maestro reads when the board refuses a SHOW or HIDE. A 90-ball game's balls
    76-90 have no lamp on a 75-lamp board: the rest of the board still follows the game."""
    if code == "ARG" and ball is not None and ball > BOARD_LAMPS:
        return (
            f"device answered ERR ARG to {verb} {ball}: this board has no lamp for {ball} "
            f"(a 90-ball game needs a 90-lamp board; balls up to {BOARD_LAMPS} are still lit)"
        )
    return f"device answered ERR {code} to {verb} {ball}"


def _open_error(url: str, exc: Exception) -> tuple[str, str]:
    """pyserial's message repeats the path and the errno; say what a party host can act on."""
    code = exc.args[0] if exc.args and isinstance(exc.args[0], int) else getattr(exc, "errno", None)
    if code == errno.ENOENT:
        return f"{url} is not there: is the board plugged in?", "absent"
    if code == errno.EACCES:
        return f"no permission to open {url} (on Linux: add your user to the dialout group)", ""
    if code == errno.EBUSY:
        return f"{url} is busy: another program has it open", ""
    if code == errno.ECONNREFUSED or "Connection refused" in str(exc):
        return f"nothing answers at {url}", "absent"
    if "Inappropriate ioctl" in str(exc):
        return f"{url} is not a serial port", ""
    return f"cannot open {url}: {exc}", ""


def parse_hello_or_lost(reply: Reply) -> Hello:
    try:
        return parse_hello(reply)
    except ProtocolError as exc:
        raise LinkLost(str(exc), LinkState.ERROR) from None
