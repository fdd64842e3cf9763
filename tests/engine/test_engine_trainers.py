"""Trainer cards (001_75e061fbe3c8e794.txt:255, 299-310, 956): one Supporter a turn and
none on the first player's first turn (where the edition says so), one Stadium a turn
and never one of the same name, one Tool per Pokémon; a 2009 Supporter stays beside the
Active Pokémon until the turn ends."""

from __future__ import annotations

import pytest
from engine_tables import STADIUM, SUPPORTER, TOOL, game, player, table

from assistant.engine.actions import EndTurn, PlayTrainer


def test_one_supporter_per_turn() -> None:
    g = game(table(player(hand=[SUPPORTER, SUPPORTER])))
    assert g.play(PlayTrainer(card=SUPPORTER)).accepted
    assert g.play(PlayTrainer(card=SUPPORTER)).reason == "supporter-already-played"


@pytest.mark.parametrize(("era", "allowed"), [("mega-evolution-2025", False), ("black-white-2011", True)])
def test_the_first_player_s_first_turn_supporter(era: str, allowed: bool) -> None:
    g = game(table(player(hand=[SUPPORTER]), turn=1), era=era)
    assert (g.play(PlayTrainer(card=SUPPORTER)).reason == "supporter-first-turn") is not allowed


def test_a_stadium_of_the_same_name_cannot_replace_itself() -> None:
    g = game(table(player(hand=[STADIUM]), stadium=(STADIUM, "B")))
    assert g.play(PlayTrainer(card=STADIUM)).reason == "stadium-same-name"
    assert game(table(player(hand=[STADIUM]), stadium=(STADIUM, "B")), era="black-white-2011").play(
        PlayTrainer(card=STADIUM)).accepted


def test_one_tool_per_pokemon() -> None:
    g = game(table(player(hand=[TOOL, TOOL])))
    assert g.play(PlayTrainer(card=TOOL, target=("A", None))).accepted
    assert g.play(PlayTrainer(card=TOOL, target=("A", None))).reason == "tool-already-attached"
    assert g.play(PlayTrainer(card=TOOL, target=("B", None))).reason == "invalid-target"


def test_a_2009_supporter_waits_beside_the_active_until_the_turn_ends() -> None:
    """004:546: the Supporter stays in play until the end of the turn."""
    g = game(table(player(hand=[SUPPORTER])), era="platinum-2009")
    assert g.play(PlayTrainer(card=SUPPORTER)).accepted
    me = g.position.players["A"]
    assert me.beside_active == [SUPPORTER] and SUPPORTER not in me.discard
    g.play(EndTurn())
    me = g.position.players["A"]
    assert me.beside_active == [] and SUPPORTER in me.discard
