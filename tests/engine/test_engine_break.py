"""BREAK Evolution, every BREAK row of RULES.md (EVO-14, NAME-06, DECK-11; 001_75e061fbe3c8e794.txt:
778-788, 888): a Pokémon BREAK is an Evolution card under normal timing whose name
includes "BREAK"; it keeps the previous stage's attacks, Abilities, Weakness, Resistance
and Retreat Cost, while its HP and type are its own."""

from __future__ import annotations

from engine_tables import game, player, table

from assistant.cards import Ability, Attack, Card, TypeValue, basic_energy
from assistant.engine.actions import Bench, Evolve, PlaceCounters, Retreat, UseAbility, UseAttack
from assistant.engine.model import PlayerState, Slot

LIGHTNING = basic_energy("Lightning")
PIKACHU = Card("Pikachu", "Pokémon", ("Basic",), id="pikachu", hp=60, types=("Lightning",),
               attacks=(Attack("Gnaw", ("Colorless",), "10"),), retreat_cost=("Colorless",))
RAICHU = Card("Raichu", "Pokémon", ("Stage 1",), id="raichu", hp=110, types=("Lightning",),
              evolves_from="Pikachu", attacks=(Attack("Thunder", ("Colorless",), "30"),),
              abilities=(Ability("Static"),), weaknesses=(TypeValue("Fighting", "×2"),),
              resistances=(TypeValue("Metal", "-20"),), retreat_cost=("Colorless", "Colorless"))
RAICHU_BREAK = Card("Raichu BREAK", "Pokémon", ("BREAK",), id="raichu-break", hp=160, types=("Psychic",),
                    evolves_from="Raichu", attacks=(Attack("Lightning Ball", ("Colorless",), "100"),))
FIGHTER = Card("Hitmonchan", "Pokémon", ("Basic",), id="hitmonchan", hp=300, types=("Fighting",),
               attacks=(Attack("Jab", (), "20"),), weaknesses=(TypeValue("Psychic", "×2"),))
STEEL = Card("Bronzor", "Pokémon", ("Basic",), id="bronzor", hp=300, types=("Metal",),
             attacks=(Attack("Jab", (), "40"),))


def broken(energy: int = 2, **slot: object) -> PlayerState:
    """Player A with Raichu BREAK (on Raichu on Pikachu) Active."""
    me = player()
    me.active = Slot(RAICHU_BREAK, under=[PIKACHU, RAICHU], energy=[LIGHTNING] * energy)
    for key, value in slot.items():
        setattr(me.active, key, value)
    return me


def attacked_by(attacker: Card) -> int:
    g = game(table(broken(), player(active=attacker), current="B", turn=6))
    outcome = g.play(UseAttack(attack="Jab"))
    return next(e["amount"] for e in outcome.events if e["type"] == "damage")


def test_a_break_evolves_from_the_pokemon_its_card_names_under_normal_timing() -> None:
    me = player(hand=[RAICHU_BREAK])
    me.active = Slot(RAICHU, under=[PIKACHU])
    assert game(table(me)).play(Evolve(card=RAICHU_BREAK, target=("A", None))).accepted
    me.active = Slot(RAICHU, under=[PIKACHU], entered_turn=5)
    assert game(table(me)).play(Evolve(card=RAICHU_BREAK, target=("A", None))).reason == "evolve-new-in-play"
    me.active = Slot(RAICHU, under=[PIKACHU], entered_turn=0)
    assert game(table(me, turn=1)).play(Evolve(card=RAICHU_BREAK, target=("A", None))).reason \
        == "evolve-first-turn"


def test_break_is_part_of_the_name() -> None:
    """NAME-06 (001:786): Raichu BREAK is not Raichu, so nothing that evolves from Raichu
    goes on it, and it goes on nothing but Raichu."""
    assert RAICHU_BREAK.identity != RAICHU.identity
    me = player(hand=[RAICHU_BREAK])
    me.active = Slot(PIKACHU)
    assert game(table(me)).play(Evolve(card=RAICHU_BREAK, target=("A", None))).reason == "evolve-mismatch"
    again = broken()
    again.hand = [RAICHU_BREAK]
    assert game(table(again)).play(Evolve(card=RAICHU_BREAK, target=("A", None))).reason == "evolve-mismatch"


def test_a_break_is_no_basic_pokemon() -> None:
    assert game(table(player(hand=[RAICHU_BREAK]))).play(Bench(card=RAICHU_BREAK)).reason == "not-basic"


def test_a_break_keeps_the_previous_stage_s_attacks_and_abilities_and_adds_its_own() -> None:
    g = game(table(broken()))
    assert g.play(UseAbility(pokemon=("A", None), name="Static")).accepted
    assert g.play(UseAttack(attack="Thunder")).accepted
    assert game(table(broken())).play(UseAttack(attack="Gnaw")).reason == "attack-unknown"


def test_a_break_keeps_the_previous_stage_s_weakness_and_resistance() -> None:
    assert attacked_by(FIGHTER) == 40  # Raichu's Fighting ×2
    assert attacked_by(STEEL) == 20  # Raichu's Metal -20


def test_a_break_keeps_the_previous_stage_s_retreat_cost() -> None:
    assert game(table(broken(energy=1))).play(Retreat(to=("A", 0))).reason == "retreat-cost-unpaid"
    assert game(table(broken(energy=2))).play(Retreat(to=("A", 0))).accepted


def test_a_break_has_its_own_hp_and_type() -> None:
    """Its HP changes (160 here, Raichu's 110) and it may change type: Psychic here,
    which the Fighting defender is weak to."""
    g = game(table(broken(damage=120)))
    assert g.play(PlaceCounters(target=("A", None), counters=1)).accepted
    assert g.position.players["A"].active is not None  # 130 damage: more than Raichu's HP
    assert g.play(PlaceCounters(target=("A", None), counters=3)).accepted
    assert g.position.players["A"].active is None  # 160: Knocked Out
    hit = game(table(broken(), player(active=FIGHTER))).play(UseAttack(attack="Lightning Ball"))
    assert {"type": "damage", "target": "B.active", "amount": 200} in [
        {k: e[k] for k in ("type", "target", "amount")} for e in hit.events if e["type"] == "damage"]
