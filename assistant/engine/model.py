"""The game model: a table position, as a judge sees it.

Two players, each with a deck, hand, Prize cards, discard pile and Lost Zone, an Active
Spot and a Bench of up to five (001_75e061fbe3c8e794.txt:177-205), and one Stadium on the
table between them. A :class:`Slot` is one Pokémon in play: its evolution stack, the
Energy and Tool attached to it, its damage, Special Conditions, and the turn it came into
play or last evolved.

Hidden information is held as counts. At a real table nobody knows the hand, the order
of the deck or the Prize cards; a zone is therefore a list whose unknown cards are
``None`` (a card lying face down). Every rule works on such lists: playing a card from a
hand of unknown cards uses up one unknown card, drawing from an unknown deck adds one
unknown card to the hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.cards import Ability, Attack, Card, TypeValue, fold

PLAYERS = ("A", "B")
#: Asleep, Confused and Paralyzed turn the card, so only the last one applied is in
#: effect (001_75e061fbe3c8e794.txt:455); Poisoned and Burned are markers.
ROTATION = frozenset({"Asleep", "Confused", "Paralyzed"})
CONDITIONS = frozenset({"Asleep", "Burned", "Confused", "Paralyzed", "Poisoned"})

Zone = list["Card | None"]


def other(player: str) -> str:
    return "B" if player == "A" else "A"


@dataclass
class Slot:
    """One Pokémon in play. ``entered_turn`` is the game turn it came into play or last
    evolved (``None``: long ago; ``0``: during setup). ``paralyzed_turn`` is the turn it
    became Paralyzed (``None``: before the current turn).

    Besides damage counters a Pokémon can carry two other kinds of reminders, and the
    rulebooks treat them differently from damage:

    - ``markers``: other counters an effect puts on it (a Char counter…), by name and
      number. They stay when the Pokémon goes to the Bench but go away when it evolves
      or devolves; damage counters stay through both (000_f5f923b195869c83.txt:596,
      600; 001_75e061fbe3c8e794.txt:894).
    - ``effects``: lingering effects of attacks on it (``attack-coin`` is an opponent's
      "flip when it tries to attack" effect). They end as soon as it leaves the Active
      Spot, evolves or devolves (001_75e061fbe3c8e794.txt:281, 320, 519, 898).

    ``tool_owner`` is the player who attached the Tool when that is not the Pokémon's
    owner (a Team Flare Hyper Gear Tool, 001_75e061fbe3c8e794.txt:798-800).
    """

    card: Card
    under: list[Card] = field(default_factory=list)
    energy: list[Card] = field(default_factory=list)
    tool: Card | None = None
    damage: int = 0
    conditions: set[str] = field(default_factory=set)
    entered_turn: int | None = None
    paralyzed_turn: int | None = None
    powers_used: set[str] = field(default_factory=set)
    markers: dict[str, int] = field(default_factory=dict)
    effects: set[str] = field(default_factory=set)
    tool_owner: str | None = None

    def copy(self) -> Slot:
        return Slot(self.card, list(self.under), list(self.energy), self.tool, self.damage,
                    set(self.conditions), self.entered_turn, self.paralyzed_turn,
                    set(self.powers_used), dict(self.markers), set(self.effects),
                    self.tool_owner)

    @property
    def evolved(self) -> bool:
        """An evolved Pokémon has another Pokémon card under it
        (001_75e061fbe3c8e794.txt:908). The pieces under a V-UNION are one card with
        the top piece, not earlier stages: a V-UNION counts as unevolved (001:674-676)."""
        return self.card.stage != "V-UNION" and any(
            c.is_pokemon or plays_as_basic(c) for c in self.under)

    @property
    def rule_box(self) -> str | None:
        """The Rule Box of this Pokémon in play (a V-UNION has one in play, 001:680)."""
        return self.card.rule_box

    @property
    def hp(self) -> int:
        return self.card.hp or 0

    @property
    def remaining_hp(self) -> int:
        return self.hp - self.damage

    @property
    def types(self) -> tuple[str, ...]:
        return self.card.types

    def _keeps_lower(self) -> bool:
        # BREAK and LV.X keep the attacks and powers of the card below them
        # (001_75e061fbe3c8e794.txt:778-788; 004_0163ba3d06595167.txt:459-475).
        return self.card.stage in ("BREAK", "LV.X") and bool(self.under)

    @property
    def attacks(self) -> tuple[Attack, ...]:
        own = self.card.attacks
        if self._keeps_lower():
            own = own + self.under[-1].attacks
        # a Technical Machine lends its attack to the Pokémon it is attached to
        if self.tool is not None and "Technical Machine" in self.tool.subtypes:
            own = own + self.tool.attacks
        return own

    @property
    def abilities(self) -> tuple[Ability, ...]:
        own = self.card.abilities
        return own + self.under[-1].abilities if self._keeps_lower() else own

    @property
    def weaknesses(self) -> tuple[TypeValue, ...]:
        if self.card.stage == "BREAK" and self.under:
            return self.under[-1].weaknesses
        return self.card.weaknesses

    @property
    def resistances(self) -> tuple[TypeValue, ...]:
        if self.card.stage == "BREAK" and self.under:
            return self.under[-1].resistances
        return self.card.resistances

    @property
    def retreat_cost(self) -> tuple[str, ...]:
        if self.card.stage == "BREAK" and self.under:
            return self.under[-1].retreat_cost
        return self.card.retreat_cost

    def cards(self) -> list[Card]:
        """Every card in this slot: the stack, attached Energy and Tool (or TM)."""
        out = [*self.under, self.card, *self.energy]
        if self.tool is not None:
            out.append(self.tool)
        return out


@dataclass
class TurnFlags:
    """What a player has done this turn (each reset when a turn begins)."""

    energy_attached: bool = False
    supporters: int = 0
    stadiums: int = 0
    retreats: int = 0
    confused_retreat_failed: bool = False

    def copy(self) -> TurnFlags:
        return TurnFlags(self.energy_attached, self.supporters, self.stadiums, self.retreats,
                         self.confused_retreat_failed)


@dataclass
class PlayerState:
    active: Slot | None = None
    bench: list[Slot] = field(default_factory=list)
    hand: Zone = field(default_factory=list)
    deck: Zone = field(default_factory=list)
    prizes: Zone = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    lost_zone: list[Card] = field(default_factory=list)
    #: 2002/2009 Supporters stay beside the Active until the end of the turn.
    beside_active: list[Card] = field(default_factory=list)
    flags: TurnFlags = field(default_factory=TurnFlags)
    gx_used: bool = False
    vstar_used: bool = False
    mulligans: int = 0
    bonus_draws: int = 0
    #: Name identities of the V-UNIONs this player has put into play: each only once
    #: per game (001_75e061fbe3c8e794.txt:670).
    v_unions_played: set[str] = field(default_factory=set)

    def copy(self) -> PlayerState:
        return PlayerState(
            self.active.copy() if self.active else None,
            [s.copy() for s in self.bench], list(self.hand), list(self.deck),
            list(self.prizes), list(self.discard), list(self.lost_zone),
            list(self.beside_active), self.flags.copy(), self.gx_used, self.vstar_used,
            self.mulligans, self.bonus_draws, set(self.v_unions_played),
        )

    def in_play(self) -> list[Slot]:
        return ([self.active] if self.active else []) + self.bench

    def slot(self, index: int | None) -> Slot | None:
        """``None`` is the Active Spot, a number a Bench position."""
        if index is None:
            return self.active
        return self.bench[index] if 0 <= index < len(self.bench) else None

    def card_count(self) -> int:
        """Cards this player owns outside the Stadium slot (for the 60-card check)."""
        return (len(self.hand) + len(self.deck) + len(self.prizes) + len(self.discard)
                + len(self.lost_zone) + len(self.beside_active)
                + sum(len(s.cards()) for s in self.in_play()))


@dataclass
class Position:
    """A whole table position. ``phase`` is ``setup``, ``main`` or ``promote`` (someone
    must choose a new Active). ``winner`` is ``A``, ``B``, ``sudden-death`` or None."""

    players: dict[str, PlayerState]
    turn: int = 1
    current: str = "A"
    first: str = "A"
    phase: str = "main"
    stadium: tuple[Card, str] | None = None
    attacked: bool = False
    winner: str | None = None
    win_reasons: tuple[str, ...] = ()
    pending_promotion: list[str] = field(default_factory=list)
    #: After Checkup Knock Outs, the next turn starts once promotions are done.
    turn_ends_after_promotion: bool = False
    dealt: bool = False

    def copy(self) -> Position:
        return Position(
            {p: s.copy() for p, s in self.players.items()}, self.turn, self.current,
            self.first, self.phase, self.stadium, self.attacked, self.winner,
            self.win_reasons, list(self.pending_promotion), self.turn_ends_after_promotion,
            self.dealt,
        )

    def player_turn_number(self, player: str) -> int:
        """Which of ``player``'s own turns the current game turn is (1 = their first)."""
        offset = 0 if player == self.first else 1
        return (self.turn - offset + 1) // 2

    def is_first_turn_of(self, player: str) -> bool:
        return self.current == player and self.player_turn_number(player) <= 1

    def slot(self, player: str, index: int | None) -> Slot | None:
        return self.players[player].slot(index)

    def card_count(self, player: str) -> int:
        stadium = 1 if self.stadium and self.stadium[1] == player else 0
        return self.players[player].card_count() + stadium


