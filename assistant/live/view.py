"""The table as spectators and displays see it.

A snapshot's ``position`` is the SPEC §3 state with two changes:

- nothing hidden: hands, decks and Prize cards are counts only, whatever the table
  knows of them (a judge's table may know a hand; a phone in the crowd must not);
- each Pokémon in play says what a person reads on the card and needs no card
  database to show: ``name``, ``hp``, ``hp_left``, ``types``, ``stage``, the names of
  its attached Energy (``energy_names``) and Tool (``tool_name``). The Stadium in play
  gets its ``name`` too.
"""

from __future__ import annotations

from typing import Any

from assistant.engine.model import PLAYERS, Position, Slot


def public_position(state: dict[str, Any], position: Position) -> dict[str, Any]:
    """The SPEC §3 ``state`` of ``position`` as anyone may see it (see the module)."""
    players = {}
    for player, data in state.get("players", {}).items():
        shown = dict(data)
        for zone in ("hand", "deck", "prizes"):
            value = shown.get(zone)
            if isinstance(value, list):
                shown[zone] = {"count": len(value)} if zone == "hand" else len(value)
        me = position.players[player] if player in PLAYERS else None
        if me is not None:
            if me.active is not None and shown.get("active"):
                shown["active"] = {**shown["active"], **slot_view(me.active)}
            shown["bench"] = [{**data, **slot_view(slot)}
                              for data, slot in zip(shown.get("bench") or [], me.bench, strict=False)]
        players[player] = shown
    public = {**state, "players": players}
    if position.stadium is not None and state.get("stadium"):
        public["stadium"] = {**state["stadium"], "name": position.stadium[0].name}
    return public


def slot_view(slot: Slot) -> dict[str, Any]:
    """What a person reads on a Pokémon in play."""
    return {
        "name": slot.card.name,
        "hp": slot.hp,
        "hp_left": max(0, slot.remaining_hp),
        "types": list(slot.types),
        "stage": slot.card.stage,
        "energy_names": [card.name for card in slot.energy],
        "tool_name": slot.tool.name if slot.tool is not None else None,
    }
