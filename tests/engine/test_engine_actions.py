"""Actions are small typed values, one type per SPEC §3 action (python-chess's ``Move``
is the model), read from and written to the SPEC §3 JSON form unchanged; the game
checks and plays each through one entry of its dispatch table."""

from __future__ import annotations

import pytest
from engine_tables import CHARMELEON, GRASS, MON, TOOL, game

from assistant.cards import Card
from assistant.engine.actions import (
    ACTION_TYPES,
    ACTIONS,
    Bench,
    Evolve,
    UseAttack,
    action_from_json,
    action_to_json,
)
from assistant.engine.game import RULES

CARDS = {c.id: c for c in (MON, CHARMELEON, TOOL, GRASS)}

#: One action of every type, with every field it has.
EVERY_TYPE = [
    {"type": "bench", "player": "A", "card": "mon"},
    {"type": "evolve", "card": "charmeleon", "target": "A.bench[0]"},
    {"type": "attach", "card": GRASS.id, "target": "A.active"},
    {"type": "play", "card": "charm", "target": "A.active"},
    {"type": "retreat", "to": "A.bench[0]", "discard": [GRASS.id]},
    {"type": "ability", "pokemon": "A.active", "name": "Leaf Call"},
    {"type": "attack", "attack": "Tackle", "base": 0,
     "modifiers": [{"on": "attacker", "by": "trainer", "amount": 30}],
     "targets": [{"target": "B.bench[0]", "amount": 20}]},
    {"type": "counters", "target": "B.active", "counters": 2},
    {"type": "condition", "target": "B.active", "add": "Asleep"},
    {"type": "switch", "player": "B", "to": "B.bench[1]"},
    {"type": "promote", "player": "B", "from": "B.bench[0]"},
    {"type": "end_turn", "checkup_effects": {"when": "after", "effects": [
        {"target": "A.active", "heal": 1}, {"target": "B.active", "counters": 2}]}},
    {"type": "setup", "mulligans": {"A": 1, "B": 0}},
    {"type": "deck_check", "deck": "4 Lechonk"},
    {"type": "draw", "count": 0},
    {"type": "begin"},
    {"type": "devolve", "target": "A.active", "into": "discard"},
    {"type": "effect", "target": "B.active", "remove": "attack-coin"},
    {"type": "v_union", "card": "mon"},
]


def _ref(card: Card) -> str:
    return card.id or card.name


@pytest.mark.parametrize("raw", EVERY_TYPE, ids=[r["type"] for r in EVERY_TYPE])
def test_every_action_type_reads_and_writes_its_spec_json_unchanged(raw: dict[str, object]) -> None:
    action = action_from_json(raw, "A", CARDS.__getitem__)
    assert type(action) is ACTIONS[str(raw["type"])] and action.type == raw["type"]
    assert action_to_json(action, _ref) == raw


def test_every_spec_action_type_has_its_own_type_and_rule() -> None:
    assert {r["type"] for r in EVERY_TYPE} == set(ACTION_TYPES)
    assert set(RULES) == set(ACTIONS.values())
    assert len(set(ACTIONS.values())) == len(ACTION_TYPES)


def test_an_action_carries_only_its_own_fields() -> None:
    """An attack names no card and a Bench action no attack: a field that does not
    belong to the action cannot be given by mistake."""
    with pytest.raises(TypeError):
        UseAttack(card=MON)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Bench(attack="Tackle")  # type: ignore[call-arg]
    assert not hasattr(Bench(card=MON), "attack")


def test_actions_are_frozen_values() -> None:
    first = Evolve(card=CHARMELEON, target=("A", None), player="A")
    assert first == Evolve(card=CHARMELEON, target=("A", None), player="A")
    assert hash(first) == hash(Evolve(card=CHARMELEON, target=("A", None), player="A"))
    with pytest.raises(AttributeError):
        first.card = MON  # type: ignore[misc]


def test_a_missing_card_or_target_is_a_refusal_not_a_crash() -> None:
    assert game().play(Bench()).reason == "unknown-card"
    assert game().play(action_from_json({"type": "counters", "counters": 1}, "A", CARDS.__getitem__)).reason \
        == "invalid-target"


def test_an_unknown_action_type_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown action type 'search'"):
        action_from_json({"type": "search"}, "A", CARDS.__getitem__)
