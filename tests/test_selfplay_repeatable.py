"""A seeded self-play game is the same game in every process (the log records the seed,
so a game must replay from it)."""

from __future__ import annotations

import os
import subprocess
import sys

GAME = """
import random
from assistant.editions import edition
from assistant.embedded import embedded_decks
from assistant.engine.coins import SeededCoins
from assistant.engine.selfplay import new_game, play_random_game
a, b = embedded_decks().values()
game = new_game(a, b, edition(None), SeededCoins(7), random.Random(7))
stats = play_random_game(game, random.Random(7), max_actions=400)
print(stats.actions, stats.winner, len(game.position.players["A"].discard), len(game.position.players["B"].discard))
"""


def test_a_seeded_self_play_game_is_the_same_in_every_process() -> None:
    # Different hash seeds (and addresses) per process: a game that walked a set of
    # cards played differently in each.
    games = {subprocess.run([sys.executable, "-c", GAME], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
             for seed in (1, 2, 3)}
    assert len(games) == 1, games
