"""The table's record in words, for the scoreboard's log and the judge's console.

Each entry of a live table's record (an accepted action and the events it produced, a
question, a correction, a penalty, the clock) becomes a few short sentences:
"Wiglett took 60: 30, ×2 Weakness", "Turn 6: B's turn", "Judge's correction: back to
entry 4 (B's turn was ended by mistake)".

An event names a Pokémon by where it stood (``"B.active"``); the sentence names it by
the board *before* the entry, when the caller has that board, and by its place
("B's Active Pokémon") when not, rather than risk naming the wrong card.

Spectators are told what both players can see; a refused action, and what a question
offers, are for the console only (``console=True``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assistant.live.record import Entry
from web.board import name_at

Board = dict[str, Any]


def place(target: str) -> str:
    """``"B.active"`` → "B's Active Pokémon", ``"A.bench[1]"`` → "A's Benched Pokémon 2"."""
    player, _, where = target.partition(".")
    if where == "active":
        return f"{player}'s Active Pokémon"
    if where.startswith("bench[") and where[6:-1].isdigit():
        return f"{player}'s Benched Pokémon {int(where[6:-1]) + 1}"
    return target


def damage_breakdown(steps: list[list[Any]]) -> str:
    """How an attack's damage was reached, in the words a player uses: "90, ×2 Weakness",
    "120, −30 Resistance, +30 from effects". Empty when nothing changed the base."""
    if not steps:
        return ""
    parts = [str(steps[0][1])]
    before = steps[0][1]
    for name, value in steps[1:]:
        if value != before and isinstance(value, int) and isinstance(before, int):
            step = str(name)
            if step == "weakness":
                parts.append(f"×{value // before} Weakness" if before and value == before * (value // before)
                             else f"+{value - before} Weakness")
            elif step == "resistance":
                parts.append(f"−{before - value} Resistance")
            elif step.startswith("mods"):
                parts.append(f"{value - before:+d} from effects".replace("-", "−"))
            else:
                parts.append(f"{value} ({step})")
        before = value
    return ", ".join(parts) if len(parts) > 1 else ""


def _count(n: int, one: str, many: str) -> str:
    return f"a {one}" if n == 1 else f"{n} {many}"


def event_line(event: dict[str, Any], name: Callable[[str], str]) -> str | None:
    """One engine event in words; ``name(target)`` names the Pokémon at a place. None for
    the events a watcher does not need (the engine's bookkeeping)."""
    kind = event.get("type")
    who = event.get("player", "")
    target = name(str(event["target"])) if "target" in event else ""
    if kind == "turn":
        return f"Turn {event.get('number')}: {who}'s turn"
    if kind == "draw":
        return f"{who} drew {_count(int(event.get('count', 1)), 'card', 'cards')}"
    if kind == "attack":
        return f"{name(f'{who}.active')} used {event.get('attack')}"
    if kind == "damage":
        if event.get("prevented"):
            return f"{target} took no damage ({event['prevented']})"
        why = damage_breakdown(event.get("steps") or [])
        if event.get("why"):
            why = str(event["why"]).capitalize()
        return f"{target} took {event.get('amount')}" + (f": {why}" if why else "")
    if kind == "counters":
        why = f" ({str(event['why']).capitalize()})" if event.get("why") else ""
        counters = int(event.get("counters", 0))
        return f"{target} got {_count(counters, 'damage counter', 'damage counters')}{why}"
    if kind == "coin":
        return f"Coin ({str(event.get('for', '')).replace('-', ' ')}): {event.get('result')}"
    if kind == "knockout":
        return f"{event.get('card')} was Knocked Out"
    if kind == "prize":
        return f"{who} took {_count(int(event.get('count', 1)), 'Prize card', 'Prize cards')}"
    if kind == "win":
        return f"{who} wins ({str(event.get('why', '')).replace('_', ' ')})"
    if kind in ("bench", "active", "play", "v_union"):
        verb = {"bench": "benched", "active": "put in the Active Spot", "play": "played",
                "v_union": "played the V-UNION"}[kind]
        return f"{who} {verb} {event.get('card')}"
    if kind == "promote":
        return f"{who} promoted {event.get('card')} to the Active Spot"
    if kind == "attach":
        return f"{event.get('card')} attached to {target}"
    if kind == "evolve":
        return f"{target} evolved into {event.get('card')}"
    if kind == "devolve":
        return f"{event.get('card')} devolved into {event.get('into')}"
    if kind == "retreat":
        return f"{who} retreated; {name(str(event.get('to', '')))} is now Active"
    if kind == "switch":
        return f"{who} switched in {name(str(event.get('to', '')))}"
    if kind == "condition":
        change = {"added": "is now", "removed": "is no longer", "replaced": "is no longer"}.get(
            str(event.get("change")), "")
        return f"{target} {change} {event.get('condition')}".replace("  ", " ")
    if kind == "checkup":
        return f"Checkup, {checkup_line(event, target)}"
    if kind == "ability":
        return f"{name(str(event.get('pokemon', '')))} used {event.get('name')}"
    if kind == "attack_cancelled":
        return "The attack did nothing"
    return None


def checkup_line(event: dict[str, Any], name: str) -> str:
    """One step of Pokémon Checkup in words ("Burned: tails, Lechonk got 2 damage
    counters, Lechonk is still Burned"; "Asleep: heads, Lechonk woke up"): the coin, if
    one was flipped, then what happened to the Pokémon ``name`` names."""
    step = str(event.get("step", "")).capitalize()
    parts = [str(event["coin"])] if event.get("coin") else []
    counters = int(event.get("counters") or 0)
    if counters:
        parts.append(f"{name} got {_count(counters, 'damage counter', 'damage counters')}")
    if "recovered" in event:
        recovered = {"Asleep": "woke up", "Paralyzed": "is no longer Paralyzed"}.get(step, f"is no longer {step}")
        parts.append(f"{name} {recovered}" if event["recovered"] else f"{name} is still {step}")
    return f"{step}: " + ", ".join(parts) if parts else f"{step}: {name}"


def entry_lines(entry: Entry, before: Board | None, *, console: bool = False) -> list[str]:
    """An entry of the record in words. ``before`` is the board just before the entry,
    if known. (The entry itself, not its ``to_json()``: a question's and a penalty's own
    ``kind`` would hide the entry's there.)"""
    body = entry.body

    def name(target: str) -> str:
        return name_at(before, target) or place(target)

    if entry.kind == "action":
        lines = [line for event in body.get("events") or () if (line := event_line(event, name))]
        return lines or [str((body.get("action") or {}).get("type", "action")).replace("_", " ").capitalize()]
    if entry.kind == "question":
        if body.get("kind") == "coin":
            return [f"Waiting for a coin flip ({str(body.get('purpose', '')).replace('-', ' ')})"]
        return [f"Question for the judge: {body.get('text')}" if console else "Waiting for the judge"]
    if entry.kind == "alert":
        return [f"Refused ({body.get('reason')}): {body.get('message')}"] if console else []
    if entry.kind == "rewind":
        return [f"Judge's correction: back to entry {body.get('to')} ({body.get('reason')})"]
    if entry.kind == "penalty":
        return [f"Penalty for {body.get('player')}: {body.get('kind')} ({body.get('reason')})"]
    if entry.kind == "clock":
        return [f"Round clock: {body.get('do')}"]
    if entry.kind == "time":
        return ["Time called"]
    if entry.kind == "answer" and console:
        return [f"Answered question {body.get('question')}: {body.get('answer')}"]
    return []
