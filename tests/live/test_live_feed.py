"""Following the table: numbered updates, resuming, and slow followers."""

from __future__ import annotations

import threading

from assistant.live.feed import Snapshot, Update
from assistant.live.table import LiveTable

RETREAT = {"type": "retreat", "to": "bench[0]"}
END_TURN = {"type": "end_turn"}


def test_a_new_follower_starts_with_a_snapshot_then_numbered_updates(table: LiveTable) -> None:
    table.propose(RETREAT)
    follower = table.subscribe()
    first = follower.get(timeout=1)
    assert isinstance(first, Snapshot) and first.seq == 1
    table.propose(END_TURN)
    update = follower.get(timeout=1)
    assert isinstance(update, Update) and update.seq == 2 and update.entry.kind == "action"
    assert update.to_json()["body"]["events"][0]["type"] in ("checkup", "turn", "draw")
    assert follower.get(timeout=0.05) is None


def test_a_follower_resumes_after_the_last_number_it_saw(table: LiveTable) -> None:
    follower = table.subscribe(after=0)
    table.propose(RETREAT)
    seen = follower.get(timeout=1).seq
    follower.close()
    table.propose(END_TURN)          # missed while disconnected
    table.propose({"type": "attack", "attack": "Tackle"})
    again = table.subscribe(after=seen)
    assert [again.get(timeout=1).seq for _ in range(2)] == [2, 3]
    assert again.get(timeout=0.05) is None


def test_a_stalled_follower_gets_a_snapshot_and_holds_up_nobody(table: LiveTable) -> None:
    table.feed.capacity = 3
    stalled = table.subscribe(after=0)
    lively = table.subscribe(after=0)
    received: list[int] = []

    def follow() -> None:
        while (item := lively.get(timeout=2)) is not None:
            received.append(item.seq)

    reader = threading.Thread(target=follow)
    reader.start()
    table.propose(RETREAT)
    for _ in range(6):  # entries 2-7 alternate end_turn, each accepted
        table.propose(END_TURN)
    reader.join()
    assert received == list(range(1, 8))
    item = stalled.get(timeout=1)
    assert isinstance(item, Snapshot) and item.seq == 7
    assert item.state["position"]["turn"] == table.position.turn
    table.propose(END_TURN)
    assert stalled.get(timeout=1).seq == 8  # and then it goes on from there


def test_spectators_see_no_hand_deck_or_prize_identities(table: LiveTable) -> None:
    players = table.snapshot().state["position"]["players"]
    for player in players.values():
        assert isinstance(player["hand"], dict) and set(player["hand"]) == {"count"}
        assert isinstance(player["deck"], int) and isinstance(player["prizes"], int)


def test_spectators_read_names_and_hp_left_without_a_card_database(table: LiveTable) -> None:
    table.propose({"type": "attack", "attack": "Tackle"})
    table.answer(min(table.questions), "tails", source="device")  # Confused: 30 on itself
    active = table.snapshot().state["position"]["players"]["A"]["active"]
    assert (active["name"], active["hp"], active["hp_left"]) == ("Lechonk", 100, 70)
    assert active["energy_names"] == ["Grass Energy"] and active["types"] == ["Colorless"]
    assert [slot["name"] for slot in table.snapshot().state["position"]["players"]["B"]["bench"]] == ["Skwovet"]


def test_an_update_keeps_the_entry_kind_apart_from_a_question_kind(table: LiveTable) -> None:
    follower = table.subscribe(after=0)
    table.propose({"type": "attack", "attack": "Tackle"})  # Confused: a coin question
    shown = follower.get(timeout=1).to_json()
    assert (shown["kind"], shown["body"]["kind"]) == ("question", "coin")
