"""The device side of BHP/1: the reference firmware's core (firmware_bridge/firmware/), run on
the host with a fake UART and display, against PROTOCOL.md's rules for devices."""

from __future__ import annotations

from firmware_bridge.firmware.bhp_device import Device
from firmware_bridge.firmware.display import (
    Max7219Display,
    Ws2812Display,
    lamp_index,
    last_call_segments,
)
from firmware_bridge.framing import FrameDecoder, encode


class Wire:
    """The host's end of the UART: what the device sent, decoded."""

    def __init__(self) -> None:
        self.decoder = FrameDecoder()
        self.frames: list[str] = []

    def __call__(self, data: bytes) -> None:
        self.frames += [p.decode() for p in self.decoder.feed(data)]


class Lamps:
    def __init__(self) -> None:
        self.lit: list[int] = []
        self.last = None
        self.renders = 0

    def render(self, lit, last) -> None:
        self.lit, self.last = list(lit), last
        self.renders += 1


class Gate:
    def __init__(self) -> None:
        self.releases = 0

    def release(self, device) -> None:
        self.releases += 1


def device(kind="board"):
    wire, lamps, gate = Wire(), Lamps(), Gate()
    return Device(kind, wire, lamps, gate), wire, lamps, gate


def test_hello_is_answered_with_kind_firmware_and_version():
    dev, wire, _, _ = device("combo")
    dev.receive(encode("C1 HELLO BHP/1"), 0)
    assert wire.frames == ["R1 OK combo bhk-ref 1.0"]


def test_show_lights_a_number_and_makes_it_the_last_call():
    dev, wire, lamps, _ = device()
    dev.receive(encode("C1 SHOW 5") + encode("C2 SHOW 61"), 0)
    assert wire.frames == ["R1 OK", "R2 OK"]
    assert (lamps.lit, lamps.last) == ([5, 61], 61)


def test_hide_unlights_and_the_last_call_goes_back_to_the_one_before():
    dev, _, lamps, _ = device()
    dev.receive(encode("C1 SHOW 5") + encode("C2 SHOW 61") + encode("C3 HIDE 61"), 0)
    assert (lamps.lit, lamps.last) == ([5], 5)


def test_clear_darkens_the_board_for_a_new_game():
    dev, _, lamps, _ = device()
    dev.receive(encode("C1 SHOW 5") + encode("C2 CLEAR"), 0)
    assert (lamps.lit, lamps.last) == ([], None)


def test_a_repeated_seq_is_answered_again_but_not_applied_twice():
    dev, wire, lamps, _ = device("balldrop")
    frame = encode("C7 DROP")
    dev.receive(frame + frame + frame, 0)  # the host's resends after lost replies
    assert wire.frames == ["R7 OK"] * 3
    assert dev.applied == 1


def test_a_new_command_with_a_reused_seq_is_not_mistaken_for_a_resend():
    dev, _, lamps, _ = device()
    dev.receive(encode("C7 SHOW 5") + encode("C7 SHOW 6"), 0)
    assert lamps.lit == [5, 6]


def test_hello_always_starts_afresh_even_with_the_last_seq():
    # a restarted host begins at seq 1 again; its HELLO must not be taken for an old resend
    dev, wire, _, _ = device()
    dev.receive(encode("C1 SHOW 5") + encode("C1 HELLO BHP/1"), 0)
    assert wire.frames == ["R1 OK", "R1 OK board bhk-ref 1.0"]


def test_errors_have_codes():
    dev, wire, lamps, _ = device("board")
    for cmd in [
        "C1 SHOW 76",
        "C2 SHOW 0",
        "C3 SHOW x",
        "C4 FLY",
        "C5 DROP",
        "C6 HELLO BHP/2",
        "C7 CLEAR now",
        "C8 HIDE",
    ]:
        dev.receive(encode(cmd), 0)
    assert wire.frames == [
        "R1 ERR ARG",
        "R2 ERR ARG",
        "R3 ERR ARG",
        "R4 ERR VERB",
        "R5 ERR KIND",
        "R6 ERR VERSION",
        "R7 ERR ARG",
        "R8 ERR ARG",
    ]
    assert lamps.lit == []


