"""Every position file: the shared samples and our own (SPEC §3)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from assistant.scenario import iter_files, run_file, run_paths

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "scenarios"
OURS = HERE / "scenarios"
FILES = iter_files([str(p) for p in (SHARED, OURS) if p.is_dir()])


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_position_file(path: Path) -> None:
    result = run_file(path)
    assert result.passed, result.message


def test_our_files_cite_rulebook_lines() -> None:
    import json

    mine = list((OURS / "mega-evolution-2025").glob("*.json"))
    assert len(mine) >= 120
    for path in mine:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["source"].startswith("001_75e061fbe3c8e794.txt:"), path.name
        assert data["id"] == path.stem


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/scenarios is not beside the project")
def test_run_paths_last_line_and_exit_code(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_paths([str(SHARED)], None, verbose=False, out=out) == 0
    assert out.getvalue().splitlines()[-1] == "16 passed, 0 failed"
    broken = tmp_path / "broken.json"
    broken.write_text('{"era": "standard", "state": {}, "do": [{"type": "end_turn"}], '
                      '"expect": {"legal": false, "reason": "game-over"}}', encoding="utf-8")
    out = io.StringIO()
    assert run_paths([str(broken)], None, verbose=True, out=out) == 1
    assert out.getvalue().splitlines()[-1] == "0 passed, 1 failed"
