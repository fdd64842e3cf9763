"""The card model: stages, rule boxes, Prize counts and name identity (RULES.md §2, §16.1)."""

import pytest

from assistant.cards import Card, TypeValue, basic_energy_type, fold, name_identity


def pokemon(name: str, *subtypes: str, **facts) -> Card:
    return Card(name=name, supertype="Pokémon", subtypes=subtypes, **facts)


# -- name identity: 001 "What does and doesn't count for a Pokémon's name?" ---------------

@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Gengar", "Gengar LV.X"),  # NAME-01: a level is not part of the name
        ("Gengar", "Gengar LV.43"),
        ("Luxray GL", "Luxray GL LV.X"),  # DECK-06: SP LV.X counts with its SP Pokémon
        ("Aerodactyl", "Aerodactyl δ"),  # NAME-03: δ is not part of the name
        ("Liepard", "Team Plasma Liepard"),  # NAME-07: Team Plasma is not
        ("Professor’s Research", "Professor's Research"),  # typographic apostrophe
        ("Flabébé", "Flabebe"),
        ("Charizard  ex", "charizard ex"),
    ],
)
def test_same_name(first: str, second: str) -> None:
    assert name_identity(first) == name_identity(second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Geodude", "Brock's Geodude"),  # NAME-04: owners are part of the name
        ("Wooper", "Paldean Wooper"),  # NAME-05: regional forms
        ("Miraidon", "Miraidon ex"),  # NAME-06: ex
        ("Magnezone ex", "Magnezone-EX"),  # ex and EX differ
        ("Yveltal", "Yveltal-EX"),
        ("Incineroar", "Incineroar-GX"),
        ("Raichu", "Raichu BREAK"),
        ("Venusaur-EX", "M Venusaur-EX"),  # the Mega "M"
        ("Greninja", "Radiant Greninja"),  # Radiant
        ("Tadbulp", "Iono's Tadbulp"),  # a Trainer's Pokémon
        ("Zapdos", "Zapdos G"),  # NAME-08: SP symbols are part of the name
        ("Alakazam", "Alakazam ★"),  # NAME-02: an end symbol
        ("Giratina", "Giratina ◇"),
    ],
)
def test_different_names(first: str, second: str) -> None:
    assert name_identity(first) != name_identity(second)


# -- stages -------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("subtypes", "stage"),
    [
        (("Basic",), "Basic"),
        (("Stage 1",), "Stage 1"),
        (("Stage 2", "MEGA", "ex"), "Stage 2"),  # 2025 Mega ex keep their printed stage
        (("Basic", "MEGA", "ex"), "Basic"),
        (("MEGA", "EX"), "MEGA"),  # XY Mega Evolution Pokémon-EX
        (("VSTAR",), "VSTAR"),
        (("VMAX", "Rapid Strike"), "VMAX"),
        (("BREAK",), "BREAK"),
        (("Level-Up", "SP"), "LV.X"),
        (("V-UNION",), "V-UNION"),
        (("Restored",), "Restored"),
        (("Baby",), "Basic"),
    ],
)
def test_stage(subtypes: tuple[str, ...], stage: str) -> None:
    assert pokemon("X", *subtypes).stage == stage


def test_v_union_and_restored_are_not_basic_nor_evolutions() -> None:
    for subtype in ("V-UNION", "Restored"):
        card = pokemon("X", subtype)
        assert not card.is_basic_pokemon
        assert not card.is_evolution


# -- rule boxes and Prizes (RULES.md §16.1) -----------------------------------------------

@pytest.mark.parametrize(
    ("subtypes", "rule_box", "prizes"),
    [
        (("Basic",), None, 1),
        (("Stage 2", "ex"), "ex", 2),
        (("Stage 1", "Tera", "ex"), "Tera ex", 2),
        (("Stage 2", "MEGA", "ex"), "Mega ex", 3),
        (("Basic", "EX"), "EX", 2),
        (("MEGA", "EX"), "Mega EX", 2),
        (("Basic", "GX"), "GX", 2),
        (("Basic", "TAG TEAM", "GX"), "TAG TEAM", 3),
        (("Basic", "V"), "V", 2),
        (("VSTAR",), "VSTAR", 2),
        (("VMAX",), "VMAX", 3),
        (("V-UNION",), "V-UNION", 3),
        (("Basic", "Radiant"), "Radiant", 1),  # PRZ-01: a rule box, one Prize
        (("Basic", "Prism Star"), "Prism Star", 1),
        (("BREAK",), "BREAK", 1),
        (("Level-Up",), "LV.X", 1),
    ],
)
def test_rule_box_and_prizes(subtypes: tuple[str, ...], rule_box: str | None, prizes: int) -> None:
    card = pokemon("X", *subtypes)
    assert card.rule_box == rule_box
    assert card.prizes == prizes


# -- Weakness and Resistance values as printed ---------------------------------------------

@pytest.mark.parametrize(
    ("value", "damage", "after"),
    [("×2", 60, 120), ("x2", 60, 120), ("+20", 60, 80), ("-30", 60, 30), ("-30", 20, 0), ("−20", 50, 30)],
)
def test_type_value_apply(value: str, damage: int, after: int) -> None:
    assert TypeValue("Fire", value).apply(damage) == after


def test_attack_damage_strings() -> None:
    card = Card.from_json({
        "name": "Test", "supertype": "Pokémon", "subtypes": ["Basic"], "hp": "70",
        "attacks": [{"name": "A", "damage": "10×"}, {"name": "B", "damage": "50+"}, {"name": "C"}],
    })
    assert [a.base_damage for a in card.attacks] == [10, 50, 0]
    assert [a.damage_modifier for a in card.attacks] == ["×", "+", ""]
    assert card.hp == 70


def test_from_json_round_trip_keeps_facts_only() -> None:
    record = {
        "id": "sv1-1", "name": "Pineco", "supertype": "Pokémon", "subtypes": ["Basic"], "hp": "60",
        "types": ["Grass"], "attacks": [{"name": "Guard Press", "cost": ["Colorless"], "damage": "10",
                                         "text": "effect text we never keep"}],
        "weaknesses": [{"type": "Fire", "value": "×2"}], "retreatCost": ["Colorless"],
        "number": "1", "flavorText": "not kept",
    }
    card = Card.from_json(record)
    data = card.to_json()
    assert "flavorText" not in data and "text" not in data["attacks"][0]
    assert Card.from_json(data) == card


@pytest.mark.parametrize("bad", [{"supertype": "Pokémon"}, {"name": "X", "supertype": "Spell"},
                                 {"name": "X", "supertype": "Pokémon", "hp": "lots"}])
def test_from_json_rejects_bad_records_with_the_field(bad: dict) -> None:
    with pytest.raises(ValueError):
        Card.from_json(bad)


@pytest.mark.parametrize(
    ("name", "kind"),
    [("Fire Energy", "Fire"), ("Basic Fire Energy", "Fire"), ("Basic {D} Energy", "Darkness"),
     ("basic  psychic energy", "Psychic"), ("Double Colorless Energy", None), ("Jet Energy", None)],
)
def test_basic_energy_names(name: str, kind: str | None) -> None:
    assert basic_energy_type(name) == kind


def test_fold_keeps_name_symbols() -> None:
    assert fold("Nidoran ♂") != fold("Nidoran ♀")
    assert fold("Pokémon Catcher") == fold("POKEMON  catcher")
