"""``python -m bench.web`` at a small size: every viewer gets every update, and the stalled
phone is really held by the server (its stream waits) while the others read on."""

from __future__ import annotations

import re

import pytest

from bench.web.run import main


def test_the_bench_reports_every_phase_and_a_held_stalled_phone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--viewers", "6", "--updates", "3", "--interval", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "6 of 6 viewers connected" in out
    phases = re.findall(r"^\d\. .*: (\d+) commands; (\d+)/6 viewers got every one; latency p50 \d+ ms, "
                        r"p95 \d+ ms, max \d+ ms", out, re.MULTILINE)
    assert len(phases) == 3 and all(got == "6" for _, got in phases), out
    assert int(phases[1][0]) > 3  # commands went on until the server held the stalled phone
    assert "the server holds 1 connection(s) until they read" in out
