"""Properties of random legal play (hypothesis picks the seeds; 500 games in all).

At every step: each player's 60 cards are all somewhere; damage is never negative and
always a multiple of 10; Prizes stay within 0–6; each player has exactly one Active
Pokémon except while choosing a new one. After each game: replaying the log rebuilds
the same position.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.cards import Attack, Card, basic_energy
from assistant.editions import edition
from assistant.embedded import embedded_decks
from assistant.engine.actions import Outcome
from assistant.engine.coins import SeededCoins
from assistant.engine.game import Game
from assistant.engine.model import PLAYERS
from assistant.engine.replay import replay
from assistant.engine.selfplay import new_game, play_random_game


def _inline_deck(kind: str) -> list[Card]:
    basic = Card(f"{kind}mon", "Pokémon", ("Basic",), id=f"{kind}-b", hp=70, types=(kind,),
                 attacks=(Attack("Hit", ("Colorless",), "30"),), retreat_cost=("Colorless",),
                 weaknesses=(), resistances=())
    evo = Card(f"{kind}evo", "Pokémon", ("Stage 1",), id=f"{kind}-e", hp=120, types=(kind,),
               evolves_from=f"{kind}mon", attacks=(Attack("Smash", (kind, "Colorless"), "70"),),
               retreat_cost=("Colorless", "Colorless"))
    big = Card(f"{kind}mon ex", "Pokémon", ("Basic", "ex"), id=f"{kind}-x", hp=190, types=(kind,),
               attacks=(Attack("Blast", (kind, kind, "Colorless"), "150"),), retreat_cost=("Colorless",) * 3)
    item = Card("Potion", "Trainer", ("Item",), id="potion")
    supporter = Card("Iono", "Trainer", ("Supporter",), id="iono")
    stadium = Card(f"{kind} Town", "Trainer", ("Stadium",), id=f"{kind}-town")
    tool = Card("Bravery Charm", "Trainer", ("Pokémon Tool",), id="charm")
    return ([basic] * 12 + [evo] * 8 + [big] * 4 + [item] * 4 + [supporter] * 4 + [stadium] * 2
            + [tool] * 4 + [basic_energy(kind)] * 22)


DECKS = {"fire": _inline_deck("Fire"), "water": _inline_deck("Water")}
ALL_DECKS = [DECKS["fire"], DECKS["water"], *(list(cards) for cards in embedded_decks().values())]


def check_invariants(game: Game, outcome: Outcome) -> None:
    pos = game.position
    for p in PLAYERS:
        assert pos.card_count(p) == 60, (p, pos.card_count(p), outcome.action)
        me = pos.players[p]
        assert 0 <= len(me.prizes) <= 6
        for slot in me.in_play():
            assert slot.damage >= 0 and slot.damage % 10 == 0
        if pos.winner is None and p not in pos.pending_promotion:
            assert me.active is not None, (p, outcome.action)
        assert len(me.bench) <= game.edition.bench_size
    for event in outcome.events:
        if event["type"] == "damage":
            assert event["amount"] >= 0 and event["amount"] % 10 == 0


@settings(max_examples=500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), a=st.integers(0, len(ALL_DECKS) - 1),
       b=st.integers(0, len(ALL_DECKS) - 1))
def test_random_legal_games_keep_invariants(seed: int, a: int, b: int) -> None:
    rng = random.Random(seed)
    game = new_game(ALL_DECKS[a], ALL_DECKS[b], edition("standard"), SeededCoins(seed), rng)
    play_random_game(game, rng, max_actions=1500, after_step=check_invariants)
    assert game.log is not None
    rebuilt = replay(game.log.initial, game.log.effective(), game.edition)
    assert rebuilt == game.position


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), era=st.sampled_from(
    ["expedition-2002", "platinum-2009", "black-white-2011"]))
def test_older_editions_play_too(seed: int, era: str) -> None:
    rng = random.Random(seed)
    game = new_game(DECKS["fire"], DECKS["water"], edition(era), SeededCoins(seed), rng)
    play_random_game(game, rng, max_actions=1500, after_step=check_invariants)
