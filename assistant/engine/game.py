"""A game: a position, its edition, one source of chance, and the log.

:meth:`Game.check` answers "may this be done now?" without touching anything;
:meth:`Game.play` checks, then applies the action to a copy of the position and keeps
the copy only when everything went through, so a refused action changes nothing. Each
accepted action reports SPEC §3 events (``damage``, ``knockout``, ``prize``, ``win``…).

The game is a sequencer: it checks what holds for every action (the game is not over,
the phase, whose turn it is, an attack ends the turn's other actions, a promotion comes
first), then hands the action to its rule topic through :data:`RULES`, one entry per
action type. The rules themselves are the rulebook's, in the topic modules; which
variant applies is the edition's (:mod:`assistant.editions`). Refusals cite the
edition's rulebook lines for their code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from assistant.editions import Edition, Rulings
from assistant.engine import attacks, conditions, energy, pokemon, setup, trainers, turns
from assistant.engine.actions import (
    AFTER_ATTACK,
    DURING_PROMOTION,
    DURING_SETUP,
    SETUP_ONLY,
    TURN_ACTIONS,
    Action,
    Attach,
    Begin,
    Bench,
    ChangeCondition,
    ChangeEffect,
    DeckCheck,
    Devolve,
    Draw,
    EndTurn,
    Evolve,
    Outcome,
    PlaceCounters,
    PlayTrainer,
    PlayVUnion,
    Promote,
    Refusal,
    Retreat,
    Setup,
    Switch,
    UseAbility,
    UseAttack,
)
from assistant.engine.coins import CoinSource
from assistant.engine.energy import cost_paid, retreat_payment_problem
from assistant.engine.log import GameLog
from assistant.engine.model import Position
from assistant.engine.referee import DeckChecker, Referee, Refused

#: A rule's two halves: ``check(referee, position, action, actor)`` refuses by raising,
#: ``apply(...)`` changes the position (a copy) and reports events.
RuleStep = Callable[[Referee, Position, Any, str], None]


class Rule(NamedTuple):
    check: RuleStep
    apply: RuleStep


#: Every action type and the topic rule that checks and applies it.
RULES: Mapping[type[Action], Rule] = {
    Setup: Rule(setup.check_setup, setup.apply_setup),
    Draw: Rule(setup.check_draw, setup.apply_draw),
    Begin: Rule(setup.check_begin, setup.apply_begin),
    DeckCheck: Rule(setup.check_deck, setup.apply_deck_check),
    Bench: Rule(pokemon.check_bench, pokemon.apply_bench),
    Evolve: Rule(pokemon.check_evolve, pokemon.apply_evolve),
    Devolve: Rule(pokemon.check_devolve, pokemon.apply_devolve),
    PlayVUnion: Rule(pokemon.check_v_union, pokemon.apply_v_union),
    Retreat: Rule(pokemon.check_retreat, pokemon.apply_retreat),
    Switch: Rule(pokemon.check_switch, pokemon.apply_switch),
    Promote: Rule(pokemon.check_promote, pokemon.apply_promote),
    Attach: Rule(energy.check_attach, energy.apply_attach),
    PlayTrainer: Rule(trainers.check_play, trainers.apply_play),
    UseAttack: Rule(attacks.check_attack, attacks.apply_attack),
    UseAbility: Rule(attacks.check_ability, attacks.apply_ability),
    PlaceCounters: Rule(attacks.check_counters, attacks.apply_counters),
    ChangeEffect: Rule(attacks.check_effect, attacks.apply_effect),
    ChangeCondition: Rule(conditions.check_condition, conditions.apply_condition),
    EndTurn: Rule(turns.check_end_turn, turns.apply_end_turn),
}


class Game(Referee):
    """One game under one edition. ``coins`` is the only source of chance;
    ``deck_checker`` answers ``deck_check`` actions (without one they are refused)."""

    def __init__(
        self,
        position: Position,
        edition: Edition,
        coins: CoinSource,
        rulings: Rulings | None = None,
        *,
        deck_checker: DeckChecker | None = None,
        record: bool = True,
    ) -> None:
        super().__init__(edition, coins, rulings, deck_checker)
        self.position = position
        self.log: GameLog | None = GameLog(position.copy(), edition.era) if record else None

    def check(self, action: Action) -> Refusal | None:
        """The refusal this action would meet now, or None if it is legal. Touches
        nothing and flips no coin."""
        try:
            self._check(self.position, action)
        except Refused as refused:
            return refused.refusal
        return None

    def play(self, action: Action) -> Outcome:
        """Check the action, then apply it. A refused action changes nothing."""
        refusal = self.check(action)
        if refusal is not None:
            outcome = Outcome(action, False, refusal)
        else:
            work = self.position.copy()
            self._events, self._flips = [], []
            try:
                RULES[type(action)].apply(self, work, action, action.player or work.current)
            except Refused as refused:  # a check that needs the applied state
                outcome = Outcome(action, False, refused.refusal)
            else:
                self.position = work
                outcome = Outcome(action, True, None, self._events, self._flips)
            self._events, self._flips = [], []
        if self.log is not None:
            self.log.record(outcome)
        return outcome

    def _check(self, pos: Position, a: Action) -> None:
        """What holds for every action, in this order, then the action's own rule."""
        rule = RULES[type(a)]
        actor = a.player or pos.current
        kind = a.type
        if kind == DeckCheck.type:  # any time, even after the game
            return rule.check(self, pos, a, actor)
        if pos.winner is not None:
            raise self.refuse("game-over", "the game is over")
        if pos.phase == "setup":
            if kind not in DURING_SETUP:
                raise self.refuse("wrong-phase", "the game has not started: finish setup first")
            if kind != Setup.type and not pos.dealt:
                raise self.refuse("wrong-phase", "resolve setup (mulligans) first")
            return rule.check(self, pos, a, actor)
        if kind in SETUP_ONLY:
            raise self.refuse("wrong-phase", "setup is over")
        if kind in TURN_ACTIONS and actor != pos.current:
            raise self.refuse("not-your-turn", f"it is {pos.current}'s turn")
        if pos.attacked and kind not in AFTER_ATTACK:
            raise self.refuse("after-attack", "attacking ends the turn's other actions")
        if pos.pending_promotion and kind not in DURING_PROMOTION:
            raise self.refuse("promote-required",
                              f"{pos.pending_promotion[0]} must choose a new Active Pokémon first")
        return rule.check(self, pos, a, actor)


__all__ = ["RULES", "Game", "Outcome", "Rule", "cost_paid", "retreat_payment_problem"]
