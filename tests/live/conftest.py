"""Fixtures for the live-table tests: a record in the test's folder and a table on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from live_tables import CARDS, no_database, table_state

from assistant.editions import edition
from assistant.live.record import Record
from assistant.live.table import LiveTable


@pytest.fixture
def record(tmp_path: Path) -> Iterator[Record]:
    with Record(tmp_path / "games.sqlite") as opened:
        yield opened


@pytest.fixture
def table(record: Record) -> LiveTable:
    return LiveTable.start(record, edition("mega-evolution-2025"), table_state(), no_database, cards=CARDS)
