"""The real firmware on an emulated Uno: builds ``firmware/`` and the simavr harness
(``simavr/board_sim.c``), runs them, and reads back what the displays and lights show.
For the tests and ``python -m bench.hardware``; needs gcc-avr, avr-libc,
arduino-core-avr, simavr and libsimavr-dev (``scripts/apt-packages.txt``).
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

HARDWARE = Path(__file__).resolve().parent
FIRMWARE_ELF = HARDWARE / "firmware" / "build" / "table_board.elf"
HARNESS = HARDWARE / "simavr" / "build" / "board-sim"
SIMAVR_HEADER = Path("/usr/include/simavr/sim_avr.h")
ARDUINO_CORE = Path("/usr/share/arduino/hardware/arduino/avr/cores/arduino")

CHIPS = 6
CODE_B = "0123456789-EHLP "  # the MAX7219's Code B font, 0x0 to 0xF


class ToolchainMissing(RuntimeError):
    """What is missing to build the firmware or the harness."""


def missing_tools() -> list[str]:
    missing = [tool for tool in ("avr-gcc", "make", "cc") if shutil.which(tool) is None]
    if not ARDUINO_CORE.is_dir():
        missing.append("arduino-core-avr")
    if not SIMAVR_HEADER.is_file():
        missing.append("libsimavr-dev")
    return missing


def build() -> tuple[Path, Path]:
    """``make`` the firmware and the harness; their paths. Quick when both are built."""
    if missing := missing_tools():
        raise ToolchainMissing(f"missing: {', '.join(missing)} (scripts/apt-packages.txt lists them)")
    for folder in ("firmware", "simavr"):
        done = subprocess.run(["make", "-s", "-C", str(HARDWARE / folder)], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"make -C hardware/{folder} failed:\n{done.stdout}{done.stderr}")
    return FIRMWARE_ELF, HARNESS


class Max7219Chain:
    """The six chained MAX7219s as the harness saw them latch: their registers, and
    the twelve 4-digit displays they drive."""

    def __init__(self) -> None:
        self.registers = [dict.fromkeys(range(16), 0) for _ in range(CHIPS)]

    def latch(self, shifted: list[int]) -> None:
        """The bytes shifted in since LOAD fell: the first word reaches the last chip."""
        words = [shifted[i:i + 2] for i in range(0, len(shifted) - 1, 2)][-CHIPS:]
        for offset, (register, data) in enumerate(words):
            self.registers[len(words) - 1 - offset][register & 0x0F] = data

    def display(self, spot: int) -> str:
        """The four characters spot ``spot`` shows ('' when its chip is shut down)."""
        chip = self.registers[spot // 2]
        if not chip[0x0C] or chip[0x09] != 0xFF:
            return ""
        first = 1 + 4 * (spot % 2)
        return "".join(CODE_B[chip[digit] & 0x0F] for digit in range(first, first + 4))

    def displays(self) -> list[str]:
        return [self.display(spot) for spot in range(2 * CHIPS)]


class EmulatedBoard:
    """board-sim running the firmware; ``port`` is its serial port (a symlink that
    survives a replug). Use as a context manager."""

    def __init__(self, folder: Path | None = None) -> None:
        elf, harness = build()
        self._tmp = None if folder else tempfile.TemporaryDirectory(prefix="board-sim-")
        self.port = str(Path(folder or self._tmp.name) / "board")  # type: ignore[union-attr]
        self.chain = Max7219Chain()
        self.lights = {"A": 0, "B": 0}
        self.latches = 0
        self._changed = threading.Condition()
        self._ready = threading.Event()
        self._process = subprocess.Popen([str(harness), str(elf), self.port], stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if not self._ready.wait(10):
            self.stop()
            raise RuntimeError("board-sim did not start")

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            words = line.split()
            with self._changed:
                if words[:1] == ["ready"]:
                    self._ready.set()
                elif words[:1] == ["latch"] and len(words) > 1:
                    self.chain.latch([int(word, 16) for word in words[1:]])
                    self.latches += 1
                elif words[:1] == ["light"] and len(words) == 3:
                    self.lights[words[1]] = int(words[2])
                self._changed.notify_all()

    def displays(self) -> list[str]:
        with self._changed:
            return self.chain.displays()

    def wait_for_displays(self, wanted: list[str], timeout: float = 5.0) -> bool:
        """Wait until the displays show ``wanted`` (each spot's four characters)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.chain.displays() == wanted, timeout)

    def reset(self) -> None:
        """Press the reset button: the firmware starts again, the port stays."""
        self._ready.clear()
        self._process.send_signal(signal.SIGUSR1)

    def replug(self) -> None:
        """Pull the USB cable and plug it back: the port goes away and comes back."""
        self._ready.clear()
        self._process.send_signal(signal.SIGUSR2)

    def wait_ready(self, timeout: float = 5.0) -> bool:
        return self._ready.wait(timeout)

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> EmulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def spot_text(damage: int | None) -> str:
    """What a spot's display shows for ``damage`` (None: no Pokémon): right-aligned."""
    return "    " if damage is None else f"{min(damage, 9999):>4}"


def wait_until(condition: Callable[[], object], timeout: float = 5.0, every: float = 0.01) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(every)
    return bool(condition())


