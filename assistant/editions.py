"""Edition profiles: every value of the rules that differs between rulebooks.

The engine (``assistant.engine``) knows *how* a game is played; an :class:`Edition`
says *which* variant of each rule the era's rulebook prescribes: the damage order,
fixed or printed Weakness and Resistance, Burn and Confusion, the Checkup order,
first-turn limits, mulligan bonus draws, Prize counts, basic Energy types, retreats per
turn... Each value cites the rulebook line it rests on in :attr:`Edition.sources`
(``file:lines`` under ``shared/rulebooks``), so a refusal can show a player the rule.

Where no rulebook decides a question (RULES.md §23) the value is not a guess but a
:class:`Rulings` default that a judge may change, and the engine reports when it used
one (an event with ``"ruling"``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from assistant.eras import (
    BLACK_WHITE_2011,
    EXPEDITION_2002,
    MEGA_EVOLUTION_2025,
    PLATINUM_2009,
    RULEBOOKS,
    canonical_era,
)

MOD = RULEBOOKS[MEGA_EVOLUTION_2025]
BW = RULEBOOKS[BLACK_WHITE_2011]
DP = RULEBOOKS[PLATINUM_2009]
EXP = RULEBOOKS[EXPEDITION_2002]

#: Damage steps. ``mods:<on>:<by>|<by>`` applies the attack's ``modifiers`` whose ``on``
#: and ``by`` match (``*`` matches anything); each modifier is used by the first step
#: that matches it, so one kind of effect is never counted twice.
STEP_BASE = "base"
STEP_STOP = "stop-if-zero"
STEP_WEAKNESS = "weakness"
STEP_RESISTANCE = "resistance"

#: Kinds of power a Special Condition switches off (see :attr:`Edition.conditions_block`).
POKE_POWER = "Poké-Power"
OLD_POWERS = frozenset({"Poké-Power", "Poké-Body", "Pokémon Power"})


@dataclass(frozen=True, slots=True)
class BurnCountersThenFlip:
    """Burned, 2025: at every Checkup the Pokémon takes ``counters`` damage counters,
    then its owner flips a coin; heads, it recovers (001_75e061fbe3c8e794.txt:421-425)."""

    counters: int = 2

    def checkup(self, flip: Callable[[], str]) -> dict[str, int | str | bool]:
        """The Checkup event's fields, in the order things happen at the table."""
        counters = self.counters
        coin = flip()
        return {"counters": counters, "coin": coin, "recovered": coin == "heads"}


@dataclass(frozen=True, slots=True)
class BurnFlipForCounters:
    """Burned before 2025: at every Checkup its owner flips; tails, the Pokémon takes
    ``counters`` damage counters. The flip never cures it
    (003_b55862cc83f9dac9.txt:155-161; 000_f5f923b195869c83.txt:427-429)."""

    counters: int = 2

    def checkup(self, flip: Callable[[], str]) -> dict[str, int | str | bool]:
        coin = flip()
        return {"coin": coin, "counters": self.counters if coin == "tails" else 0, "recovered": False}


@dataclass(frozen=True, slots=True)
class SelfHit:
    """What a Confused Pokémon does to itself on tails: an event of ``kind``
    (``counters`` or ``damage``) whose ``key`` holds ``value``, and the HP of damage."""

    kind: str
    key: str
    value: int
    damage: int


@dataclass(frozen=True, slots=True)
class ConfusionPlacesCounters:
    """Confused, 2009 on: tails, the attack does not happen and the Pokémon gets
    ``counters`` damage counters, which skip Weakness and Resistance
    (001_75e061fbe3c8e794.txt:429-433)."""

    counters: int = 3

    def self_hit(self, through_weakness: Callable[[int], int]) -> SelfHit:
        return SelfHit("counters", "counters", self.counters, 10 * self.counters)


@dataclass(frozen=True, slots=True)
class ConfusionDealsDamage:
    """Confused, 2002: tails, the Pokémon does ``damage`` to itself, its own Weakness and
    Resistance applied (003_b55862cc83f9dac9.txt:171-177). ``through_weakness`` is that
    calculation, which the engine owns."""

    damage: int = 20

    def self_hit(self, through_weakness: Callable[[int], int]) -> SelfHit:
        amount = through_weakness(self.damage)
        return SelfHit("damage", "amount", amount, amount)


