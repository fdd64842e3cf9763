"""A game: a position, its edition, one source of chance, and the log.

:meth:`Game.check` answers "may this be done now?" without touching anything;
:meth:`Game.play` checks, then applies the action to a copy of the position and keeps
the copy only when everything went through, so a refused action changes nothing. Each
accepted action reports SPEC §3 events (``damage``, ``knockout``, ``prize``, ``win``…).

The rules themselves are the rulebook's; which variant applies is the edition's
(:mod:`assistant.editions`). Refusals cite the edition's rulebook lines for their code.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant.cards import Card, name_identity
from assistant.editions import Edition, Rulings
from assistant.engine.actions import (
    AFTER_ATTACK,
    DEVOLVE_INTO,
    DURING_PROMOTION,
    TURN_ACTIONS,
    Action,
    Refusal,
    Target,
    format_target,
)
from assistant.engine.coins import CoinFlip, CoinSource
from assistant.engine.damage import attack_damage
from assistant.engine.model import (
    CONDITIONS,
    PLAYERS,
    ROTATION,
    PlayerState,
    Position,
    Slot,
    TurnFlags,
    is_hyper_gear,
    other,
    plays_as_basic,
)

Event = dict[str, Any]
#: Looks a deck-list line up: (name, set code, number) → Card or None.
DeckResolver = Callable[[str, str, str], "Card | None"]


@dataclass
class Outcome:
    """What became of one action: accepted or refused (with the refusal), the events it
    produced, and the coin flips it used."""

    action: Action
    accepted: bool
    refusal: Refusal | None = None
    events: list[Event] = field(default_factory=list)
    flips: list[CoinFlip] = field(default_factory=list)

    @property
    def reason(self) -> str | None:
        return self.refusal.reason if self.refusal else None


class _Refused(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


def energy_units(energy: Sequence[Card]) -> list[str]:
    """The Energy units attached cards provide (a Double Colorless gives two)."""
    return [unit for card in energy for unit in card.energy_provided]


def cost_paid(cost: Sequence[str], energy: Sequence[Card]) -> bool:
    """Whether attached Energy pays a cost: each typed symbol needs Energy of its type,
    each Colorless symbol any Energy (001_75e061fbe3c8e794.txt:165, 345)."""
    pool = Counter(energy_units(energy))
    colorless = 0
    for symbol in cost:
        if symbol == "Colorless":
            colorless += 1
        elif pool[symbol] > 0:
            pool[symbol] -= 1
        else:
            return False
    return sum(pool.values()) >= colorless


def retreat_payment_problem(cost: int, discard: Sequence[Card], attached: Sequence[Card]) -> str:
    """Why discarding these cards does not pay a Retreat Cost of ``cost`` Energy, or ''.
    Cards are discarded one by one until the cost is covered: the last may overpay, but
    no card may be discarded once it is covered (003_b55862cc83f9dac9.txt:740-760)."""
    left = Counter(attached)
    for card in discard:
        if left[card] <= 0:
            return f"{card.name} is not attached to the Active Pokémon"
        left[card] -= 1
    units = [len(c.energy_provided) for c in discard]
    if sum(units) < cost:
        return f"the Retreat Cost needs {cost} Energy; {sum(units)} discarded"
    if units and sum(units) - max(units) >= cost:
        return "more Energy discarded than the Retreat Cost needs"
    return ""


def is_gx_attack(card: Card, name: str) -> bool:
    return card.rule_box in ("GX", "TAG TEAM") and name.rstrip().endswith("GX")


def is_vstar_attack(card: Card, name: str) -> bool:
    """A VSTAR Power attack. Card data marks VSTAR Powers only in effect text, so the
    name decides (they all carry the word Star: Star Requiem, Star Chronos…)."""
    return card.rule_box == "VSTAR" and re.search(r"\bStar\b", name) is not None


class Game:
    """One game under one edition. ``coins`` is the only source of chance."""

    def __init__(
        self,
        position: Position,
        edition: Edition,
        coins: CoinSource,
        rulings: Rulings | None = None,
        *,
        deck_resolver: DeckResolver | None = None,
        record: bool = True,
    ) -> None:
        from assistant.engine.log import GameLog

        self.position = position
        self.edition = edition
        self.coins = coins
        self.rulings = rulings or Rulings()
        self.deck_resolver = deck_resolver
        self.log: GameLog | None = GameLog(position.copy(), edition.era) if record else None
        self._events: list[Event] = []
        self._flips: list[CoinFlip] = []

    # -- public ------------------------------------------------------------------------

    def check(self, action: Action) -> Refusal | None:
        """The refusal this action would meet now, or None if it is legal. Touches
        nothing and flips no coin."""
        try:
            self._check(self.position, action)
        except _Refused as refused:
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
                self._apply(work, action)
            except _Refused as refused:  # a check that needs the applied state
                outcome = Outcome(action, False, refused.refusal)
            else:
                self.position = work
                outcome = Outcome(action, True, None, self._events, self._flips)
            self._events, self._flips = [], []
        if self.log is not None:
            self.log.record(outcome)
        return outcome

    # -- helpers -----------------------------------------------------------------------

    def _refuse(self, reason: str, message: str) -> _Refused:
        return _Refused(Refusal(reason, self.edition.cite(reason), message))

    def _emit(self, event: Event) -> None:
        self._events.append(event)

    def _flip(self, purpose: str) -> str:
        result = self.coins.flip(purpose)
        self._flips.append(CoinFlip(result, self.coins.name, purpose))
        return result

    def _slot(self, pos: Position, target: Target | None, owner: str | None = None) -> Slot:
        if target is None:
            raise self._refuse("invalid-target", "the action needs a target Pokémon")
        player, index = target
        if owner is not None and player != owner:
            raise self._refuse("invalid-target", f"{format_target(target)} is not your Pokémon")
        slot = pos.slot(player, index)
        if slot is None:
            raise self._refuse("invalid-target", f"there is no Pokémon at {format_target(target)}")
        return slot

    @staticmethod
    def _in_hand(hand: list[Card | None], card: Card) -> int | None:
        """Where the card is in the hand: its own index, or that of an unknown card."""
        for i, held in enumerate(hand):
            if held == card:
                return i
        for i, held in enumerate(hand):
            if held is None:
                return i
        return None

    def _not_in_hand(self, me: PlayerState, card: Card) -> _Refused:
        """The ``not-in-hand`` refusal; a card lying in the Lost Zone is named as such,
        since it is out of play for the rest of the game (001_75e061fbe3c8e794.txt:644)."""
        if card in me.lost_zone:
            return self._refuse("not-in-hand", f"{card.name} is in the Lost Zone: it cannot be "
                                "used or recovered for the rest of the game")
        return self._refuse("not-in-hand", f"{card.name} is not in your hand")

    def _take_from_hand(self, pos: Position, player: str, card: Card) -> None:
        hand = pos.players[player].hand
        index = self._in_hand(hand, card)
        if index is None:
            raise self._refuse("not-in-hand", f"{card.name} is not in {player}'s hand")
        hand.pop(index)

    # -- legality ----------------------------------------------------------------------

    def _check(self, pos: Position, a: Action) -> None:
        ed = self.edition
        actor = a.player or pos.current
        if a.type == "deck_check":
            return self._check_deck(a)
        if pos.winner is not None:
            raise self._refuse("game-over", "the game is over")
        if pos.phase == "setup":
            if a.type not in ("setup", "bench", "draw", "begin"):
                raise self._refuse("wrong-phase", "the game has not started: finish setup first")
            return self._check_setup(pos, a, actor)
        if a.type in ("setup", "begin"):
            raise self._refuse("wrong-phase", "setup is over")
        if a.type in TURN_ACTIONS and actor != pos.current:
            raise self._refuse("not-your-turn", f"it is {pos.current}'s turn")
        if pos.attacked and a.type not in AFTER_ATTACK:
            raise self._refuse("after-attack", "attacking ends the turn's other actions")
        if pos.pending_promotion and a.type not in DURING_PROMOTION:
            raise self._refuse("promote-required",
                               f"{pos.pending_promotion[0]} must choose a new Active Pokémon first")
        me = pos.players[actor]
        if a.type == "bench":
            self._check_bench(pos, a, actor)
        elif a.type == "evolve":
            card = self._card_in_hand(me, a)
            target = self._slot(pos, a.target, actor)
            # a 2002 Baby evolves into a Basic that names it (003:863-866)
            target_is_baby = "Baby" in target.card.subtypes
            if not card.is_evolution and not (card.is_basic_pokemon and (card.evolves_from or target_is_baby)):
                raise self._refuse("evolve-mismatch", f"{card.name} is not an Evolution card")
            if self._first_turn_evolution_banned(pos, actor):
                raise self._refuse("evolve-first-turn", "no player evolves during their first turn")
            if target.entered_turn is not None and target.entered_turn >= pos.turn:
                raise self._refuse("evolve-new-in-play",
                                   f"{target.card.name} came into play or evolved this turn")
            if card.stage == "LV.X":
                fits = card.identity == target.card.identity
            else:
                fits = card.evolves_from is not None and name_identity(card.evolves_from) == target.card.identity
                if not fits and target_is_baby:
                    fits = card.identity in {name_identity(n) for n in target.card.evolves_to}
            if not fits:
                raise self._refuse("evolve-mismatch",
                                   f"{card.name} does not evolve from {target.card.name}")
        elif a.type == "attach":
            card = self._card_in_hand(me, a)
            if not card.is_energy:
                raise self._refuse("not-energy", f"{card.name} is not an Energy card")
            if me.flags.energy_attached:
                raise self._refuse("energy-already-attached", "one Energy from hand per turn")
            self._slot(pos, a.target, actor)
        elif a.type == "play":
            self._check_play(pos, a, actor)
        elif a.type == "retreat":
            self._check_retreat(pos, a, actor)
        elif a.type == "ability":
            self._check_ability(pos, a, actor)
        elif a.type == "attack":
            self._check_attack(pos, a, actor)
        elif a.type == "counters":
            self._slot(pos, a.target)
            if a.counters <= 0:
                raise self._refuse("invalid-target", "place at least one damage counter")
        elif a.type == "condition":
            slot_target = a.target
            self._slot(pos, slot_target)
            if slot_target is not None and slot_target[1] is not None and a.add:
                raise self._refuse("condition-not-active",
                                   "Special Conditions exist only on the Active Pokémon")
            if (a.add or a.remove) not in CONDITIONS:
                raise self._refuse("invalid-target", "not a Special Condition")
        elif a.type == "switch":
            owner = a.player or actor
            if pos.players[owner].active is None:
                raise self._refuse("promote-required", "there is no Active Pokémon to switch")
            if a.to is None or a.to[1] is None:
                raise self._refuse("invalid-target", "switch with a Benched Pokémon")
            self._slot(pos, a.to, owner)
        elif a.type == "promote":
            owner = a.player or actor
            if owner not in pos.pending_promotion:
                raise self._refuse("wrong-phase", f"{owner} has an Active Pokémon")
            if a.source is None or a.source[1] is None:
                raise self._refuse("invalid-target", "promote a Benched Pokémon")
            self._slot(pos, a.source, owner)
        elif a.type == "draw":
            # a card effect's draw; "draw up to X" may draw none (001:538)
            if a.count < 0:
                raise self._refuse("invalid-target", "draw 0 or more cards")
        elif a.type == "devolve":
            slot = self._slot(pos, a.target)
            if not slot.evolved:
                raise self._refuse("not-evolved",
                                   f"{slot.card.name} is not evolved: no Evolution card to remove")
            if a.into not in DEVOLVE_INTO:
                raise self._refuse("invalid-target", f"a devolved card goes to {' or '.join(DEVOLVE_INTO)}")
        elif a.type == "effect":
            self._slot(pos, a.target)
            if not (a.add or a.remove):
                raise self._refuse("invalid-target", "name the effect to add or remove")
        elif a.type == "v_union":
            self._check_v_union(pos, a, actor)
        elif a.type == "end_turn":
            if pos.pending_promotion:
                raise self._refuse("promote-required", "a new Active Pokémon is needed first")
            allowed = {"before-or-after": ("before", "after"), "after": ("after",),
                       "any": ("before", "after")}[ed.checkup_other_effects]
            if a.effects and a.effects_when not in allowed:
                raise self._refuse("checkup-order",
                                   "other Checkup effects go wholly "
                                   + " or ".join(allowed) + " the Special Conditions")
            for target, _ in a.effects:
                self._slot(pos, target)

    def _need_card(self, a: Action) -> Card:
        if a.card is None:
            raise self._refuse("unknown-card", "the action names no card")
        return a.card

    def _card_in_hand(self, me: PlayerState, a: Action) -> Card:
        """The action's card, which must be in the player's hand (or may be one of its
        unknown cards)."""
        card = self._need_card(a)
        if self._in_hand(me.hand, card) is None:
            raise self._not_in_hand(me, card)
        return card

    def _first_turn_evolution_banned(self, pos: Position, player: str) -> bool:
        rule = self.edition.no_evolve_first_turn
        if rule == "ambiguous":
            rule = self.rulings.first_turn_evolution
        if rule == "game":
            return pos.turn == 1
        return pos.is_first_turn_of(player)

    def _check_setup(self, pos: Position, a: Action, actor: str) -> None:
        if a.type == "setup":
            if pos.dealt:
                raise self._refuse("wrong-phase", "setup has already been resolved")
            for p in PLAYERS:
                need = self.edition.hand_size + self.edition.prize_cards
                if len(pos.players[p].deck) + len(pos.players[p].hand) < need:
                    raise self._refuse("deck-size", f"{p}'s deck is too small to set up")
            return
        if not pos.dealt:
            raise self._refuse("wrong-phase", "resolve setup (mulligans) first")
        me = pos.players[actor]
        if a.type == "bench":
            self._check_bench(pos, a, actor)
        elif a.type == "draw":
            if a.count <= 0 or a.count > me.bonus_draws:
                raise self._refuse("mulligan-draws",
                                   f"{actor} may draw up to {me.bonus_draws} more card(s)")
            if len(me.deck) < a.count:
                raise self._refuse("mulligan-draws", "not enough cards in the deck")
        elif a.type == "begin":
            for p in PLAYERS:
                if pos.players[p].active is None:
                    raise self._refuse("active-required", f"{p} has no Active Pokémon yet")

    def _check_bench(self, pos: Position, a: Action, actor: str) -> None:
        me = pos.players[actor]
        card = self._card_in_hand(me, a)
        if not card.is_basic_pokemon:
            if not plays_as_basic(card):
                raise self._refuse("not-basic", f"{card.name} is not a Basic Pokémon")
            self._check_fossil(pos, card, actor)
        if me.active is not None and len(me.bench) >= self.edition.bench_size:
            raise self._refuse("bench-full", f"the Bench holds {self.edition.bench_size} Pokémon")
        if me.active is None and pos.phase != "setup":
            raise self._refuse("promote-required", "choose a new Active Pokémon first")

    def _fossil_in_setup(self) -> tuple[bool, bool]:
        """Whether a Fossil Trainer card may be placed during setup, and whether that
        answer is a judge's ruling (the book is silent: RULES.md §23.6)."""
        rule = self.edition.fossil_basic_in_setup
        if rule is None:
            return self.rulings.fossil_basic_in_setup, True
        return rule, False

    def _check_fossil(self, pos: Position, card: Card, actor: str) -> None:
        """A Fossil Trainer card goes into play as a Basic Pokémon during a turn
        (001_75e061fbe3c8e794.txt:740, 910). It is still a Trainer played from the hand,
        so a first-turn Trainer ban covers it (004_0163ba3d06595167.txt:227). During
        setup it counts as a Basic only where the book says so (000:612, 004:131, 524);
        elsewhere a ruling decides."""
        if pos.phase == "setup":
            allowed, ruled = self._fossil_in_setup()
            if not allowed:
                raise _Refused(Refusal(
                    "not-basic", self.edition.cite("fossil_basic_in_setup") or self.edition.cite("not-basic"),
                    f"{card.name} is a Trainer card in the hand, not a Basic Pokémon, during setup"
                    + (" (a judge's ruling: the rulebook does not say)" if ruled else ""),
                    ruling="fossil_basic_in_setup" if ruled else ""))
            return
        if actor == pos.first and pos.turn == 1 and not self.edition.first_player_trainer_turn1:
            raise self._refuse("trainer-first-turn",
                               "the player who goes first plays no Trainer card on turn 1")

    def _check_v_union(self, pos: Position, a: Action, actor: str) -> None:
        """A V-UNION goes into play only as all four pieces at once, from the discard
        pile onto the Bench, where it takes one spot; each V-UNION name once per game
        (001_75e061fbe3c8e794.txt:670). Pieces in the Lost Zone are out of play for good
        (644)."""
        card = self._need_card(a)
        me = pos.players[actor]
        if card.stage != "V-UNION":
            raise self._refuse("v-union-pieces", f"{card.name} is not a V-UNION piece")
        if card.identity in me.v_unions_played:
            raise self._refuse("v-union-once", f"{card.name} was already played this game")
        if me.active is None:
            raise self._refuse("promote-required", "choose a new Active Pokémon first")
        if len(me.bench) >= self.edition.bench_size:
            raise self._refuse("bench-full", f"the Bench holds {self.edition.bench_size} Pokémon")
        found = len(_union_pieces(me.discard, card))
        if found < 4:
            lost = sum(1 for c in me.lost_zone if c.stage == "V-UNION" and c.identity == card.identity)
            where = f"; {lost} in the Lost Zone, out of play for the rest of the game" if lost else ""
            raise self._refuse("v-union-pieces",
                               f"{card.name} needs all four pieces in the discard pile: {found} there{where}")

    def _check_play(self, pos: Position, a: Action, actor: str) -> None:
        ed = self.edition
        me = pos.players[actor]
        card = self._card_in_hand(me, a)
        if not card.is_trainer:
            raise self._refuse("not-trainer", f"{card.name} is not a Trainer card")
        kind = card.trainer_kind
        first_turn = actor == pos.first and pos.turn == 1
        if kind == "Supporter":
            if first_turn and not ed.first_player_supporter_turn1:
                raise self._refuse("supporter-first-turn",
                                   "the player who goes first plays no Supporter on turn 1")
            if me.flags.supporters >= ed.supporters_per_turn:
                raise self._refuse("supporter-already-played", "one Supporter per turn")
            return
        if first_turn and not ed.first_player_trainer_turn1:
            raise self._refuse("trainer-first-turn",
                               "the player who goes first plays no Trainer card on turn 1")
        if kind == "Stadium":
            limit = ed.stadiums_per_turn
            if limit is None and self.rulings.expedition_one_stadium_per_turn:
                limit = 1
            if limit is not None and me.flags.stadiums >= limit:
                raise self._refuse("stadium-already-played", "one Stadium per turn")
            banned = ed.same_name_stadium_banned or self.rulings.older_same_name_stadium_banned
            if banned and pos.stadium and pos.stadium[0].identity == card.identity:
                raise self._refuse("stadium-same-name",
                                   f"{card.name} is already the Stadium in play")
        elif kind == "Pokémon Tool" or (kind == "Technical Machine" and a.target is not None):
            if is_hyper_gear(card):
                # attached to the opponent's Pokémon-EX, never one's own (001:798-800)
                slot = self._slot(pos, a.target, other(actor))
                if slot.rule_box not in ("EX", "Mega EX"):
                    raise self._refuse("invalid-target",
                                       f"{card.name} goes only on an opponent's Pokémon-EX")
            else:
                slot = self._slot(pos, a.target, actor)
            if slot.tool is not None:
                raise self._refuse("tool-already-attached",
                                   f"{slot.card.name} already has a Pokémon Tool")

    def _check_retreat(self, pos: Position, a: Action, actor: str) -> None:
        ed = self.edition
        me = pos.players[actor]
        active = me.active
        if active is None:
            raise self._refuse("promote-required", "there is no Active Pokémon")
        if ed.retreats_per_turn is not None and me.flags.retreats >= ed.retreats_per_turn:
            raise self._refuse("retreat-already", "one retreat per turn")
        blocked = active.conditions & {"Asleep", "Paralyzed"}
        if blocked:
            raise self._refuse("retreat-blocked", f"an {min(blocked)} Pokémon cannot retreat")
        if me.flags.confused_retreat_failed:
            raise self._refuse("retreat-blocked",
                               "a Confused Pokémon that failed to retreat may not try again this turn")
        if not me.bench or a.to is None or a.to[1] is None or a.to[0] != actor \
                or me.slot(a.to[1]) is None:
            raise self._refuse("retreat-no-bench", "retreating needs a Benched Pokémon to switch in")
        cost = len(active.retreat_cost)
        discard = a.discard if a.discard is not None else self._auto_payment(active, cost)
        problem = retreat_payment_problem(cost, discard, active.energy)
        if problem:
            raise self._refuse("retreat-cost-unpaid", problem)

    @staticmethod
    def _auto_payment(slot: Slot, cost: int) -> tuple[Card, ...]:
        chosen: list[Card] = []
        units = 0
        for card in sorted(slot.energy, key=lambda c: len(c.energy_provided)):
            if units >= cost:
                break
            chosen.append(card)
            units += len(card.energy_provided)
        return tuple(chosen)

    def _check_ability(self, pos: Position, a: Action, actor: str) -> None:
        slot = self._slot(pos, a.pokemon, actor)
        ability = next((ab for ab in slot.abilities if ab.name == a.name), None)
        if ability is None:
            raise self._refuse("ability-unknown", f"{slot.card.name} has no {a.name!r}")
        block = self.edition.conditions_block
        if slot.conditions and (
            (block == "powers-and-bodies" and ability.type in ("Poké-Power", "Poké-Body", "Pokémon Power"))
            or (ability.type == "Poké-Power")
        ):
            raise self._refuse("ability-blocked",
                               f"{ability.type}s do not work while the Pokémon has a Special Condition")
        if self.edition.poke_power_once_per_turn and ability.type == "Poké-Power" \
                and ability.name in slot.powers_used:
            raise self._refuse("ability-blocked", f"{ability.name} was already used this turn")
        if ability.type == "VSTAR Power" and self.edition.vstar_once_per_game \
                and pos.players[actor].vstar_used:
            raise self._refuse("vstar-already-used", "one VSTAR Power per game")

    def _check_attack(self, pos: Position, a: Action, actor: str) -> None:
        ed = self.edition
        me = pos.players[actor]
        if actor == pos.first and pos.turn == 1 and not ed.first_player_attack_turn1:
            raise self._refuse("attack-first-turn",
                               "the player who goes first does not attack on turn 1")
        active = me.active
        if active is None:
            raise self._refuse("promote-required", "there is no Active Pokémon")
        attack = next((x for x in active.attacks if x.name == a.attack), None)
        if attack is None:
            raise self._refuse("attack-unknown", f"{active.card.name} has no attack {a.attack!r}")
        blocked = active.conditions & {"Asleep", "Paralyzed"}
        if blocked:
            raise self._refuse("attack-blocked", f"an {min(blocked)} Pokémon cannot attack")
        if not cost_paid(attack.cost, active.energy):
            raise self._refuse("attack-cost-unpaid",
                               f"{attack.name} needs {', '.join(attack.cost) or 'no Energy'}")
        if ed.gx_once_per_game and is_gx_attack(active.card, attack.name) and me.gx_used:
            raise self._refuse("gx-already-used", "one GX attack per game")
        if ed.vstar_once_per_game and is_vstar_attack(active.card, attack.name) and me.vstar_used:
            raise self._refuse("vstar-already-used", "one VSTAR Power per game")

    def _check_deck(self, a: Action) -> None:
        from assistant.decks import check_deck_text

        report = check_deck_text(a.deck, self.edition.era, self.deck_resolver)
        if not report.legal:
            # an unreadable line makes the deck illegal with no rule problem of its own
            problem = (report.problems or report.deck.unreadable)[0]
            rule = problem.source or self.edition.cite(problem.code)
            raise _Refused(Refusal(problem.code, rule, problem.message))

    # -- effects -----------------------------------------------------------------------

    def _apply(self, pos: Position, a: Action) -> None:
        actor = a.player or pos.current
        handler = getattr(self, f"_do_{a.type}")
        handler(pos, a, actor)

    def _do_deck_check(self, pos: Position, a: Action, actor: str) -> None:
        self._emit({"type": "deck_check", "legal": True})

    def _do_setup(self, pos: Position, a: Action, actor: str) -> None:
        ed = self.edition
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
                self._emit({"type": "mulligan_draws", "player": p, "max": bonus,
                            "optional": ed.mulligan_bonus_optional})
        pos.dealt = True

    def _do_draw(self, pos: Position, a: Action, actor: str) -> None:
        """A mulligan bonus draw during setup; during a turn, a card effect's draw. An
        effect that asks for more cards than the deck holds draws what is there and
        play goes on: only the draw that begins a turn can lose the game
        (001_75e061fbe3c8e794.txt:542-544)."""
        me = pos.players[actor]
        count = min(a.count, len(me.deck))
        me.hand.extend(me.deck[:count])
        del me.deck[:count]
        event: Event = {"type": "draw", "player": actor, "count": count}
        if pos.phase == "setup":
            me.bonus_draws -= count
        elif count < a.count:
            event["asked"] = a.count
        self._emit(event)

    def _do_begin(self, pos: Position, a: Action, actor: str) -> None:
        for p in PLAYERS:
            pos.players[p].bonus_draws = 0
        pos.phase = "main"
        pos.turn = 1
        pos.current = pos.first
        self._emit({"type": "turn", "player": pos.current, "number": pos.turn})
        self._draw_for_turn(pos)

    def _do_bench(self, pos: Position, a: Action, actor: str) -> None:
        card = self._need_card(a)
        self._take_from_hand(pos, actor, card)
        me = pos.players[actor]
        entered = 0 if pos.phase == "setup" else pos.turn
        if pos.phase == "setup" and plays_as_basic(card) and self._fossil_in_setup()[1]:
            self._emit({"type": "ruling", "ruling": "fossil_basic_in_setup", "choice": True,
                        "judge": True})
        slot = Slot(card, entered_turn=entered)
        if me.active is None:
            me.active = slot
            self._emit({"type": "active", "player": actor, "card": card.name})
        else:
            me.bench.append(slot)
            self._emit({"type": "bench", "player": actor, "card": card.name,
                        "target": f"{actor}.bench[{len(me.bench) - 1}]"})

    def _do_evolve(self, pos: Position, a: Action, actor: str) -> None:
        card = self._need_card(a)
        self._take_from_hand(pos, actor, card)
        assert a.target is not None
        slot = self._slot(pos, a.target, actor)
        self._clear_conditions(slot, format_target(a.target))
        self._clear_reminders(slot, format_target(a.target), markers=True)
        slot.under.append(slot.card)
        slot.card = card
        slot.entered_turn = pos.turn
        self._emit({"type": "evolve", "target": format_target(a.target), "card": card.name})
        if card.stage == "MEGA" and self.edition.mega_ex_ends_turn:
            # Putting a Mega Evolution Pokémon-EX into play ends the turn at once
            # (001_75e061fbe3c8e794.txt:830-832).
            self._emit({"type": "turn_ends", "why": "mega-evolution"})
            self._end_turn(pos, Action("end_turn"))

    def _do_attach(self, pos: Position, a: Action, actor: str) -> None:
        card = self._need_card(a)
        self._take_from_hand(pos, actor, card)
        slot = self._slot(pos, a.target, actor)
        slot.energy.append(card)
        pos.players[actor].flags.energy_attached = True
        assert a.target is not None
        self._emit({"type": "attach", "target": format_target(a.target), "card": card.name})

    def _do_play(self, pos: Position, a: Action, actor: str) -> None:
        card = self._need_card(a)
        self._take_from_hand(pos, actor, card)
        me = pos.players[actor]
        kind = card.trainer_kind
        event: Event = {"type": "play", "player": actor, "card": card.name, "kind": kind}
        if kind == "Supporter":
            me.flags.supporters += 1
            if self.edition.supporter_stays_until_end_of_turn:
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
        elif kind == "Pokémon Tool" or (kind == "Technical Machine" and a.target is not None):
            slot = self._slot(pos, a.target)
            slot.tool = card
            assert a.target is not None
            # remembered so that the Tool returns to its player's discard pile (001:800)
            slot.tool_owner = actor if a.target[0] != actor else None
            event["target"] = format_target(a.target)
        else:
            me.discard.append(card)
        self._emit(event)

    def _do_retreat(self, pos: Position, a: Action, actor: str) -> None:
        me = pos.players[actor]
        active = me.active
        assert active is not None and a.to is not None and a.to[1] is not None
        discard = a.discard if a.discard is not None else self._auto_payment(
            active, len(active.retreat_cost))
        for card in discard:
            active.energy.remove(card)
            me.discard.append(card)
        me.flags.retreats += 1
        event: Event = {"type": "retreat", "player": actor, "to": format_target(a.to),
                        "discarded": [c.name for c in discard]}
        if "Confused" in active.conditions and self.edition.confused_retreat_flip:
            # 2002: pay first, then flip; tails and the retreat fails (003:164-170).
            result = self._flip("confused-retreat")
            self._emit({"type": "coin", "result": result, "for": "confused-retreat"})
            if result == "tails":
                me.flags.confused_retreat_failed = True
                event["failed"] = True
                self._emit(event)
                return
        self._swap(pos, actor, a.to[1])
        self._emit(event)

    def _swap(self, pos: Position, player: str, index: int) -> None:
        """The Active and a Benched Pokémon change places; the one that goes to the
        Bench recovers from every Special Condition (001_75e061fbe3c8e794.txt:411)."""
        me = pos.players[player]
        old = me.active
        assert old is not None
        self._clear_conditions(old, f"{player}.active")
        self._clear_reminders(old, f"{player}.active", markers=False)
        me.active = me.bench[index]
        me.bench[index] = old

    def _clear_conditions(self, slot: Slot, where: str) -> None:
        for condition in sorted(slot.conditions):
            self._emit({"type": "condition", "target": where, "condition": condition,
                        "change": "removed"})
        slot.conditions.clear()
        slot.paralyzed_turn = None

    def _clear_reminders(self, slot: Slot, where: str, *, markers: bool) -> None:
        """Lingering attack effects end when the Pokémon leaves the Active Spot, evolves
        or devolves (001_75e061fbe3c8e794.txt:281, 320, 898); other counters and markers
        survive the Bench but not evolving or devolving (000_f5f923b195869c83.txt:596;
        003_b55862cc83f9dac9.txt:887-889). Damage counters are not touched (001:894)."""
        for name in sorted(slot.effects):
            self._emit({"type": "effect", "target": where, "effect": name, "change": "removed"})
        slot.effects.clear()
        if markers:
            for name in sorted(slot.markers):
                self._emit({"type": "marker", "target": where, "marker": name, "change": "removed"})
            slot.markers.clear()

    def _do_devolve(self, pos: Position, a: Action, actor: str) -> None:
        """Devolving takes the top Evolution card off an evolved Pokémon, the opposite of
        evolving; it also ends its Special Conditions and other effects
        (001_75e061fbe3c8e794.txt:898). Energy, Tool and damage counters stay; with fewer
        HP the Pokémon may now be Knocked Out."""
        assert a.target is not None
        owner = a.target[0]
        slot = self._slot(pos, a.target)
        where = format_target(a.target)
        top = slot.card
        slot.card = slot.under.pop()
        self._clear_conditions(slot, where)
        self._clear_reminders(slot, where, markers=True)
        me = pos.players[owner]
        (me.hand if a.into == "hand" else me.discard).append(top)
        self._emit({"type": "devolve", "target": where, "card": top.name, "into": a.into})
        self._knockouts(pos)

    def _do_effect(self, pos: Position, a: Action, actor: str) -> None:
        assert a.target is not None
        slot = self._slot(pos, a.target)
        where = format_target(a.target)
        if a.add:
            slot.effects.add(a.add)
            self._emit({"type": "effect", "target": where, "effect": a.add, "change": "added"})
        elif a.remove in slot.effects:
            slot.effects.discard(a.remove)
            self._emit({"type": "effect", "target": where, "effect": a.remove, "change": "removed"})

    def _do_v_union(self, pos: Position, a: Action, actor: str) -> None:
        card = self._need_card(a)
        me = pos.players[actor]
        pieces = _union_pieces(me.discard, card)[:4]
        for piece in pieces:
            me.discard.remove(piece)
        # in play the four pieces are one Pokémon in one Bench spot (001:670, 676)
        me.bench.append(Slot(pieces[0], under=pieces[1:], entered_turn=pos.turn))
        me.v_unions_played.add(card.identity)
        self._emit({"type": "v_union", "player": actor, "card": card.name,
                    "target": f"{actor}.bench[{len(me.bench) - 1}]"})

    def _do_ability(self, pos: Position, a: Action, actor: str) -> None:
        slot = self._slot(pos, a.pokemon, actor)
        ability = next(ab for ab in slot.abilities if ab.name == a.name)
        slot.powers_used.add(ability.name)
        if ability.type == "VSTAR Power":
            pos.players[actor].vstar_used = True
        assert a.pokemon is not None
        self._emit({"type": "ability", "pokemon": format_target(a.pokemon), "name": a.name,
                    "kind": ability.type})

    def _do_attack(self, pos: Position, a: Action, actor: str) -> None:
        ed = self.edition
        me = pos.players[actor]
        active = me.active
        assert active is not None
        attack = next(x for x in active.attacks if x.name == a.attack)
        pos.attacked = True
        if is_gx_attack(active.card, attack.name):
            me.gx_used = True
        if is_vstar_attack(active.card, attack.name):
            me.vstar_used = True
        self._emit({"type": "attack", "player": actor, "attack": attack.name})
        if "attack-coin" in active.effects:
            # Step B: an opponent's earlier attack makes this one flip first; tails and
            # the attack does not happen (001_75e061fbe3c8e794.txt:519). Such an effect
            # is gone once the Pokémon has left the Active Spot (see _swap).
            result = self._flip("attack-effect")
            self._emit({"type": "coin", "result": result, "for": "attack-effect"})
            if result == "tails":
                self._emit({"type": "attack_cancelled", "why": "attack-effect"})
                return
        if "Confused" in active.conditions:
            result = self._flip("confusion")
            self._emit({"type": "coin", "result": result, "for": "confusion"})
            if result == "tails":
                self._confusion_self_hit(pos, actor, active)
                self._knockouts(pos)
                return
        opponent = other(actor)
        defender = pos.players[opponent].active
        printed = attack.damage.strip()
        base = a.base if a.base is not None else (attack.base_damage if printed else None)
        if defender is not None and base is not None:
            result_dmg = attack_damage(ed, base, active.types, defender.weaknesses,
                                       defender.resistances, a.modifiers)
            if not result_dmg.stopped:
                defender.damage += result_dmg.amount
                self._emit({"type": "damage", "target": f"{opponent}.active",
                            "amount": result_dmg.amount,
                            "steps": [list(s) for s in result_dmg.steps]})
        for target, amount in a.targets:
            slot = self._slot(pos, target)
            event: Event = {"type": "damage", "target": format_target(target), "amount": amount}
            if target[1] is not None and ed.tera_bench_protection and slot.card.rule_box == "Tera ex":
                # Benched Tera Pokémon ex take no damage from attacks (001:634-638).
                event["amount"] = 0
                event["prevented"] = "tera"
            slot.damage += event["amount"]
            self._emit(event)
        self._knockouts(pos)

    def _confusion_self_hit(self, pos: Position, actor: str, active: Slot) -> None:
        ed = self.edition
        where = f"{actor}.active"
        if ed.confusion_self_hit == "counters":
            active.damage += 10 * ed.confusion_self_amount
            self._emit({"type": "counters", "target": where, "counters": ed.confusion_self_amount,
                        "why": "confusion"})
        else:
            # 2002: 20 damage to itself, its own Weakness and Resistance applied (003:171-177).
            hit = attack_damage(ed, ed.confusion_self_amount, active.types, active.weaknesses,
                                active.resistances)
            active.damage += hit.amount
            self._emit({"type": "damage", "target": where, "amount": hit.amount, "why": "confusion"})

    def _do_counters(self, pos: Position, a: Action, actor: str) -> None:
        slot = self._slot(pos, a.target)
        slot.damage += 10 * a.counters
        assert a.target is not None
        self._emit({"type": "counters", "target": format_target(a.target), "counters": a.counters})
        self._knockouts(pos)

    def _do_condition(self, pos: Position, a: Action, actor: str) -> None:
        slot = self._slot(pos, a.target)
        assert a.target is not None
        where = format_target(a.target)
        if a.add:
            self._add_condition(pos, slot, where, a.add)
        elif a.remove and a.remove in slot.conditions:
            slot.conditions.discard(a.remove)
            if a.remove == "Paralyzed":
                slot.paralyzed_turn = None
            self._emit({"type": "condition", "target": where, "condition": a.remove,
                        "change": "removed"})

    def _add_condition(self, pos: Position, slot: Slot, where: str, condition: str) -> None:
        """Asleep, Confused and Paralyzed replace one another; a second Poison or Burn
        marker replaces the first (001_75e061fbe3c8e794.txt:425, 449, 455)."""
        if condition in ROTATION:
            for old in sorted(slot.conditions & ROTATION - {condition}):
                slot.conditions.discard(old)
                self._emit({"type": "condition", "target": where, "condition": old,
                            "change": "replaced"})
        change = "replaced" if condition in slot.conditions else "added"
        slot.conditions.add(condition)
        if condition == "Paralyzed":
            slot.paralyzed_turn = pos.turn
        self._emit({"type": "condition", "target": where, "condition": condition,
                    "change": change})

    def _do_switch(self, pos: Position, a: Action, actor: str) -> None:
        owner = a.player or actor
        assert a.to is not None and a.to[1] is not None
        self._swap(pos, owner, a.to[1])
        self._emit({"type": "switch", "player": owner, "to": format_target(a.to)})

    def _do_promote(self, pos: Position, a: Action, actor: str) -> None:
        owner = a.player or actor
        me = pos.players[owner]
        assert a.source is not None and a.source[1] is not None
        me.active = me.bench.pop(a.source[1])
        pos.pending_promotion.remove(owner)
        self._emit({"type": "promote", "player": owner, "card": me.active.card.name})
        if not pos.pending_promotion:
            pos.phase = "main"
            if pos.turn_ends_after_promotion:
                pos.turn_ends_after_promotion = False
                self._start_turn(pos)

    def _do_end_turn(self, pos: Position, a: Action, actor: str) -> None:
        self._end_turn(pos, a)

    # -- end of turn, Checkup, next turn -----------------------------------------------

    def _end_turn(self, pos: Position, a: Action) -> None:
        ed = self.edition
        me = pos.players[pos.current]
        # 2002/2009 Supporters wait beside the Active until the turn ends (003:110-112).
        me.discard.extend(me.beside_active)
        me.beside_active.clear()
        if ed.tm_discarded_end_of_turn:
            for slot in me.in_play():
                if slot.tool is not None and "Technical Machine" in slot.tool.subtypes:
                    me.discard.append(slot.tool)
                    slot.tool = None
        self._checkup(pos, a)
        if pos.winner is not None:
            return
        if pos.pending_promotion:
            pos.turn_ends_after_promotion = True
            return
        self._start_turn(pos)

    def _checkup(self, pos: Position, a: Action) -> None:
        ed = self.edition
        if a.effects and a.effects_when == "before":
            self._checkup_effects(pos, a)
        order = [pos.current, other(pos.current)]
        if self.rulings.checkup_player_order != "current-first":
            order.reverse()
        both = all(pos.players[p].active and pos.players[p].active.conditions for p in PLAYERS)
        for player in order:
            slot = pos.players[player].active
            if slot is None:
                continue
            for step in ed.checkup_order:
                self._checkup_step(pos, player, slot, step, ruled=both)
                if ed.checkup_knockouts == "immediate" and slot.damage >= slot.hp:
                    break
            if ed.checkup_knockouts == "immediate":
                self._knockouts(pos)
                if pos.winner is not None:
                    return
        if a.effects and a.effects_when != "before":
            self._checkup_effects(pos, a)
        # Knock Outs wait until both players' checks are done (001:407).
        self._knockouts(pos)

    def _checkup_effects(self, pos: Position, a: Action) -> None:
        for target, counters in a.effects:
            slot = pos.slot(*target)
            if slot is None:
                continue
            if counters >= 0:
                slot.damage += 10 * counters
            else:
                slot.damage = max(0, slot.damage + 10 * counters)
            self._emit({"type": "checkup", "step": "effect", "target": format_target(target),
                        "counters": counters})

    def _checkup_step(self, pos: Position, player: str, slot: Slot, step: str, ruled: bool) -> None:
        ed = self.edition
        where = f"{player}.active"
        event: Event = {"type": "checkup", "step": step, "target": where}
        if ruled:
            event["ruling"] = "checkup_player_order"
        if step == "poisoned" and "Poisoned" in slot.conditions:
            slot.damage += 10 * ed.poison_counters
            event["counters"] = ed.poison_counters
        elif step == "burned" and "Burned" in slot.conditions:
            if ed.burn == "counters-then-flip":
                slot.damage += 10 * ed.burn_counters
                event["counters"] = ed.burn_counters
                coin = self._flip("burn")
                event["coin"] = coin
                event["recovered"] = coin == "heads"
                if coin == "heads":
                    slot.conditions.discard("Burned")
            else:
                coin = self._flip("burn")
                event["coin"] = coin
                event["counters"] = ed.burn_counters if coin == "tails" else 0
                event["recovered"] = False
                slot.damage += 10 * event["counters"]
        elif step == "asleep" and "Asleep" in slot.conditions:
            coin = self._flip("asleep")
            event["coin"] = coin
            event["recovered"] = coin == "heads"
            if coin == "heads":
                slot.conditions.discard("Asleep")
        elif step == "paralyzed" and "Paralyzed" in slot.conditions:
            # Recovers at the Checkup after its owner's next turn (001:437-441): that is
            # a turn of its owner that began while it was already Paralyzed.
            began_paralyzed = slot.paralyzed_turn is None or slot.paralyzed_turn < pos.turn
            recovered = player == pos.current and began_paralyzed
            event["recovered"] = recovered
            if recovered:
                slot.conditions.discard("Paralyzed")
                slot.paralyzed_turn = None
        else:
            return
        self._emit(event)

    def _start_turn(self, pos: Position) -> None:
        pos.turn += 1
        pos.current = other(pos.current)
        pos.phase = "main"
        pos.attacked = False
        for p in PLAYERS:
            pos.players[p].flags = TurnFlags()
            for slot in pos.players[p].in_play():
                slot.powers_used.clear()
        self._emit({"type": "turn", "player": pos.current, "number": pos.turn})
        self._draw_for_turn(pos)

    def _draw_for_turn(self, pos: Position) -> None:
        """The turn's first draw; a player who cannot draw loses (001:219, 265-267)."""
        me = pos.players[pos.current]
        if not me.deck:
            self._declare(pos, {other(pos.current): ["deck-out"], pos.current: []})
            return
        me.hand.append(me.deck.pop(0))
        self._emit({"type": "draw", "player": pos.current, "count": 1})

    # -- Knock Outs, Prizes, winning -----------------------------------------------------

    def _knockouts(self, pos: Position) -> None:
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
        # Prizes are taken (and new Active Pokémon chosen) player by player; with
        # Knock Outs on both sides the player whose turn comes next goes first
        # (003:722-724, 004:429), i.e. takes the Prize for the attacker's Pokémon first.
        takers = [other(pos.current), pos.current]
        if len(knocked) == 2:
            first = self.edition.simultaneous_knockouts_first or self.rulings.simultaneous_knockouts_first
            if first != "next-player":
                takers.reverse()
            if self.edition.simultaneous_knockouts_first is None:
                self._emit({"type": "ruling", "ruling": "simultaneous_knockouts_first",
                            "choice": first, "judge": True})
        owners = [other(t) for t in takers if other(t) in knocked]
        took: set[str] = set()
        for owner in owners:
            me = pos.players[owner]
            taker = other(owner)
            worth = 0
            for index in knocked[owner]:
                slot = me.slot(index)
                assert slot is not None
                prizes = self.edition.prizes_for(slot.card.rule_box)
                if slot.card.rule_box == "LEGEND" and "LEGEND" not in self.edition.prizes_by_rule_box:
                    # no rulebook gives a LEGEND's Prize count (RULES.md §23.5)
                    prizes = self.rulings.legend_prizes
                    self._emit({"type": "ruling", "ruling": "legend_prizes", "choice": prizes,
                                "judge": True})
                worth += prizes
                self._emit({"type": "knockout", "target": format_target((owner, index)),
                            "prizes": prizes, "card": slot.card.name})
                for card in slot.cards():
                    if slot.tool_owner is not None and card is slot.tool:
                        # a Hyper Gear Tool goes to its player's pile (001:800)
                        pos.players[slot.tool_owner].discard.append(card)
                        continue
                    (me.lost_zone if card.is_prism_star else me.discard).append(card)
            for index in sorted((i for i in knocked[owner] if i is not None), reverse=True):
                me.bench.pop(index)
            if None in knocked[owner]:
                me.active = None
            them = pos.players[taker]
            count = min(worth, len(them.prizes))
            if count:
                them.hand.extend(them.prizes[:count])
                del them.prizes[:count]
                took.add(taker)
                self._emit({"type": "prize", "player": taker, "count": count})
        order = [t for t in takers if t in knocked]
        wins: dict[str, list[str]] = {p: [] for p in PLAYERS}
        for p in PLAYERS:
            if p in took and not pos.players[p].prizes:
                wins[p].append("prizes")
            if not pos.players[other(p)].in_play():
                wins[p].append("no-pokemon")
        if any(wins.values()):
            self._declare(pos, wins)
            return
        for owner in order:
            if pos.players[owner].active is None and owner not in pos.pending_promotion:
                pos.pending_promotion.append(owner)
        if pos.pending_promotion:
            pos.phase = "promote"

    def _declare(self, pos: Position, wins: dict[str, list[str]]) -> None:
        """Decide the game: one winner, or — when both players win at once — the one
        who wins two ways against one, else Sudden Death (001:546-554)."""
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
        self._emit({"type": "win", "player": winner, "why": why[0], "ways": list(why)})


def _union_pieces(zone: Sequence[Card], card: Card) -> list[Card]:
    """The pieces of ``card``'s V-UNION in a zone, different pieces first (outside play
    each piece is a card of its own, 001_75e061fbe3c8e794.txt:676)."""
    firsts: list[Card] = []
    repeats: list[Card] = []
    for piece in zone:
        if piece.stage == "V-UNION" and piece.identity == card.identity:
            (repeats if piece in firsts else firsts).append(piece)
    return firsts + repeats


__all__ = ["Game", "Outcome", "cost_paid", "retreat_payment_problem"]
