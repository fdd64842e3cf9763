"""Cards as the rules see them.

A :class:`Card` carries the printed facts of one card under the field names of the
pokemontcg.io data (``supertype``, ``subtypes``, ``hp``, ``evolvesFrom``…), so a card
written inline in a position file, a card from the imported database and a card of the
embedded set are the same thing. Effect text is never stored: the rules engine works
from facts (HP, costs, Weakness…) and a person resolves what the text of a card says.

Three facts are *derived* from the printed ones, because the rulebooks define them:

- the **stage** (Basic, Stage 1, Stage 2, or a special stage such as VSTAR or LV.X);
- the **rule box** kind and the Prize cards a Knock Out gives up (001 appendices;
  the counts are the edition's);
- the **name identity** used by the 4-copy rule and by evolution (001 "What does and
  doesn't count for a Pokémon's name?", 001_75e061fbe3c8e794.txt:556-571).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

#: The one way a card named at the table is looked up: ``(name, set, number)`` → the
#: Card, or None when nobody knows it. ``set`` is a set's printed code (``OBF``) or its
#: pokemontcg.io id (``sv3``); ``set`` and ``number`` are ``''`` when unknown. Deck
#: lists, position files and the camera all resolve cards through one of these.
CardResolver = Callable[[str, str, str], "Card | None"]

POKEMON = "Pokémon"
TRAINER = "Trainer"
ENERGY = "Energy"

ENERGY_TYPES = (
    "Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting",
    "Darkness", "Metal", "Fairy", "Dragon", "Colorless",
)

#: Stages that are neither Basic nor Stage 1/2, keyed by the subtype that marks them.
SPECIAL_STAGES = {
    "Level-Up": "LV.X",
    "VSTAR": "VSTAR",
    "VMAX": "VMAX",
    "BREAK": "BREAK",
    "V-UNION": "V-UNION",
    "Restored": "Restored",
    "LEGEND": "LEGEND",
}
PRINTED_STAGES = ("Basic", "Stage 1", "Stage 2")
#: Rule Box kinds and the subtypes that mark them, first match wins (001 appendices).
RULE_BOXES = (
    ("Mega ex", frozenset({"MEGA", "ex"})), ("Tera ex", frozenset({"Tera", "ex"})),
    ("ex", frozenset({"ex"})), ("Mega EX", frozenset({"MEGA", "EX"})), ("EX", frozenset({"EX"})),
    ("TAG TEAM", frozenset({"TAG TEAM"})), ("GX", frozenset({"GX"})), ("VMAX", frozenset({"VMAX"})),
    ("VSTAR", frozenset({"VSTAR"})), ("V-UNION", frozenset({"V-UNION"})), ("V", frozenset({"V"})),
    ("Radiant", frozenset({"Radiant"})), ("Prism Star", frozenset({"Prism Star"})),
    ("BREAK", frozenset({"BREAK"})), ("LV.X", frozenset({"Level-Up"})), ("LEGEND", frozenset({"LEGEND"})),
)


@dataclass(frozen=True, slots=True)
class Attack:
    """An attack's printed facts: its name, Energy cost and damage string (``30``,
    ``10×``, ``50+``, ``30-`` or empty)."""

    name: str
    cost: tuple[str, ...] = ()
    damage: str = ""

    @property
    def base_damage(self) -> int:
        """The number printed in the damage column, 0 when there is none."""
        digits = re.sub(r"\D", "", self.damage)
        return int(digits) if digits else 0

    @property
    def damage_modifier(self) -> str:
        """``×``, ``+`` or ``-`` when the attack's text changes the printed number."""
        for mark in ("×", "x", "+", "-"):
            if self.damage.endswith(mark):
                return "×" if mark == "x" else mark
        return ""


@dataclass(frozen=True, slots=True)
class Ability:
    """A Pokémon's Ability, Poké-Power, Poké-Body or (2002) Pokémon Power."""

    name: str
    type: str = "Ability"


@dataclass(frozen=True, slots=True)
class TypeValue:
    """A printed Weakness or Resistance: the type and the value as printed
    (``×2``, ``+20``, ``-30``)."""

    type: str
    value: str = ""

    def apply(self, damage: int) -> int:
        """Damage after this Weakness or Resistance, never below 0."""
        value = self.value.replace("x", "×").replace("−", "-").strip()
        if not value:
            return damage
        number = int(re.sub(r"\D", "", value) or 0)
        if value.startswith("×"):
            return damage * number
        if value.startswith("+"):
            return damage + number
        if value.startswith("-"):
            return max(0, damage - number)
        raise ValueError(f"unreadable Weakness/Resistance value {self.value!r}")


