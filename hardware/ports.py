"""Finding the table board among the serial ports (``--serial auto``)."""

from __future__ import annotations

from serial.tools import list_ports

#: USB vendor and product ids of Unos and their common clones.
BOARD_IDS = {
    (0x2341, 0x0043), (0x2341, 0x0001), (0x2A03, 0x0043), (0x2341, 0x0243), (0x2341, 0x006A),  # Arduino Uno
    (0x1A86, 0x7523),  # CH340 clones
    (0x0403, 0x6001),  # FTDI
}


def candidate_ports() -> list[str]:
    """Serial ports that may be a board: known Uno ids first, then other USB serial ports."""
    ports = list(list_ports.comports())
    known = [p.device for p in ports if (p.vid, p.pid) in BOARD_IDS]
    other_usb = [p.device for p in ports if p.vid is not None and p.device not in known]
    return known + other_usb


class PortFinder:
    """Each call names the next candidate port, in turn, so that a port that is not the
    board (a phone, a GPS) does not hide one that is. None when there is no candidate."""

    def __init__(self) -> None:
        self._tries = 0

    def __call__(self) -> str | None:
        ports = candidate_ports()
        if not ports:
            return None
        self._tries += 1
        return ports[(self._tries - 1) % len(ports)]
