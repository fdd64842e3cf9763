"""Table board benchmark: the real firmware on an emulated Uno (simavr), over a pty.

    python -m bench.hardware [--pings N] [--refreshes N] [--flips N]

Builds the firmware and the simavr harness (``make``), starts the harness, and through
the host driver's :class:`~hardware.link.BoardLink` prints:

- the command round trip: a PING and its ACK, host to firmware and back (goal ≤ 5 ms);
- a refresh of all 12 displays: a SHOW and its ACK, the firmware having set up all six
  MAX7219s and written every digit (simavr models each SPI byte at about 120 µs, so this
  is slower than a real Uno at an 8 MHz SPI clock);
- coin flips per minute: FLIP with a new token each time, each flip 15 debiased noise
  bits, one EEPROM record;
- the firmware's flash and RAM use (``avr-size``) against the Uno's 32 256 and 2 048 bytes.

simavr runs about as fast as the real chip when the firmware sleeps between commands,
and as fast as it can when it is busy, so the figures are close to, not equal to, a
real board's; the serial line is simulated at 115 200 baud.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from collections.abc import Callable

from hardware.emulator import FIRMWARE_ELF, HARDWARE, EmulatedBoard, ToolchainMissing
from hardware.link import BoardLink
from hardware.protocol import SPOTS, BoardState


def timed(call: Callable[[int], object], count: int) -> list[float]:
    """Milliseconds each of ``count`` calls of ``call(i)`` took."""
    took = []
    for index in range(count):
        start = time.perf_counter()
        call(index)
        took.append((time.perf_counter() - start) * 1000)
    return took


def summary(took: list[float]) -> str:
    ordered = sorted(took)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(took):.2f} ms, p99 {p99:.2f} ms, worst {max(took):.2f} ms (n={len(took)})"


def firmware_size() -> str:
    done = subprocess.run(["make", "-s", "-C", str(HARDWARE / "firmware"), "size"], capture_output=True, text=True)
    return done.stdout.strip() or f"avr-size failed: {done.stderr.strip()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hardware", description=__doc__.split("\n")[0])
    parser.add_argument("--pings", type=int, default=300)
    parser.add_argument("--refreshes", type=int, default=100)
    parser.add_argument("--flips", type=int, default=200)
    options = parser.parse_args(argv)
    try:
        board = EmulatedBoard()
    except ToolchainMissing as missing:
        print(f"bench.hardware: {missing}")
        return 2
    with board, BoardLink(board.port, reply_timeout=1.0) as link:
        hello = link.connect()
        print(f"board: firmware {hello.firmware}, protocol {hello.protocol}, {hello.spots} displays "
              f"({FIRMWARE_ELF.name} in simavr, 115200 baud over a pty)")
        pings = timed(lambda i: link.ping(), options.pings)
        print(f"command round trip (PING→ACK):         {summary(pings)}   goal p50 ≤ 5 ms")

        def refresh(index: int) -> None:
            link.show(BoardState(tuple((index * 10 + spot) % 400 for spot in range(SPOTS)), (index % 3, 1)))

        refreshes = timed(refresh, options.refreshes)
        print(f"refresh of all {SPOTS} displays (SHOW→ACK): {summary(refreshes)}")
        start = time.perf_counter()
        heads = sum(link.flip(0xBE000000 + i).heads for i in range(options.flips))
        seconds = time.perf_counter() - start
        print(f"coin flips: {options.flips / seconds * 60:,.0f} per minute "
              f"({seconds / options.flips * 1000:.1f} ms each; {heads} heads of {options.flips})")
        print(f"retried commands: {link.retried}")
    print(f"firmware size: {firmware_size()}")
    return 0
