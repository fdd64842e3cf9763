"""Actions (SPEC §3 ``do``), refusals (SPEC §4 reason codes) and outcomes.

An action is what a player (or an effect a person resolves) does at the table: one
small frozen type per kind of action, as python-chess has its ``Move``. Each names its
SPEC §3 ``type`` and carries only its own fields. Cards in an action are already
:class:`~assistant.cards.Card` objects; targets are ``(player, index)`` pairs with
``index`` ``None`` for the Active Spot. Every field may be missing, as in a position
file: the engine answers a missing card or target with a refusal, not a crash.

A :class:`Refusal` names the reason code and the rulebook lines it rests on; an
:class:`Outcome` is what became of one action.

Besides SPEC §3's types we read a few of our own (allowed SPEC extensions):

- ``draw`` (``count``): during setup a mulligan bonus draw; during a turn a card
  effect's draw, which takes what the deck still holds (001_75e061fbe3c8e794.txt:542-544);
- ``begin``: both players reveal their Pokémon and the first turn starts (during
  setup, ``bench`` places the first Basic in the Active Spot);
- ``devolve`` (``target``, optional ``into``: ``hand``, ``deck`` or ``discard``): an
  effect removes the top Evolution card of an evolved Pokémon (001:898);
- ``effect`` (``target``, ``add`` or ``remove``): a lingering effect of an attack is
  put on or taken off a Pokémon (001:519);
- ``v_union`` (``card``, one piece): the four pieces of a V-UNION go from the discard
  pile onto the Bench together (001:670).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from assistant.cards import Card
from assistant.engine.coins import CoinFlip

Target = tuple[str, "int | None"]
Event = dict[str, Any]
#: Turns a card reference into a Card (raising ``KeyError`` for an unknown one).
CardResolver = Callable[[str], Card]
_TARGET = re.compile(r"^(?:(?P<p>[AB])\.)?(?:(?P<a>active)|bench\[(?P<i>\d+)\])$")
#: Where a devolved Evolution card may go, as the effect says.
DEVOLVE_INTO = ("hand", "deck", "discard")


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
    """What every action has: its SPEC §3 ``type`` and the ``player`` who acts (``None``:
    the player whose turn it is)."""

    type: ClassVar[str] = ""
    player: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Bench(Action):
    """Put a Basic Pokémon from the hand onto the Bench (the Active Spot when empty)."""

    type: ClassVar[str] = "bench"
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Evolve(Action):
    type: ClassVar[str] = "evolve"
    card: Card | None = None
    target: Target | None = None


@dataclass(frozen=True, slots=True)
class Attach(Action):
    """Attach an Energy card from the hand: once per turn."""

    type: ClassVar[str] = "attach"
    card: Card | None = None
    target: Target | None = None


@dataclass(frozen=True, slots=True)
class PlayTrainer(Action):
    """Play a Trainer card; a Tool (or a Technical Machine) names the Pokémon it goes on."""

    type: ClassVar[str] = "play"
    card: Card | None = None
    target: Target | None = None


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Switch the Active Pokémon with the Benched one at ``to``, discarding Energy for the
    Retreat Cost (``discard``; ``None``: the cheapest Energy that pays it)."""

    type: ClassVar[str] = "retreat"
    to: Target | None = None
    discard: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    type: ClassVar[str] = "ability"
    pokemon: Target | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class UseAttack(Action):
    """The Active Pokémon attacks. ``base`` overrides the printed damage (an effect a
    person resolved); ``targets`` is damage the attack does to other Pokémon."""

    type: ClassVar[str] = "attack"
    attack: str = ""
    base: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    targets: tuple[tuple[Target, int], ...] = ()


@dataclass(frozen=True, slots=True)
class PlaceCounters(Action):
    """An effect places damage counters (no Weakness, no Resistance: 001:527)."""

    type: ClassVar[str] = "counters"
    target: Target | None = None
    counters: int = 0


@dataclass(frozen=True, slots=True)
class ChangeCondition(Action):
    """An effect adds or removes a Special Condition."""

    type: ClassVar[str] = "condition"
    target: Target | None = None
    add: str | None = None
    remove: str | None = None


@dataclass(frozen=True, slots=True)
class Switch(Action):
    """An effect switches the Active Pokémon with a Benched one (no Retreat Cost)."""

    type: ClassVar[str] = "switch"
    to: Target | None = None


