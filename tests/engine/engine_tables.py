"""Cards and table positions for the engine's topic tests.

A position here is the middle of a game (turn 5, player A to act, both players with an
Active and a Benched Pokémon, hidden hands and decks) unless a test changes it.
"""

from __future__ import annotations

from assistant.cards import Ability, Attack, Card, TypeValue, basic_energy
from assistant.editions import Rulings, edition
from assistant.engine.coins import ScriptedCoins
from assistant.engine.game import Game
from assistant.engine.model import PlayerState, Position, Slot
from assistant.engine.referee import DeckChecker

GRASS = basic_energy("Grass")
FIRE = basic_energy("Fire")
MON = Card("Lechonk", "Pokémon", ("Basic",), id="mon", hp=100, types=("Colorless",),
           attacks=(Attack("Tackle", ("Colorless",), "30"),), retreat_cost=("Colorless",))
BIG = Card("Pecharunt ex", "Pokémon", ("Basic", "ex"), id="big", hp=190, types=("Darkness",),
           attacks=(Attack("Poison Chain", ("Colorless",), "10"),))
WEAK_TO_FIRE = Card("Sewaddle", "Pokémon", ("Basic",), id="weak", hp=60, types=("Grass",),
                    weaknesses=(TypeValue("Fire", "×2"),),
                    abilities=(Ability("Leaf Shield", "Poké-Body"), Ability("Leaf Call", "Poké-Power")))
CHARMANDER = Card("Charmander", "Pokémon", ("Basic",), id="charmander", hp=70, types=("Fire",),
                  attacks=(Attack("Ember", ("Fire",), "30"),), weaknesses=(TypeValue("Water", "×2"),))
CHARMELEON = Card("Charmeleon", "Pokémon", ("Stage 1",), id="charmeleon", hp=100, types=("Fire",),
                  evolves_from="Charmander")
SUPPORTER = Card("Professor's Research", "Trainer", ("Supporter",), id="research")
STADIUM = Card("Artazon", "Trainer", ("Stadium",), id="artazon")
TOOL = Card("Bravery Charm", "Trainer", ("Pokémon Tool",), id="charm")


def player(active: Card = MON, bench: int = 1, **fields: object) -> PlayerState:
    me = PlayerState(active=Slot(active, energy=[GRASS]), bench=[Slot(MON) for _ in range(bench)],
                     hand=[None] * 5, deck=[None] * 30, prizes=[None] * 6)
    for key, value in fields.items():
        setattr(me, key, value)
    return me


def table(a: PlayerState | None = None, b: PlayerState | None = None, **position: object) -> Position:
    pos = Position({"A": a or player(), "B": b or player()}, turn=5, current="A", first="A")
    for key, value in position.items():
        setattr(pos, key, value)
    return pos


def game(pos: Position | None = None, coins: list[str] | None = None, era: str | None = None,
         rulings: Rulings | None = None, deck_checker: DeckChecker | None = None) -> Game:
    return Game(pos or table(), edition(era), ScriptedCoins(coins or []), rulings, deck_checker=deck_checker)
