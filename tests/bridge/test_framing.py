"""BHP/1 framing (firmware_bridge/PROTOCOL.md, "Framing"), checked against checksums worked out
by hand: XOR of the payload bytes, as in NMEA."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.framing import MAX_FRAME, FrameDecoder, checksum, encode


def test_checksum_is_the_xor_of_the_payload_bytes():
    # C=43 1=31 ' '=20 P=50 I=49 N=4E G=47: 43^31=72, ^20=52, ^50=02, ^49=4B, ^4E=05, ^47=42
    assert checksum(b"C1 PING") == 0x42
    # A=41 7=37: 41^37=76
    assert checksum(b"A7") == 0x76


def test_a_frame_is_payload_star_two_upper_case_hex_digits_and_newline():
    assert encode("C1 PING") == b"C1 PING*42\n"
    assert encode(b"A7") == b"A7*76\n"
    # R=52 5=35 ' '=20 O=4F K=4B: 52^35=67, ^20=47, ^4F=08, ^4B=43
    assert encode("R5 OK") == b"R5 OK*43\n"
    # a checksum under 0x10 keeps its leading zero: 'AA' -> 41^41 = 00
    assert encode("AA") == b"AA*00\n"


@pytest.mark.parametrize("payload", ["", "x" * 61, "C1 SHOW 5\n", "tab\there", "st*r", "ñ"])
def test_a_payload_that_is_not_printable_ascii_or_too_long_is_never_encoded(payload):
    with pytest.raises(ValueError):
        encode(payload)


def test_the_longest_frame_is_64_bytes():
    frame = encode("x" * 60)
    assert len(frame) == MAX_FRAME
    assert FrameDecoder().feed(frame) == [b"x" * 60]


def test_a_device_accepts_crlf_line_ends():
    assert FrameDecoder().feed(b"C1 PING*42\r\n") == [b"C1 PING"]


def test_a_bad_checksum_is_dropped_and_counted_and_the_next_frame_is_read():
    dec = FrameDecoder()
    assert dec.feed(b"C1 PING*43\nA7*76\n") == [b"A7"]
    assert (dec.bad_checksum, dec.frames) == (1, 1)


def test_lower_case_hex_is_not_a_checksum():
    # PROTOCOL.md: two upper-case hex digits. 'AJ' -> 41^4A = 0B, so "*0b" is garbage
    dec = FrameDecoder()
    assert dec.feed(b"AJ*0b\nAJ*0B\n") == [b"AJ"]
    assert dec.garbage == 1


def test_an_over_long_line_is_dropped_whole_and_the_reader_resyncs_at_newline():
    dec = FrameDecoder()
    noise = b"Z" * 200  # arrives in pieces, with no newline for a long time
    out = []
    for i in range(0, len(noise), 7):
        out += dec.feed(noise[i : i + 7])
    # the tail of the long line looks like a frame, but it belongs to the dropped line
    out += dec.feed(b"A7*76\nA7*76\n")
    assert out == [b"A7"]
    assert dec.too_long == 1


def test_a_65_byte_line_with_a_valid_checksum_is_still_too_long():
    payload = b"y" * 61
    ck = checksum(payload)
    dec = FrameDecoder()
    assert dec.feed(payload + b"*%02X\n" % ck) == []
    assert dec.too_long == 1


def test_garbage_without_a_checksum_is_dropped_and_counted():
    dec = FrameDecoder()
    assert dec.feed(b"hello\n\x00\xff*AB\nC1 PING\n*42\n") == []
    assert dec.garbage == 4


def test_a_frame_split_across_reads_byte_by_byte_is_reassembled():
    dec = FrameDecoder()
    out = []
    for b in b"E3 BALL 42*" + b"%02X" % checksum(b"E3 BALL 42") + b"\n":
        out += dec.feed(bytes([b]))
    assert out == [b"E3 BALL 42"]


def test_a_truncated_frame_spoils_only_itself_and_the_line_it_runs_into():
    dec = FrameDecoder()
    # "C1 PI" lost its tail, so it runs into the next frame: that line fails, the third is read
    assert dec.feed(b"C1 PI" + b"A7*76\n" + b"C1 PING*42\n") == [b"C1 PING"]
    assert dec.dropped == 1


@settings(deadline=None)
@given(
    payloads=st.lists(
        st.text(
            alphabet=st.characters(
                min_codepoint=0x20, max_codepoint=0x7E, blacklist_characters="*"
            ),
            min_size=1,
            max_size=60,
        ),
        max_size=20,
    ),
    cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=30),
    crlf=st.booleans(),
)
@pytest.mark.slow
def test_however_the_bytes_are_split_the_same_frames_come_out(payloads, cuts, crlf):
    wire = b"".join(encode(p) for p in payloads)
    if crlf:
        wire = wire.replace(b"\n", b"\r\n")
    points = sorted({0, len(wire), *(c for c in cuts if c < len(wire))})
    dec = FrameDecoder()
    out = []
    for a, b in zip(points, points[1:]):
        out += dec.feed(wire[a:b])
    assert out == [p.encode() for p in payloads]
    assert dec.dropped == 0
