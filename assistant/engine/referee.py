"""The referee: what every rule topic needs while it checks or resolves one action.

A :class:`Referee` holds the game's edition, the judge's rulings and the one source of
chance; it refuses (with the edition's rulebook lines for the reason code), reports
events, flips coins and finds the Pokémon or card an action names. The rule topics
(:mod:`.setup`, :mod:`.pokemon`, :mod:`.energy`, :mod:`.trainers`, :mod:`.attacks`,
:mod:`.conditions`, :mod:`.knockouts`, :mod:`.turns`) are functions of a referee and
a position; :class:`~assistant.engine.game.Game` is the referee that sequences them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from assistant.cards import Card
from assistant.editions import Edition, Rulings
from assistant.engine.actions import Event, Refusal, Target, format_target
from assistant.engine.coins import CoinFlip, CoinSource
from assistant.engine.model import PlayerState, Position, Slot


class DeckProblem(Protocol):
    """One reason a deck list is illegal: a SPEC §4 ``code``, a ``message`` and the
    rulebook lines (``source``, '' when the edition's citation for the code applies)."""

    @property
    def code(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def source(self) -> str: ...


#: Checks a deck list's text under the game's edition: its problems, the first being
#: the one a refusal reports; none when the deck is legal. The engine knows no deck-list
#: format, so its caller gives it one (``assistant.decks.check_deck_text`` behind it).
DeckChecker = Callable[[str], Sequence[DeckProblem]]


class Refused(Exception):
    """Raised inside a rule to refuse the action being checked or resolved."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


class Referee:
    """The edition, rulings, coins and deck checker of one game, and the events and
    coin flips of the action being resolved."""

    def __init__(self, edition: Edition, coins: CoinSource, rulings: Rulings | None = None,
                 deck_checker: DeckChecker | None = None) -> None:
        self.edition = edition
        self.coins = coins
        self.rulings = rulings or Rulings()
        self.deck_checker = deck_checker
        self._events: list[Event] = []
        self._flips: list[CoinFlip] = []

    def refuse(self, reason: str, message: str) -> Refused:
        """A refusal citing the edition's rulebook lines for ``reason``."""
        return Refused(Refusal(reason, self.edition.cite(reason), message))

    def emit(self, event: Event) -> None:
        self._events.append(event)

    def flip(self, purpose: str) -> str:
        result = self.coins.flip(purpose)
        self._flips.append(CoinFlip(result, self.coins.name, purpose))
        return result

    def slot(self, pos: Position, target: Target | None, owner: str | None = None) -> Slot:
        """The Pokémon at ``target`` (which must be ``owner``'s when given)."""
        if target is None:
            raise self.refuse("invalid-target", "the action needs a target Pokémon")
        player, index = target
        if owner is not None and player != owner:
            raise self.refuse("invalid-target", f"{format_target(target)} is not your Pokémon")
        slot = pos.slot(player, index)
        if slot is None:
            raise self.refuse("invalid-target", f"there is no Pokémon at {format_target(target)}")
        return slot

    def need_card(self, card: Card | None) -> Card:
        if card is None:
            raise self.refuse("unknown-card", "the action names no card")
        return card

    def card_in_hand(self, me: PlayerState, card: Card | None) -> Card:
        """The action's card, which must be in the player's hand (or may be one of its
        unknown cards)."""
        card = self.need_card(card)
        if in_hand(me.hand, card) is None:
            if card in me.lost_zone:
                # out of play for the rest of the game (001_75e061fbe3c8e794.txt:644)
                raise self.refuse("not-in-hand", f"{card.name} is in the Lost Zone: it cannot be "
                                  "used or recovered for the rest of the game")
            raise self.refuse("not-in-hand", f"{card.name} is not in your hand")
        return card

    def take_from_hand(self, pos: Position, player: str, card: Card | None) -> Card:
        card = self.need_card(card)
        hand = pos.players[player].hand
        index = in_hand(hand, card)
        if index is None:
            raise self.refuse("not-in-hand", f"{card.name} is not in {player}'s hand")
        hand.pop(index)
        return card


def in_hand(hand: list[Card | None], card: Card) -> int | None:
    """Where the card is in the hand: its own index, or that of an unknown card."""
    for i, held in enumerate(hand):
        if held == card:
            return i
    for i, held in enumerate(hand):
        if held is None:
            return i
    return None
