"""Fixtures for the vision tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from vision_scenes import NAMES

from vision.names import NameMatcher
from vision.recognize import Recognizer

# bench/ is a folder of scripts, not an installed package: its benchmarks' helpers are tested here.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def recognizer() -> Recognizer:
    return Recognizer(NameMatcher(NAMES))
