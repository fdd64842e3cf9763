"""A small table to play on: two Basic Pokémon each side, A's Active Confused; shared by the
live-table tests and the crash drill's driver."""

from __future__ import annotations

from typing import Any


def _basic(name: str, hp: int, kind: str = "Colorless", weak: str | None = None) -> dict[str, Any]:
    card: dict[str, Any] = {"name": name, "supertype": "Pokémon", "subtypes": ["Basic"], "hp": hp,
                            "types": [kind], "retreatCost": ["Colorless"],
                            "attacks": [{"name": "Tackle", "cost": ["Colorless"], "damage": "30"}]}
    if weak:
        card["weaknesses"] = [{"type": weak, "value": "×2"}]
    return card


CARDS = {"hitter": _basic("Lechonk", 100), "target": _basic("Wiglett", 100, "Water"),
         "benchmon": _basic("Skwovet", 60)}


def table_state(confused: bool = True) -> dict[str, Any]:
    def player(active: str) -> dict[str, Any]:
        return {"active": {"card": active, "energy": ["Grass Energy"]}, "bench": [{"card": "benchmon"}],
                "prizes": 6, "deck": 30, "hand": {"count": 5}}

    state = {"turn": 5, "current": "A", "first": "A",
             "players": {"A": player("hitter"), "B": player("target")}}
    if confused:
        state["players"]["A"]["active"]["conditions"] = ["Confused"]
    return state


def no_database(ref: str) -> None:
    """The tables here use inline cards only."""
    return None
