"""Ending a turn and beginning the next (001_75e061fbe3c8e794.txt:219, 244-267): the other
player's turn begins with a draw, turn limits reset, and a player who cannot draw at
the start of their turn loses."""

from __future__ import annotations

from engine_tables import GRASS, game, player, table

from assistant.cards import Attack, Card
from assistant.engine.actions import Attach, EndTurn


def test_the_next_turn_begins_with_a_draw_and_fresh_limits() -> None:
    g = game(table(player(hand=[GRASS, GRASS])))
    assert g.play(Attach(card=GRASS, target=("A", None))).accepted
    outcome = g.play(EndTurn())
    assert outcome.events[-2:] == [{"type": "turn", "player": "B", "number": 6},
                                   {"type": "draw", "player": "B", "count": 1}]
    assert len(g.position.players["B"].hand) == 6
    g.play(EndTurn())
    assert g.play(Attach(card=GRASS, target=("A", None))).accepted


def test_a_player_who_cannot_draw_loses() -> None:
    g = game(table(b=player(deck=[])))
    outcome = g.play(EndTurn())
    assert outcome.events[-1] == {"type": "win", "player": "A", "why": "deck-out", "ways": ["deck-out"]}
    assert g.position.winner == "A"


def test_a_2002_technical_machine_is_discarded_at_the_end_of_the_turn() -> None:
    """003:114-115: a Technical Machine stays attached until the end of the turn."""
    tm = Card("TM: Ditto", "Trainer", ("Technical Machine",), id="tm", attacks=(Attack("Transform"),))
    me = player()
    assert me.active is not None
    me.active.tool = tm
    g = game(table(me), era="expedition-2002")
    g.play(EndTurn())
    a = g.position.players["A"]
    assert a.active is not None and a.active.tool is None and tm in a.discard
    kept = game(table(player()), era="mega-evolution-2025")
    assert kept.position.players["A"].active is not None
