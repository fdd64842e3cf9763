"""Pokémon in play: the Bench, evolution, retreat and the Active Spot.

A player puts Basic Pokémon from the hand onto the Bench, up to its size
(001_75e061fbe3c8e794.txt:201, 273); evolves a Pokémon that has been in play since
before this turn, never during their own first turn (277-291); retreats the Active
Pokémon once per turn by discarding Energy for its Retreat Cost (314-322). An effect
may switch the Active Pokémon, devolve an evolved one (898), or put a V-UNION's four
pieces onto the Bench (670); after a Knock Out its owner promotes a Benched Pokémon.
A Pokémon that leaves the Active Spot, evolves or devolves loses its Special Conditions
and lingering attack effects.
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.cards import Card, name_identity
from assistant.engine.actions import (
    DEVOLVE_INTO,
    Bench,
    Devolve,
    EndTurn,
    Evolve,
    PlayVUnion,
    Promote,
    Refusal,
    Retreat,
    Switch,
    format_target,
)
from assistant.engine.conditions import clear_conditions
from assistant.engine.energy import cheapest_payment, retreat_payment_problem
from assistant.engine.knockouts import knockouts
from assistant.engine.model import Position, Slot, plays_as_basic
from assistant.engine.referee import Referee, Refused
from assistant.engine.turns import end_turn, start_turn

# -- the Bench -------------------------------------------------------------------------


def check_bench(ref: Referee, pos: Position, a: Bench, actor: str) -> None:
    me = pos.players[actor]
    card = ref.card_in_hand(me, a.card)
    if not card.is_basic_pokemon:
        if not plays_as_basic(card):
            raise ref.refuse("not-basic", f"{card.name} is not a Basic Pokémon")
        _check_fossil(ref, pos, card, actor)
    if me.active is not None and len(me.bench) >= ref.edition.bench_size:
        raise ref.refuse("bench-full", f"the Bench holds {ref.edition.bench_size} Pokémon")
    if me.active is None and pos.phase != "setup":
        raise ref.refuse("promote-required", "choose a new Active Pokémon first")


def apply_bench(ref: Referee, pos: Position, a: Bench, actor: str) -> None:
    card = ref.take_from_hand(pos, actor, a.card)
    me = pos.players[actor]
    entered = 0 if pos.phase == "setup" else pos.turn
    if pos.phase == "setup" and plays_as_basic(card) and fossil_in_setup(ref)[1]:
        ref.emit({"type": "ruling", "ruling": "fossil_basic_in_setup", "choice": True, "judge": True})
    slot = Slot(card, entered_turn=entered)
    if me.active is None:
        me.active = slot
        ref.emit({"type": "active", "player": actor, "card": card.name})
    else:
        me.bench.append(slot)
        ref.emit({"type": "bench", "player": actor, "card": card.name,
                  "target": f"{actor}.bench[{len(me.bench) - 1}]"})


def fossil_in_setup(ref: Referee) -> tuple[bool, bool]:
    """Whether a Fossil Trainer card may be placed during setup, and whether that answer
    is a judge's ruling (the book is silent: RULES.md §23.6)."""
    rule = ref.edition.fossil_basic_in_setup
    if rule is None:
        return ref.rulings.fossil_basic_in_setup, True
    return rule, False


def _check_fossil(ref: Referee, pos: Position, card: Card, actor: str) -> None:
    """A Fossil Trainer card goes into play as a Basic Pokémon during a turn
    (001_75e061fbe3c8e794.txt:740, 910). It is still a Trainer played from the hand, so
    a first-turn Trainer ban covers it (004_0163ba3d06595167.txt:227). During setup it
    counts as a Basic only where the book says so (000:612, 004:131, 524); elsewhere a
    ruling decides."""
    ed = ref.edition
    if pos.phase == "setup":
        allowed, ruled = fossil_in_setup(ref)
        if not allowed:
            raise Refused(Refusal(
                "not-basic", ed.cite("fossil_basic_in_setup") or ed.cite("not-basic"),
                f"{card.name} is a Trainer card in the hand, not a Basic Pokémon, during setup"
                + (" (a judge's ruling: the rulebook does not say)" if ruled else ""),
                ruling="fossil_basic_in_setup" if ruled else ""))
        return
    if actor == pos.first and pos.turn == 1 and not ed.first_player_trainer_turn1:
        raise ref.refuse("trainer-first-turn", "the player who goes first plays no Trainer card on turn 1")