@dataclass(frozen=True, slots=True)
class Card:
    """One printed card. ``id`` is the pokemontcg.io printing id (``sv1-100``) or, for a
    card written inline in a position file, its alias."""

    name: str
    supertype: str
    subtypes: tuple[str, ...] = ()
    id: str = ""
    hp: int | None = None
    types: tuple[str, ...] = ()
    evolves_from: str | None = None
    attacks: tuple[Attack, ...] = ()
    abilities: tuple[Ability, ...] = ()
    weaknesses: tuple[TypeValue, ...] = ()
    resistances: tuple[TypeValue, ...] = ()
    retreat_cost: tuple[str, ...] = ()
    set_id: str = ""
    set_code: str = ""
    number: str = ""
    regulation_mark: str = ""
    level: str = ""
    provides: tuple[str, ...] = ()
    rules: tuple[str, ...] = field(default=(), compare=False)
    #: Printed "evolves into" names; only a 2002 Baby needs them (its Basic names no
    #: "Evolves from", 003_b55862cc83f9dac9.txt:863-866).
    evolves_to: tuple[str, ...] = field(default=(), compare=False)

    # -- what kind of card -------------------------------------------------------------

    @property
    def is_pokemon(self) -> bool:
        return self.supertype == POKEMON

    @property
    def is_trainer(self) -> bool:
        return self.supertype == TRAINER

    @property
    def is_energy(self) -> bool:
        return self.supertype == ENERGY

    @property
    def is_basic_energy(self) -> bool:
        """A basic Energy card (which era counts which types as basic is the era's
        business: see the edition profiles)."""
        return self.is_energy and (
            "Basic" in self.subtypes or (not self.subtypes and basic_energy_type(self.name) is not None)
        )

    @property
    def trainer_kind(self) -> str | None:
        """``Item``, ``Supporter``, ``Stadium``, ``Pokémon Tool`` or ``Technical Machine``;
        old generic Trainer cards have no subtype and count as Items."""
        if not self.is_trainer:
            return None
        for kind in ("Supporter", "Stadium", "Pokémon Tool", "Technical Machine", "Item"):
            if kind in self.subtypes:
                return kind
        if "Pokémon Tool F" in self.subtypes:
            return "Pokémon Tool"
        return "Item"

    # -- derived facts -----------------------------------------------------------------

    @property
    def stage(self) -> str | None:
        """The card's stage: ``Basic``, ``Stage 1``, ``Stage 2`` or a special stage
        (``LV.X``, ``VSTAR``, ``VMAX``, ``BREAK``, ``V-UNION``, ``Restored``, ``LEGEND``,
        ``MEGA`` for an XY Mega Evolution Pokémon-EX). A 2025 Mega Evolution Pokémon ex
        keeps its printed stage (001_75e061fbe3c8e794.txt:594-602). ``Baby`` Pokémon
        (2002) are Basic."""
        if not self.is_pokemon:
            return None
        for subtype, stage in SPECIAL_STAGES.items():
            if subtype in self.subtypes:
                return stage
        for stage in PRINTED_STAGES:
            if stage in self.subtypes:
                return stage
        if "MEGA" in self.subtypes:
            return "MEGA"
        if "Baby" in self.subtypes:
            return "Basic"
        return "Basic" if not self.evolves_from else "Stage 1"

    @property
    def is_basic_pokemon(self) -> bool:
        """A Pokémon whose printed stage is Basic (004_0163ba3d06595167.txt:379)."""
        return self.stage == "Basic"

    @property
    def is_evolution(self) -> bool:
        """Played on top of another Pokémon: Stage 1/2 and the special stages except
        V-UNION, Restored and LEGEND, which are put into play other ways."""
        return self.stage not in (None, "Basic", "V-UNION", "Restored", "LEGEND")

    @property
    def rule_box(self) -> str | None:
        """The rule box this card carries, or None (001 appendices):
        ``Mega ex``, ``Tera ex``, ``ex``, ``Mega EX``, ``EX``, ``TAG TEAM``, ``GX``,
        ``VMAX``, ``VSTAR``, ``V-UNION``, ``V``, ``Radiant``, ``Prism Star``, ``BREAK``,
        ``LV.X``, ``LEGEND``."""
        s = set(self.subtypes)
        if not self.is_pokemon:
            return "Prism Star" if "Prism Star" in s else None
        for kind, needed in RULE_BOXES:
            if needed <= s:
                return kind
        return None

    @property
    def prizes(self) -> int:
        """Prize cards the opponent takes when this Pokémon is Knocked Out under the
        newest rules (RULES.md §16.1, PRZ-01: a Radiant gives 1). The counts are the
        edition's (:meth:`assistant.editions.Edition.prizes_for`); a game asks its own."""
        from assistant.editions import edition

        return edition(None).prizes_for(self.rule_box)

    @property
    def identity(self) -> str:
        """The name that counts for the 4-copy rule and for evolution."""
        return name_identity(self.name)

    @property
    def is_ace_spec(self) -> bool:
        return "ACE SPEC" in self.subtypes

    @property
    def is_radiant(self) -> bool:
        return "Radiant" in self.subtypes or self.name.startswith("Radiant ")

    @property
    def is_prism_star(self) -> bool:
        return "Prism Star" in self.subtypes or "◇" in self.name

    @property
    def energy_provided(self) -> tuple[str, ...]:
        """The Energy this card gives when attached: ``provides`` when printed, else one
        of its basic type (``Fire Energy`` gives Fire), else one Colorless."""
        if self.provides:
            return self.provides
        kind = basic_energy_type(self.name)
        return (kind,) if kind else ("Colorless",)

    # -- conversion ----------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: dict[str, Any], *, set_code: str = "") -> Card:
        """Build a card from a pokemontcg.io record (or an inline position-file card).
        Raises ``ValueError`` with the field at fault for a record that cannot be read."""
        try:
            name = str(data["name"]).strip()
            supertype = normalise_supertype(str(data["supertype"]))
        except KeyError as missing:
            raise ValueError(f"missing field {missing.args[0]!r}") from None
        if not name:
            raise ValueError("empty name")
        hp = data.get("hp")
        try:
            hp_value = int(str(hp).strip()) if hp not in (None, "", "None") else None
        except ValueError:
            raise ValueError(f"hp {hp!r} is not a number") from None
        attacks = tuple(
            Attack(str(a.get("name", "")), tuple(a.get("cost") or ()), str(a.get("damage") or ""))
            for a in data.get("attacks") or ()
        )
        abilities = tuple(
            Ability(str(a.get("name", "")), str(a.get("type") or "Ability"))
            for a in data.get("abilities") or ()
        )
        number = str(data.get("number") or "")
        card_id = str(data.get("id") or "")
        set_id = str(data.get("set") or (card_id.rsplit("-", 1)[0] if "-" in card_id else ""))
        return cls(
            name=name,
            supertype=supertype,
            subtypes=tuple(data.get("subtypes") or ()),
            id=card_id,
            hp=hp_value,
            types=tuple(data.get("types") or ()),
            evolves_from=(str(data["evolvesFrom"]).strip() or None) if data.get("evolvesFrom") else None,
            attacks=attacks,
            abilities=abilities,
            weaknesses=tuple(_type_values(data.get("weaknesses"))),
            resistances=tuple(_type_values(data.get("resistances"))),
            retreat_cost=tuple(data.get("retreatCost") or ()),
            set_id=set_id,
            set_code=str(data.get("setCode") or set_code),
            number=number,
            regulation_mark=str(data.get("regulationMark") or ""),
            level=str(data.get("level") or ""),
            provides=tuple(data.get("provides") or ()),
            rules=tuple(data.get("rules") or ()),
            evolves_to=tuple(str(n) for n in data.get("evolvesTo") or ()),
        )

    def to_json(self) -> dict[str, Any]:
        """The card's facts under pokemontcg.io field names (no effect text)."""
        out: dict[str, Any] = {"id": self.id, "name": self.name, "supertype": self.supertype}
        if self.subtypes:
            out["subtypes"] = list(self.subtypes)
        if self.hp is not None:
            out["hp"] = self.hp
        if self.types:
            out["types"] = list(self.types)
        if self.evolves_from:
            out["evolvesFrom"] = self.evolves_from
        if self.abilities:
            out["abilities"] = [{"name": a.name, "type": a.type} for a in self.abilities]
        if self.attacks:
            out["attacks"] = [
                {"name": a.name, "cost": list(a.cost), "damage": a.damage} for a in self.attacks
            ]
        if self.weaknesses:
            out["weaknesses"] = [{"type": w.type, "value": w.value} for w in self.weaknesses]
        if self.resistances:
            out["resistances"] = [{"type": r.type, "value": r.value} for r in self.resistances]
        if self.retreat_cost:
            out["retreatCost"] = list(self.retreat_cost)
        for key, value in (
            ("set", self.set_id), ("setCode", self.set_code), ("number", self.number),
            ("regulationMark", self.regulation_mark), ("level", self.level),
        ):
            if value:
                out[key] = value
        if self.provides:
            out["provides"] = list(self.provides)
        if self.evolves_to:
            out["evolvesTo"] = list(self.evolves_to)
        return out