BurnRule = BurnCountersThenFlip | BurnFlipForCounters
ConfusionRule = ConfusionPlacesCounters | ConfusionDealsDamage


@dataclass(frozen=True, slots=True)
class Rulings:
    """Choices the rulebooks leave open (RULES.md §23). Each default is what the
    engine does unless a judge configures otherwise; the engine marks every event that
    rests on one with ``"ruling": <field name>`` so the choice is never silent."""

    #: §23.1: who resolves first when both players lose a Pokémon at once (MOD/BW).
    #: ``next-player`` follows 003:722-724 / 004:429, the only books that answer it.
    simultaneous_knockouts_first: str = "next-player"
    #: §23.12: whose Special Conditions are checked first during Checkup.
    checkup_player_order: str = "current-first"
    #: §23.3: EXP/DP "no evolving on the first turn": each player's own first turn
    #: (``own``, recommended) or only game turn 1 (``game``).
    first_turn_evolution: str = "own"
    #: §23.8: Weakness/Resistance on Benched Pokémon in 2002 (not stated): never.
    expedition_bench_weakness: bool = False
    #: §23.2: same-name Stadium ban before 2025 (not stated): not enforced.
    older_same_name_stadium_banned: bool = False
    #: §23.2: one Stadium per turn in 2002 (not stated): not enforced.
    expedition_one_stadium_per_turn: bool = False
    #: §23.11: a Knock Out worth more Prizes than remain takes all that remain.
    prize_overflow: str = "take-remaining"
    #: §23.6: whether a Fossil Trainer card (Rare Fossil, Unidentified Fossil, older
    #: Fossils) may be placed as a Basic during setup where the book is silent (2025,
    #: 2002). Default no: 001 says such a card is no Basic while in the hand (001:910).
    fossil_basic_in_setup: bool = False
    #: §23.5: Prize cards for a Knocked Out Pokémon LEGEND (no book says).
    legend_prizes: int = 1


