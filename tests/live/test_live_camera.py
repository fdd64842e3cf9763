"""The camera feeds the live table through the mirror: settled pictures in, commands
from the ``camera`` on the record, questions where a person must say what happened, and
the mirror following whatever else the table did. Cards are the embedded set's."""

from __future__ import annotations

import pytest

from assistant.editions import edition
from assistant.live.camera import NOT_SO, CameraLink
from assistant.live.record import Record
from assistant.live.table import LiveTable
from assistant.mirror import SeenCard, TableLayout, TableMirror

ENERGY = "Basic Psychic Energy"


def seen(track: int, name: str, x: float, y: float, rotation: int = 0) -> SeenCard:
    return SeenCard(track, name, None, x, y, rotation)


# A sits at the bottom of the picture (Active row ~0.62, Bench row ~0.87), B at the top.
A_ACTIVE = seen(1, "Ralts", 0.5, 0.62)
A_ENERGY = seen(2, ENERGY, 0.5, 0.70)
A_BENCH = seen(3, "Duskull", 0.25, 0.87)
B_ACTIVE = seen(20, "Scorbunny", 0.5, 0.38, 180)
TABLE = [A_ACTIVE, A_ENERGY, A_BENCH, B_ACTIVE]


def no_lookup(ref: str) -> None:
    return None  # the card book falls back to the embedded cards


@pytest.fixture
def link(record: Record) -> CameraLink:
    rules = edition("mega-evolution-2025")
    made = CameraLink(TableMirror(rules, TableLayout()),
                      lambda state: LiveTable.start(record, rules, state, no_lookup, title="camera"))
    assert made.see(TABLE) == [] and made.table is not None  # the first picture is the position
    return made


def test_the_first_picture_starts_the_table_and_a_new_basic_is_a_camera_command(link: CameraLink) -> None:
    table = link.table
    assert table.position.players["A"].active.card.name == "Ralts"
    (reply,) = link.see([*TABLE, seen(5, "Ralts", 0.75, 0.87)])
    assert reply.accepted
    entry = table.record.entries(table.game_id)[-1]
    assert (entry.kind, entry.body["source"], entry.body["action"]["type"]) == ("action", "camera", "bench")
    assert [s.card.name for s in table.position.players["A"].bench] == ["Duskull", "Ralts"]


def test_a_sideways_active_is_a_question_and_the_answer_is_played_and_followed(link: CameraLink) -> None:
    table = link.table
    sideways = [seen(1, "Ralts", 0.5, 0.62, 270), *TABLE[1:]]
    (reply,) = link.see(sideways)
    (question,) = reply.questions
    assert question.to_json()["answers"] == ["Asleep", "Paralyzed", NOT_SO]
    assert question.to_json()["shows"] == ["Ralts"]  # the card whose picture the judge is shown
    assert table.position.players["A"].active.conditions == set()  # nothing until a person says
    table.answer(question.id, "Paralyzed")  # the judge, at the console
    assert table.position.players["A"].active.conditions == {"Paralyzed"}
    assert link.see(sideways) == []  # the same picture: nothing new to ask
    assert link.mirror.game.position.players["A"].active.conditions == {"Paralyzed"}


def test_the_mirror_follows_a_turn_ended_at_the_console(link: CameraLink) -> None:
    link.table.propose({"type": "end_turn"}, source="console")
    link.see(TABLE)
    assert link.mirror.game.position.current == "B" == link.table.position.current


def test_a_play_the_rules_refuse_is_an_alert_on_the_record(link: CameraLink) -> None:
    second_energy = seen(6, ENERGY, 0.25, 0.95)
    link.see([*TABLE, seen(7, ENERGY, 0.55, 0.72)])  # A's one Energy this turn
    (reply,) = link.see([*TABLE, seen(7, ENERGY, 0.55, 0.72), second_energy])
    assert reply.alert is not None and reply.alert.reason == "energy-already-attached"
    assert reply.alert.source == "camera"
