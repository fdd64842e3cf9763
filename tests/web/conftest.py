"""Fixtures for the web tests: a live table on a record in the test's folder, and the app
over it served on 127.0.0.1."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
from live_tables import CARDS, no_database, table_state  # noqa: E402
from web_server import TOKEN, Served, serve  # noqa: E402

from assistant.editions import edition  # noqa: E402
from assistant.engine.coins import ScriptedCoins  # noqa: E402
from assistant.live.record import Record  # noqa: E402
from assistant.live.table import LiveTable  # noqa: E402
from web.app import create_app  # noqa: E402


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    with Record(tmp_path / "games.sqlite") as record:
        yield LiveTable.start(record, edition("mega-evolution-2025"), table_state(), no_database, cards=CARDS,
                              software_coin=ScriptedCoins(["heads"] * 20))


@pytest.fixture
def served(table: LiveTable) -> Iterator[Served]:
    app = create_app(table, token=TOKEN, lookup=no_database)
    for url in serve(app):
        yield Served(url, table, app)

