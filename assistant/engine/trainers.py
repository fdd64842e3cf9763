"""Trainer cards: Items, Supporters, Stadiums, Pokémon Tools and Technical Machines.

One Supporter per turn, and none for the player who goes first on their first turn
(001_75e061fbe3c8e794.txt:255, 301-303); one Stadium per turn, never one of the same
name as the Stadium in play (305-310); one Tool per Pokémon (956). What a Trainer card
says is resolved by the people at the table, so after its own rules are checked it goes
to the discard pile — or stays beside the Active Pokémon until the turn ends, where the
edition keeps Supporters there (2002/2009).
"""

from __future__ import annotations

from assistant.engine.actions import Event, PlayTrainer, format_target
from assistant.engine.model import Position, is_hyper_gear, other
from assistant.engine.referee import Referee


def _goes_on_a_pokemon(kind: str | None, a: PlayTrainer) -> bool:
    """A Tool, or a Technical Machine played onto a Pokémon."""
    return kind == "Pokémon Tool" or (kind == "Technical Machine" and a.target is not None)


def check_play(ref: Referee, pos: Position, a: PlayTrainer, actor: str) -> None:
    ed = ref.edition
    me = pos.players[actor]
    card = ref.card_in_hand(me, a.card)
    if not card.is_trainer:
        raise ref.refuse("not-trainer", f"{card.name} is not a Trainer card")
    kind = card.trainer_kind
    first_turn = actor == pos.first and pos.turn == 1
    if kind == "Supporter":
        if first_turn and not ed.first_player_supporter_turn1:
            raise ref.refuse("supporter-first-turn", "the player who goes first plays no Supporter on turn 1")
        if me.flags.supporters >= ed.supporters_per_turn:
            raise ref.refuse("supporter-already-played", "one Supporter per turn")
        return
    if first_turn and not ed.first_player_trainer_turn1:
        raise ref.refuse("trainer-first-turn", "the player who goes first plays no Trainer card on turn 1")
    if kind == "Stadium":
        limit = ed.stadiums_per_turn
        if limit is None and ref.rulings.expedition_one_stadium_per_turn:
            limit = 1
        if limit is not None and me.flags.stadiums >= limit:
            raise ref.refuse("stadium-already-played", "one Stadium per turn")
        banned = ed.same_name_stadium_banned or ref.rulings.older_same_name_stadium_banned
        if banned and pos.stadium and pos.stadium[0].identity == card.identity:
            raise ref.refuse("stadium-same-name", f"{card.name} is already the Stadium in play")
    elif _goes_on_a_pokemon(kind, a):
        if is_hyper_gear(card):
            # attached to the opponent's Pokémon-EX, never one's own (001:798-800)
            slot = ref.slot(pos, a.target, other(actor))
            if slot.rule_box not in ("EX", "Mega EX"):
                raise ref.refuse("invalid-target", f"{card.name} goes only on an opponent's Pokémon-EX")
        else:
            slot = ref.slot(pos, a.target, actor)
        if slot.tool is not None:
            raise ref.refuse("tool-already-attached", f"{slot.card.name} already has a Pokémon Tool")


def apply_play(ref: Referee, pos: Position, a: PlayTrainer, actor: str) -> None:
    card = ref.take_from_hand(pos, actor, a.card)
    me = pos.players[actor]
    kind = card.trainer_kind
    event: Event = {"type": "play", "player": actor, "card": card.name, "kind": kind}
    if kind == "Supporter":
        me.flags.supporters += 1
        if ref.edition.supporter_stays_until_end_of_turn:
            me.beside_active.append(card)
        else:
            me.discard.append(card)
    elif kind == "Stadium":
        me.flags.stadiums += 1
        if pos.stadium is not None:
            old, owner = pos.stadium
            pos.players[owner].discard.append(old)
            event["replaced"] = old.name
        pos.stadium = (card, actor)
    elif _goes_on_a_pokemon(kind, a):
        slot = ref.slot(pos, a.target)
        slot.tool = card
        assert a.target is not None
        # remembered so that the Tool returns to its player's discard pile (001:800)
        slot.tool_owner = actor if a.target[0] != actor else None
        event["target"] = format_target(a.target)
    else:
        me.discard.append(card)
    ref.emit(event)
