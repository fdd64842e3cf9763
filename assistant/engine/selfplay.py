"""Random legal play: two decks of 60 cards, every choice random, every action legal.

Used by the property tests (invariants must hold at every step) and by
``bench/engine`` (how fast the engine checks and applies actions). Card text is not
resolved here, so Trainers simply go to the discard pile; now and then an "effect"
places counters or a Special Condition so that Checkup and Knock Outs get exercised.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.cards import Card
from assistant.editions import Edition
from assistant.engine.actions import (
    Action,
    Attach,
    Begin,
    Bench,
    ChangeCondition,
    Draw,
    EndTurn,
    Evolve,
    Outcome,
    PlaceCounters,
    PlayTrainer,
    Promote,
    Retreat,
    Setup,
    UseAttack,
)
from assistant.engine.coins import CoinSource
from assistant.engine.game import Game
from assistant.engine.model import CONDITIONS as _CONDITIONS
from assistant.engine.model import PLAYERS, PlayerState, Position, other

#: A sequence, for ``rng.choice``.
CONDITIONS = tuple(sorted(_CONDITIONS))


def opening(deck: list[Card], coins: CoinSource, hand_size: int = 7, limit: int = 100) -> int:
    """Shuffle until the top ``hand_size`` cards hold a Basic Pokémon; the number of
    mulligans that took (001_75e061fbe3c8e794.txt:235)."""
    for mulligans in range(limit):
        coins.shuffle(deck)
        if any(c.is_basic_pokemon for c in deck[:hand_size]):
            return mulligans
    raise ValueError("this deck never offers a Basic Pokémon")


def new_game(deck_a: Sequence[Card], deck_b: Sequence[Card], edition: Edition, coins: CoinSource,
             rng: random.Random, *, record: bool = True) -> Game:
    """Set up a game: shuffles and mulligans, Active and Bench, bonus draws, turn 1."""
    decks = {"A": list(deck_a), "B": list(deck_b)}
    mulligans = {p: opening(decks[p], coins, edition.hand_size) for p in PLAYERS}
    first = "A" if coins.flip("first player") == "heads" else "B"
    position = Position({p: PlayerState(deck=decks[p]) for p in PLAYERS}, turn=1,
                        current=first, first=first, phase="setup")
    game = Game(position, edition, coins, record=record)
    _must(game.play(Setup(mulligans=tuple(sorted(mulligans.items())))))
    for p in PLAYERS:
        me = game.position.players[p]
        if me.bonus_draws:
            _must(game.play(Draw(player=p, count=rng.randint(0, me.bonus_draws) or 1)))
        basics = [c for c in me.hand if c is not None and c.is_basic_pokemon]
        rng.shuffle(basics)
        keep = 1 + rng.randint(0, min(edition.bench_size, len(basics) - 1))
        for card in basics[:keep]:
            _must(game.play(Bench(player=p, card=card)))
    _must(game.play(Begin()))
    return game


def _must(outcome: Outcome) -> Outcome:
    if not outcome.accepted:
        raise RuntimeError(f"self-play setup refused: {outcome.refusal}")
    return outcome


def candidates(game: Game, rng: random.Random) -> list[Action]:
    """Actions worth trying now, most interesting first; the first legal one is played."""
    pos = game.position
    if pos.pending_promotion:
        owner = pos.pending_promotion[0]
        bench = pos.players[owner].bench
        return [Promote(player=owner, source=(owner, rng.randrange(len(bench))))]
    me = pos.players[pos.current]
    them = other(pos.current)
    if pos.attacked:
        extra: list[Action] = []
        opp = pos.players[them]
        if opp.active is not None and rng.random() < 0.25:
            extra.append(ChangeCondition(target=(them, None), add=rng.choice(CONDITIONS)))
        if opp.in_play() and rng.random() < 0.15:
            index = rng.randrange(len(opp.in_play()))
            extra.append(PlaceCounters(target=(them, None if index == 0 else index - 1),
                                counters=rng.randint(1, 3)))
        return [*extra, EndTurn()]
    slots = [(pos.current, None)] + [(pos.current, i) for i in range(len(me.bench))]
    develop: list[Action] = []
    # each distinct card once, in hand order (a set's order would vary between runs,
    # and with it the whole seeded game)
    for card in dict.fromkeys(c for c in me.hand if c is not None):
        if card.is_pokemon:
            if card.is_basic_pokemon:
                develop.append(Bench(card=card))
            else:
                develop.append(Evolve(card=card, target=rng.choice(slots)))
        elif card.is_energy:
            develop.append(Attach(card=card, target=rng.choice(slots)))
        elif card.trainer_kind == "Pokémon Tool":
            develop.append(PlayTrainer(card=card, target=rng.choice(slots)))
        else:
            develop.append(PlayTrainer(card=card))
    if me.bench and rng.random() < 0.15:
        develop.append(Retreat(to=(pos.current, rng.randrange(len(me.bench)))))
    rng.shuffle(develop)
    attacks = [UseAttack(attack=a.name) for a in (me.active.attacks if me.active else ())]
    rng.shuffle(attacks)
    if rng.random() < 0.2:
        develop = develop[:1]
    return [*develop, *attacks, EndTurn()]


def step(game: Game, rng: random.Random) -> Outcome:
    """Play one random legal action."""
    for action in candidates(game, rng):
        if game.check(action) is None:
            return game.play(action)
    raise RuntimeError("no legal action found")  # end_turn or promote is always legal


@dataclass
class GameStats:
    actions: int
    finished: bool
    winner: str | None


def play_random_game(game: Game, rng: random.Random, max_actions: int = 2000,
                     after_step: Callable[[Game, Outcome], None] | None = None) -> GameStats:
    """Play random legal actions until someone wins (or ``max_actions``)."""
    actions = 0
    while game.position.winner is None and actions < max_actions:
        outcome = step(game, rng)
        actions += 1
        if after_step is not None:
            after_step(game, outcome)
    return GameStats(actions, game.position.winner is not None, game.position.winner)