def test_a_frame_with_a_bad_checksum_is_never_acted_on():
    dev, wire, lamps, _ = device()
    dev.receive(b"C1 SHOW 5*00\n", 0)
    assert (wire.frames, lamps.lit, dev.decoder.bad_checksum) == ([], [], 1)


def test_drop_opens_the_gate_of_a_ball_machine():
    dev, wire, _, gate = device("balldrop")
    dev.receive(encode("C1 DROP"), 0)
    assert (wire.frames, gate.releases) == (["R1 OK"], 1)


def test_a_ball_event_is_resent_every_500_ms_up_to_10_times_until_acked():
    dev, wire, _, _ = device("balldrop")
    dev.ball_read(42, now=1000)
    assert wire.frames == ["E1 BALL 42"]
    dev.poll(1499)
    assert len(wire.frames) == 1
    for t in range(1500, 1500 + 500 * 12, 500):
        dev.poll(t)
    # the first send and 10 resends, then the device gives up
    assert wire.frames == ["E1 BALL 42"] * 11
    assert dev.pending_events == [] and dev.events_lost == 1


def test_an_ack_stops_the_resends():
    dev, wire, _, _ = device("balldrop")
    dev.ball_read(42, now=0)
    dev.ball_read(7, now=0)
    dev.receive(encode("A1"), 10)
    for t in range(500, 3000, 500):
        dev.poll(t)
    assert wire.frames.count("E1 BALL 42") == 1
    assert wire.frames.count("E2 BALL 7") == 6
    assert dev.pending_events == [2]


class Strip(list):
    def __init__(self, n):
        super().__init__([(9, 9, 9)] * n)
        self.writes = 0

    def write(self):
        self.writes += 1


def test_ws2812_lamps_run_b_row_first_and_the_last_call_has_its_own_colour():
    strip = Strip(89)
    Ws2812Display(strip, on=(1, 1, 1), last=(2, 0, 0)).render([1, 16, 75], 75)
    lit = {i for i, c in enumerate(strip) if c != (0, 0, 0)}
    # lamps 0 (B1), 15 (I16), 74 (O75); last call 75: digit 7 = segments a,b,c; 5 = a,c,d,f,g
    assert lit == {0, 15, 74} | {75 + 0, 75 + 1, 75 + 2} | {82 + 0, 82 + 2, 82 + 3, 82 + 5, 82 + 6}
    assert strip[74] == (2, 0, 0) and strip[0] == (1, 1, 1) and strip.writes == 1


def test_a_serpentine_strip_runs_backwards_on_the_i_and_g_rows():
    assert lamp_index(16, serpentine=True) == 29  # I16 is the far end of the second row
    assert lamp_index(30, serpentine=True) == 15
    assert lamp_index(31, serpentine=True) == 30  # N row runs forwards again
    assert lamp_index(46, serpentine=True) == 59


def test_last_call_digits_blank_the_leading_zero():
    assert last_call_segments(None) == (0, 0)
    assert last_call_segments(7) == (0, 0x07)
    assert last_call_segments(42) == (0x66, 0x5B)


def test_max7219_puts_ball_n_on_bit_n_minus_1():
    frames = []
    display = Max7219Display(frames.append)
    rows = display.rows([1, 8, 9, 64, 65, 75])
    assert rows[0] == 0b1000_0001 and rows[1] == 0b1 and rows[7] == 0x80
    assert rows[8] == 0b1 and rows[9] == 0b100  # 65 -> lamp 64, 75 -> lamp 74 = byte 9 bit 2
    frames.clear()
    display.render([75], 75)
    # 8 digit registers, 3 chips each; digit 1 of the third chip (sent first) shows units 5
    assert len(frames) == 8 and frames[0][:2] == bytes((1, 5)) and frames[1][:2] == bytes((2, 7))
