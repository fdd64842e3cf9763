"""Setting up a game, and the deck check.

Each player shuffles, draws a hand, and mulligans until it holds a Basic Pokémon; then
puts an Active Pokémon and any Benched ones face down, sets out Prize cards, and the
first player begins (001_75e061fbe3c8e794.txt:221-240). For each mulligan of the
opponent's a player may draw extra cards, as many as the edition gives; where both
took mulligans the edition may cancel them against each other (237, 486-495).

``deck_check`` asks whether a deck list is legal under the edition. The engine knows no
deck-list format: its caller gives the game a deck checker (:data:`.referee.DeckChecker`).
"""

from __future__ import annotations

from assistant.engine.actions import Begin, DeckCheck, Draw, Event, Refusal, Setup
from assistant.engine.model import PLAYERS, Position, other
from assistant.engine.referee import Referee, Refused
from assistant.engine.turns import draw_for_turn


def check_setup(ref: Referee, pos: Position, a: Setup, actor: str) -> None:
    if pos.dealt:
        raise ref.refuse("wrong-phase", "setup has already been resolved")
    need = ref.edition.hand_size + ref.edition.prize_cards
    for p in PLAYERS:
        if len(pos.players[p].deck) + len(pos.players[p].hand) < need:
            raise ref.refuse("deck-size", f"{p}'s deck is too small to set up")


def apply_setup(ref: Referee, pos: Position, a: Setup, actor: str) -> None:
    ed = ref.edition
    counts = dict(a.mulligans)
    both = min(counts.get("A", 0), counts.get("B", 0)) if ed.mutual_mulligans_cancel else 0
    for p in PLAYERS:
        me = pos.players[p]
        me.mulligans = counts.get(p, 0)
        me.deck = me.hand + me.deck
        me.hand = me.deck[:ed.hand_size]
        me.prizes = me.deck[ed.hand_size:ed.hand_size + ed.prize_cards]
        me.deck = me.deck[ed.hand_size + ed.prize_cards:]
    for p in PLAYERS:
        extra = counts.get(other(p), 0) - both
        bonus = max(0, extra) * ed.mulligan_bonus_per_mulligan
        pos.players[p].bonus_draws = bonus
        if bonus:
            ref.emit({"type": "mulligan_draws", "player": p, "max": bonus,
                      "optional": ed.mulligan_bonus_optional})
    pos.dealt = True


def check_draw(ref: Referee, pos: Position, a: Draw, actor: str) -> None:
    me = pos.players[actor]
    if pos.phase != "setup":
        # a card effect's draw; "draw up to X" may draw none (001:538)
        if a.count < 0:
            raise ref.refuse("invalid-target", "draw 0 or more cards")
        return
    if a.count <= 0 or a.count > me.bonus_draws:
        raise ref.refuse("mulligan-draws", f"{actor} may draw up to {me.bonus_draws} more card(s)")
    if len(me.deck) < a.count:
        raise ref.refuse("mulligan-draws", "not enough cards in the deck")


def apply_draw(ref: Referee, pos: Position, a: Draw, actor: str) -> None:
    """A mulligan bonus draw during setup; during a turn, a card effect's draw. An effect
    that asks for more cards than the deck holds draws what is there and play goes on:
    only the draw that begins a turn can lose the game (001_75e061fbe3c8e794.txt:542-544)."""
    me = pos.players[actor]
    count = min(a.count, len(me.deck))
    me.hand.extend(me.deck[:count])
    del me.deck[:count]
    event: Event = {"type": "draw", "player": actor, "count": count}
    if pos.phase == "setup":
        me.bonus_draws -= count
    elif count < a.count:
        event["asked"] = a.count
    ref.emit(event)


def check_begin(ref: Referee, pos: Position, a: Begin, actor: str) -> None:
    for p in PLAYERS:
        if pos.players[p].active is None:
            raise ref.refuse("active-required", f"{p} has no Active Pokémon yet")


def apply_begin(ref: Referee, pos: Position, a: Begin, actor: str) -> None:
    for p in PLAYERS:
        pos.players[p].bonus_draws = 0
    pos.phase = "main"
    pos.turn = 1
    pos.current = pos.first
    ref.emit({"type": "turn", "player": pos.current, "number": pos.turn})
    draw_for_turn(ref, pos)


def check_deck(ref: Referee, pos: Position, a: DeckCheck, actor: str) -> None:
    """Refused with the deck's first problem: a rule it breaks, or a line that cannot be
    read (which makes the deck illegal with no rule problem of its own)."""
    if ref.deck_checker is None:
        raise ref.refuse("unknown-card", "this game was given no deck checker: the deck list cannot be checked")
    problems = ref.deck_checker(a.deck)
    if problems:
        problem = problems[0]
        raise Refused(Refusal(problem.code, problem.source or ref.edition.cite(problem.code), problem.message))


def apply_deck_check(ref: Referee, pos: Position, a: DeckCheck, actor: str) -> None:
    ref.emit({"type": "deck_check", "legal": True})
