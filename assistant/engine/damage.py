"""Damage from an attack, step by step in the order the edition prescribes.

2025 (001_75e061fbe3c8e794.txt:525-532): base damage → effects on the attacking
Pokémon → stop if the base damage is 0 → Weakness → Resistance → effects on the
defending Pokémon → one damage counter per 10, never below 0. 2002 puts Trainer cards on
the attacker *after* Weakness and Resistance and uses fixed ×2 / −30
(003_b55862cc83f9dac9.txt:675-705). The order itself lives in
:attr:`assistant.editions.Edition.damage_order`; this module only walks it.

Damage counters that an effect *places* never come here: they skip every step
(001_75e061fbe3c8e794.txt:527).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assistant.cards import TypeValue
from assistant.editions import (
    STEP_BASE,
    STEP_RESISTANCE,
    STEP_STOP,
    STEP_WEAKNESS,
    Edition,
)
from assistant.engine.actions import Modifier


@dataclass(frozen=True, slots=True)
class DamageResult:
    """``amount`` is the HP of damage to put on the Pokémon (a multiple of 10, never
    negative); ``stopped`` is True when the calculation ended at a base of 0; ``steps``
    traces each step as ``(step, damage after it)`` so a judge can follow it."""

    amount: int
    stopped: bool
    steps: tuple[tuple[str, int], ...]


def _matches(step: str, modifier: Modifier) -> bool:
    _, on, by = step.split(":")
    return (on in ("*", modifier.on)) and (by == "*" or modifier.by in by.split("|"))


def _type_value(printed: Sequence[TypeValue], attacker_types: Sequence[str], default: str) -> TypeValue | None:
    """The Weakness (or Resistance) that applies to an attacker of these types, applied
    once even when a dual-type attacker matches it twice (001_75e061fbe3c8e794.txt:770-774).
    A value printed on the card rules; a card that prints only the type gets the
    edition's default (2002: ×2 and -30, 003_b55862cc83f9dac9.txt:689-692)."""
    hit = next((tv for tv in printed if tv.type in attacker_types), None)
    if hit is None or hit.value or default == "printed":
        return hit
    return TypeValue(hit.type, default)


def attack_damage(
    edition: Edition,
    base: int,
    attacker_types: Sequence[str],
    weaknesses: Sequence[TypeValue],
    resistances: Sequence[TypeValue],
    modifiers: Sequence[Modifier] = (),
) -> DamageResult:
    """Walk the edition's damage order for the Active Pokémon. (Damage to a Benched
    Pokémon is given by the attack as ``targets``: no Weakness or Resistance.)"""
    damage = base
    used: set[int] = set()
    steps: list[tuple[str, int]] = []
    for step in edition.damage_order:
        if step == STEP_BASE:
            damage = base
        elif step == STEP_STOP:
            if base <= 0:
                steps.append((step, 0))
                return DamageResult(0, True, tuple(steps))
        elif step == STEP_WEAKNESS:
            weakness = _type_value(weaknesses, attacker_types, edition.weakness)
            if weakness:
                damage = weakness.apply(damage)
        elif step == STEP_RESISTANCE:
            resistance = _type_value(resistances, attacker_types, edition.resistance)
            if resistance:
                damage = resistance.apply(damage)
        elif step.startswith("mods:"):
            for i, m in enumerate(modifiers):
                if i not in used and _matches(step, m):
                    used.add(i)
                    damage += m.amount
        steps.append((step, damage))
    amount = max(0, damage)
    # Damage is counted in counters of 10: a stray 5 (never printed) rounds down.
    amount -= amount % 10
    return DamageResult(amount, False, tuple(steps))
