"""The rules engine: a position, actions with legality, and the edition's rules.

- :mod:`.model` — the table position (hidden zones held as unknown cards);
- :mod:`.actions` — SPEC §3 actions, one type each, SPEC §4 refusals and outcomes;
- :mod:`.game` — the sequencer: what holds for every action, then the action's rule;
- :mod:`.referee` — what every rule needs: refusals, events, coins, the cards named;
- the rule topics: :mod:`.setup` (setup, mulligans, the deck check), :mod:`.pokemon`
  (the Bench, evolution, retreat, promotion), :mod:`.energy`, :mod:`.trainers`,
  :mod:`.attacks` (attacks, Abilities, damage), :mod:`.damage` (the damage order of each
  edition), :mod:`.conditions` (Special Conditions and Checkup), :mod:`.knockouts`
  (Knock Outs, Prizes, winning) and :mod:`.turns` (ending and beginning a turn);
- :mod:`.coins` — the one source of chance (coins and shuffles);
- :mod:`.log` — the append-only log; :mod:`.replay` — replay and rewind;
- :mod:`.positions` — position files (SPEC §3) in and out;
- :mod:`.selfplay` — random legal play, for property tests and benchmarks.

The edition (``assistant.editions``) is a parameter of every game; what the engine needs
from deck lists and the card database (a deck checker, a card lookup) its caller gives.
"""

from assistant.engine.actions import Action, Modifier, Outcome, Refusal
from assistant.engine.coins import CoinFlip, OutOfCoins, ScriptedCoins, SecureCoins, SeededCoins
from assistant.engine.game import Game
from assistant.engine.model import Position, Slot

__all__ = [
    "Action", "CoinFlip", "Game", "Modifier", "OutOfCoins", "Outcome", "Position",
    "Refusal", "ScriptedCoins", "SecureCoins", "SeededCoins", "Slot",
]