def _type_values(items: Any) -> list[TypeValue]:
    return [TypeValue(str(i.get("type", "")), str(i.get("value") or "")) for i in items or ()]


def normalise_supertype(supertype: str) -> str:
    """``Pokemon``/``pokémon`` → ``Pokémon``; ``Trainer`` and ``Energy`` as they are."""
    key = fold(supertype)
    for canonical in (POKEMON, TRAINER, ENERGY):
        if fold(canonical) == key:
            return canonical
    raise ValueError(f"unknown supertype {supertype!r}")


# -- names ------------------------------------------------------------------------------

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'"})
_DASHES = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-"})


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Fold a name for comparison: typographic apostrophes and dashes made plain,
    accents removed (Pokémon → pokemon), case folded, spacing collapsed. Symbols that
    are part of a name (◇, ★, δ, ♂, ♀) survive."""
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES).translate(_DASHES)
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")
    return " ".join(stripped.casefold().split())


_LEVEL = re.compile(r"\s+(?:LV\.?\s*X|LV\.?\s*\d+|Lv\.?\s*\d+)$", re.IGNORECASE)


@lru_cache(maxsize=8192)
def name_identity(name: str) -> str:
    """The name that counts for the 4-copy rule and for evolution (RULES.md §2).

    A level is not part of the name (Gengar LV.X and Gengar LV.43 are Gengar: NAME-01),
    nor the δ mark (NAME-03), nor the words Team Plasma (NAME-07). Owners (Brock's
    Geodude), regional forms (Paldean Wooper), ex/EX/GX/V/VMAX/VSTAR/BREAK, the Mega
    "M", Radiant, SP symbols (Luxray GL) and other end symbols are (NAME-02, -04..-08).
    The result is folded (see :func:`fold`), so spelling variants compare equal.
    """
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    text = _LEVEL.sub("", text)
    text = text.replace("δ", " ").replace("Delta Species", " ")
    text = re.sub(r"^Team Plasma\s+", "", text, flags=re.IGNORECASE)
    return fold(text)


_BASIC_ENERGY = re.compile(
    r"^(?:basic\s+)?(?:\{(?P<symbol>[A-Z])\}|(?P<word>[a-z]+))\s+energy$", re.IGNORECASE
)
ENERGY_SYMBOLS = {
    "G": "Grass", "R": "Fire", "W": "Water", "L": "Lightning", "P": "Psychic",
    "F": "Fighting", "D": "Darkness", "M": "Metal", "Y": "Fairy", "N": "Dragon", "C": "Colorless",
}


def basic_energy_type(name: str) -> str | None:
    """The type of a basic Energy card named ``Fire Energy``, ``Basic Fire Energy`` or
    ``Basic {R} Energy``; None for any other name."""
    match = _BASIC_ENERGY.match(" ".join(name.split()))
    if not match:
        return None
    if match["symbol"]:
        return ENERGY_SYMBOLS.get(match["symbol"].upper())
    word = match["word"].capitalize()
    return word if word in ENERGY_TYPES and word not in ("Colorless", "Dragon") else None


def basic_energy(kind: str) -> Card:
    """The basic Energy card of one type, as the embedded set and position files
    write it: ``Fire Energy``."""
    return Card(name=f"{kind} Energy", supertype=ENERGY, subtypes=("Basic",), id=f"energy-{kind.lower()}")
