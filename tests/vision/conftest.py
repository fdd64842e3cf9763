"""Fixtures for the vision tests."""

from __future__ import annotations

import pytest
from vision_scenes import NAMES

from vision.names import NameMatcher
from vision.recognize import Recognizer


@pytest.fixture(scope="session")
def recognizer() -> Recognizer:
    return Recognizer(NameMatcher(NAMES))
