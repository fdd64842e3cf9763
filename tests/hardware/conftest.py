"""Fixtures for the table board's tests: a live table to follow, and the real firmware
on an emulated Uno (skipped only where the AVR toolchain or simavr is not installed)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
from live_tables import CARDS, no_database, table_state  # noqa: E402

from assistant.editions import edition  # noqa: E402
from assistant.live.record import Record  # noqa: E402
from assistant.live.table import LiveTable  # noqa: E402
from hardware import emulator  # noqa: E402


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    with Record(tmp_path / "games.sqlite") as record:
        yield LiveTable.start(record, edition("mega-evolution-2025"), table_state(), no_database, cards=CARDS)


@pytest.fixture(scope="session")
def built_firmware() -> None:
    """``make`` the firmware and the simavr harness once per run."""
    if missing := emulator.missing_tools():
        pytest.skip(f"AVR toolchain or simavr not installed: {', '.join(missing)}")
    emulator.build()


@pytest.fixture
def board(built_firmware: None, tmp_path: Path) -> Iterator[emulator.EmulatedBoard]:
    with emulator.EmulatedBoard(tmp_path) as running:
        yield running