# -- evolution -------------------------------------------------------------------------


def check_evolve(ref: Referee, pos: Position, a: Evolve, actor: str) -> None:
    card = ref.card_in_hand(pos.players[actor], a.card)
    target = ref.slot(pos, a.target, actor)
    # a 2002 Baby evolves into a Basic that names it (003:863-866)
    target_is_baby = "Baby" in target.card.subtypes
    if not card.is_evolution and not (card.is_basic_pokemon and (card.evolves_from or target_is_baby)):
        raise ref.refuse("evolve-mismatch", f"{card.name} is not an Evolution card")
    if first_turn_evolution_banned(ref, pos, actor):
        raise ref.refuse("evolve-first-turn", "no player evolves during their first turn")
    if target.entered_turn is not None and target.entered_turn >= pos.turn:
        raise ref.refuse("evolve-new-in-play", f"{target.card.name} came into play or evolved this turn")
    if card.stage == "LV.X":
        fits = card.identity == target.card.identity
    else:
        fits = card.evolves_from is not None and name_identity(card.evolves_from) == target.card.identity
        if not fits and target_is_baby:
            fits = card.identity in {name_identity(n) for n in target.card.evolves_to}
    if not fits:
        raise ref.refuse("evolve-mismatch", f"{card.name} does not evolve from {target.card.name}")


def _banned_on_own_first_turn(pos: Position, player: str) -> bool:
    return pos.is_first_turn_of(player)


def _banned_on_game_turn_one(pos: Position, player: str) -> bool:
    return pos.turn == 1


#: The readings of "no evolving on the first turn", by the name the edition or the
#: ruling gives them.
FIRST_TURN_EVOLUTION_BANS = {"own": _banned_on_own_first_turn, "game": _banned_on_game_turn_one}


def first_turn_evolution_banned(ref: Referee, pos: Position, player: str) -> bool:
    """No evolving during a player's own first turn; where the book's words leave it
    open (2009, RULES.md §23.3) the ruling may say game turn 1 only."""
    reading = ref.edition.no_evolve_first_turn or ref.rulings.first_turn_evolution
    return FIRST_TURN_EVOLUTION_BANS[reading](pos, player)


def apply_evolve(ref: Referee, pos: Position, a: Evolve, actor: str) -> None:
    card = ref.take_from_hand(pos, actor, a.card)
    assert a.target is not None
    slot = ref.slot(pos, a.target, actor)
    where = format_target(a.target)
    clear_conditions(ref, slot, where)
    clear_reminders(ref, slot, where, markers=True)
    slot.under.append(slot.card)
    slot.card = card
    slot.entered_turn = pos.turn
    ref.emit({"type": "evolve", "target": where, "card": card.name})
    if card.stage == "MEGA" and ref.edition.mega_ex_ends_turn:
        # Putting a Mega Evolution Pokémon-EX into play ends the turn at once
        # (001_75e061fbe3c8e794.txt:830-832).
        ref.emit({"type": "turn_ends", "why": "mega-evolution"})
        end_turn(ref, pos, EndTurn())


def check_devolve(ref: Referee, pos: Position, a: Devolve, actor: str) -> None:
    slot = ref.slot(pos, a.target)
    if not slot.evolved:
        raise ref.refuse("not-evolved", f"{slot.card.name} is not evolved: no Evolution card to remove")
    if a.into not in DEVOLVE_INTO:
        raise ref.refuse("invalid-target", f"a devolved card goes to {' or '.join(DEVOLVE_INTO)}")


