"""Fixtures shared by the test modules: the command line as a user runs it, and the
shared card data set beside the project."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

SHARED_CARD_DATA = Path(__file__).resolve().parents[2] / "shared" / "pokemon-tcg-data"


@pytest.fixture
def cli(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python -m table_assistant ARGS`` in a fresh process, with
    ``TABLE_ASSISTANT_HOME`` set to the test's ``tmp_path``."""
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(tmp_path)}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "table_assistant", *args], capture_output=True,
                              text=True, env=env, timeout=300)

    return run


@pytest.fixture
def shared_card_data() -> Path:
    """``../shared/pokemon-tcg-data``; a test that needs it is skipped where it is absent."""
    if not SHARED_CARD_DATA.is_dir():
        pytest.skip(f"shared card database not found at {SHARED_CARD_DATA}")
    return SHARED_CARD_DATA