def plays_as_basic(card: Card) -> bool:
    """A Trainer card put into play as a Basic Pokémon: Rare Fossil and Unidentified
    Fossil (001_75e061fbe3c8e794.txt:740) and the older Fossil Trainer cards (910). The
    card data gives such Trainers an HP; the two 2025 names are known even without it.
    In the hand, deck or discard pile they are Trainers, not Basic Pokémon (910)."""
    return card.is_trainer and (
        card.hp is not None or card.identity in ("rare fossil", "unidentified fossil"))


def is_hyper_gear(card: Card) -> bool:
    """A Team Flare Hyper Gear Tool: attached to the opponent's Pokémon-EX
    (001_75e061fbe3c8e794.txt:798-800). The label is printed on the card, so it is read
    from the name, subtypes or rules lines."""
    label = "team flare hyper gear"
    return card.is_trainer and any(
        label in fold(text) for text in (card.name, *card.subtypes, *card.rules))


def has_rule_box(card: Card, in_play: bool) -> bool:
    """Whether a card counts as a "Pokémon with a Rule Box" where it lies. A V-UNION
    piece has one only as part of the V-UNION in play; a lone piece in the hand, deck
    or discard pile does not (001_75e061fbe3c8e794.txt:680). Radiant Pokémon do (650)."""
    kind = card.rule_box
    if kind is None or not card.is_pokemon:
        return False
    return in_play or kind != "V-UNION"


#: The wider category each Rule Box kind belongs to (see :func:`categories`).
_FAMILIES = {"Mega ex": "Pokémon ex", "Tera ex": "Pokémon ex", "ex": "Pokémon ex",
             "Mega EX": "Pokémon-EX", "EX": "Pokémon-EX", "TAG TEAM": "Pokémon-GX",
             "GX": "Pokémon-GX", "VMAX": "Pokémon V", "VSTAR": "Pokémon V",
             "V-UNION": "Pokémon V", "V": "Pokémon V"}


def categories(card: Card) -> frozenset[str]:
    """The card categories an effect may name, beyond the card's own subtypes. A Mega
    Evolution Pokémon ex is a "Pokémon ex" (001_75e061fbe3c8e794.txt:602); VSTAR,
    VMAX and V-UNION are "Pokémon V" (662, 706, 680); a Mega Evolution Pokémon-EX is
    still a "Pokémon-EX" (830-834); a TAG TEAM is a "Pokémon-GX" (728)."""
    out = set(card.subtypes)
    family = _FAMILIES.get(card.rule_box or "")
    if family is not None:
        out.add(family)
    return frozenset(out)

