"""The live position is always the fold of the record: whatever commands came in, a
table rebuilt from its record alone is the table that took them."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from live_tables import CARDS, no_database, table_state

from assistant.editions import edition
from assistant.engine.coins import ScriptedCoins
from assistant.engine.positions import CardBook, position_to_json
from assistant.live.record import Record
from assistant.live.table import CommandError, LiveTable

ACTIONS = (
    {"type": "attack", "attack": "Tackle"},
    {"type": "condition", "target": "B.active", "add": "Confused"},
    {"type": "condition", "target": "A.active", "add": "Asleep"},
    {"type": "end_turn"},
    {"type": "retreat", "to": "bench[0]"},
    {"type": "attach", "card": "Grass Energy", "target": "active"},
    {"type": "bench", "card": "benchmon"},
    {"type": "counters", "target": "B.bench[0]", "counters": 3},
)
COMMANDS = st.one_of(
    st.tuples(st.just("propose"), st.sampled_from(ACTIONS)),
    st.tuples(st.just("answer"), st.sampled_from(["heads", "tails"])),
    st.tuples(st.just("rewind"), st.integers(0, 30)),
    st.tuples(st.just("penalty"), st.sampled_from(["caution", "prize-penalty"])),
)


def full_state(table: LiveTable) -> dict:
    """Everything the table holds, hidden zones included."""
    book = CardBook(CARDS, no_database)
    return {"position": position_to_json(table.position, book), "seq": table.seq,
            "questions": sorted(table.questions), "result": table.result,
            "standing": [e.seq for e in table.standing], "snapshot": table.snapshot().state}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(COMMANDS, max_size=25), st.lists(st.sampled_from(["heads", "tails"]), max_size=20))
def test_a_table_rebuilt_from_its_record_is_the_table_that_took_the_commands(commands, coins) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.sqlite"
        record = Record(path)
        table = LiveTable.start(record, edition("mega-evolution-2025"), table_state(), no_database,
                                cards=CARDS, software_coin=ScriptedCoins(coins * 3 or ["heads"]))
        for verb, value in commands:
            try:
                if verb == "propose":
                    table.propose(value)
                elif verb == "answer" and table.questions:
                    table.answer(min(table.questions), value, source="device")
                elif verb == "rewind":
                    table.rewind(value, "property test")
                elif verb == "penalty":
                    table.penalty("A", value, "property test")
            except CommandError:
                pass  # refused outright: nothing recorded, nothing changed
        live = full_state(table)
        record.close()
        with Record(path) as again:
            assert full_state(LiveTable.open(again, table.game_id, no_database)) == live
