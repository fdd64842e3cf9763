"""The rules engine: a position, actions with legality, and the edition's rules.

- :mod:`.model` — the table position (hidden zones held as unknown cards);
- :mod:`.actions` — SPEC §3 actions and SPEC §4 refusals;
- :mod:`.damage` — the damage order of each edition;
- :mod:`.game` — legality and effects of every action, Pokémon Checkup, Knock Outs,
  Prizes and the win checks;
- :mod:`.coins` — the one source of chance (coins and shuffles);
- :mod:`.log` — the append-only log, replay and rewind;
- :mod:`.positions` — position files (SPEC §3) in and out;
- :mod:`.selfplay` — random legal play, for property tests and benchmarks.

The edition (``assistant.editions``) is a parameter of every game.
"""

from assistant.engine.actions import Action, Modifier, Refusal
from assistant.engine.coins import CoinFlip, OutOfCoins, ScriptedCoins, SecureCoins, SeededCoins
from assistant.engine.game import Game, Outcome
from assistant.engine.model import Position, Slot

__all__ = [
    "Action", "CoinFlip", "Game", "Modifier", "OutOfCoins", "Outcome", "Position",
    "Refusal", "ScriptedCoins", "SecureCoins", "SeededCoins", "Slot",
]
