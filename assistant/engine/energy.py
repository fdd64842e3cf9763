"""Energy: attaching it, and paying attack and Retreat Costs with it.

A player attaches one Energy card from the hand per turn (001_75e061fbe3c8e794.txt:
293-295). Attached Energy pays an attack's cost, each typed symbol with Energy of its
type and each Colorless symbol with any (165, 345), and is discarded to pay a Retreat
Cost (314-322).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from assistant.cards import Card
from assistant.engine.actions import Attach, format_target
from assistant.engine.model import Position, Slot
from assistant.engine.referee import Referee


def check_attach(ref: Referee, pos: Position, a: Attach, actor: str) -> None:
    me = pos.players[actor]
    card = ref.card_in_hand(me, a.card)
    if not card.is_energy:
        raise ref.refuse("not-energy", f"{card.name} is not an Energy card")
    if me.flags.energy_attached:
        raise ref.refuse("energy-already-attached", "one Energy from hand per turn")
    ref.slot(pos, a.target, actor)


def apply_attach(ref: Referee, pos: Position, a: Attach, actor: str) -> None:
    card = ref.take_from_hand(pos, actor, a.card)
    slot = ref.slot(pos, a.target, actor)
    slot.energy.append(card)
    pos.players[actor].flags.energy_attached = True
    assert a.target is not None
    ref.emit({"type": "attach", "target": format_target(a.target), "card": card.name})


def energy_units(energy: Sequence[Card]) -> list[str]:
    """The Energy units attached cards provide (a Double Colorless gives two)."""
    return [unit for card in energy for unit in card.energy_provided]


def cost_paid(cost: Sequence[str], energy: Sequence[Card]) -> bool:
    """Whether attached Energy pays a cost: each typed symbol needs Energy of its type,
    each Colorless symbol any Energy (001_75e061fbe3c8e794.txt:165, 345)."""
    pool = Counter(energy_units(energy))
    colorless = 0
    for symbol in cost:
        if symbol == "Colorless":
            colorless += 1
        elif pool[symbol] > 0:
            pool[symbol] -= 1
        else:
            return False
    return sum(pool.values()) >= colorless


def retreat_payment_problem(cost: int, discard: Sequence[Card], attached: Sequence[Card]) -> str:
    """Why discarding these cards does not pay a Retreat Cost of ``cost`` Energy, or ''.
    Cards are discarded one by one until the cost is covered: the last may overpay, but
    no card may be discarded once it is covered (003_b55862cc83f9dac9.txt:740-760)."""
    left = Counter(attached)
    for card in discard:
        if left[card] <= 0:
            return f"{card.name} is not attached to the Active Pokémon"
        left[card] -= 1
    units = [len(c.energy_provided) for c in discard]
    if sum(units) < cost:
        return f"the Retreat Cost needs {cost} Energy; {sum(units)} discarded"
    if units and sum(units) - max(units) >= cost:
        return "more Energy discarded than the Retreat Cost needs"
    return ""


def cheapest_payment(slot: Slot, cost: int) -> tuple[Card, ...]:
    """The Energy to discard for a Retreat Cost when the player named none: the cards
    that provide the fewest units first, until the cost is covered."""
    chosen: list[Card] = []
    units = 0
    for card in sorted(slot.energy, key=lambda c: len(c.energy_provided)):
        if units >= cost:
            break
        chosen.append(card)
        units += len(card.energy_provided)
    return tuple(chosen)
