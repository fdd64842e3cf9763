"""Attacks, Abilities and the damage they do.

The Active Pokémon attacks once per turn, when its attached Energy pays the cost and
no Special Condition stops it (001_75e061fbe3c8e794.txt:334-345, 413-441); the player
who goes first does not attack on their first turn where the edition says so (341). A
GX attack and a VSTAR Power are once per game (746, 656). The attack's damage to the
Defending Pokémon follows the edition's order (:mod:`.damage`); damage to other Pokémon
and counters an effect places skip Weakness and Resistance (527). An attack's other
effects are resolved by the people at the table and reported as their own actions
(``counters``, ``condition``, ``effect``…).
"""

from __future__ import annotations

import re

from assistant.cards import Card
from assistant.engine.actions import ChangeEffect, Event, PlaceCounters, UseAbility, UseAttack, format_target
from assistant.engine.conditions import confusion_self_hit
from assistant.engine.damage import attack_damage
from assistant.engine.energy import cost_paid
from assistant.engine.knockouts import knockouts
from assistant.engine.model import Position, other
from assistant.engine.referee import Referee


def is_gx_attack(card: Card, name: str) -> bool:
    return card.rule_box in ("GX", "TAG TEAM") and name.rstrip().endswith("GX")


def is_vstar_attack(card: Card, name: str) -> bool:
    """A VSTAR Power attack. Card data marks VSTAR Powers only in effect text, so the
    name decides (they all carry the word Star: Star Requiem, Star Chronos…)."""
    return card.rule_box == "VSTAR" and re.search(r"\bStar\b", name) is not None


def check_attack(ref: Referee, pos: Position, a: UseAttack, actor: str) -> None:
    ed = ref.edition
    me = pos.players[actor]
    if actor == pos.first and pos.turn == 1 and not ed.first_player_attack_turn1:
        raise ref.refuse("attack-first-turn", "the player who goes first does not attack on turn 1")
    active = me.active
    if active is None:
        raise ref.refuse("promote-required", "there is no Active Pokémon")
    attack = next((x for x in active.attacks if x.name == a.attack), None)
    if attack is None:
        raise ref.refuse("attack-unknown", f"{active.card.name} has no attack {a.attack!r}")
    blocked = active.conditions & {"Asleep", "Paralyzed"}
    if blocked:
        raise ref.refuse("attack-blocked", f"an {min(blocked)} Pokémon cannot attack")
    if not cost_paid(attack.cost, active.energy):
        raise ref.refuse("attack-cost-unpaid", f"{attack.name} needs {', '.join(attack.cost) or 'no Energy'}")
    if ed.gx_once_per_game and is_gx_attack(active.card, attack.name) and me.gx_used:
        raise ref.refuse("gx-already-used", "one GX attack per game")
    if ed.vstar_once_per_game and is_vstar_attack(active.card, attack.name) and me.vstar_used:
        raise ref.refuse("vstar-already-used", "one VSTAR Power per game")


