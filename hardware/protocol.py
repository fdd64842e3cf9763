"""The table board's serial protocol, host side (``hardware/PROTOCOL.md`` is the contract;
the firmware's side is ``firmware/src/protocol.h`` and ``framing.cpp``).

A *frame* is ``type, seq, body…, crc16`` (CRC-16/CCITT-FALSE over type, seq and body,
big-endian), COBS-encoded so that it holds no zero byte, and ended by a zero byte. A line
that carries garbage loses only the frame the garbage touched: the decoder starts again
at the next zero.

Every command the host sends is idempotent: ``SHOW`` sets the whole display state, and
``FLIP`` names its coin by a token, so the board answers a repeated token with the side
it already flipped. Sending a command again is therefore always safe, which is what
makes retries, resets and reconnects simple.
"""

from __future__ import annotations

import binascii
import struct
from collections.abc import Iterator
from dataclasses import dataclass

PROTOCOL_VERSION = 1
SPOTS = 12  # two players × (Active + 5 Bench)

# host → board
HELLO = 0x01
SHOW = 0x02
FLIP = 0x03
PING = 0x04
# board → host
ACK = 0x80
HELLO_REPLY = 0x81
COIN = 0x83

STATUS_OK = 0
STATUS_BAD_LENGTH = 1
STATUS_UNKNOWN_TYPE = 2
STATUS_NO_ENTROPY = 3

#: A spot's value that is not a number of damage.
SPOT_BLANK = 0xFFFF   # no Pokémon there
SPOT_DASHES = 0xFFFE  # the board has not been told the state since it started

LIGHT_OFF, LIGHT_ON, LIGHT_BLINK = 0, 1, 2

MAX_FRAME = 48  # decoded bytes, CRC included: the firmware's buffer


class FrameError(ValueError):
    """A frame that is not one: bad COBS, too short, or a CRC that does not match."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF), as the firmware computes it."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the same bytes with no zero among them."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out += bytes([len(block) + 1]) + block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out += b"\xff" + block
                block.clear()
    out += bytes([len(block) + 1]) + block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    out = bytearray()
    index = 0
    while index < len(data):
        code = data[index]
        if code == 0 or index + code > len(data):
            raise FrameError("bad COBS code")
        out += data[index + 1:index + code]
        index += code
        if code != 0xFF and index < len(data):
            out.append(0)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class Frame:
    type: int
    seq: int
    body: bytes = b""

    def encode(self) -> bytes:
        """The bytes on the wire, the closing zero included."""
        plain = bytes([self.type, self.seq]) + self.body
        return cobs_encode(plain + struct.pack(">H", crc16(plain))) + b"\x00"

    @classmethod
    def decode(cls, wire: bytes) -> Frame:
        """One frame from its bytes between two zeros."""
        plain = cobs_decode(wire)
        if len(plain) < 4:
            raise FrameError(f"a frame has at least 4 bytes, not {len(plain)}")
        if len(plain) > MAX_FRAME:
            raise FrameError(f"a frame has at most {MAX_FRAME} bytes, not {len(plain)}")
        payload, (crc,) = plain[:-2], struct.unpack(">H", plain[-2:])
        if crc16(payload) != crc:
            raise FrameError("CRC mismatch")
        return cls(payload[0], payload[1], payload[2:])


class FrameDecoder:
    """Bytes from the line in, good frames out. Garbage, a cut frame or a bad CRC is
    counted in ``dropped`` and skipped; the next zero byte starts afresh."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self.dropped = 0

    def feed(self, data: bytes) -> Iterator[Frame]:
        for byte in data:
            if byte != 0:
                if len(self._pending) <= 2 * MAX_FRAME:
                    self._pending.append(byte)
                continue
            wire, self._pending = bytes(self._pending), bytearray()
            if not wire:
                continue
            try:
                yield Frame.decode(wire)
            except FrameError:
                self.dropped += 1


# -- messages ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardState:
    """What the board should show: each spot's damage (None: no Pokémon there) and each
    player's light (off, on for their turn, blinking for an alert)."""

    damage: tuple[int | None, ...] = (None,) * SPOTS
    lights: tuple[int, int] = (LIGHT_OFF, LIGHT_OFF)

    def show_body(self) -> bytes:
        if len(self.damage) != SPOTS:
            raise ValueError(f"the board has {SPOTS} spots, not {len(self.damage)}")
        values = [SPOT_BLANK if d is None else max(0, min(d, 9999)) for d in self.damage]
        return struct.pack(f">{SPOTS}HB", *values, self.lights[0] | self.lights[1] << 2)

    @classmethod
    def from_show_body(cls, body: bytes) -> BoardState:
        if len(body) != 2 * SPOTS + 1:
            raise FrameError(f"a SHOW body has {2 * SPOTS + 1} bytes, not {len(body)}")
        *values, lights = struct.unpack(f">{SPOTS}HB", body)
        damage = tuple(None if v == SPOT_BLANK else v for v in values)
        return cls(damage, (lights & 3, lights >> 2 & 3))


@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    firmware: str
    spots: int
    reset_cause: int

    @classmethod
    def from_body(cls, body: bytes) -> Hello:
        if len(body) < 5:
            raise FrameError(f"a HELLO reply has 5 bytes, not {len(body)}")
        return cls(body[0], f"{body[1]}.{body[2]}", body[3], body[4])

    def body(self) -> bytes:
        major, minor = (int(part) for part in self.firmware.split("."))
        return bytes([self.protocol, major, minor, self.spots, self.reset_cause])


@dataclass(frozen=True, slots=True)
class CoinReply:
    token: int
    heads: bool
    fresh: bool   # flipped for this ask; False: the side already flipped for this token
    status: int

    @classmethod
    def from_body(cls, body: bytes) -> CoinReply:
        if len(body) != 7:
            raise FrameError(f"a COIN reply has 7 bytes, not {len(body)}")
        token, result, fresh, status = struct.unpack(">IBBB", body)
        return cls(token, bool(result), bool(fresh), status)

    def body(self) -> bytes:
        return struct.pack(">IBBB", self.token, int(self.heads), int(self.fresh), self.status)


def flip_body(token: int) -> bytes:
    return struct.pack(">I", token & 0xFFFFFFFF)
