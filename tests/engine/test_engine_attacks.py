"""Attacks (001_75e061fbe3c8e794.txt:334-345, 413-441, 513-532): the Active Pokémon
attacks once its Energy pays the cost, not on the first player's first turn where the
edition forbids it, not while Asleep or Paralyzed; a Confused Pokémon flips and on tails
hurts itself in the edition's way; a GX attack is once per game."""

from __future__ import annotations

import pytest
from engine_tables import CHARMANDER, FIRE, MON, WEAK_TO_FIRE, game, player, table

from assistant.cards import Attack, Card
from assistant.engine.actions import EndTurn, UseAbility, UseAttack
from assistant.engine.model import PlayerState, Slot


def test_the_attack_does_its_damage_and_ends_the_turn_s_other_actions() -> None:
    g = game()
    outcome = g.play(UseAttack(attack="Tackle"))
    assert [(e["target"], e["amount"]) for e in outcome.events if e["type"] == "damage"] == [("B.active", 30)]
    assert g.position.players["B"].active is not None and g.position.players["B"].active.damage == 30
    assert g.play(UseAttack(attack="Tackle")).reason == "after-attack"
    assert g.play(EndTurn()).accepted


@pytest.mark.parametrize(("era", "allowed"), [("mega-evolution-2025", False), ("black-white-2011", True)])
def test_the_first_player_s_first_turn_attack(era: str, allowed: bool) -> None:
    outcome = game(table(turn=1), era=era).play(UseAttack(attack="Tackle"))
    assert (outcome.reason == "attack-first-turn") is not allowed


def test_an_asleep_pokemon_cannot_attack_and_the_cost_must_be_paid() -> None:
    me = player()
    assert me.active is not None
    me.active.conditions = {"Asleep"}
    assert game(table(me)).play(UseAttack(attack="Tackle")).reason == "attack-blocked"
    unpaid = player(active=CHARMANDER)
    assert game(table(unpaid)).play(UseAttack(attack="Ember")).reason == "attack-cost-unpaid"


def confused_charmander_weak_to_fire() -> PlayerState:
    me = player(active=CHARMANDER)
    assert me.active is not None
    me.active.energy = [FIRE]
    me.active.conditions = {"Confused"}
    me.active.card = Card("Charmander", "Pokémon", ("Basic",), id="charmander", hp=70, types=("Fire",),
                          attacks=CHARMANDER.attacks, weaknesses=WEAK_TO_FIRE.weaknesses)
    return me


@pytest.mark.parametrize(("era", "event"), [
    ("mega-evolution-2025", {"type": "counters", "target": "A.active", "counters": 3, "why": "confusion"}),
    ("expedition-2002", {"type": "damage", "target": "A.active", "amount": 40, "why": "confusion"}),
])
def test_a_confused_attacker_hurts_itself_on_tails_as_the_edition_says(era: str, event: dict[str, object]) -> None:
    """001:429-433: three damage counters; 003:171-177: 20 damage with its own Weakness
    (×2 against a Fire Pokémon weak to Fire)."""
    g = game(table(confused_charmander_weak_to_fire()), coins=["tails"], era=era)
    outcome = g.play(UseAttack(attack="Ember"))
    assert event in outcome.events
    assert not any(e["type"] == "damage" and e["target"] == "B.active" for e in outcome.events)


def test_a_gx_attack_is_once_per_game() -> None:
    gx = Card("Lycanroc-GX", "Pokémon", ("Basic", "GX"), id="gx", hp=200, types=("Fighting",),
              attacks=(Attack("Dangerous Rogue GX", (), "50"),))
    g = game(table(player(active=gx, gx_used=True)))
    assert g.play(UseAttack(attack="Dangerous Rogue GX")).reason == "gx-already-used"
    assert game(table(player(active=gx), b=player(active=Card("Wall", "Pokémon", ("Basic",), id="wall",
                                                                    hp=300)))).play(
        UseAttack(attack="Dangerous Rogue GX")).accepted


@pytest.mark.parametrize(("era", "blocked"), [("expedition-2002", True), ("platinum-2009", False)])
def test_a_special_condition_switches_off_a_poke_body_only_in_2002(era: str, blocked: bool) -> None:
    """003:120-123 Poké-Powers and Poké-Bodies; 004:531-532 Poké-Powers only."""
    pos = table(player(active=WEAK_TO_FIRE))
    active = pos.players["A"].active
    assert isinstance(active, Slot)
    active.conditions = {"Poisoned"}
    outcome = game(pos, era=era).play(UseAbility(pokemon=("A", None), name="Leaf Shield"))
    assert (outcome.reason == "ability-blocked") is blocked
    assert game(pos, era=era).play(UseAbility(pokemon=("A", None), name="Leaf Call")).reason == "ability-blocked"


def test_an_attack_the_pokemon_does_not_have_is_refused() -> None:
    assert game(table(player(active=MON))).play(UseAttack(attack="Ember")).reason == "attack-unknown"
