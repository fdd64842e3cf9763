"""Special Conditions and Pokémon Checkup.

Asleep, Confused and Paralyzed turn the card, so only the last one applied is in effect;
Poisoned and Burned are markers, and a second marker replaces the first
(001_75e061fbe3c8e794.txt:425, 449, 455). Only an Active Pokémon has Special Conditions
(411): one that goes to the Bench, evolves or devolves recovers from them all.

Between turns comes Pokémon Checkup (001:393-407): Poisoned, Burned, Asleep and
Paralyzed, in the edition's order, for each player's Active Pokémon; other Checkup
effects go as one block before or after them. How Burned and Confused behave, and
whether a Knock Out waits for both players' checks, are the edition's
(:class:`~assistant.editions.Edition` ``burn``, ``confusion_self_hit``,
``checkup_knockouts_wait``).
"""

from __future__ import annotations

from assistant.engine.actions import ChangeCondition, EndTurn, Event, format_target
from assistant.engine.damage import attack_damage
from assistant.engine.knockouts import knockouts
from assistant.engine.model import CONDITIONS, PLAYERS, ROTATION, Position, Slot, other
from assistant.engine.referee import Referee


def check_condition(ref: Referee, pos: Position, a: ChangeCondition, actor: str) -> None:
    ref.slot(pos, a.target)
    if a.target is not None and a.target[1] is not None and a.add:
        raise ref.refuse("condition-not-active", "Special Conditions exist only on the Active Pokémon")
    if (a.add or a.remove) not in CONDITIONS:
        raise ref.refuse("invalid-target", "not a Special Condition")


def apply_condition(ref: Referee, pos: Position, a: ChangeCondition, actor: str) -> None:
    slot = ref.slot(pos, a.target)
    assert a.target is not None
    where = format_target(a.target)
    if a.add:
        add_condition(ref, pos, slot, where, a.add)
    elif a.remove and a.remove in slot.conditions:
        slot.conditions.discard(a.remove)
        if a.remove == "Paralyzed":
            slot.paralyzed_turn = None
        ref.emit({"type": "condition", "target": where, "condition": a.remove, "change": "removed"})


def add_condition(ref: Referee, pos: Position, slot: Slot, where: str, condition: str) -> None:
    """Asleep, Confused and Paralyzed replace one another; a second Poison or Burn
    marker replaces the first (001_75e061fbe3c8e794.txt:425, 449, 455)."""
    if condition in ROTATION:
        for old in sorted(slot.conditions & ROTATION - {condition}):
            slot.conditions.discard(old)
            ref.emit({"type": "condition", "target": where, "condition": old, "change": "replaced"})
    change = "replaced" if condition in slot.conditions else "added"
    slot.conditions.add(condition)
    if condition == "Paralyzed":
        slot.paralyzed_turn = pos.turn
    ref.emit({"type": "condition", "target": where, "condition": condition, "change": change})


def clear_conditions(ref: Referee, slot: Slot, where: str) -> None:
    """Every Special Condition ends (the Pokémon went to the Bench, evolved or devolved:
    001_75e061fbe3c8e794.txt:281, 411, 898)."""
    for condition in sorted(slot.conditions):
        ref.emit({"type": "condition", "target": where, "condition": condition, "change": "removed"})
    slot.conditions.clear()
    slot.paralyzed_turn = None


def confusion_self_hit(ref: Referee, actor: str, active: Slot) -> None:
    """A Confused Pokémon's attack failed on tails: it hurts itself, as the edition says."""
    ed = ref.edition

    def through_weakness(amount: int) -> int:
        return attack_damage(ed, amount, active.types, active.weaknesses, active.resistances).amount

    hit = ed.confusion_self_hit.self_hit(through_weakness)
    active.damage += hit.damage
    ref.emit({"type": hit.kind, "target": f"{actor}.active", hit.key: hit.value, "why": "confusion"})


def check_checkup_effects(ref: Referee, pos: Position, a: EndTurn) -> None:
    """Other Checkup effects go as one block where the edition allows (001:405)."""
    allowed = ref.edition.checkup_other_effects
    if a.effects and a.effects_when not in allowed:
        raise ref.refuse("checkup-order", "other Checkup effects go wholly "
                         + " or ".join(allowed) + " the Special Conditions")
    for target, _ in a.effects:
        ref.slot(pos, target)


def checkup(ref: Referee, pos: Position, a: EndTurn) -> None:
    """Pokémon Checkup: each player's Active Pokémon in turn, step by step in the
    edition's order; Knock Outs at once or after both players' checks (001:407)."""
    ed = ref.edition
    if a.effects and a.effects_when == "before":
        _checkup_effects(ref, pos, a)
    order = [pos.current, other(pos.current)]
    if ref.rulings.checkup_player_order != "current-first":
        order.reverse()
    both = all(pos.players[p].active and pos.players[p].active.conditions for p in PLAYERS)
    for player in order:
        slot = pos.players[player].active
        if slot is None:
            continue
        for step in ed.checkup_order:
            _checkup_step(ref, pos, player, slot, step, ruled=both)
            if not ed.checkup_knockouts_wait and slot.damage >= slot.hp:
                break
        if not ed.checkup_knockouts_wait:
            knockouts(ref, pos)
            if pos.winner is not None:
                return
    if a.effects and a.effects_when != "before":
        _checkup_effects(ref, pos, a)
    knockouts(ref, pos)


def _checkup_effects(ref: Referee, pos: Position, a: EndTurn) -> None:
    for target, counters in a.effects:
        slot = pos.slot(*target)
        if slot is None:
            continue
        if counters >= 0:
            slot.damage += 10 * counters
        else:
            slot.damage = max(0, slot.damage + 10 * counters)
        ref.emit({"type": "checkup", "step": "effect", "target": format_target(target),
                  "counters": counters})


def _checkup_step(ref: Referee, pos: Position, player: str, slot: Slot, step: str, ruled: bool) -> None:
    ed = ref.edition
    event: Event = {"type": "checkup", "step": step, "target": f"{player}.active"}
    if ruled:
        event["ruling"] = "checkup_player_order"
    if step == "poisoned" and "Poisoned" in slot.conditions:
        slot.damage += 10 * ed.poison_counters
        event["counters"] = ed.poison_counters
    elif step == "burned" and "Burned" in slot.conditions:
        event.update(ed.burn.checkup(lambda: ref.flip("burn")))
        slot.damage += 10 * int(event["counters"])
        if event["recovered"]:
            slot.conditions.discard("Burned")
    elif step == "asleep" and "Asleep" in slot.conditions:
        coin = ref.flip("asleep")
        event["coin"] = coin
        event["recovered"] = coin == "heads"
        if coin == "heads":
            slot.conditions.discard("Asleep")
    elif step == "paralyzed" and "Paralyzed" in slot.conditions:
        # Recovers at the Checkup after its owner's next turn (001:437-441): that is a
        # turn of its owner that began while it was already Paralyzed.
        began_paralyzed = slot.paralyzed_turn is None or slot.paralyzed_turn < pos.turn
        recovered = player == pos.current and began_paralyzed
        event["recovered"] = recovered
        if recovered:
            slot.conditions.discard("Paralyzed")
            slot.paralyzed_turn = None
    else:
        return
    ref.emit(event)
