"""Where ../shared's evaluation data lies (real scans, the card database: read at run
time, never copied), and the mark for tests that need it: they skip cleanly without."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
SCANS = SHARED / "vision-eval" / "card-scans-sv1"
needs_shared = pytest.mark.skipif(not SCANS.is_dir(), reason="../shared/vision-eval not present")