def apply_devolve(ref: Referee, pos: Position, a: Devolve, actor: str) -> None:
    """Devolving takes the top Evolution card off an evolved Pokémon, the opposite of
    evolving; it also ends its Special Conditions and other effects
    (001_75e061fbe3c8e794.txt:898). Energy, Tool and damage counters stay; with fewer HP
    the Pokémon may now be Knocked Out."""
    assert a.target is not None
    slot = ref.slot(pos, a.target)
    where = format_target(a.target)
    top = slot.card
    slot.card = slot.under.pop()
    clear_conditions(ref, slot, where)
    clear_reminders(ref, slot, where, markers=True)
    me = pos.players[a.target[0]]
    (me.hand if a.into == "hand" else me.discard).append(top)
    ref.emit({"type": "devolve", "target": where, "card": top.name, "into": a.into})
    knockouts(ref, pos)


def clear_reminders(ref: Referee, slot: Slot, where: str, *, markers: bool) -> None:
    """Lingering attack effects end when the Pokémon leaves the Active Spot, evolves or
    devolves (001_75e061fbe3c8e794.txt:281, 320, 898); other counters and markers survive
    the Bench but not evolving or devolving (000_f5f923b195869c83.txt:596;
    003_b55862cc83f9dac9.txt:887-889). Damage counters are not touched (001:894)."""
    for name in sorted(slot.effects):
        ref.emit({"type": "effect", "target": where, "effect": name, "change": "removed"})
    slot.effects.clear()
    if markers:
        for name in sorted(slot.markers):
            ref.emit({"type": "marker", "target": where, "marker": name, "change": "removed"})
        slot.markers.clear()


# -- V-UNION ---------------------------------------------------------------------------


def check_v_union(ref: Referee, pos: Position, a: PlayVUnion, actor: str) -> None:
    """A V-UNION goes into play only as all four pieces at once, from the discard pile
    onto the Bench, where it takes one spot; each V-UNION name once per game
    (001_75e061fbe3c8e794.txt:670). Pieces in the Lost Zone are out of play for good (644)."""
    card = ref.need_card(a.card)
    me = pos.players[actor]
    if card.stage != "V-UNION":
        raise ref.refuse("v-union-pieces", f"{card.name} is not a V-UNION piece")
    if card.identity in me.v_unions_played:
        raise ref.refuse("v-union-once", f"{card.name} was already played this game")
    if me.active is None:
        raise ref.refuse("promote-required", "choose a new Active Pokémon first")
    if len(me.bench) >= ref.edition.bench_size:
        raise ref.refuse("bench-full", f"the Bench holds {ref.edition.bench_size} Pokémon")
    found = len(union_pieces(me.discard, card))
    if found < 4:
        lost = sum(1 for c in me.lost_zone if c.stage == "V-UNION" and c.identity == card.identity)
        where = f"; {lost} in the Lost Zone, out of play for the rest of the game" if lost else ""
        raise ref.refuse("v-union-pieces",
                         f"{card.name} needs all four pieces in the discard pile: {found} there{where}")


def apply_v_union(ref: Referee, pos: Position, a: PlayVUnion, actor: str) -> None:
    card = ref.need_card(a.card)
    me = pos.players[actor]
    pieces = union_pieces(me.discard, card)[:4]
    for piece in pieces:
        me.discard.remove(piece)
    # in play the four pieces are one Pokémon in one Bench spot (001:670, 676)
    me.bench.append(Slot(pieces[0], under=pieces[1:], entered_turn=pos.turn))
    me.v_unions_played.add(card.identity)
    ref.emit({"type": "v_union", "player": actor, "card": card.name,
              "target": f"{actor}.bench[{len(me.bench) - 1}]"})


def union_pieces(zone: Sequence[Card], card: Card) -> list[Card]:
    """The pieces of ``card``'s V-UNION in a zone, different pieces first (outside play
    each piece is a card of its own, 001_75e061fbe3c8e794.txt:676)."""
    firsts: list[Card] = []
    repeats: list[Card] = []
    for piece in zone:
        if piece.stage == "V-UNION" and piece.identity == card.identity:
            (repeats if piece in firsts else firsts).append(piece)
    return firsts + repeats


# -- the Active Spot: retreat, switch, promote -----------------------------------------


