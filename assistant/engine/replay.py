"""Replay and rewind: a game's log played again.

The game is deterministic given its coin results, so the position after any standing
action is rebuilt by playing the log's actions again from the starting position with
the coin results they recorded. Rewinding takes back the last actions this way and is
logged itself: nothing is ever removed from the log.
"""

from __future__ import annotations

from typing import Any

from assistant.editions import Edition, Rulings
from assistant.engine.coins import ScriptedCoins
from assistant.engine.game import Game
from assistant.engine.log import GameLog, LogEntry
from assistant.engine.model import Position


def replay(initial: Position, entries: list[LogEntry], edition: Edition,
           rulings: Rulings | None = None, **game_options: Any) -> Position:
    """Play ``entries`` again from ``initial`` with their recorded coin results."""
    coins = ScriptedCoins(flip.result for entry in entries for flip in entry.flips)
    game = Game(initial.copy(), edition, coins, rulings, record=False, **game_options)
    for entry in entries:
        assert entry.action is not None
        outcome = game.play(entry.action)
        if not outcome.accepted:
            raise RuntimeError(f"replay refused log entry {entry.index}: {outcome.reason}")
    return game.position


def position_at(log: GameLog, count: int, edition: Edition, rulings: Rulings | None = None,
                **game_options: Any) -> Position:
    """The position after the first ``count`` standing actions of ``log``."""
    return replay(log.initial, log.effective()[:count], edition, rulings, **game_options)


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
                           deck_checker=game.deck_checker)
    return log.record_rewind(count, by)
