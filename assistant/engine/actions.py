"""Actions (SPEC §3 ``do``) and refusals (SPEC §4 reason codes).

An :class:`Action` is what a player (or an effect a person resolves) does at the table.
Cards in an action are already :class:`~assistant.cards.Card` objects; targets are
``(player, index)`` pairs with ``index`` ``None`` for the Active Spot. A
:class:`Refusal` names the reason code and the rulebook lines it rests on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assistant.cards import Card

#: SPEC §3 action types, plus our own (allowed SPEC extensions):
#:
#: - ``draw`` (``count``): during setup a mulligan bonus draw; during a turn a card
#:   effect's draw, which takes what the deck still holds (001_75e061fbe3c8e794.txt:542-544);
#: - ``begin``: both players reveal their Pokémon and the first turn starts (during
#:   setup, ``bench`` places the first Basic in the Active Spot);
#: - ``devolve`` (``target``, optional ``into``: ``hand``, ``deck`` or ``discard``): an
#:   effect removes the top Evolution card of an evolved Pokémon (001:898);
#: - ``effect`` (``target``, ``add`` or ``remove``): a lingering effect of an attack is
#:   put on or taken off a Pokémon (001:519);
#: - ``v_union`` (``card``, one piece): the four pieces of a V-UNION go from the discard
#:   pile onto the Bench together (001:670).
ACTION_TYPES = (
    "bench", "evolve", "attach", "play", "retreat", "ability", "attack", "counters",
    "condition", "switch", "promote", "end_turn", "setup", "deck_check", "draw", "begin",
    "devolve", "effect", "v_union",
)
#: Actions a player takes during their own turn.
TURN_ACTIONS = frozenset({"bench", "evolve", "attach", "play", "retreat", "ability",
                          "attack", "end_turn", "v_union"})
#: What the attacking player's turn still accepts after an attack (SPEC "How a turn
#: flows"): the attack's own effects, which may also draw, devolve or linger.
AFTER_ATTACK = frozenset({"counters", "condition", "switch", "promote", "end_turn",
                          "deck_check", "draw", "devolve", "effect"})
#: What is accepted while a player must choose a new Active Pokémon.
DURING_PROMOTION = frozenset({"promote", "counters", "condition", "switch", "deck_check"})
#: Where a devolved Evolution card may go, as the effect says.
DEVOLVE_INTO = ("hand", "deck", "discard")

Target = tuple[str, "int | None"]
_TARGET = re.compile(r"^(?:(?P<p>[AB])\.)?(?:(?P<a>active)|bench\[(?P<i>\d+)\])$")


def parse_target(text: str, player: str) -> Target:
    """``A.active`` → ("A", None); ``bench[2]`` → (player, 2)."""
    match = _TARGET.match(text.strip())
    if not match:
        raise ValueError(f"unreadable target {text!r}")
    who = match["p"] or player
    return who, None if match["a"] else int(match["i"])


def format_target(target: Target) -> str:
    player, index = target
    return f"{player}.active" if index is None else f"{player}.bench[{index}]"


@dataclass(frozen=True, slots=True)
class Modifier:
    """A damage change from an effect: ``on`` the attacker or defender side, ``by`` the
    kind of effect (``attack``, ``trainer``, ``energy``, ``stadium``, ``ability``)."""

    on: str
    by: str
    amount: int


@dataclass(frozen=True, slots=True)
class Action:
    type: str
    player: str | None = None
    card: Card | None = None
    target: Target | None = None
    to: Target | None = None
    discard: tuple[Card, ...] | None = None
    pokemon: Target | None = None
    name: str = ""
    attack: str = ""
    base: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    targets: tuple[tuple[Target, int], ...] = ()
    counters: int = 0
    add: str | None = None
    remove: str | None = None
    source: Target | None = None  # promote's ``from``
    mulligans: tuple[tuple[str, int], ...] = ()
    deck: str = ""
    count: int = 0
    #: ``end_turn`` only: other Checkup effects (an Ability that heals, a Trainer that
    #: places counters), all ``before`` or all ``after`` the Special Conditions
    #: (001_75e061fbe3c8e794.txt:405). Each is (target, counters): more than 0 places
    #: counters, less than 0 heals that many counters.
    effects_when: str = ""
    effects: tuple[tuple[Target, int], ...] = ()
    #: ``devolve`` only: where the removed Evolution card goes.
    into: str = "hand"
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action was refused: a SPEC §4 ``reason`` code, the rulebook ``rule``
    (``file:lines``) it rests on, and a sentence for the player."""

    reason: str
    rule: str
    message: str
    #: The :class:`~assistant.editions.Rulings` field the refusal rests on, when the
    #: rulebook leaves the question open (RULES.md §23); '' otherwise.
    ruling: str = ""


