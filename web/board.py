"""The scoreboard: what a spectator sees of the table, built from its public snapshot.

A live table's snapshot is already public (hands and decks as counts, Prize cards as a
number: :func:`assistant.live.table.public_position`), but it names cards the way a
position file does, by reference (``"sv3-125"``, an inline alias, ``"Grass Energy"``).
A spectator wants the card's name and how much HP it has left, so the scoreboard looks
each reference up in the game's card book. A reference the book cannot find is shown as
written, never an error: the scoreboard is for watching, not for judging.

The board is a plain JSON-able dict (the script in ``static/`` draws it)::

    {"seq", "game", "era", "turn", "current", "first", "phase", "stadium",
     "players": {"A": {"active", "bench", "prizes", "hand", "deck", "discard",
                       "lost_zone", "flags"}, "B": ...},
     "waiting", "result", "penalties"}

where each Pokémon is ``{"name", "hp", "hp_left", "damage", "energy", "tool",
"conditions"}`` and ``flags`` are this turn's Energy / Supporter / Stadium / Retreat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assistant.cards import Card
from assistant.engine.positions import UnknownCard
from assistant.live.feed import Snapshot

#: Finds the card a position reference names (a game's :class:`CardBook.resolve`).
Resolve = Callable[[str], Card]

#: This turn's flags as the snapshot names them, and as the scoreboard shows them.
FLAGS = {"energy_attached": "energy", "supporter_played": "supporter", "stadium_played": "stadium",
         "retreated": "retreat"}


def card_name(ref: str, resolve: Resolve) -> str:
    """The printed name of the card ``ref`` names, or ``ref`` itself when unknown."""
    card = _card(ref, resolve)
    return card.name if card is not None else ref


def _card(ref: str, resolve: Resolve) -> Card | None:
    try:
        return resolve(ref)
    except (UnknownCard, KeyError, ValueError, LookupError):
        return None


def pokemon(slot: dict[str, Any], resolve: Resolve) -> dict[str, Any]:
    """One Pokémon in play: name, HP and HP left, attached Energy and Tool, Special
    Conditions. What the snapshot already says of the card (``name``, ``hp``,
    ``hp_left``, ``energy_names``, ``tool_name``) is taken as it is; the rest is looked
    up. HP left never goes below 0 (a Knocked Out Pokémon leaves play anyway)."""
    ref = str(slot.get("card", "?"))
    card = None if "name" in slot and "hp" in slot else _card(ref, resolve)
    damage = int(slot.get("damage") or 0)
    hp = slot.get("hp", card.hp if card is not None else None) or None
    hp_left = slot.get("hp_left", hp - damage if hp is not None else None)
    energy = slot.get("energy_names") or [card_name(str(e), resolve) for e in slot.get("energy") or ()]
    tool = slot.get("tool_name") or (card_name(str(slot["tool"]), resolve) if slot.get("tool") else None)
    return {
        "name": slot.get("name") or (card.name if card is not None else ref),
        "hp": hp,
        "hp_left": max(0, hp_left) if hp is not None and hp_left is not None else None,
        "damage": damage,
        "energy": [str(e) for e in energy],
        "tool": tool,
        "conditions": sorted(str(c) for c in slot.get("conditions") or ()),
    }


def _count(value: Any) -> int:
    if isinstance(value, dict):
        return int(value.get("count", 0))
    if isinstance(value, list):
        return len(value)
    return int(value or 0)


def player_board(data: dict[str, Any], resolve: Resolve) -> dict[str, Any]:
    """One side of the table. Hand, deck and Prize cards are counts only, whatever the
    snapshot holds: a spectator never sees a card that is not face up."""
    active = data.get("active")
    flags = data.get("turn_flags") or {}
    return {
        "active": pokemon(active, resolve) if active else None,
        "bench": [pokemon(slot, resolve) for slot in data.get("bench") or ()],
        "prizes": _count(data.get("prizes")),
        "hand": _count(data.get("hand")),
        "deck": _count(data.get("deck")),
        "discard": _count(data.get("discard")),
        "lost_zone": _count(data.get("lost_zone")),
        "flags": {shown: bool(flags.get(key)) for key, shown in FLAGS.items()},
    }


def board(snapshot: Snapshot, resolve: Resolve) -> dict[str, Any]:
    """The scoreboard of a table's public snapshot."""
    state = snapshot.state
    position = state.get("position") or {}
    stadium = position.get("stadium") or None
    return {
        "seq": snapshot.seq,
        "game": state.get("game"),
        "era": state.get("era"),
        "turn": position.get("turn"),
        "current": position.get("current"),
        "first": position.get("first"),
        "phase": position.get("phase"),
        "stadium": (stadium.get("name") or card_name(str(stadium.get("card")), resolve)) if stadium else None,
        "players": {player: player_board(data, resolve)
                    for player, data in sorted((position.get("players") or {}).items())},
        "waiting": len(state.get("questions") or ()),
        "result": state.get("result"),
        "penalties": [{key: p.get(key) for key in ("seq", "player", "kind", "reason")}
                      for p in state.get("penalties") or ()],
    }


def name_at(board_before: dict[str, Any] | None, target: str) -> str | None:
    """The name of the Pokémon at ``target`` (``"B.active"``, ``"A.bench[2]"``) on a
    board, or None when there is no board or no Pokémon there."""
    if board_before is None:
        return None
    player, _, where = target.partition(".")
    side = (board_before.get("players") or {}).get(player)
    if side is None:
        return None
    if where == "active":
        slot = side.get("active")
    elif where.startswith("bench[") and where.endswith("]") and where[6:-1].isdigit():
        bench = side.get("bench") or []
        index = int(where[6:-1])
        slot = bench[index] if index < len(bench) else None
    else:
        slot = None
    return slot["name"] if slot else None
