"""The driver following a table, with the Python simulated board or with none."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.live.feed import Snapshot
from assistant.live.table import LiveTable
from hardware.driver import attach, coin_token
from hardware.emulator import wait_until
from hardware.simulated import SimulatedBoard

ATTACK = {"type": "attack", "attack": "Tackle"}


def coin_sources(table: LiveTable) -> list[str]:
    """Who decided each flip the record holds, in order."""
    return [flip["source"] for entry in table.record.entries(table.game_id) if entry.kind == "action"
            for flip in entry.body.get("coins") or ()]


def test_the_simulated_board_flips_the_coin_and_the_record_says_device(table: LiveTable) -> None:
    with attach(table, "sim") as board:
        table.propose(ATTACK)
        assert wait_until(lambda: board.stats.device_coins == 1)
        assert not table.questions and coin_sources(table) == ["device"]


def test_the_simulated_board_shows_the_damage(table: LiveTable) -> None:
    simulated = SimulatedBoard().start()
    try:
        with attach(table, simulated.port):
            question = table.propose(ATTACK).questions[0]
            table.answer(question.id, "heads")
            assert wait_until(lambda: simulated.state.damage[6] == 30)
            assert simulated.state.damage[:2] == (0, 0)
    finally:
        simulated.stop()


def test_without_a_board_the_software_coin_answers_at_once(table: LiveTable) -> None:
    with attach(table, "none"):
        table.propose(ATTACK)
        assert wait_until(lambda: not table.questions)
    assert coin_sources(table) == ["software"]


def test_a_board_that_never_answers_falls_back_after_the_timeout(table: LiveTable, tmp_path: Path) -> None:
    with attach(table, str(tmp_path / "no-such-port"), coin_timeout=0.3) as board:
        table.propose(ATTACK)
        assert wait_until(lambda: board.stats.fallback_coins == 1, timeout=3)
        assert not table.questions and "cannot open" in board.stats.last_error
    assert coin_sources(table) == ["software"]


def test_the_console_fallback_leaves_the_question_to_a_person(table: LiveTable, tmp_path: Path) -> None:
    with attach(table, str(tmp_path / "no-such-port"), fallback="console", coin_timeout=0.2) as board:
        question = table.propose(ATTACK).questions[0]
        assert wait_until(lambda: board.stats.left_to_console == [question.id], timeout=3)
        assert question.id in table.questions
        table.answer(question.id, "tails", source="console")
    assert coin_sources(table) == ["console"]


def test_an_unknown_fallback_is_refused_with_the_choices(table: LiveTable) -> None:
    with pytest.raises(ValueError, match="software or console"):
        attach(table, "none", fallback="dice")


def test_a_coin_token_names_one_question_of_one_game() -> None:
    assert coin_token(1.5, 1, 7) == coin_token(1.5, 1, 7)
    assert len({coin_token(1.5, 1, 7), coin_token(1.5, 1, 8), coin_token(2.5, 1, 7), coin_token(1.5, 2, 7)}) == 4


def test_auto_tries_each_candidate_port_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware import ports

    monkeypatch.setattr(ports, "candidate_ports", lambda: ["/dev/ttyACM0", "/dev/ttyUSB0"])
    finder = ports.PortFinder()
    assert [finder() for _ in range(3)] == ["/dev/ttyACM0", "/dev/ttyUSB0", "/dev/ttyACM0"]
    monkeypatch.setattr(ports, "candidate_ports", lambda: [])
    assert finder() is None


def test_a_failure_inside_the_driver_is_reported_and_the_driver_goes_on(table: LiveTable,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    broken = {"left": 1}
    real_snapshot = table.snapshot

    def flaky_snapshot() -> Snapshot:
        if broken["left"]:
            broken["left"] -= 1
            raise RuntimeError("disk hiccup")
        return real_snapshot()

    monkeypatch.setattr(table, "snapshot", flaky_snapshot)
    with attach(table, "none") as board:
        assert wait_until(lambda: "disk hiccup" in board.stats.last_error)
        table.propose(ATTACK)
        assert wait_until(lambda: board.stats.fallback_coins == 1, timeout=3)
