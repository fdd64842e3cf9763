"""The live table: commands in, entries on the record, replies out."""

from __future__ import annotations

from pathlib import Path

import pytest
from live_tables import CARDS, no_database, table_state

from assistant.editions import edition
from assistant.engine.coins import ScriptedCoins
from assistant.live.record import GameInUse, Record, RecordError
from assistant.live.table import CommandError, LiveTable

ATTACK = {"type": "attack", "attack": "Tackle"}
END_TURN = {"type": "end_turn"}


def reopen(table: LiveTable, path: Path) -> LiveTable:
    """The same game in a fresh process's eyes: a new connection, the state folded anew."""
    table.record.close()
    return LiveTable.open(Record(path), table.game_id, no_database)


def test_an_accepted_action_is_on_the_record_before_the_reply(table: LiveTable) -> None:
    reply = table.propose({"type": "retreat", "to": "bench[0]"}, source="camera")
    assert reply.accepted and reply.alert is None
    stored = table.record.entries(table.game_id)
    assert [(e.seq, e.kind) for e in stored] == [(reply.seq, "action")]
    assert stored[0].body["source"] == "camera"
    assert table.position.players["A"].active.card.name == "Skwovet"


def test_a_refused_action_is_an_alert_with_its_rule(table: LiveTable) -> None:
    table.propose({"type": "retreat", "to": "bench[0]"})
    reply = table.propose({"type": "retreat", "to": "bench[0]"})
    assert not reply.accepted
    alert = reply.alert.to_json()
    assert alert["reason"] == "retreat-already"
    assert alert["citation"].startswith("Mega Evolution rulebook (2025), line")
    assert [e.kind for e in table.record.entries(table.game_id)] == ["action", "alert"]


def test_a_coin_the_table_cannot_see_becomes_a_question_then_the_action_resumes(table: LiveTable) -> None:
    asked = table.propose(ATTACK)
    assert not asked.accepted and len(asked.questions) == 1
    question = asked.questions[0].to_json()
    assert question["kind"] == "coin" and question["purpose"] == "confusion"
    assert question["answers"] == ["heads", "tails"]
    assert table.position.players["A"].active.damage == 0  # nothing happened yet

    answered = table.answer(question["id"], "Tails", source="device")
    assert answered.accepted
    assert table.position.players["A"].active.damage == 30  # Confused, tails: 3 counters on itself
    action = table.record.entries(table.game_id)[-1]
    assert action.body["coins"] == [{"result": "tails", "source": "device", "purpose": "confusion"}]
    assert table.questions == {}


def test_an_answer_outside_the_allowed_ones_is_refused_with_them(table: LiveTable) -> None:
    question = table.propose(ATTACK).questions[0]
    with pytest.raises(ValueError, match="heads or tails"):
        table.answer(question.id, "edge")
    with pytest.raises(CommandError, match="not open"):
        table.answer(question.id + 100, "heads")
    assert list(table.questions) == [question.id]


def test_the_software_coin_answers_and_the_record_says_so(record: Record) -> None:
    table = LiveTable.start(record, edition("mega-evolution-2025"), table_state(), no_database, cards=CARDS,
                            software_coin=ScriptedCoins(["heads"]))
    question = table.propose(ATTACK).questions[0]
    reply = table.flip(question.id)
    assert reply.accepted
    assert table.position.players["B"].active.damage == 30
    assert table.record.entries(table.game_id)[-1].body["coins"][0]["source"] == "software"


def test_a_malformed_command_gets_a_reason_and_is_not_recorded(table: LiveTable) -> None:
    for bad in ("attack", ["attack"], {"type": "fly"}, {"type": "bench", "card": "nobody"}):
        with pytest.raises(CommandError):
            table.propose(bad)  # type: ignore[arg-type]
    with pytest.raises(CommandError):
        table.propose(ATTACK, source="telepathy")
    assert table.record.entries(table.game_id) == []