def action_to_json(action: Action, card_ref) -> dict[str, Any]:  # noqa: ANN001
    """The SPEC §3 form of an action; ``card_ref(card)`` names a card."""
    out: dict[str, Any] = {"type": action.type}
    if action.player:
        out["player"] = action.player
    if action.card is not None:
        out["card"] = card_ref(action.card)
    for key in ("target", "to", "pokemon"):
        value = getattr(action, key)
        if value is not None:
            out[key] = format_target(value)
    if action.source is not None:
        out["from"] = format_target(action.source)
    if action.discard is not None:
        out["discard"] = [card_ref(c) for c in action.discard]
    if action.name:
        out["name"] = action.name
    if action.attack:
        out["attack"] = action.attack
    if action.base is not None:
        out["base"] = action.base
    if action.modifiers:
        out["modifiers"] = [{"on": m.on, "by": m.by, "amount": m.amount} for m in action.modifiers]
    if action.targets:
        out["targets"] = [{"target": format_target(t), "amount": a} for t, a in action.targets]
    if action.type == "counters":
        out["counters"] = action.counters
    if action.add:
        out["add"] = action.add
    if action.remove:
        out["remove"] = action.remove
    if action.mulligans:
        out["mulligans"] = dict(action.mulligans)
    if action.deck:
        out["deck"] = action.deck
    if action.type == "draw":
        out["count"] = action.count
    if action.type == "devolve" and action.into != "hand":
        out["into"] = action.into
    if action.effects:
        out["checkup_effects"] = {
            "when": action.effects_when,
            "effects": [{"target": format_target(t), "counters": n} if n > 0
                        else {"target": format_target(t), "heal": -n} for t, n in action.effects],
        }
    return out


def action_from_json(data: dict[str, Any], current: str, resolve) -> Action:  # noqa: ANN001
    """Read a SPEC §3 action. ``resolve(ref)`` turns a card reference into a Card
    (raising ``KeyError`` for an unknown one); ``current`` is the player whose turn it
    is, the default actor."""
    kind = str(data.get("type", ""))
    if kind not in ACTION_TYPES:
        raise ValueError(f"unknown action type {kind!r}")
    player = data.get("player")
    actor = player or current

    def tgt(key: str, who: str = actor) -> Target | None:
        return parse_target(str(data[key]), who) if key in data else None

    return Action(
        type=kind,
        player=player,
        card=resolve(data["card"]) if "card" in data else None,
        target=tgt("target"),
        to=tgt("to"),
        discard=tuple(resolve(c) for c in data["discard"]) if "discard" in data else None,
        pokemon=tgt("pokemon"),
        name=str(data.get("name", "")),
        attack=str(data.get("attack", "")),
        base=int(data["base"]) if data.get("base") is not None else None,
        modifiers=tuple(Modifier(str(m["on"]), str(m["by"]), int(m["amount"]))
                        for m in data.get("modifiers") or ()),
        targets=tuple((parse_target(str(t["target"]), actor), int(t["amount"]))
                      for t in data.get("targets") or ()),
        counters=int(data.get("counters", 0) or 0),
        add=data.get("add"),
        remove=data.get("remove"),
        source=tgt("from"),
        mulligans=tuple(sorted((str(k), int(v)) for k, v in (data.get("mulligans") or {}).items())),
        deck=str(data.get("deck", "")),
        count=int(data.get("count", 0) or 0),
        into=str(data.get("into", "hand")),
        effects_when=str((data.get("checkup_effects") or {}).get("when", "")),
        effects=tuple(
            (parse_target(str(e["target"]), actor),
             int(e.get("counters", 0)) - int(e.get("heal", 0)))
            for e in (data.get("checkup_effects") or {}).get("effects", ())
        ),
    )
