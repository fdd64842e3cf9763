"""The crash drill's table process: plays a scripted game on a record, printing
``ack SEQ KIND`` for each entry once the table has answered (so after it is committed).

Run as ``python crash_driver.py RECORD COMMANDS``. It may be killed at any moment; run
again, it resumes the game from the record and goes on with the script. The script's
next command is a function of the record alone (its last number, its open questions,
the game's result), so a restarted driver neither repeats nor skips a command that the
record holds.
"""

from __future__ import annotations

import sys
from pathlib import Path

from live_tables import CARDS, no_database, table_state

from assistant.editions import edition
from assistant.live.record import Record
from assistant.live.table import LiveTable, Reply

#: Attacks with a Confused Active (a coin question), Confusion passed on by the attack's
#: effect, retreats that are refused once the Energy is gone, and turns that end.
SCRIPT = (
    {"type": "attack", "attack": "Tackle"},
    {"type": "condition", "target": "B.active", "add": "Confused"},
    {"type": "end_turn"},
    {"type": "retreat", "to": "bench[0]"},
    {"type": "attach", "card": "Grass Energy", "target": "active"},
    {"type": "attack", "attack": "Tackle"},
    {"type": "end_turn"},
)


def step(table: LiveTable) -> Reply:
    if table.questions:
        question = table.questions[min(table.questions)]
        return table.answer(question.id, question.answers[question.id % 2], source="device")
    if table.result is not None or (table.seq % 13 == 12 and table.standing):
        last = table.standing[-1].seq
        return table.rewind(last - 1, "crash drill: take the last action back")
    if table.seq % 17 == 16:
        return table.penalty("AB"[table.seq % 2], "caution", "crash drill")
    return table.propose(SCRIPT[table.seq % len(SCRIPT)], source="camera")


def main(path: str, commands: int) -> None:
    record = Record(Path(path))
    games = record.games()
    if games:
        table = LiveTable.open(record, games[0].id, no_database)
    else:
        table = LiveTable.start(record, edition("mega-evolution-2025"), table_state(), no_database, cards=CARDS)
    while table.seq < commands:
        for entry in step(table).entries:
            print(f"ack {entry.seq} {entry.kind}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
