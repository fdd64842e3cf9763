"""The match: best of three, Sudden Death linked to the game it decides, the round clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from live_tables import CARDS, no_database, table_state

from assistant.editions import edition
from assistant.live.match import Match
from assistant.live.record import Record
from assistant.live.table import CommandError

MEGA = edition("mega-evolution-2025")


class FakeClock:
    """Wall-clock time, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def lone_actives() -> dict:
    """Each player has one Pokémon and no Bench: a double Knock Out is a double win."""
    state = table_state(confused=False)
    for player in state["players"].values():
        player["bench"] = []
    state["players"]["B"]["active"]["damage"] = 70  # Tackle's 30 knocks Wiglett out
    return state


def test_best_of_three_with_sudden_death_for_a_double_win(record: Record) -> None:
    match = Match.create(record, MEGA, no_database)
    first = match.new_game(MEGA, table_state(), CARDS)
    first.penalty("B", "game-loss", "marked cards")
    assert match.score() == {"A": 1, "B": 0} and match.result() is None

    second = match.new_game(MEGA, table_state(), CARDS)
    second.penalty("A", "game-loss", "slow play, third time")
    third = match.new_game(MEGA, lone_actives(), CARDS)
    # A's attack knocks out B's last Pokémon and, by its recoil, A's own
    knocked = third.propose({"type": "attack", "attack": "Tackle",
                             "targets": [{"target": "A.active", "amount": 100}]})
    assert knocked.accepted and third.result["winner"] == "sudden-death"
    assert match.score() == {"A": 1, "B": 1}

    decider = match.new_game(MEGA, table_state(), CARDS)
    assert [len(decider.position.players[p].prizes) for p in "AB"] == [1, 1]
    assert record.games()[-1].title == "game 3 (Sudden Death)"
    decider.penalty("B", "game-loss", "decider")
    assert match.result() == {"winner": "A", "score": {"A": 2, "B": 1}}
    with pytest.raises(CommandError, match="over"):
        match.new_game(MEGA, table_state(), CARDS)


def test_a_game_in_play_must_end_before_the_next(record: Record) -> None:
    match = Match.create(record, MEGA, no_database)
    match.new_game(MEGA, table_state(), CARDS)
    with pytest.raises(CommandError, match="still being played"):
        match.new_game(MEGA, table_state(), CARDS)


def test_the_round_clock_pauses_resumes_and_calls_time_once(record: Record, tmp_path: Path) -> None:
    clock = FakeClock()
    match = Match.create(record, MEGA, no_database, round_minutes=50, now=clock)
    table = match.new_game(MEGA, table_state(), CARDS)
    match.start_clock()
    clock.now += 600
    match.pause_clock()
    clock.now += 3600  # a long pause does not count
    with pytest.raises(CommandError, match="not running"):
        match.pause_clock()
    match.resume_clock()
    clock.now += 60
    state = match.clock()
    assert state.running and state.elapsed == pytest.approx(660) and state.remaining == pytest.approx(2340)
    assert match.tick() is None

    clock.now += 2340
    called = match.tick()
    assert called is not None and called.entries[0].kind == "time"
    assert called.entries[0].body["ruling"] == "time_called" and called.entries[0].body["judge"] is True
    assert match.tick() is None  # once
    assert [e.kind for e in table.record.entries(table.game_id)] == ["clock"] * 3 + ["time"]

    # a restarted program finds the same clock, still running on wall-clock time
    table.record.close()
    clock.now += 30
    with Record(tmp_path / "games.sqlite") as again:
        resumed = Match(again, match.id, no_database, now=clock)
        assert resumed.clock().elapsed == pytest.approx(3030) and resumed.clock().called
