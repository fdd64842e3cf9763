"""The serial link to the table board: open the port, shake hands, send a command and
wait for its reply, notice the board restarting or going away.

An Uno restarts when its port is opened (its DTR line is wired to reset), so
:meth:`BoardLink.connect` waits for the board's unasked HELLO, asking for one if it
missed it. Each command gets a fresh sequence number; a reply whose number does not
match (a late reply to an earlier try) is ignored. Commands are idempotent, so a reply
lost to garbage on the line is simply asked for again.

A board that restarts on its own (reset button, brown-out) says HELLO unasked:
``restarts`` counts those, and the driver shows its state again. A board unplugged makes
every call raise :class:`LinkDown` until :meth:`connect` succeeds again.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

import serial

from hardware.protocol import (
    ACK,
    COIN,
    FLIP,
    HELLO,
    HELLO_REPLY,
    PING,
    PROTOCOL_VERSION,
    SHOW,
    STATUS_OK,
    BoardState,
    CoinReply,
    Frame,
    FrameDecoder,
    Hello,
    flip_body,
)

BAUD = 115200
#: How long a freshly opened board may take to start (an Uno's bootloader waits ~1.6 s).
START_TIMEOUT = 3.0


class LinkDown(ConnectionError):
    """The board is not there: never found, unplugged, or not answering."""


class BoardError(RuntimeError):
    """The board answered, but with an error status."""


class BoardLink:
    """One board on one serial port. Thread-safe: one command at a time."""

    def __init__(self, port: str, *, reply_timeout: float = 0.3, retries: int = 3) -> None:
        self.port = port
        self.reply_timeout = reply_timeout
        self.retries = retries
        self.hello: Hello | None = None
        self.restarts = 0          # unasked HELLOs since connect(): the board restarted
        self.retried = 0           # commands sent again after a lost reply
        self._serial: serial.Serial | None = None
        self._decoder = FrameDecoder()
        self._lock = threading.Lock()
        self._seq = 0

    # -- connection ------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._serial is not None

    def connect(self, start_timeout: float = START_TIMEOUT) -> Hello:
        """Open the port and shake hands; :class:`LinkDown` if no board answers."""
        with self._lock:
            self._close()
            self.hello = None
            try:
                self._serial = serial.Serial(self.port, BAUD, timeout=0.02, write_timeout=1.0)
            except (serial.SerialException, OSError) as error:
                raise LinkDown(f"cannot open {self.port}: {error}") from None
            self._decoder = FrameDecoder()
            deadline = time.monotonic() + start_timeout
            asked_at = 0.0
            while time.monotonic() < deadline:
                # the board's own HELLO at start; ask too, in case it started before we listened
                if time.monotonic() - asked_at > 0.5:
                    asked_at = time.monotonic()
                    self._write(Frame(HELLO, self._next_seq()))
                for frame in self._read_frames(0.05):
                    if frame.type == HELLO_REPLY:
                        self.hello = self._check_hello(frame)
                        self.restarts = 0
                        return self.hello
            self._close()
            raise LinkDown(f"no table board answered on {self.port}")

    def _check_hello(self, frame: Frame) -> Hello:
        hello = Hello.from_body(frame.body)
        if hello.protocol != PROTOCOL_VERSION:
            self._close()
            raise LinkDown(f"the board on {self.port} speaks protocol {hello.protocol}, "
                           f"this program {PROTOCOL_VERSION}: update its firmware (make -C hardware/firmware upload)")
        return hello

    def close(self) -> None:
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self._serial is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                self._serial.close()
        self._serial = None

    # -- commands --------------------------------------------------------------------

    def show(self, state: BoardState) -> None:
        """Show ``state`` on the displays and lights."""
        self._status(self.request(SHOW, state.show_body()))

    def ping(self) -> None:
        """The heartbeat: without one for 3 s, the board's lights say the link is lost."""
        self._status(self.request(PING))

    def flip(self, token: int) -> CoinReply:
        """Flip the board's coin for ``token``; asking again for a token gets the side
        already flipped for it."""
        frame = self.request(FLIP, flip_body(token), reply_type=COIN)
        reply = CoinReply.from_body(frame.body)
        if reply.token != token & 0xFFFFFFFF:
            raise BoardError(f"the board flipped for token {reply.token}, not {token}")
        if reply.status != STATUS_OK:
            raise BoardError("the board's noise source failed its health test: no coin")
        return reply

    def request(self, kind: int, body: bytes = b"", *, reply_type: int = ACK) -> Frame:
        """Send a command and return its reply, trying ``retries`` more times when a
        reply does not come within ``reply_timeout``."""
        with self._lock:
            for attempt in range(self.retries + 1):
                if self._serial is None:
                    raise LinkDown(f"the board on {self.port} is not connected")
                seq = self._next_seq()
                self._write(Frame(kind, seq, body))
                deadline = time.monotonic() + self.reply_timeout
                while time.monotonic() < deadline:
                    for frame in self._read_frames(deadline - time.monotonic()):
                        if frame.type == reply_type and frame.seq == seq:
                            if attempt:
                                self.retried += 1
                            return frame
                    if self._serial is None:
                        break
            raise LinkDown(f"the board on {self.port} did not answer")

    @staticmethod
    def _status(frame: Frame) -> None:
        if frame.body[:1] != bytes([STATUS_OK]):
            raise BoardError(f"the board refused the command (status {frame.body[:1].hex()})")

    # -- the wire --------------------------------------------------------------------

    def _next_seq(self) -> int:
        self._seq = self._seq % 255 + 1  # 1..255; 0 is the board's unasked HELLO
        return self._seq

    def _write(self, frame: Frame) -> None:
        if self._serial is None:
            raise LinkDown(f"the board on {self.port} went away")
        try:
            self._serial.write(frame.encode())
        except (serial.SerialException, OSError) as error:
            self._close()
            raise LinkDown(f"the board on {self.port} went away: {error}") from None

    def _read_frames(self, timeout: float) -> list[Frame]:
        """The frames that arrive within ``timeout`` s (returning as soon as one has).
        An unasked HELLO (the board restarted) is counted and not returned."""
        deadline = time.monotonic() + max(timeout, 0.0)
        frames: list[Frame] = []
        while self._serial is not None:
            try:
                data = self._serial.read(self._serial.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError):
                self._close()  # unplugged; pyserial may raise TypeError on a closed fd
                break
            for frame in self._decoder.feed(data):
                if frame.type == HELLO_REPLY and frame.seq == 0 and self.hello is not None:
                    self.restarts += 1
                else:
                    frames.append(frame)
            if frames or time.monotonic() >= deadline:
                break
        return frames

    def poll(self) -> None:
        """Read what the board sent unasked (a restart's HELLO) without sending anything."""
        with self._lock:
            try:
                waiting = self._serial is not None and self._serial.in_waiting
            except (serial.SerialException, OSError):
                self._close()
                raise LinkDown(f"the board on {self.port} went away") from None
            if waiting:
                self._read_frames(0)

    def __enter__(self) -> BoardLink:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
