"""Pokémon in play (001_75e061fbe3c8e794.txt:201, 273-322): the Bench holds the edition's
number, a Pokémon evolves only after a turn in play and never during its player's first
turn, a retreat or switch clears Special Conditions, and after a Knock Out the game
waits for a new Active Pokémon."""

from __future__ import annotations

import pytest
from engine_tables import CHARMANDER, CHARMELEON, MON, game, player, table

from assistant.editions import Rulings
from assistant.engine.actions import Bench, EndTurn, Evolve, PlaceCounters, Promote, Retreat, Switch, UseAttack
from assistant.engine.model import Slot


def test_the_bench_holds_five() -> None:
    g = game(table(player(bench=5, hand=[MON])))
    assert g.play(Bench(card=MON)).reason == "bench-full"
    g = game(table(player(bench=4, hand=[MON])))
    assert g.play(Bench(card=MON)).accepted


def test_a_pokemon_evolves_only_after_a_turn_in_play() -> None:
    me = player(active=CHARMANDER, hand=[CHARMELEON, CHARMELEON])
    me.bench = [Slot(CHARMANDER, entered_turn=5)]
    g = game(table(me))
    assert g.play(Evolve(card=CHARMELEON, target=("A", 0))).reason == "evolve-new-in-play"
    assert g.play(Evolve(card=CHARMELEON, target=("A", None))).accepted
    assert g.play(Evolve(card=CHARMELEON, target=("A", None))).reason == "evolve-new-in-play"


@pytest.mark.parametrize(("reading", "turn", "banned"), [("own", 2, True), ("game", 2, False), ("game", 1, True)])
def test_the_2009_first_turn_evolution_ban_follows_the_ruling(reading: str, turn: int, banned: bool) -> None:
    """004:209 "neither player can evolve on the first turn" is read as each player's own
    first turn unless the judge rules game turn 1 (RULES.md §23.3)."""
    me = player(active=CHARMANDER, hand=[CHARMELEON])
    g = game(table(me, turn=turn, first="B" if turn == 2 else "A"), era="platinum-2009",
             rulings=Rulings(first_turn_evolution=reading))
    outcome = g.play(Evolve(card=CHARMELEON, target=("A", None)))
    assert (outcome.reason == "evolve-first-turn") is banned


def test_retreating_clears_special_conditions_and_pays_the_cost() -> None:
    me = player()
    assert me.active is not None
    me.active.conditions = {"Poisoned"}
    g = game(table(me))
    outcome = g.play(Retreat(to=("A", 0)))
    assert outcome.accepted
    assert {"type": "condition", "target": "A.active", "condition": "Poisoned", "change": "removed"} \
        in outcome.events
    benched = g.position.players["A"].bench[0]
    assert benched.conditions == set() and benched.energy == []
    assert g.play(Retreat(to=("A", 0))).reason == "retreat-already"


def test_a_switch_needs_a_benched_pokemon() -> None:
    g = game(table(player(bench=0)))
    assert g.play(Switch(to=("A", 0))).reason == "invalid-target"
    assert g.play(Switch(to=("A", None))).reason == "invalid-target"


def test_after_a_knock_out_the_owner_promotes_before_anything_else() -> None:
    b = player()
    assert b.active is not None
    b.active.damage = 80
    g = game(table(b=b))
    assert g.play(UseAttack(attack="Tackle")).accepted
    assert g.position.pending_promotion == ["B"]
    assert g.play(EndTurn()).reason == "promote-required"
    assert g.play(Promote(player="A", source=("A", 0))).reason == "wrong-phase"
    outcome = g.play(Promote(player="B", source=("B", 0)))
    assert outcome.events == [{"type": "promote", "player": "B", "card": "Lechonk"}]
    assert g.play(PlaceCounters(target=("B", None), counters=1)).accepted