@dataclass(frozen=True, slots=True)
class Promote(Action):
    """A Benched Pokémon becomes the new Active Pokémon (SPEC: ``from``)."""

    type: ClassVar[str] = "promote"
    source: Target | None = None


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn; Pokémon Checkup follows. ``effects`` are other Checkup effects (an
    Ability that heals, a Trainer that places counters), all ``before`` or all ``after``
    the Special Conditions (``effects_when``, 001_75e061fbe3c8e794.txt:405). Each is
    (target, counters): more than 0 places counters, less than 0 heals that many."""

    type: ClassVar[str] = "end_turn"
    effects_when: str = ""
    effects: tuple[tuple[Target, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Setup(Action):
    """Deal hands and Prizes, with the number of mulligans each player took."""

    type: ClassVar[str] = "setup"
    mulligans: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class DeckCheck(Action):
    """Is this deck list legal under the edition? (Any time; changes nothing.)"""

    type: ClassVar[str] = "deck_check"
    deck: str = ""


@dataclass(frozen=True, slots=True)
class Draw(Action):
    type: ClassVar[str] = "draw"
    count: int = 0


@dataclass(frozen=True, slots=True)
class Begin(Action):
    type: ClassVar[str] = "begin"


@dataclass(frozen=True, slots=True)
class Devolve(Action):
    type: ClassVar[str] = "devolve"
    target: Target | None = None
    into: str = "hand"


@dataclass(frozen=True, slots=True)
class ChangeEffect(Action):
    """A lingering effect of an attack is put on (``add``) or taken off a Pokémon."""

    type: ClassVar[str] = "effect"
    target: Target | None = None
    add: str | None = None
    remove: str | None = None


@dataclass(frozen=True, slots=True)
class PlayVUnion(Action):
    type: ClassVar[str] = "v_union"
    card: Card | None = None


#: Every action type by its SPEC §3 name, in SPEC order.
ACTIONS: dict[str, type[Action]] = {kind.type: kind for kind in (
    Bench, Evolve, Attach, PlayTrainer, Retreat, UseAbility, UseAttack, PlaceCounters,
    ChangeCondition, Switch, Promote, EndTurn, Setup, DeckCheck, Draw, Begin, Devolve,
    ChangeEffect, PlayVUnion,
)}
ACTION_TYPES = tuple(ACTIONS)
#: Actions a player takes during their own turn.
TURN_ACTIONS = frozenset({"bench", "evolve", "attach", "play", "retreat", "ability",
                          "attack", "end_turn", "v_union"})
#: What the attacking player's turn still accepts after an attack (SPEC "How a turn
#: flows"): the attack's own effects, which may also draw, devolve or linger.
AFTER_ATTACK = frozenset({"counters", "condition", "switch", "promote", "end_turn",
                          "deck_check", "draw", "devolve", "effect"})
#: What is accepted while a player must choose a new Active Pokémon.
DURING_PROMOTION = frozenset({"promote", "counters", "condition", "switch", "deck_check"})
#: What is accepted during setup; ``setup`` and ``begin`` nowhere else.
DURING_SETUP = frozenset({"setup", "bench", "draw", "begin"})
SETUP_ONLY = frozenset({"setup", "begin"})


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


@dataclass
class Outcome:
    """What became of one action: accepted or refused (with the refusal), the events it
    produced, and the coin flips it used."""

    action: Action
    accepted: bool
    refusal: Refusal | None = None
    events: list[Event] = field(default_factory=list)
    flips: list[CoinFlip] = field(default_factory=list)

    @property
    def reason(self) -> str | None:
        return self.refusal.reason if self.refusal else None


# -- SPEC §3 JSON ----------------------------------------------------------------------
# One reader and one writer per field name, shared by every action type that has it;
# the writers run in this order, which is the order the JSON keys come out in.

def _card_out(value: Card, card_ref: Callable[[Card], str]) -> Any:
    return card_ref(value)


def _cards_out(value: tuple[Card, ...], card_ref: Callable[[Card], str]) -> Any:
    return [card_ref(c) for c in value]


def _target_out(value: Target, card_ref: Callable[[Card], str]) -> Any:
    return format_target(value)


def _same(value: Any, card_ref: Callable[[Card], str]) -> Any:
    return value


def _modifiers_out(value: tuple[Modifier, ...], card_ref: Callable[[Card], str]) -> Any:
    return [{"on": m.on, "by": m.by, "amount": m.amount} for m in value]


def _targets_out(value: tuple[tuple[Target, int], ...], card_ref: Callable[[Card], str]) -> Any:
    return [{"target": format_target(t), "amount": a} for t, a in value]


def _mulligans_out(value: tuple[tuple[str, int], ...], card_ref: Callable[[Card], str]) -> Any:
    return dict(value)


#: field → (JSON key, writer, when to write it: ``always``, when ``set`` (not None) or
#: when ``truthy``).
_WRITERS: dict[str, tuple[str, Callable[[Any, Callable[[Card], str]], Any], str]] = {
    "card": ("card", _card_out, "set"), "target": ("target", _target_out, "set"),
    "to": ("to", _target_out, "set"), "pokemon": ("pokemon", _target_out, "set"),
    "source": ("from", _target_out, "set"), "discard": ("discard", _cards_out, "set"),
    "name": ("name", _same, "truthy"), "attack": ("attack", _same, "truthy"),
    "base": ("base", _same, "set"), "modifiers": ("modifiers", _modifiers_out, "truthy"),
    "targets": ("targets", _targets_out, "truthy"), "counters": ("counters", _same, "always"),
    "add": ("add", _same, "truthy"), "remove": ("remove", _same, "truthy"),
    "mulligans": ("mulligans", _mulligans_out, "truthy"), "deck": ("deck", _same, "truthy"),
    "count": ("count", _same, "always"),
}


def action_to_json(action: Action, card_ref: Callable[[Card], str]) -> dict[str, Any]:
    """The SPEC §3 form of an action; ``card_ref(card)`` names a card."""
    out: dict[str, Any] = {"type": action.type}
    if action.player:
        out["player"] = action.player
    for name, (key, write, when) in _WRITERS.items():
        if not hasattr(action, name):
            continue
        value = getattr(action, name)
        if (when == "set" and value is None) or (when == "truthy" and not value):
            continue
        out[key] = write(value, card_ref)
    if isinstance(action, Devolve) and action.into != "hand":
        out["into"] = action.into
    if isinstance(action, EndTurn) and action.effects:
        out["checkup_effects"] = {
            "when": action.effects_when,
            "effects": [{"target": format_target(t), "counters": n} if n > 0
                        else {"target": format_target(t), "heal": -n} for t, n in action.effects],
        }
    return out


def _read_field(name: str, data: dict[str, Any], actor: str, resolve: CardResolver) -> Any:
    """One field of an action from its JSON, or ``...`` when the JSON leaves it out."""
    if name in ("target", "to", "pokemon", "source"):
        key = "from" if name == "source" else name
        return parse_target(str(data[key]), actor) if key in data else ...
    if name == "card":
        return resolve(data["card"]) if "card" in data else ...
    if name == "discard":
        return tuple(resolve(c) for c in data["discard"]) if "discard" in data else ...
    if name == "base":
        return int(data["base"]) if data.get("base") is not None else ...
    if name == "modifiers":
        return tuple(Modifier(str(m["on"]), str(m["by"]), int(m["amount"]))
                     for m in data.get("modifiers") or ())
    if name == "targets":
        return tuple((parse_target(str(t["target"]), actor), int(t["amount"]))
                     for t in data.get("targets") or ())
    if name in ("counters", "count"):
        return int(data.get(name, 0) or 0)
    if name == "mulligans":
        return tuple(sorted((str(k), int(v)) for k, v in (data.get("mulligans") or {}).items()))
    if name == "effects_when":
        return str((data.get("checkup_effects") or {}).get("when", ""))
    if name == "effects":
        return tuple(
            (parse_target(str(e["target"]), actor), int(e.get("counters", 0)) - int(e.get("heal", 0)))
            for e in (data.get("checkup_effects") or {}).get("effects", ()))
    if name in ("add", "remove"):
        return data.get(name)
    return str(data[name]) if name in data else ...


def action_from_json(data: dict[str, Any], current: str, resolve: CardResolver) -> Action:
    """Read a SPEC §3 action. ``resolve(ref)`` turns a card reference into a Card
    (raising ``KeyError`` for an unknown one); ``current`` is the player whose turn it
    is, the default actor."""
    kind = ACTIONS.get(str(data.get("type", "")))
    if kind is None:
        raise ValueError(f"unknown action type {data.get('type', '')!r}")
    player = data.get("player")
    actor = player or current
    values: dict[str, Any] = {}
    for name in _OWN_FIELDS[kind]:
        value = _read_field(name, data, actor, resolve)
        if value is not ...:
            values[name] = value
    return kind(player=player, **values)


#: The fields each action type reads from its JSON (all but ``player``).
_OWN_FIELDS = {kind: tuple(f.name for f in fields(kind) if f.name != "player") for kind in ACTIONS.values()}