def apply_attack(ref: Referee, pos: Position, a: UseAttack, actor: str) -> None:
    ed = ref.edition
    me = pos.players[actor]
    active = me.active
    assert active is not None
    attack = next(x for x in active.attacks if x.name == a.attack)
    pos.attacked = True
    if is_gx_attack(active.card, attack.name):
        me.gx_used = True
    if is_vstar_attack(active.card, attack.name):
        me.vstar_used = True
    ref.emit({"type": "attack", "player": actor, "attack": attack.name})
    if "attack-coin" in active.effects:
        # Step B: an opponent's earlier attack makes this one flip first; tails and the
        # attack does not happen (001_75e061fbe3c8e794.txt:519). Such an effect is gone
        # once the Pokémon has left the Active Spot (see pokemon.swap).
        result = ref.flip("attack-effect")
        ref.emit({"type": "coin", "result": result, "for": "attack-effect"})
        if result == "tails":
            ref.emit({"type": "attack_cancelled", "why": "attack-effect"})
            return
    if "Confused" in active.conditions:
        result = ref.flip("confusion")
        ref.emit({"type": "coin", "result": result, "for": "confusion"})
        if result == "tails":
            confusion_self_hit(ref, actor, active)
            knockouts(ref, pos)
            return
    opponent = other(actor)
    defender = pos.players[opponent].active
    printed = attack.damage.strip()
    base = a.base if a.base is not None else (attack.base_damage if printed else None)
    if defender is not None and base is not None:
        dealt = attack_damage(ed, base, active.types, defender.weaknesses, defender.resistances, a.modifiers)
        if not dealt.stopped:
            defender.damage += dealt.amount
            ref.emit({"type": "damage", "target": f"{opponent}.active", "amount": dealt.amount,
                      "steps": [list(s) for s in dealt.steps]})
    for target, amount in a.targets:
        slot = ref.slot(pos, target)
        event: Event = {"type": "damage", "target": format_target(target), "amount": amount}
        if target[1] is not None and ed.tera_bench_protection and slot.card.rule_box == "Tera ex":
            # Benched Tera Pokémon ex take no damage from attacks (001:634-638).
            event["amount"] = 0
            event["prevented"] = "tera"
        slot.damage += event["amount"]
        ref.emit(event)
    knockouts(ref, pos)


def check_ability(ref: Referee, pos: Position, a: UseAbility, actor: str) -> None:
    ed = ref.edition
    slot = ref.slot(pos, a.pokemon, actor)
    ability = next((ab for ab in slot.abilities if ab.name == a.name), None)
    if ability is None:
        raise ref.refuse("ability-unknown", f"{slot.card.name} has no {a.name!r}")
    if slot.conditions and ability.type in ed.conditions_block:
        raise ref.refuse("ability-blocked",
                         f"{ability.type}s do not work while the Pokémon has a Special Condition")
    if ed.poke_power_once_per_turn and ability.type == "Poké-Power" and ability.name in slot.powers_used:
        raise ref.refuse("ability-blocked", f"{ability.name} was already used this turn")
    if ability.type == "VSTAR Power" and ed.vstar_once_per_game and pos.players[actor].vstar_used:
        raise ref.refuse("vstar-already-used", "one VSTAR Power per game")


def apply_ability(ref: Referee, pos: Position, a: UseAbility, actor: str) -> None:
    slot = ref.slot(pos, a.pokemon, actor)
    ability = next(ab for ab in slot.abilities if ab.name == a.name)
    slot.powers_used.add(ability.name)
    if ability.type == "VSTAR Power":
        pos.players[actor].vstar_used = True
    assert a.pokemon is not None
    ref.emit({"type": "ability", "pokemon": format_target(a.pokemon), "name": a.name, "kind": ability.type})


def check_counters(ref: Referee, pos: Position, a: PlaceCounters, actor: str) -> None:
    ref.slot(pos, a.target)
    if a.counters <= 0:
        raise ref.refuse("invalid-target", "place at least one damage counter")


def apply_counters(ref: Referee, pos: Position, a: PlaceCounters, actor: str) -> None:
    slot = ref.slot(pos, a.target)
    slot.damage += 10 * a.counters
    assert a.target is not None
    ref.emit({"type": "counters", "target": format_target(a.target), "counters": a.counters})
    knockouts(ref, pos)


def check_effect(ref: Referee, pos: Position, a: ChangeEffect, actor: str) -> None:
    ref.slot(pos, a.target)
    if not (a.add or a.remove):
        raise ref.refuse("invalid-target", "name the effect to add or remove")


def apply_effect(ref: Referee, pos: Position, a: ChangeEffect, actor: str) -> None:
    assert a.target is not None
    slot = ref.slot(pos, a.target)
    where = format_target(a.target)
    if a.add:
        slot.effects.add(a.add)
        ref.emit({"type": "effect", "target": where, "effect": a.add, "change": "added"})
    elif a.remove in slot.effects:
        slot.effects.discard(a.remove)
        ref.emit({"type": "effect", "target": where, "effect": a.remove, "change": "removed"})
