"""Fuzz (issue 6): 10^5 frames of random bytes, truncated frames and bad checksums. The bridge
never crashes and never records a ball that was not sent in a valid frame.

Balls 1-37 are only ever sent in valid event frames, balls 38-75 only in spoiled ones, so any
ball from the second half that reached the station would be a ball nobody sent. A valid frame
that a truncated one runs into is spoiled too (the line is one frame), so it is not expected."""

from __future__ import annotations

import random

import pytest
from testkit import eventually

from firmware_bridge.framing import FrameDecoder, checksum
from firmware_bridge.protocol import Event, ProtocolError, parse_device_message

FRAMES = 100_000
GOOD = range(1, 38)
SPOILED = range(38, 76)


def _frame(payload: bytes) -> bytes:
    return payload + b"*%02X\n" % checksum(payload)


def noisy_stream(rng: random.Random, frames: int, eseq_base: int) -> tuple[bytes, dict[int, int]]:
    """A wire full of faults; returns it and the valid events in it (eseq -> ball)."""
    out, valid = [], {}
    eseq = eseq_base
    for _ in range(frames):
        kind = rng.random()
        if kind < 0.15:  # a valid event, sometimes repeated (the device's resend)
            eseq += 1
            ball = rng.choice(GOOD)
            copies = rng.choice((1, 1, 2))
            if copies == 2 or not out or out[-1].endswith(b"\n"):  # or the fault before
                valid[eseq] = ball  # runs into its only copy
            out.append(_frame(b"E%d BALL %d" % (eseq, ball)) * copies)
        elif kind < 0.40:  # a bad checksum
            body = b"E%d BALL %d" % (rng.randrange(1, 65536), rng.choice(SPOILED))
            out.append(body + b"*%02X\n" % (checksum(body) ^ rng.randrange(1, 256)))
        elif kind < 0.65:  # truncated before its checksum, so it runs into the next line
            body = b"E%d BALL %d" % (rng.randrange(1, 65536), rng.choice(SPOILED))
            out.append(body[: rng.randrange(1, len(body) + 1)])
        elif kind < 0.85:  # random bytes, newlines included
            out.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))))
        else:  # an over-long line that ends in a perfectly good-looking event
            out.append(b"#" * rng.randrange(60, 120) + _frame(b"E1 BALL %d" % rng.choice(SPOILED)))
        if rng.random() < 0.3:
            out.append(b"\n")
    return b"".join(out) + b"\n", valid


@pytest.mark.slow
@pytest.mark.cpu
def test_the_host_decoder_yields_only_the_valid_events_of_100000_noisy_frames():
    stream, valid = noisy_stream(random.Random(2026), FRAMES, eseq_base=0)
    decoder = FrameDecoder()
    seen: dict[int, int] = {}
    for i in range(0, len(stream), 997):  # odd-sized reads, as from a UART
        for payload in decoder.feed(stream[i : i + 997]):
            try:
                msg = parse_device_message(payload)
            except ProtocolError:
                continue
            assert isinstance(msg, Event)
            seen[msg.eseq] = msg.ball
    assert seen == valid
    assert decoder.dropped > FRAMES // 2


@pytest.mark.slow
@pytest.mark.cpu
def test_the_bridge_survives_100000_noisy_frames_over_a_pty(emulator, link):
    emu = emulator("balldrop")
    balls: list[int] = []
    lk = link(emu.path, on_ball=balls.append)
    lk.show_calls([4, 8])
    assert lk.wait_synced()
    stream, valid = noisy_stream(random.Random(75), FRAMES, eseq_base=30000)
    for i in range(0, len(stream), 4096):  # one write() at a time: the device's own replies
        emu.inject(stream[i : i + 4096])  # can only fall between them
    eventually(lambda: lk.counters["events"] == len(valid), timeout=30)
    assert sorted(balls) == sorted(valid.values())
    assert not set(balls) & set(SPOILED)
    # and the bridge still works: it answers a new call at once
    lk.show_calls([4, 8, 15])
    assert lk.wait_synced()
    assert emu.device.lit == [4, 8, 15]


@pytest.mark.slow
@pytest.mark.cpu
def test_the_firmware_acts_only_on_the_valid_commands_of_100000_noisy_frames():
    from firmware_bridge.firmware.bhp_device import Device

    rng = random.Random(1933)
    out, shown, seq = [], [], 0
    for _ in range(FRAMES):
        kind = rng.random()
        if kind < 0.2:  # a valid SHOW of a ball from the good half
            seq = seq % 65535 + 1
            ball = rng.choice(GOOD)
            if not out or out[-1].endswith(b"\n"):
                shown.append(ball)
            out.append(_frame(b"C%d SHOW %d" % (seq, ball)))
        elif kind < 0.5:  # a SHOW of the other half with a bad checksum
            body = b"C%d SHOW %d" % (rng.randrange(1, 65536), rng.choice(SPOILED))
            out.append(body + b"*%02X\n" % (checksum(body) ^ rng.randrange(1, 256)))
        elif kind < 0.75:  # truncated before its checksum
            body = b"C%d SHOW %d" % (rng.randrange(1, 65536), rng.choice(SPOILED))
            out.append(body[: rng.randrange(1, len(body) + 1)])
        else:  # random bytes
            out.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))))
    stream = b"".join(out) + b"\n"
    sent: list[bytes] = []
    device = Device("board", sent.append)
    for i in range(0, len(stream), 61):
        device.receive(stream[i : i + 61], 0)
    # what a board shows after these SHOWs: each ball once, in the order of its last SHOW
    expected = list(dict.fromkeys(reversed(shown)))[::-1]
    assert device.lit == expected
    assert not set(device.lit) & set(SPOILED)
