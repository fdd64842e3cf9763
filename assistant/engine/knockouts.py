"""Knock Outs, Prize cards and winning.

A Pokémon whose damage reaches its HP is Knocked Out (001_75e061fbe3c8e794.txt:381-385):
its cards go to the discard pile, the opponent takes Prize cards (more for a Pokémon
with a Rule Box, by the edition), and the win checks follow: the last Prize card taken,
or the opponent with no Pokémon in play. A player who cannot draw at the start of their
turn loses (:mod:`.turns`). When both players win at once, the one who wins two ways
against one wins; otherwise Sudden Death (001:546-554).
"""

from __future__ import annotations

from assistant.engine.actions import format_target
from assistant.engine.model import PLAYERS, Position, other
from assistant.engine.referee import Referee


def knockouts(ref: Referee, pos: Position) -> None:
    """Knock Out every Pokémon whose damage reaches its HP (001:381-385): its cards
    go to the discard pile, the opponent takes Prizes, then the win checks."""
    if pos.winner is not None:
        return
    knocked: dict[str, list[int | None]] = {}
    for p in PLAYERS:
        me = pos.players[p]
        hits: list[int | None] = []
        if me.active is not None and me.active.hp and me.active.damage >= me.active.hp:
            hits.append(None)
        hits.extend(i for i, s in enumerate(me.bench) if s.hp and s.damage >= s.hp)
        if hits:
            knocked[p] = hits
    if not knocked:
        return
    # Prizes are taken (and new Active Pokémon chosen) player by player; with Knock Outs
    # on both sides the player whose turn comes next goes first (003:722-724, 004:429),
    # i.e. takes the Prize for the attacker's Pokémon first.
    takers = [other(pos.current), pos.current]
    if len(knocked) == 2:
        first = ref.edition.simultaneous_knockouts_first or ref.rulings.simultaneous_knockouts_first
        if first != "next-player":
            takers.reverse()
        if ref.edition.simultaneous_knockouts_first is None:
            ref.emit({"type": "ruling", "ruling": "simultaneous_knockouts_first",
                      "choice": first, "judge": True})
    took: set[str] = set()
    for owner in [other(t) for t in takers if other(t) in knocked]:
        if _discard_knocked_out(ref, pos, owner, knocked[owner]):
            took.add(other(owner))
    wins: dict[str, list[str]] = {p: [] for p in PLAYERS}
    for p in PLAYERS:
        if p in took and not pos.players[p].prizes:
            wins[p].append("prizes")
        if not pos.players[other(p)].in_play():
            wins[p].append("no-pokemon")
    if any(wins.values()):
        declare(ref, pos, wins)
        return
    for owner in [t for t in takers if t in knocked]:
        if pos.players[owner].active is None and owner not in pos.pending_promotion:
            pos.pending_promotion.append(owner)
    if pos.pending_promotion:
        pos.phase = "promote"


def _discard_knocked_out(ref: Referee, pos: Position, owner: str, indexes: list[int | None]) -> bool:
    """Put ``owner``'s Knocked Out Pokémon in the discard pile and let the opponent take
    their Prizes; whether any Prize card was taken."""
    me = pos.players[owner]
    taker = other(owner)
    worth = 0
    for index in indexes:
        slot = me.slot(index)
        assert slot is not None
        prizes = ref.edition.prizes_for(slot.card.rule_box)
        if slot.card.rule_box == "LEGEND" and "LEGEND" not in ref.edition.prizes_by_rule_box:
            # no rulebook gives a LEGEND's Prize count (RULES.md §23.5)
            prizes = ref.rulings.legend_prizes
            ref.emit({"type": "ruling", "ruling": "legend_prizes", "choice": prizes, "judge": True})
        worth += prizes
        ref.emit({"type": "knockout", "target": format_target((owner, index)),
                  "prizes": prizes, "card": slot.card.name})
        for card in slot.cards():
            if slot.tool_owner is not None and card is slot.tool:
                # a Hyper Gear Tool goes to its player's pile (001:800)
                pos.players[slot.tool_owner].discard.append(card)
                continue
            (me.lost_zone if card.is_prism_star else me.discard).append(card)
    for index in sorted((i for i in indexes if i is not None), reverse=True):
        me.bench.pop(index)
    if None in indexes:
        me.active = None
    them = pos.players[taker]
    count = min(worth, len(them.prizes))
    if not count:
        return False
    them.hand.extend(them.prizes[:count])
    del them.prizes[:count]
    ref.emit({"type": "prize", "player": taker, "count": count})
    return True


def declare(ref: Referee, pos: Position, wins: dict[str, list[str]]) -> None:
    """Decide the game: one winner, or — when both players win at once — the one who
    wins two ways against one, else Sudden Death (001:546-554)."""
    a, b = wins.get("A", []), wins.get("B", [])
    if a and b:
        if len(a) >= 2 and len(b) == 1:
            winner, why = "A", a
        elif len(b) >= 2 and len(a) == 1:
            winner, why = "B", b
        else:
            winner, why = "sudden-death", a + b
    else:
        winner, why = ("A", a) if a else ("B", b)
    pos.winner = winner
    pos.win_reasons = tuple(why)
    ref.emit({"type": "win", "player": winner, "why": why[0], "ways": list(why)})
