"""The console's flows over the API: the attack form, Pokémon Checkup step by step, and a
camera question confirmed or corrected."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_tables import CARDS, no_database, table_state
from web_server import TOKEN, Served, serve

from assistant.editions import edition
from assistant.live.record import Record
from assistant.live.table import LiveTable
from web.app import create_app
from web.narrate import checkup_line

JUDGE = {"Authorization": f"Bearer {TOKEN}"}


def served_with(tmp_path: Path, conditions: list[str]) -> Iterator[Served]:
    state = table_state(confused=False)
    state["players"]["A"]["active"]["conditions"] = conditions
    with Record(tmp_path / "games.sqlite") as record:
        table = LiveTable.start(record, edition("mega-evolution-2025"), state, no_database, cards=CARDS)
        app = create_app(table, token=TOKEN, lookup=no_database)
        for url in serve(app):
            yield Served(url, table, app)


@pytest.fixture
def calm(tmp_path: Path) -> Iterator[Served]:
    yield from served_with(tmp_path, [])


@pytest.fixture
def sick(tmp_path: Path) -> Iterator[Served]:
    """A's Active is Poisoned, Burned and Asleep: its Checkup flips twice."""
    yield from served_with(tmp_path, ["Poisoned", "Burned", "Asleep"])


def post(served: Served, path: str, body: object = None) -> dict:
    answer = httpx.post(served.url + path, json=body, headers=JUDGE, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def get(served: Served, path: str) -> dict:
    answer = httpx.get(served.url + path, headers=JUDGE, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_attack_form_offers_the_actives_attacks_and_what_else_it_may_hit(calm: Served) -> None:
    form = get(calm, "/api/console/attack")
    assert form["player"] == "A" and form["attacker"] == {"name": "Lechonk", "target": "A.active"}
    assert form["attacks"] == [{"name": "Tackle", "cost": ["Colorless"], "damage": "30"}]
    assert [(t["target"], t["name"]) for t in form["targets"]] == [
        ("B.active", "Wiglett"), ("B.bench[0]", "Skwovet"), ("A.bench[0]", "Skwovet")]
    assert httpx.get(calm.url + "/api/console/attack").status_code == 401


def test_an_attack_declared_with_the_forms_choices_is_judged_like_any_action(calm: Served) -> None:
    form = get(calm, "/api/console/attack")
    declared = {"type": "attack", "attack": form["attacks"][0]["name"], "base": 40,
                "modifiers": [{"on": "attacker", "by": "trainer", "amount": 10}],
                "targets": [{"target": form["targets"][1]["target"], "amount": 20}]}
    reply = post(calm, "/api/console/actions", {"action": declared})
    assert reply["accepted"], reply
    board = httpx.get(calm.url + "/api/board").json()["players"]["B"]
    assert board["active"]["hp_left"] == 50 and board["bench"][0]["hp_left"] == 40
    again = post(calm, "/api/console/actions", {"action": declared})
    assert not again["accepted"] and again["alert"]["citation"].startswith("Mega Evolution rulebook (2025)")


def test_checkup_is_walked_through_one_coin_at_a_time(sick: Served) -> None:
    before = get(sick, "/api/console/checkup")
    assert [(s["condition"], s["name"]) for s in before["plan"]] == [
        ("Poisoned", "Lechonk"), ("Burned", "Lechonk"), ("Asleep", "Lechonk")]
    assert before["asking"] is None and before["last"] is None

    burn = post(sick, "/api/console/actions", {"action": {"type": "end_turn"}})["questions"][0]
    walking = get(sick, "/api/console/checkup")
    assert walking["asking"]["id"] == burn["id"] and walking["asking"]["purpose"] == "burn"
    assert walking["flipped"] == []
    asleep = post(sick, f"/api/console/questions/{burn['id']}/answer", {"answer": "tails"})["questions"][0]
    walking = get(sick, "/api/console/checkup")
    assert walking["asking"]["purpose"] == "asleep" and walking["flipped"] == [{"purpose": "burn", "result": "tails"}]
    assert post(sick, f"/api/console/questions/{asleep['id']}/answer", {"answer": "heads"})["accepted"]

    done = get(sick, "/api/console/checkup")
    assert done["asking"] is None and done["last"]["steps"] == [
        "Poisoned: Lechonk got a damage counter",
        "Burned: tails, Lechonk got 2 damage counters, Lechonk is still Burned",
        "Asleep: heads, Lechonk woke up"]
    assert [s["condition"] for s in done["plan"]] == ["Poisoned", "Burned"]
    assert httpx.get(sick.url + "/api/console/checkup").status_code == 401


def test_a_checkup_step_in_words() -> None:
    assert checkup_line({"step": "paralyzed", "recovered": True}, "Wiglett") == \
        "Paralyzed: Wiglett is no longer Paralyzed"
    assert checkup_line({"step": "burned", "coin": "heads", "counters": 2, "recovered": True}, "Pikachu") == \
        "Burned: heads, Pikachu got 2 damage counters, Pikachu is no longer Burned"


def test_a_camera_question_is_confirmed_with_one_of_its_options(calm: Served) -> None:
    seen = {"type": "condition", "player": "A", "target": "A.active"}
    asked = calm.table.ask("The camera saw A: condition (target A.active). What happened?",
                           {"Asleep": {**seen, "add": "Asleep"}, "Paralyzed": {**seen, "add": "Paralyzed"},
                            "it did not happen": None})
    [question] = get(calm, "/api/console/questions")
    assert question["asked_by"] == "camera" and question["options"]["Paralyzed"]["add"] == "Paralyzed"
    assert post(calm, f"/api/console/questions/{asked.seq}/answer", {"answer": "Paralyzed"})["accepted"]
    assert httpx.get(calm.url + "/api/board").json()["players"]["A"]["active"]["conditions"] == ["Paralyzed"]
