"""The append-only game log.

Every action offered to a game is appended with what became of it: its events, the coin
flips it used (with their source), or its refusal. Nothing is ever removed. Because the
game is deterministic given its coin results, the position after any accepted action
can be rebuilt from the starting position by replaying the actions with the recorded
coin results (:mod:`.replay`). Rewinding is itself an entry: "the judge took back the
last N actions".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assistant.engine.actions import Action, Outcome, Refusal
from assistant.engine.coins import CoinFlip
from assistant.engine.model import Position


@dataclass(frozen=True)
class LogEntry:
    """``kind`` is ``action`` (accepted), ``refused`` or ``rewind`` (``undone`` actions
    taken back, by ``by``)."""

    index: int
    kind: str
    action: Action | None = None
    events: tuple[dict[str, Any], ...] = ()
    flips: tuple[CoinFlip, ...] = ()
    refusal: Refusal | None = None
    undone: int = 0
    by: str = ""


@dataclass
class GameLog:
    initial: Position
    era: str
    entries: list[LogEntry] = field(default_factory=list)

    def record(self, outcome: Outcome) -> LogEntry:
        entry = LogEntry(
            len(self.entries), "action" if outcome.accepted else "refused", outcome.action,
            tuple(outcome.events), tuple(outcome.flips), outcome.refusal,
        )
        self.entries.append(entry)
        return entry

    def record_rewind(self, undone: int, by: str) -> LogEntry:
        entry = LogEntry(len(self.entries), "rewind", undone=undone, by=by)
        self.entries.append(entry)
        return entry

    def effective(self) -> list[LogEntry]:
        """The accepted actions that still stand once every rewind is taken into account."""
        stack: list[LogEntry] = []
        for entry in self.entries:
            if entry.kind == "action":
                stack.append(entry)
            elif entry.kind == "rewind":
                del stack[len(stack) - entry.undone:]
        return stack

    def events(self) -> list[dict[str, Any]]:
        return [event for entry in self.effective() for event in entry.events]