def test_a_restart_resumes_the_exact_game_with_its_open_question(table: LiveTable, tmp_path: Path) -> None:
    table.propose({"type": "retreat", "to": "bench[0]"})
    table.propose(END_TURN)
    assert table.propose(ATTACK).accepted  # B's Wiglett is not Confused: no coin
    table.propose(END_TURN)
    choice = table.ask("Which Pokémon did A bench?", {"Skwovet": {"type": "bench", "card": "benchmon"},
                                                      "none": None})
    before = table.snapshot()
    assert before.state["position"]["players"]["A"]["active"]["damage"] == 30

    resumed = reopen(table, tmp_path / "games.sqlite")
    assert resumed.snapshot() == before
    assert list(resumed.questions) == [choice.seq]
    assert resumed.answer(choice.seq, "none").entries[-1].kind == "answer"
    assert resumed.questions == {}


def test_a_coin_question_survives_a_restart(table: LiveTable, tmp_path: Path) -> None:
    question = table.propose(ATTACK).questions[0]
    resumed = reopen(table, tmp_path / "games.sqlite")
    assert [q.to_json() for q in resumed.questions.values()] == [question.to_json()]
    assert resumed.answer(question.id, "heads").accepted
    assert resumed.position.players["B"].active.damage == 30


def test_rewind_is_a_logged_correction_not_a_deletion(table: LiveTable, tmp_path: Path) -> None:
    first = table.propose({"type": "retreat", "to": "bench[0]"})
    table.propose(END_TURN)
    with pytest.raises(CommandError, match="reason"):
        table.rewind(first.seq, "  ")
    reply = table.rewind(first.seq, "B's turn was ended by mistake", by="judge")
    assert table.position.current == "A" and table.position.turn == 5
    kinds = [e.kind for e in table.record.entries(table.game_id)]
    assert kinds == ["action", "action", "rewind"]
    assert table.record.entries(table.game_id)[-1].body["undone"] == [reply.seq - 1]
    assert reopen(table, tmp_path / "games.sqlite").snapshot() == table.snapshot()


def test_penalties_are_on_the_record_and_a_prize_penalty_moves_a_prize(table: LiveTable) -> None:
    table.penalty("A", "warning", "slow play")
    table.penalty("A", "prize-penalty", "drew an extra card")
    assert len(table.position.players["B"].prizes) == 5
    assert len(table.position.players["B"].hand) == 6
    ledger = table.ledger()
    assert ledger[-1].prizes == {"A": 6, "B": 5}
    table.penalty("B", "game-loss", "marked cards")
    assert table.result == {"winner": "A", "why": ["game-loss penalty"]}
    assert table.propose(ATTACK).alert.reason == "game-over"


def test_two_processes_cannot_feed_the_same_game(table: LiveTable, tmp_path: Path) -> None:
    with Record(tmp_path / "games.sqlite") as other, pytest.raises(GameInUse, match="in use"):
        LiveTable.open(other, table.game_id, no_database)


def test_a_damaged_record_is_kept_and_named(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    original = path.read_bytes()
    with pytest.raises(RecordError, match="damaged") as error:
        Record(path)
    assert str(path) in str(error.value)
    assert path.read_bytes() == original
    assert list(tmp_path.glob("games.sqlite.damaged-*"))


def test_another_programs_database_is_not_taken_for_a_record(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(RecordError, match="not a Table Assistant game record"):
        Record(path)


def test_a_record_whose_making_was_cut_short_is_made_again(tmp_path: Path) -> None:
    """Killed after SQLite wrote the file's header (WAL mode) and before the record's
    first commit, the file holds nothing: the next open makes the record in it."""
    import sqlite3

    path = tmp_path / "games.sqlite"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.close()
    assert path.stat().st_size > 0
    with Record(path) as record:
        game = record.new_game("sv", {})
    with Record(path) as record:
        assert [summary.id for summary in record.games()] == [game]


def test_a_record_under_a_file_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(RecordError, match="TABLE_ASSISTANT_HOME"):
        Record(blocker / "games.sqlite")
