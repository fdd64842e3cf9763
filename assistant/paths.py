"""Where Table Assistant keeps what it stores (SPEC §1).

Everything lives under one directory, ``TABLE_ASSISTANT_HOME`` (default
``~/.local/share/table-assistant``), so a test or a second table can use its own.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_HOME = Path("~/.local/share/table-assistant")


def home() -> Path:
    """The data directory, read from the environment each time (tests change it)."""
    configured = os.environ.get("TABLE_ASSISTANT_HOME")
    return Path(configured).expanduser() if configured else DEFAULT_HOME.expanduser()


def card_database_path() -> Path:
    """The imported card database: ``$TABLE_ASSISTANT_HOME/cards.sqlite``."""
    return home() / "cards.sqlite"
