"""A table board simulated in Python on a pseudo-terminal: for the demo and for anyone
without a board (``--serial sim``). It speaks the same protocol as the firmware (it
shares :mod:`hardware.protocol` with the driver) and keeps what the displays and lights
would show; its coin is the operating system's random source.
"""

from __future__ import annotations

import contextlib
import os
import pty
import secrets
import select
import threading
import tty

from hardware.protocol import (
    ACK,
    COIN,
    FLIP,
    HELLO,
    HELLO_REPLY,
    PING,
    PROTOCOL_VERSION,
    SHOW,
    SPOT_DASHES,
    SPOTS,
    STATUS_BAD_LENGTH,
    STATUS_OK,
    STATUS_UNKNOWN_TYPE,
    BoardState,
    CoinReply,
    Frame,
    FrameDecoder,
    FrameError,
    Hello,
)


class SimulatedBoard:
    """A board on a pty: ``port`` is the path a driver opens. Use as a context manager,
    or :meth:`start` and :meth:`stop`."""

    def __init__(self) -> None:
        self._master, slave = pty.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave  # kept open: the port stays there while nobody listens
        self.state = BoardState((SPOT_DASHES,) * SPOTS)
        self._last_token: tuple[int, bool] | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="simulated-board", daemon=True)

    def start(self) -> SimulatedBoard:
        self._thread.start()
        self._send(Frame(HELLO_REPLY, 0, self._hello()))
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=2)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> SimulatedBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _hello(self) -> bytes:
        return Hello(PROTOCOL_VERSION, "1.0", SPOTS, 0).body()

    def _send(self, frame: Frame) -> None:
        with contextlib.suppress(OSError):
            os.write(self._master, frame.encode())

    def _run(self) -> None:
        decoder = FrameDecoder()
        while not self._stopping.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self._master, 256)
            except OSError:
                continue
            for frame in decoder.feed(data):
                self._send(self.handle(frame))

    def handle(self, frame: Frame) -> Frame:
        """The board's reply to one command."""
        if frame.type == HELLO:
            return Frame(HELLO_REPLY, frame.seq, self._hello())
        if frame.type == PING:
            return Frame(ACK, frame.seq, bytes([STATUS_OK]))
        if frame.type == SHOW:
            try:
                self.state = BoardState.from_show_body(frame.body)
            except FrameError:
                return Frame(ACK, frame.seq, bytes([STATUS_BAD_LENGTH]))
            return Frame(ACK, frame.seq, bytes([STATUS_OK]))
        if frame.type == FLIP:
            if len(frame.body) != 4:
                return Frame(ACK, frame.seq, bytes([STATUS_BAD_LENGTH]))
            token = int.from_bytes(frame.body, "big")
            fresh = self._last_token is None or self._last_token[0] != token
            if fresh:
                self._last_token = (token, bool(secrets.randbits(1)))
            assert self._last_token is not None
            return Frame(COIN, frame.seq, CoinReply(token, self._last_token[1], fresh, STATUS_OK).body())
        return Frame(ACK, frame.seq, bytes([STATUS_UNKNOWN_TYPE]))
