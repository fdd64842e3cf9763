"""The frame codec: what survives the wire, and what garbage cannot do to it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hardware.protocol import (
    FLIP,
    SHOW,
    SPOTS,
    BoardState,
    CoinReply,
    Frame,
    FrameDecoder,
    cobs_decode,
    cobs_encode,
    crc16,
)

frames = st.builds(Frame, st.integers(0, 255), st.integers(0, 255), st.binary(max_size=40))


def test_crc_is_ccitt_false_as_the_firmware_computes_it() -> None:
    assert crc16(b"123456789") == 0x29B1  # the catalogue check value of CRC-16/CCITT-FALSE


@given(st.binary(max_size=600))
def test_cobs_leaves_no_zero_and_round_trips(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert cobs_decode(encoded) == data


@given(frames)
def test_a_frame_round_trips(frame: Frame) -> None:
    assert list(FrameDecoder().feed(frame.encode())) == [frame]


@given(st.binary(max_size=300), frames, st.binary(max_size=300))
def test_garbage_around_a_frame_costs_only_the_garbage(before: bytes, frame: Frame, after: bytes) -> None:
    decoder = FrameDecoder()
    # whatever came before, a zero ends it; the frame after that zero is intact
    received = list(decoder.feed(before + b"\x00" + frame.encode() + after))
    assert frame in received


@given(st.binary(max_size=2000))
def test_any_bytes_at_all_never_raise(data: bytes) -> None:
    decoder = FrameDecoder()
    for frame in decoder.feed(data):
        assert len(frame.body) <= 44


@given(frames, st.data())
def test_a_changed_byte_is_caught_by_the_crc(frame: Frame, data: st.DataObject) -> None:
    wire = bytearray(frame.encode())
    index = data.draw(st.integers(0, len(wire) - 2))
    wire[index] = data.draw(st.integers(1, 255).filter(lambda b: b != wire[index]))
    decoder = FrameDecoder()
    assert frame not in list(decoder.feed(bytes(wire)))


def test_a_show_message_carries_every_spot_and_both_lights() -> None:
    state = BoardState((0, 10, None, 250, 9999, None, 30, None, None, None, None, 120), (1, 2))
    assert BoardState.from_show_body(state.show_body()) == state
    assert len(Frame(SHOW, 1, state.show_body()).encode()) <= 64  # fits the Uno's serial buffer


def test_damage_past_four_digits_is_shown_as_9999() -> None:
    assert BoardState.from_show_body(BoardState((12345,) + (None,) * (SPOTS - 1)).show_body()).damage[0] == 9999


def test_a_coin_reply_names_its_token() -> None:
    reply = CoinReply(0xDEADBEEF, True, False, 0)
    assert CoinReply.from_body(reply.body()) == reply
    assert Frame(FLIP, 3, reply.body()).type == FLIP