@dataclass(frozen=True, slots=True)
class Edition:
    """The rules of one era. Values only; the engine reads them."""

    era: str
    rulebook: str
    #: Damage calculation steps in order (see the ``STEP_*`` names above).
    damage_order: tuple[str, ...]
    #: ``printed``: the card's own value; otherwise the value used when the card prints
    #: only the type (a value printed on the card always rules).
    weakness: str
    resistance: str
    weakness_on_bench: bool
    #: What a Confused Pokémon does to itself on tails.
    confusion_self_hit: ConfusionRule
    #: True when the Confusion flip comes before the attack's choices and requirements.
    confusion_check_first: bool
    confused_retreat_flip: bool
    #: What Burned does at each Checkup.
    burn: BurnRule
    poison_counters: int
    checkup_order: tuple[str, ...]
    #: True: Knock Outs wait until both players' checks are done; False: a Pokémon is
    #: Knocked Out as soon as its damage reaches its HP.
    checkup_knockouts_wait: bool
    #: Where other Checkup effects may go, as one block: ``before`` or ``after`` the
    #: Special Conditions (2025; older books: Tools any time), or ``after`` only (2011).
    checkup_other_effects: tuple[str, ...]
    first_player_attack_turn1: bool
    first_player_supporter_turn1: bool
    first_player_trainer_turn1: bool
    #: ``own``: nobody evolves during their own first turn; ``None``: the book's wording
    #: leaves it open and :attr:`Rulings.first_turn_evolution` decides.
    no_evolve_first_turn: str | None
    mulligan_bonus_per_mulligan: int
    mulligan_bonus_optional: bool
    mutual_mulligans_cancel: bool
    #: Prizes for a Knock Out, by :attr:`assistant.cards.Card.rule_box`; others give 1.
    prizes_by_rule_box: Mapping[str, int]
    basic_energy_types: tuple[str, ...]
    retreats_per_turn: int | None
    supporters_per_turn: int
    stadiums_per_turn: int | None
    same_name_stadium_banned: bool
    supporter_stays_until_end_of_turn: bool
    tm_discarded_end_of_turn: bool
    #: Which kinds of power a Special Condition switches off: Poké-Powers, Poké-Bodies
    #: and Pokémon Powers (2002), Poké-Powers only (later books; Abilities are not).
    conditions_block: frozenset[str]
    poke_power_once_per_turn: bool
    gx_once_per_game: bool
    vstar_once_per_game: bool
    tera_bench_protection: bool
    mega_ex_ends_turn: bool
    #: Who promotes and takes Prizes first after simultaneous Knock Outs, or None when
    #: the book is silent (then :attr:`Rulings.simultaneous_knockouts_first` decides).
    simultaneous_knockouts_first: str | None
    bench_size: int = 5
    prize_cards: int = 6
    hand_size: int = 7
    deck_size: int = 60
    #: Whether a Fossil Trainer card counts as a Basic Pokémon during setup: ``True``
    #: in 2009 and 2011 (004:131, 524; 000:612), ``None`` where the book is silent (then
    #: :attr:`Rulings.fossil_basic_in_setup` decides, and says so).
    fossil_basic_in_setup: bool | None = None
    #: ``file:lines`` for each field above and for each refusal reason code.
    sources: Mapping[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        """The era's name, as ``--era`` takes it (``mega-evolution-2025``)."""
        return self.era

    def cite(self, key: str) -> str:
        """The rulebook lines behind a value or a reason code, ``''`` if none."""
        return self.sources.get(key, "")

    def prizes_for(self, rule_box: str | None) -> int:
        return self.prizes_by_rule_box.get(rule_box or "", 1)

    def sudden_death(self) -> Edition:
        """The same rules for a Sudden Death game: a whole new game (new coin flip, new
        setup) in which each player sets out a single Prize card
        (001_75e061fbe3c8e794.txt:552-554, 984)."""
        return replace(self, prize_cards=1)


def _sources(book: str, values: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType({key: f"{book}:{lines}" for key, lines in values.items()})


# Reason codes that every edition cites, with their lines in each book. The keys are the
# SPEC §4 codes so that a refusal finds its rule by its code.
_MOD_REASONS = {
    "not-your-turn": "244-259", "game-over": "215-219", "wrong-phase": "221-240",
    "after-attack": "334-336", "promote-required": "383-385", "not-in-hand": "252-257",
    "not-basic": "273", "bench-full": "201, 273", "evolve-first-turn": "291",
    "evolve-new-in-play": "279, 291", "evolve-mismatch": "279-281, 573",
    "energy-already-attached": "254, 293-295", "not-energy": "293-295",
    "supporter-already-played": "255, 301", "supporter-first-turn": "303",
    "trainer-first-turn": "299-310", "stadium-already-played": "255, 310",
    "stadium-same-name": "309", "tool-already-attached": "956",
    "retreat-already": "256, 314", "retreat-blocked": "318, 455",
    "retreat-cost-unpaid": "318, 978", "retreat-no-bench": "318",
    "attack-first-turn": "341", "attack-blocked": "413-417, 437-441",
    "attack-cost-unpaid": "343-345", "attack-unknown": "343-345",
    "gx-already-used": "746, 912", "vstar-already-used": "656, 1002",
    "ability-blocked": "934-936", "ability-unknown": "324-330",
    "invalid-target": "177-205", "condition-not-active": "411",
    "no-effect-pending": "513-523", "deck-size": "579", "copies-exceeded": "571, 581",
    "no-basic": "581, 588", "ace-spec-exceeded": "612-614, 868",
    "radiant-exceeded": "648-650, 970", "prism-star-duplicate": "732-734, 966",
    "unknown-card": "153-171", "not-evolved": "898, 908", "v-union-pieces": "670, 644",
    "v-union-once": "670",
}

MEGA_EVOLUTION = Edition(
    era=MEGA_EVOLUTION_2025,
    rulebook=MOD,
    damage_order=(STEP_BASE, "mods:attacker:*", STEP_STOP, STEP_WEAKNESS, STEP_RESISTANCE,
                  "mods:defender:*"),
    weakness="printed",
    resistance="printed",
    weakness_on_bench=False,
    confusion_self_hit=ConfusionPlacesCounters(counters=3),
    confusion_check_first=True,
    confused_retreat_flip=False,
    burn=BurnCountersThenFlip(counters=2),
    poison_counters=1,
    checkup_order=("poisoned", "burned", "asleep", "paralyzed"),
    checkup_knockouts_wait=True,
    checkup_other_effects=("before", "after"),
    first_player_attack_turn1=False,
    first_player_supporter_turn1=False,
    first_player_trainer_turn1=True,
    no_evolve_first_turn="own",
    mulligan_bonus_per_mulligan=1,
    mulligan_bonus_optional=True,
    mutual_mulligans_cancel=True,
    prizes_by_rule_box=MappingProxyType({
        "ex": 2, "Tera ex": 2, "EX": 2, "Mega EX": 2, "GX": 2, "V": 2, "VSTAR": 2,
        "Mega ex": 3, "TAG TEAM": 3, "VMAX": 3, "V-UNION": 3,
    }),
    basic_energy_types=("Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting",
                        "Darkness", "Metal", "Fairy"),
    retreats_per_turn=1,
    supporters_per_turn=1,
    stadiums_per_turn=1,
    same_name_stadium_banned=True,
    supporter_stays_until_end_of_turn=False,
    tm_discarded_end_of_turn=False,
    conditions_block=frozenset({POKE_POWER}),
    poke_power_once_per_turn=False,
    gx_once_per_game=True,
    vstar_once_per_game=True,
    tera_bench_protection=True,
    mega_ex_ends_turn=True,
    simultaneous_knockouts_first=None,
    sources=_sources(MOD, {
        "damage_order": "525-532", "weakness": "529", "resistance": "530",
        "weakness_on_bench": "375, 884", "confusion_self_hit": "429-433",
        "confusion_self_amount": "433", "confusion_check_first": "517-522",
        "confused_retreat_flip": "455", "burn": "421-425", "burn_counters": "423",
        "poison_counters": "445-449", "checkup_order": "393-403",
        "checkup_knockouts_wait": "407", "checkup_other_effects": "405",
        "first_player_attack_turn1": "341", "first_player_supporter_turn1": "303",
        "first_player_trainer_turn1": "299-310", "no_evolve_first_turn": "291",
        "mulligan_bonus_per_mulligan": "237, 494", "mulligan_bonus_optional": "237, 494",
        "mutual_mulligans_cancel": "486-488",
        "prizes_by_rule_box": "596, 626, 638, 658, 680, 696, 704, 728, 760, 812, 834",
        "basic_energy_types": "880", "retreats_per_turn": "256, 314",
        "supporters_per_turn": "255, 301", "stadiums_per_turn": "255, 310",
        "same_name_stadium_banned": "309", "supporter_stays_until_end_of_turn": "301",
        "tm_discarded_end_of_turn": "992", "conditions_block": "934-936",
        "poke_power_once_per_turn": "324-330", "gx_once_per_game": "746, 912",
        "vstar_once_per_game": "656, 1002", "tera_bench_protection": "634-638, 994",
        "mega_ex_ends_turn": "830-832, 930", "bench_size": "201, 273",
        "prize_cards": "239", "hand_size": "226", "deck_size": "579",
        "knockout": "381-385", "prizes": "383", "win-prizes": "215-219, 385",
        "win-no-pokemon": "217, 385", "win-deck-out": "219, 265-267, 544",
        "sudden-death": "546-554", "weakness-dual-type": "770-774",
        "counters-skip-calculation": "527", "condition-rotation": "455",
        "condition-markers": "425, 449", "bench-clears-conditions": "411, 455",
        "evolve-clears-conditions": "281, 411", "paralyzed-recovery": "437-441",
        "asleep-flip": "413-417", "draw": "265-267", "mulligan": "235-237, 484-495",
        "setup": "221-240", "first-player": "224", "retreat": "314-322",
        "evolve": "277-291", "attach": "293-295", "attack": "513-532",
        "stadium-replace": "305-308", "tool": "956", "lost-zone": "642-644, 926",
        "prism-star-lost-zone": "734, 966", "fossil_basic_in_setup": "740, 910",
        "devolve": "898", "markers": "894", "attack-effects": "281, 320, 519",
        "hyper-gear": "798-800", **_MOD_REASONS,
    }),
)

_BW_REASONS = {
    "not-your-turn": "263-275", "game-over": "221-225", "wrong-phase": "227-261",
    "after-attack": "357", "promote-required": "387-389", "not-in-hand": "269-275",
    "not-basic": "291", "bench-full": "203, 291", "evolve-first-turn": "313",
    "evolve-new-in-play": "301, 313", "evolve-mismatch": "301-303, 551",
    "energy-already-attached": "271, 315-317", "not-energy": "315-317",
    "supporter-already-played": "272, 325", "stadium-already-played": "272, 325",
    "tool-already-attached": "650", "retreat-already": "274, 327",
    "retreat-blocked": "331, 461", "retreat-cost-unpaid": "331, 656",
    "retreat-no-bench": "331", "attack-blocked": "419-423, 445-449",
    "attack-cost-unpaid": "361-363", "attack-unknown": "361-363",
    "ability-blocked": "634-636", "ability-unknown": "337-343",
    "invalid-target": "181-211", "condition-not-active": "415",
    "deck-size": "557", "copies-exceeded": "549, 559", "no-basic": "559, 566",
    "unknown-card": "151-171",
}

BLACK_WHITE = replace(
    MEGA_EVOLUTION,
    era=BLACK_WHITE_2011,
    rulebook=BW,
    confusion_check_first=False,
    burn=BurnFlipForCounters(counters=2),
    checkup_other_effects=("after",),
    first_player_attack_turn1=True,
    first_player_supporter_turn1=True,
    mulligan_bonus_optional=False,
    # 000 gives Pokémon-ex 2 Prizes (000:640, 652); the other multi-Prize kinds are
    # later cards the 2011 book does not know.
    prizes_by_rule_box=MappingProxyType({"ex": 2, "EX": 2}),
    basic_energy_types=("Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting",
                        "Darkness", "Metal"),
    same_name_stadium_banned=False,
    gx_once_per_game=False,
    vstar_once_per_game=False,
    tera_bench_protection=False,
    mega_ex_ends_turn=False,
    fossil_basic_in_setup=True,
    sources=_sources(BW, {
        "damage_order": "512-519", "weakness": "516", "resistance": "517",
        "weakness_on_bench": "379, 592", "confusion_self_hit": "437-441",
        "confusion_self_amount": "441", "confusion_check_first": "505-509",
        "confused_retreat_flip": "461", "burn": "427-429", "burn_counters": "429",
        "poison_counters": "453-455", "checkup_order": "405-411",
        "checkup_knockouts_wait": "411", "checkup_other_effects": "411",
        "first_player_attack_turn1": "263-275", "first_player_supporter_turn1": "325",
        "first_player_trainer_turn1": "325", "no_evolve_first_turn": "313",
        "mulligan_bonus_per_mulligan": "261", "mulligan_bonus_optional": "261",
        "mutual_mulligans_cancel": "257-261", "prizes_by_rule_box": "640, 652",
        "basic_energy_types": "588", "retreats_per_turn": "274, 327",
        "supporters_per_turn": "272, 325", "stadiums_per_turn": "272, 325",
        "same_name_stadium_banned": "325, 662", "supporter_stays_until_end_of_turn": "325, 666",
        "tm_discarded_end_of_turn": "668", "conditions_block": "634-636",
        "poke_power_once_per_turn": "337-343", "bench_size": "203, 291",
        "prize_cards": "187-189", "hand_size": "231", "deck_size": "557",
        "knockout": "385-389", "prizes": "387", "win-prizes": "221-225, 389",
        "win-no-pokemon": "223, 389", "win-deck-out": "225, 281-283, 527",
        "sudden-death": "529-537", "counters-skip-calculation": "514",
        "condition-rotation": "461", "condition-markers": "429, 455",
        "bench-clears-conditions": "415, 461", "evolve-clears-conditions": "303, 415",
        "paralyzed-recovery": "445-449", "asleep-flip": "419-423", "draw": "281-283",
        "mulligan": "257-261", "setup": "227-261", "retreat": "327-335",
        "evolve": "299-313", "attach": "315-317", "attack": "501-519",
        "stadium-replace": "325, 662", "tool": "650", "lost-zone": "628",
        "fossil_basic_in_setup": "612", "devolve": "604", "markers": "596, 600",
        "not-evolved": "604", **_BW_REASONS,
    }),
)

_DP_REASONS = {
    "not-your-turn": "151-173", "game-over": "315-321", "wrong-phase": "114-139",
    "after-attack": "271", "promote-required": "183, 305", "not-in-hand": "155-173",
    "not-basic": "181-183", "bench-full": "181-183", "evolve-first-turn": "209",
    "evolve-new-in-play": "209, 465", "evolve-mismatch": "185-191, 435-437",
    "energy-already-attached": "163, 213-223", "not-energy": "213-223",
    "supporter-already-played": "89, 164, 229", "supporter-first-turn": "227",
    "trainer-first-turn": "227", "stadium-already-played": "164, 229",
    "tool-already-attached": "538", "retreat-already": "165, 235",
    "retreat-blocked": "245", "retreat-cost-unpaid": "239-243, 439-441",
    "retreat-no-bench": "239-243", "attack-blocked": "327-329, 339-341",
    "attack-cost-unpaid": "273-281", "attack-unknown": "273-281",
    "ability-blocked": "531-532", "ability-unknown": "255-267",
    "invalid-target": "151, 183", "condition-not-active": "325",
    "deck-size": "371, 383", "copies-exceeded": "371", "no-basic": "379",
    "unknown-card": "60-101",
}

PLATINUM = replace(
    BLACK_WHITE,
    era=PLATINUM_2009,
    rulebook=DP,
    first_player_supporter_turn1=False,
    first_player_trainer_turn1=False,
    checkup_knockouts_wait=False,
    checkup_other_effects=("before", "after"),
    mulligan_bonus_optional=True,
    supporter_stays_until_end_of_turn=True,
    poke_power_once_per_turn=True,
    # "neither player can evolve on the first turn" (004:209): RULES.md §23.3
    no_evolve_first_turn=None,
    simultaneous_knockouts_first="next-player",
    sources=_sources(DP, {
        "damage_order": "408-417", "weakness": "412", "resistance": "413",
        "weakness_on_bench": "285, 513", "confusion_self_hit": "335-337",
        "confusion_self_amount": "337", "confusion_check_first": "399-403",
        "confused_retreat_flip": "337", "burn": "331-333", "burn_counters": "333",
        "poison_counters": "343-345", "checkup_order": "419-425",
        "checkup_knockouts_wait": "293", "checkup_other_effects": "427",
        "first_player_attack_turn1": "157-173", "first_player_supporter_turn1": "227",
        "first_player_trainer_turn1": "227", "no_evolve_first_turn": "209",
        "mulligan_bonus_per_mulligan": "131", "mulligan_bonus_optional": "131",
        "mutual_mulligans_cancel": "447-449", "prizes_by_rule_box": "534, 540",
        "basic_energy_types": "511", "retreats_per_turn": "165, 235",
        "supporters_per_turn": "89, 164, 229", "stadiums_per_turn": "164, 229",
        "same_name_stadium_banned": "229", "supporter_stays_until_end_of_turn": "546",
        "tm_discarded_end_of_turn": "547", "conditions_block": "531-532",
        "poke_power_once_per_turn": "532", "simultaneous_knockouts_first": "305, 429",
        "bench_size": "181-183", "hand_size": "114-139", "deck_size": "371, 383",
        "prize_cards": "131", "knockout": "291-305", "prizes": "305",
        "win-prizes": "315-321", "win-no-pokemon": "315-321",
        "win-deck-out": "175-177, 445", "sudden-death": "451-457",
        "counters-skip-calculation": "410, 412-413", "condition-rotation": "347-349",
        "condition-markers": "333, 345", "bench-clears-conditions": "247, 325",
        "evolve-clears-conditions": "211, 325", "paralyzed-recovery": "339-341",
        "asleep-flip": "327-329", "draw": "175-177", "mulligan": "129-131",
        "setup": "114-139", "retreat": "235-249", "evolve": "185-211",
        "attach": "213-223", "attack": "395-417", "stadium-replace": "97, 229",
        "tool": "538", "lost-zone": "528", "fossil_basic_in_setup": "131, 524",
        "devolve": "519", "markers": "515, 517", "not-evolved": "519", **_DP_REASONS,
    }),
)

_EXP_REASONS = {
    "not-your-turn": "352-375", "game-over": "220-231", "wrong-phase": "232-257",
    "after-attack": "424-428", "promote-required": "329-331, 482-484",
    "not-in-hand": "352-375", "not-basic": "325-328", "bench-full": "325-328",
    "evolve-first-turn": "347-348", "evolve-new-in-play": "346-347",
    "evolve-mismatch": "332-336, 732-739", "energy-already-attached": "364, 382-388",
    "not-energy": "382-388", "supporter-already-played": "110",
    "stadium-already-played": "999-1001", "tool-already-attached": "988-989",
    "retreat-blocked": "164-170, 402-406", "retreat-cost-unpaid": "396-401, 740-760",
    "retreat-no-bench": "396-401", "attack-blocked": "149-154, 178-186",
    "attack-cost-unpaid": "430-464", "attack-unknown": "430-464",
    "ability-blocked": "116-123", "ability-unknown": "414-422",
    "invalid-target": "216-257", "condition-not-active": "143-146",
    "deck-size": "649-651", "copies-exceeded": "651-668", "unknown-card": "270-275",
}

EXPEDITION = replace(
    PLATINUM,
    era=EXPEDITION_2002,
    rulebook=EXP,
    damage_order=(STEP_BASE, "mods:attacker:attack|ability", STEP_STOP, STEP_WEAKNESS,
                  STEP_RESISTANCE, "mods:attacker:trainer|energy", "mods:*:stadium",
                  "mods:defender:trainer|energy", "mods:defender:attack|ability"),
    weakness="×2",
    resistance="-30",
    confusion_self_hit=ConfusionDealsDamage(damage=20),
    confused_retreat_flip=True,
    first_player_supporter_turn1=True,
    first_player_trainer_turn1=True,
    mulligan_bonus_per_mulligan=2,
    prizes_by_rule_box=MappingProxyType({}),
    basic_energy_types=("Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting"),
    retreats_per_turn=None,
    stadiums_per_turn=None,
    tm_discarded_end_of_turn=True,
    conditions_block=OLD_POWERS,
    # 003 says nothing of Fossils in setup: RULES.md §23
    fossil_basic_in_setup=None,
    sources=_sources(EXP, {
        "damage_order": "675-705", "weakness": "689-690", "resistance": "691-692",
        "weakness_on_bench": "505-513", "confusion_self_hit": "171-177",
        "confusion_self_amount": "171-174", "confusion_check_first": "611-623",
        "confused_retreat_flip": "164-170", "burn": "155-161", "burn_counters": "157",
        "poison_counters": "187-193", "checkup_order": "706-718",
        "checkup_knockouts_wait": "475-476", "checkup_other_effects": "712-721",
        "first_player_attack_turn1": "352-375", "first_player_supporter_turn1": "110",
        "first_player_trainer_turn1": "352-375", "no_evolve_first_turn": "347-348",
        "mulligan_bonus_per_mulligan": "261-268", "mulligan_bonus_optional": "261-268",
        "mutual_mulligans_cancel": "772-783", "prizes_by_rule_box": "477-481",
        "basic_energy_types": "652-663", "retreats_per_turn": "366, 392",
        "supporters_per_turn": "110", "stadiums_per_turn": "999-1001",
        "same_name_stadium_banned": "999-1001",
        "supporter_stays_until_end_of_turn": "110-112",
        "tm_discarded_end_of_turn": "114-115", "conditions_block": "120-123",
        "poke_power_once_per_turn": "118", "simultaneous_knockouts_first": "484-488, 722-724",
        "bench_size": "325-328", "hand_size": "232-257", "deck_size": "649-651",
        "prize_cards": "245-251", "knockout": "474-484", "prizes": "480-481",
        "win-prizes": "220-231", "win-no-pokemon": "220-231",
        "win-deck-out": "320-323, 770-771", "sudden-death": "784-796",
        "counters-skip-calculation": "107, 158", "condition-rotation": "195-200",
        "condition-markers": "158-160, 190-192", "bench-clears-conditions": "143-148",
        "evolve-clears-conditions": "145, 342-345", "paralyzed-recovery": "178-186",
        "asleep-flip": "149-154", "draw": "320-323", "mulligan": "258-268",
        "setup": "232-257", "first-player": "233", "retreat": "392-413",
        "evolve": "332-349", "attach": "382-388", "attack": "604-626",
        "stadium-replace": "999-1001", "tool": "988-989", "markers": "887-889, 895-896",
        **_EXP_REASONS,
    }),
)

EDITIONS: Mapping[str, Edition] = MappingProxyType({
    e.era: e for e in (EXPEDITION, PLATINUM, BLACK_WHITE, MEGA_EVOLUTION)
})


def edition(era: Edition | str | None) -> Edition:
    """The edition profile of an era (``None`` or ``standard`` mean the newest). The
    one place an era's name is read: ``--era`` becomes an :class:`Edition` here, and
    code handed an :class:`Edition` already gets it back as it is. Raises
    :class:`~assistant.eras.UnknownEra` naming the choices."""
    if isinstance(era, Edition):
        return era
    return EDITIONS[canonical_era(era)]
