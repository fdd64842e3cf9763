"""Knock Outs and Prize cards (001_75e061fbe3c8e794.txt:381-385, 546-554): a Pokémon whose
damage reaches its HP goes to the discard pile with its cards, the opponent takes Prize
cards by the edition's count for its Rule Box, and the last Prize card or an empty
table wins; two wins at once go to the one who wins two ways, else Sudden Death."""

from __future__ import annotations

import pytest
from engine_tables import BIG, GRASS, MON, game, player, table

from assistant.engine.actions import PlaceCounters, UseAttack


@pytest.mark.parametrize(("era", "prizes"), [("mega-evolution-2025", 2), ("expedition-2002", 1)])
def test_a_pokemon_ex_is_worth_the_edition_s_prizes(era: str, prizes: int) -> None:
    """001:596 two Prize cards for a Pokémon ex; 2002 knows no such Rule Box."""
    b = player(active=BIG)
    assert b.active is not None
    b.active.damage = 180
    g = game(table(b=b), era=era)
    outcome = g.play(UseAttack(attack="Tackle"))
    assert {"type": "knockout", "target": "B.active", "prizes": prizes, "card": BIG.name} in outcome.events
    assert {"type": "prize", "player": "A", "count": prizes} in outcome.events
    them = g.position.players["B"]
    assert them.active is None and BIG in them.discard and GRASS in them.discard
    assert len(g.position.players["A"].prizes) == 6 - prizes


def test_the_last_prize_card_wins() -> None:
    b = player()
    assert b.active is not None
    b.active.damage = 90
    g = game(table(player(prizes=[None]), b))
    outcome = g.play(UseAttack(attack="Tackle"))
    assert outcome.events[-1] == {"type": "win", "player": "A", "why": "prizes", "ways": ["prizes"]}
    assert g.play(PlaceCounters(target=("B", 0), counters=1)).reason == "game-over"


def test_winning_two_ways_against_one_beats_a_simultaneous_win() -> None:
    """001:548-550: an attack that also hurts the attacker Knocks Out both Active
    Pokémon. A takes its last Prize and leaves B with no Pokémon; B only takes its last
    Prize. A wins."""
    a, b = player(bench=1, prizes=[None]), player(bench=0, prizes=[None])
    for me in (a, b):
        assert me.active is not None
        me.active.damage = 90
    g = game(table(a, b))
    outcome = g.play(UseAttack(attack="Tackle", targets=((("A", None), 10),)))
    # the player whose turn is next (B) takes a Prize first (003:722-724, a ruling in 2025)
    assert [e["target"] for e in outcome.events if e["type"] == "knockout"] == ["A.active", "B.active"]
    assert g.position.winner == "A" and outcome.events[-1]["ways"] == ["prizes", "no-pokemon"]


def test_a_benched_pokemon_knocked_out_leaves_the_bench() -> None:
    b = player(bench=2)
    b.bench[0].damage = 90
    g = game(table(b=b))
    g.play(PlaceCounters(target=("B", 0), counters=1))
    assert [s.card for s in g.position.players["B"].bench] == [MON]
    assert g.position.pending_promotion == []
