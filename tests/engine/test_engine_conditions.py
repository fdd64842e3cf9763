"""Special Conditions and Pokémon Checkup (001_75e061fbe3c8e794.txt:393-455): Asleep,
Confused and Paralyzed replace one another; Burned and Confused behave as the edition's
rule objects say; Knock Outs in Checkup wait for both players where the edition says."""

from __future__ import annotations

import pytest
from engine_tables import game, player, table

from assistant.editions import (
    BLACK_WHITE,
    EDITIONS,
    EXPEDITION,
    MEGA_EVOLUTION,
    BurnCountersThenFlip,
    BurnFlipForCounters,
    ConfusionDealsDamage,
    ConfusionPlacesCounters,
)
from assistant.engine.actions import ChangeCondition, EndTurn


def test_asleep_confused_and_paralyzed_replace_one_another() -> None:
    g = game()
    g.play(ChangeCondition(target=("B", None), add="Asleep"))
    g.play(ChangeCondition(target=("B", None), add="Poisoned"))
    outcome = g.play(ChangeCondition(target=("B", None), add="Paralyzed"))
    assert {"type": "condition", "target": "B.active", "condition": "Asleep", "change": "replaced"} \
        in outcome.events
    assert g.position.players["B"].active is not None
    assert g.position.players["B"].active.conditions == {"Paralyzed", "Poisoned"}
    assert g.play(ChangeCondition(target=("B", None), add="Dizzy")).reason == "invalid-target"


def test_each_edition_names_its_burn_and_confusion_rules() -> None:
    assert MEGA_EVOLUTION.burn == BurnCountersThenFlip(counters=2)
    assert BLACK_WHITE.burn == BurnFlipForCounters(counters=2)
    assert MEGA_EVOLUTION.confusion_self_hit == ConfusionPlacesCounters(counters=3)
    assert EXPEDITION.confusion_self_hit == ConfusionDealsDamage(damage=20)
    for profile in EDITIONS.values():
        assert not isinstance(profile.burn, str) and not isinstance(profile.confusion_self_hit, str)


def test_the_burn_rules_at_checkup() -> None:
    """2025: counters, then heads cures (001:421-425); older: tails gives counters and
    the flip never cures (000:427-429)."""
    assert BurnCountersThenFlip(2).checkup(lambda: "heads") == {"counters": 2, "coin": "heads", "recovered": True}
    assert BurnCountersThenFlip(2).checkup(lambda: "tails")["counters"] == 2
    assert BurnFlipForCounters(2).checkup(lambda: "heads") == {"coin": "heads", "counters": 0, "recovered": False}
    assert BurnFlipForCounters(2).checkup(lambda: "tails") == {"coin": "tails", "counters": 2, "recovered": False}


@pytest.mark.parametrize(("era", "damage", "burned"), [
    ("mega-evolution-2025", 20, False), ("black-white-2011", 0, True)])
def test_a_burned_pokemon_at_checkup_on_heads(era: str, damage: int, burned: bool) -> None:
    me = player()
    assert me.active is not None
    me.active.conditions = {"Burned"}
    g = game(table(me), coins=["heads"], era=era)
    assert g.play(EndTurn()).accepted
    active = g.position.players["A"].active
    assert active is not None and active.damage == damage and ("Burned" in active.conditions) is burned


@pytest.mark.parametrize(("era", "winner"), [("mega-evolution-2025", "sudden-death"), ("platinum-2009", "B")])
def test_checkup_knock_outs_wait_for_both_players_where_the_edition_says(era: str, winner: str) -> None:
    """001:407: both players' checks first, then the Knock Outs; 004:293: at once. Both
    players have one Pokémon and one Prize left, and both are Knocked Out by Poison."""
    a, b = player(bench=0, prizes=[None]), player(bench=0, prizes=[None])
    for me in (a, b):
        assert me.active is not None
        me.active.conditions = {"Poisoned"}
        me.active.damage = 90
    g = game(table(a, b), era=era)
    g.play(EndTurn())
    assert g.position.winner == winner


def test_other_checkup_effects_go_before_or_after_as_one_block() -> None:
    effects = ((("A", None), 1),)
    assert game().play(EndTurn(effects_when="during", effects=effects)).reason == "checkup-order"
    assert game(era="black-white-2011").play(EndTurn(effects_when="before", effects=effects)).reason \
        == "checkup-order"
    assert game(era="platinum-2009").play(EndTurn(effects_when="before", effects=effects)).accepted