def check_retreat(ref: Referee, pos: Position, a: Retreat, actor: str) -> None:
    ed = ref.edition
    me = pos.players[actor]
    active = me.active
    if active is None:
        raise ref.refuse("promote-required", "there is no Active Pokémon")
    if ed.retreats_per_turn is not None and me.flags.retreats >= ed.retreats_per_turn:
        raise ref.refuse("retreat-already", "one retreat per turn")
    blocked = active.conditions & {"Asleep", "Paralyzed"}
    if blocked:
        raise ref.refuse("retreat-blocked", f"an {min(blocked)} Pokémon cannot retreat")
    if me.flags.confused_retreat_failed:
        raise ref.refuse("retreat-blocked",
                         "a Confused Pokémon that failed to retreat may not try again this turn")
    if not me.bench or a.to is None or a.to[1] is None or a.to[0] != actor or me.slot(a.to[1]) is None:
        raise ref.refuse("retreat-no-bench", "retreating needs a Benched Pokémon to switch in")
    cost = len(active.retreat_cost)
    discard = a.discard if a.discard is not None else cheapest_payment(active, cost)
    problem = retreat_payment_problem(cost, discard, active.energy)
    if problem:
        raise ref.refuse("retreat-cost-unpaid", problem)


def apply_retreat(ref: Referee, pos: Position, a: Retreat, actor: str) -> None:
    me = pos.players[actor]
    active = me.active
    assert active is not None and a.to is not None and a.to[1] is not None
    discard = a.discard if a.discard is not None else cheapest_payment(active, len(active.retreat_cost))
    for card in discard:
        active.energy.remove(card)
        me.discard.append(card)
    me.flags.retreats += 1
    event = {"type": "retreat", "player": actor, "to": format_target(a.to),
             "discarded": [c.name for c in discard]}
    if "Confused" in active.conditions and ref.edition.confused_retreat_flip:
        # 2002: pay first, then flip; tails and the retreat fails (003:164-170).
        result = ref.flip("confused-retreat")
        ref.emit({"type": "coin", "result": result, "for": "confused-retreat"})
        if result == "tails":
            me.flags.confused_retreat_failed = True
            event["failed"] = True
            ref.emit(event)
            return
    swap(ref, pos, actor, a.to[1])
    ref.emit(event)


def swap(ref: Referee, pos: Position, player: str, index: int) -> None:
    """The Active and a Benched Pokémon change places; the one that goes to the Bench
    recovers from every Special Condition (001_75e061fbe3c8e794.txt:411)."""
    me = pos.players[player]
    old = me.active
    assert old is not None
    clear_conditions(ref, old, f"{player}.active")
    clear_reminders(ref, old, f"{player}.active", markers=False)
    me.active = me.bench[index]
    me.bench[index] = old


def check_switch(ref: Referee, pos: Position, a: Switch, actor: str) -> None:
    if pos.players[actor].active is None:
        raise ref.refuse("promote-required", "there is no Active Pokémon to switch")
    if a.to is None or a.to[1] is None:
        raise ref.refuse("invalid-target", "switch with a Benched Pokémon")
    ref.slot(pos, a.to, actor)


def apply_switch(ref: Referee, pos: Position, a: Switch, actor: str) -> None:
    assert a.to is not None and a.to[1] is not None
    swap(ref, pos, actor, a.to[1])
    ref.emit({"type": "switch", "player": actor, "to": format_target(a.to)})


def check_promote(ref: Referee, pos: Position, a: Promote, actor: str) -> None:
    if actor not in pos.pending_promotion:
        raise ref.refuse("wrong-phase", f"{actor} has an Active Pokémon")
    if a.source is None or a.source[1] is None:
        raise ref.refuse("invalid-target", "promote a Benched Pokémon")
    ref.slot(pos, a.source, actor)


def apply_promote(ref: Referee, pos: Position, a: Promote, actor: str) -> None:
    me = pos.players[actor]
    assert a.source is not None and a.source[1] is not None
    me.active = me.bench.pop(a.source[1])
    pos.pending_promotion.remove(actor)
    ref.emit({"type": "promote", "player": actor, "card": me.active.card.name})
    if not pos.pending_promotion:
        pos.phase = "main"
        if pos.turn_ends_after_promotion:
            pos.turn_ends_after_promotion = False
            start_turn(ref, pos)
