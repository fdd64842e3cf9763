"""What the judge's console offers beyond raw SPEC §3 actions: an attack as a form, and
Pokémon Checkup one step at a time.

**Declaring an attack.** The camera sees an attack's damage land but not which attack
was declared, nor what its text chose (the base damage a coin decided, Bench damage).
:func:`attack_form` lists what the form offers, read from the position: the Active
Pokémon of the player whose turn it is, its attacks with their cost and printed damage,
and the other Pokémon in play an attack may hit. The form builds the ``attack`` action
(``attack``, optional ``base``, ``modifiers``, ``targets``) and the table judges it like
any other: a refusal comes back with its rulebook line.

**Pokémon Checkup.** Ending a turn runs Checkup between turns (Poisoned, Burned, Asleep,
Paralyzed: 001_75e061fbe3c8e794.txt:393-455). Burned and Asleep need coins the camera
cannot see, so the table asks for each in turn; :func:`checkup` says where the walk is:
the Special Conditions waiting to be checked, the coins already flipped for this
Checkup and the one asked now, and what the last Checkup did, in words.
"""

from __future__ import annotations

from typing import Any

from assistant.engine.actions import format_target
from assistant.engine.model import PLAYERS, Position, other
from assistant.live.questions import CoinQuestion, Question
from assistant.live.record import Entry
from web.narrate import checkup_line

#: The Special Conditions Checkup looks at, in the order it looks (001:393-455).
CHECKUP_CONDITIONS = ("Poisoned", "Burned", "Asleep", "Paralyzed")
#: Who may change an attack's damage, as SPEC §3 ``modifiers`` name them.
MODIFIER_SIDES = ("attacker", "defender")
MODIFIER_SOURCES = ("attack", "trainer", "energy", "stadium", "ability")


def attack_form(position: Position) -> dict[str, Any]:
    """What the attack form offers now: the attacker (``None`` without an Active
    Pokémon), its attacks, and the Pokémon an attack may also hit (``targets``)."""
    player = position.current
    me = position.players[player]
    attacker = me.active
    targets = []
    for who in (other(player), player):
        side = position.players[who]
        places = ([(None, side.active)] if side.active is not None else []) + list(enumerate(side.bench))
        for index, slot in places:
            if who == player and index is None:
                continue  # the attacker itself
            targets.append({"target": format_target((who, index)), "name": slot.card.name,
                            "hp_left": max(0, slot.remaining_hp)})
    return {
        "player": player,
        "attacker": None if attacker is None else {"name": attacker.card.name, "target": f"{player}.active"},
        "attacks": [] if attacker is None else [{"name": a.name, "cost": list(a.cost), "damage": a.damage}
                                               for a in attacker.attacks],
        "targets": targets,
        "modifiers": {"on": list(MODIFIER_SIDES), "by": list(MODIFIER_SOURCES)},
    }


def checkup_plan(position: Position) -> list[dict[str, Any]]:
    """The Special Conditions the next Checkup looks at, in its order: each Active
    Pokémon's, the player whose turn it is first."""
    steps = []
    for condition in CHECKUP_CONDITIONS:
        for player in sorted(PLAYERS, key=lambda p: p != position.current):
            active = position.players[player].active
            if active is not None and condition in active.conditions:
                steps.append({"player": player, "target": f"{player}.active", "name": active.card.name,
                              "condition": condition})
    return steps


def _active_name(position: Position, target: str) -> str:
    """The name of the Pokémon now at ``target`` (``"A.active"``), or the place itself."""
    player = target.partition(".")[0]
    side = position.players.get(player) if player in PLAYERS else None
    return side.active.card.name if side is not None and side.active is not None else target


def checkup(position: Position, questions: list[Question], standing: list[Entry]) -> dict[str, Any]:
    """Where Pokémon Checkup stands: ``plan`` (what the next one looks at), ``asking``
    (the coin question of a turn ending now, or None) with the coins ``flipped`` so far,
    and ``last`` (the last Checkup's steps in words, with its entry)."""
    asking = next((q for q in questions if isinstance(q, CoinQuestion) and q.action.get("type") == "end_turn"), None)
    last_end = next((e for e in reversed(standing) if e.kind == "action"
                     and (e.body.get("action") or {}).get("type") == "end_turn"), None)
    last: dict[str, Any] | None = None
    if last_end is not None:
        steps = [checkup_line(event, _active_name(position, str(event.get("target", ""))))
                 for event in last_end.body.get("events") or () if event.get("type") == "checkup"]
        last = {"seq": last_end.seq, "steps": steps}
    return {
        "plan": checkup_plan(position),
        "asking": None if asking is None else asking.to_json(),
        "flipped": [] if asking is None else [{"purpose": f["purpose"], "result": f["result"]} for f in asking.flips],
        "last": last,
    }
