"""The append-only game log.

Every action offered to a game is appended with what became of it: its events, the coin
flips it used (with their source), or its refusal. Nothing is ever removed. Because the
game is deterministic given its coin results, the position after any accepted action
can be rebuilt from the starting position by replaying the actions with the recorded
coin results. Rewinding is itself an entry: "the judge took back the last N actions".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assistant.engine.actions import Action, Refusal
from assistant.engine.coins import CoinFlip, ScriptedCoins
from assistant.engine.model import Position

if TYPE_CHECKING:
    from assistant.editions import Edition, Rulings
    from assistant.engine.game import Game, Outcome


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

    def position_at(self, count: int, edition: Edition, rulings: Rulings | None = None,
                    **game_options: Any) -> Position:
        """The position after the first ``count`` standing actions."""
        return replay(self.initial, self.effective()[:count], edition, rulings, **game_options)


def replay(initial: Position, entries: list[LogEntry], edition: Edition,
           rulings: Rulings | None = None, **game_options: Any) -> Position:
    """Play ``entries`` again from ``initial`` with their recorded coin results."""
    from assistant.engine.game import Game

    coins = ScriptedCoins(flip.result for entry in entries for flip in entry.flips)
    game = Game(initial.copy(), edition, coins, rulings, record=False, **game_options)
    for entry in entries:
        assert entry.action is not None
        outcome = game.play(entry.action)
        if not outcome.accepted:
            raise RuntimeError(f"replay refused log entry {entry.index}: {outcome.reason}")
    return game.position


def rewind(game: Game, count: int, by: str = "judge") -> LogEntry:
    """Take back the last ``count`` standing actions. The rewind is logged; the game's
    position becomes the rebuilt earlier one."""
    log = game.log
    if log is None:
        raise ValueError("this game keeps no log")
    standing = log.effective()
    if not 0 < count <= len(standing):
        raise ValueError(f"can rewind 1..{len(standing)} actions, not {count}")
    game.position = replay(log.initial, standing[:-count], game.edition, game.rulings,
                           deck_resolver=game.deck_resolver)
    return log.record_rewind(count, by)
