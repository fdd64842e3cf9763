"""What the table board shows, from the live table's snapshot.

Twelve spots: player A's Active and Bench 1-5 are spots 0-5, player B's are 6-11; each
shows the damage on the Pokémon there (as the dice on a playmat would), blank where
there is no Pokémon. Each player has one light: on during their turn, blinking while the
table waits on them (an open question) or has refused their last action (an alert).
"""

from __future__ import annotations

from typing import Any

from hardware.protocol import LIGHT_BLINK, LIGHT_OFF, LIGHT_ON, SPOTS, BoardState

PLAYERS = ("A", "B")
BENCH_SPOTS = SPOTS // 2 - 1


def damage_of(slot: dict[str, Any] | None) -> int | None:
    """The damage on a Pokémon in play (SPEC §3 ``damage``, or what its HP left says)."""
    if not slot:
        return None
    if isinstance(slot.get("damage"), int):
        return max(0, slot["damage"])
    hp, left = slot.get("hp"), slot.get("hp_left")
    if isinstance(hp, int) and isinstance(left, int):
        return max(0, hp - left)
    return 0


def board_state(state: dict[str, Any], alert: bool = False) -> BoardState:
    """The board's state for a live table snapshot's ``state`` (``alert``: the table's
    last word was a refusal)."""
    position = state.get("position") or {}
    players = position.get("players") or {}
    damage: list[int | None] = []
    for player in PLAYERS:
        me = players.get(player) or {}
        bench = list(me.get("bench") or [])[:BENCH_SPOTS]
        damage.append(damage_of(me.get("active")))
        damage.extend(damage_of(slot) for slot in bench)
        damage.extend([None] * (BENCH_SPOTS - len(bench)))
    current = position.get("current")
    waiting = alert or bool(state.get("questions"))
    over = state.get("result") is not None
    lights = tuple(
        LIGHT_OFF if over or player != current else (LIGHT_BLINK if waiting else LIGHT_ON)
        for player in PLAYERS
    )
    return BoardState(tuple(damage), (lights[0], lights[1]))
