"""How a turn ends and the next begins.

Ending a turn (001_75e061fbe3c8e794.txt:244-259): a Supporter kept beside the Active
Pokémon goes to the discard pile (2002/2009), a Technical Machine too where the edition
says, then Pokémon Checkup (:mod:`.conditions`). If a Knock Out in Checkup leaves a
player without an Active Pokémon, the next turn waits for the promotion. A turn begins
by drawing a card; a player who cannot loses (001:219, 265-267).
"""

from __future__ import annotations

from assistant.engine.actions import EndTurn
from assistant.engine.conditions import check_checkup_effects, checkup
from assistant.engine.knockouts import declare
from assistant.engine.model import PLAYERS, Position, TurnFlags, other
from assistant.engine.referee import Referee


def check_end_turn(ref: Referee, pos: Position, a: EndTurn, actor: str) -> None:
    if pos.pending_promotion:
        raise ref.refuse("promote-required", "a new Active Pokémon is needed first")
    check_checkup_effects(ref, pos, a)


def apply_end_turn(ref: Referee, pos: Position, a: EndTurn, actor: str) -> None:
    end_turn(ref, pos, a)


def end_turn(ref: Referee, pos: Position, a: EndTurn) -> None:
    me = pos.players[pos.current]
    # 2002/2009 Supporters wait beside the Active until the turn ends (003:110-112).
    me.discard.extend(me.beside_active)
    me.beside_active.clear()
    if ref.edition.tm_discarded_end_of_turn:
        for slot in me.in_play():
            if slot.tool is not None and "Technical Machine" in slot.tool.subtypes:
                me.discard.append(slot.tool)
                slot.tool = None
    checkup(ref, pos, a)
    if pos.winner is not None:
        return
    if pos.pending_promotion:
        pos.turn_ends_after_promotion = True
        return
    start_turn(ref, pos)


def start_turn(ref: Referee, pos: Position) -> None:
    pos.turn += 1
    pos.current = other(pos.current)
    pos.phase = "main"
    pos.attacked = False
    for p in PLAYERS:
        pos.players[p].flags = TurnFlags()
        for slot in pos.players[p].in_play():
            slot.powers_used.clear()
    ref.emit({"type": "turn", "player": pos.current, "number": pos.turn})
    draw_for_turn(ref, pos)


def draw_for_turn(ref: Referee, pos: Position) -> None:
    """The turn's first draw; a player who cannot draw loses (001:219, 265-267)."""
    me = pos.players[pos.current]
    if not me.deck:
        declare(ref, pos, {other(pos.current): ["deck-out"], pos.current: []})
        return
    me.hand.append(me.deck.pop(0))
    ref.emit({"type": "draw", "player": pos.current, "count": 1})
