"""Setup (001_75e061fbe3c8e794.txt:221-240): hands and Prize cards are dealt, mulligans
give the opponent extra draws as the edition says, and the first turn begins only when
both players have an Active Pokémon."""

from __future__ import annotations

import pytest
from engine_tables import MON, game

from assistant.engine.actions import Begin, Bench, Draw, EndTurn, Setup
from assistant.engine.model import PlayerState, Position


def setup_table() -> Position:
    return Position({p: PlayerState(deck=[MON] * 60) for p in "AB"}, phase="setup")


def test_setup_deals_seven_cards_and_six_prizes() -> None:
    g = game(setup_table())
    assert g.play(Setup(mulligans=())).accepted
    for p in "AB":
        me = g.position.players[p]
        assert (len(me.hand), len(me.prizes), len(me.deck)) == (7, 6, 47)
    assert g.play(Setup(mulligans=())).reason == "wrong-phase"


@pytest.mark.parametrize(("era", "draws"), [("mega-evolution-2025", 2), ("expedition-2002", 4)])
def test_each_mulligan_of_the_opponent_gives_the_edition_s_extra_draws(era: str, draws: int) -> None:
    """001:237 one card per mulligan; 003:261-268 two."""
    g = game(setup_table(), era=era)
    outcome = g.play(Setup(mulligans=(("A", 2), ("B", 0))))
    assert [(e["player"], e["max"]) for e in outcome.events if e["type"] == "mulligan_draws"] == [("B", draws)]
    assert g.play(Draw(player="B", count=draws + 1)).reason == "mulligan-draws"
    assert g.play(Draw(player="A", count=1)).reason == "mulligan-draws"


def test_mulligans_on_both_sides_cancel_out() -> None:
    g = game(setup_table())
    outcome = g.play(Setup(mulligans=(("A", 2), ("B", 1))))
    assert [e for e in outcome.events if e["type"] == "mulligan_draws"] == [
        {"type": "mulligan_draws", "player": "B", "max": 1, "optional": True}]


def test_the_game_begins_when_both_players_have_an_active_pokemon() -> None:
    g = game(setup_table())
    assert g.play(Bench(player="A", card=MON)).reason == "wrong-phase"  # deal first
    g.play(Setup(mulligans=()))
    assert g.play(EndTurn()).reason == "wrong-phase"
    assert g.play(Bench(player="A", card=MON)).accepted
    assert g.play(Begin()).reason == "active-required"
    assert g.play(Bench(player="B", card=MON)).accepted
    outcome = g.play(Begin())
    assert outcome.events == [{"type": "turn", "player": "A", "number": 1},
                              {"type": "draw", "player": "A", "count": 1}]
    assert g.play(Begin()).reason == "wrong-phase"
