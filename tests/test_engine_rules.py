"""Engine rules that position files cannot express, and the engine's own contracts."""

from __future__ import annotations

import dataclasses

import pytest

from assistant.cards import Attack, Card, TypeValue, basic_energy
from assistant.editions import EDITIONS, MEGA_EVOLUTION, Rulings, edition
from assistant.engine.actions import ChangeCondition, EndTurn, Evolve, Modifier, UseAbility, UseAttack
from assistant.engine.coins import (
    FlipperCoins,
    OutOfCoins,
    PersonCoins,
    ScriptedCoins,
    SecureCoins,
    SeededCoins,
)
from assistant.engine.damage import attack_damage
from assistant.engine.game import Game, cost_paid, retreat_payment_problem
from assistant.engine.model import PlayerState, Position, Slot
from assistant.engine.replay import position_at, rewind

MON = Card("Lechonk", "Pokémon", ("Basic",), id="mon", hp=100, types=("Colorless",),
           retreat_cost=("Colorless",))
GRASS = basic_energy("Grass")


def table(**a_kwargs: object) -> Position:
    a = PlayerState(active=Slot(MON, energy=[GRASS]), bench=[Slot(MON)], hand=[None] * 5,
                    deck=[None] * 30, prizes=[None] * 6)
    for key, value in a_kwargs.items():
        setattr(a, key, value)
    b = PlayerState(active=Slot(MON), bench=[Slot(MON)], hand=[None] * 5, deck=[None] * 30,
                    prizes=[None] * 6)
    return Position({"A": a, "B": b}, turn=5, current="A", first="A")


def game(pos: Position | None = None, coins: list[str] | None = None, era: str | None = None,
         rulings: Rulings | None = None) -> Game:
    return Game(pos or table(), edition(era), ScriptedCoins(coins or []), rulings)


def test_every_edition_cites_every_value() -> None:
    values = [f.name for f in dataclasses.fields(MEGA_EVOLUTION) if f.name not in ("era", "rulebook", "sources")]
    for profile in EDITIONS.values():
        missing = [v for v in values if not profile.cite(v)]
        assert missing == [] or set(missing) <= {"simultaneous_knockouts_first", "gx_once_per_game",
                                                 "vstar_once_per_game", "tera_bench_protection",
                                                 "mega_ex_ends_turn", "prize_cards", "first-player",
                                                 "fossil_basic_in_setup"}, \
            (profile.era, missing)
        for cite in profile.sources.values():
            assert cite.startswith(profile.rulebook + ":")


def test_refusal_cites_rule_and_changes_nothing() -> None:
    g = game()
    before = g.position.copy()
    outcome = g.play(UseAttack(attack="Nope"))
    assert not outcome.accepted and outcome.reason == "attack-unknown"
    assert outcome.refusal is not None and outcome.refusal.rule.startswith("001_75e061fbe3c8e794.txt:")
    assert g.position == before


def test_condition_only_on_active() -> None:
    outcome = game().play(ChangeCondition(target=("B", 0), add="Poisoned"))
    assert outcome.reason == "condition-not-active"


def test_ability_of_opponents_pokemon_refused() -> None:
    assert game().play(UseAbility(pokemon=("B", 0), name="x")).reason == "invalid-target"


@pytest.mark.parametrize("when", ["before", "after"])
def test_other_checkup_effects_are_one_block(when: str) -> None:
    """Other Checkup effects run wholly before or wholly after the Special Conditions
    (001:405); Knock Outs wait for both, so a heal after Poison still saves the Pokémon
    (001:407)."""
    pos = table()
    assert pos.players["A"].active is not None
    pos.players["A"].active.damage = 90
    pos.players["A"].active.conditions = {"Poisoned"}
    g = game(pos)
    outcome = g.play(EndTurn(effects_when=when, effects=((("A", None), -1),)))
    assert outcome.accepted
    steps = [e.get("step") for e in outcome.events if e["type"] == "checkup"]
    assert steps == (["effect", "poisoned"] if when == "before" else ["poisoned", "effect"])
    # Knock Outs are checked only after both blocks: healed either way, no Knock Out
    assert not any(e["type"] == "knockout" for e in outcome.events)
    assert g.position.players["A"].active is not None
    assert g.position.players["A"].active.damage == 90


def test_other_checkup_effects_after_only_in_2011() -> None:
    outcome = game(era="black-white-2011").play(
        EndTurn(effects_when="before", effects=((("A", None), 1),)))
    assert outcome.reason == "checkup-order"


def test_rewind_is_logged_and_rebuilds() -> None:
    g = game(coins=[])
    g.play(UseAttack(attack="Tackle"))  # unknown: logged as refused
    start = g.position.copy()
    g.play(EndTurn())
    g.play(EndTurn())
    assert g.position.turn == 7
    entry = rewind(g, 2)
    assert entry.kind == "rewind" and entry.undone == 2
    assert g.position == start
    assert g.log is not None and [e.kind for e in g.log.entries] == ["refused", "action", "action", "rewind"]
    g.play(EndTurn())
    assert position_at(g.log, 0, g.edition) == start
    assert position_at(g.log, 1, g.edition) == g.position
    assert len(g.log.entries) == 5  # nothing is ever removed


def test_coin_sources_are_named_and_logged() -> None:
    pos = table()
    assert pos.players["A"].active is not None
    pos.players["A"].active.conditions = {"Confused"}
    for source in (ScriptedCoins(["tails"]), PersonCoins(lambda why: "Tails"),
                   FlipperCoins(lambda: "tails")):
        g = Game(pos.copy(), MEGA_EVOLUTION, source)
        outcome = g.play(EndTurn())
        assert outcome.flips == []  # Confusion needs no flip at Checkup
    assert SecureCoins().flip("x") in ("heads", "tails")
    assert SeededCoins(1).flip("x") == SeededCoins(1).flip("x")
    with pytest.raises(OutOfCoins):
        ScriptedCoins([]).flip("confusion")
    with pytest.raises(ValueError):
        PersonCoins(lambda why: "edge").flip("x")


def test_confusion_flip_recorded_with_source() -> None:
    attacker = dataclasses.replace(MON, attacks=(Attack("Tackle", ("Colorless",), "30"),))
    pos = table(active=Slot(attacker, energy=[GRASS], conditions={"Confused"}))
    g = Game(pos, MEGA_EVOLUTION, PersonCoins(lambda why: "heads"))
    outcome = g.play(UseAttack(attack="Tackle"))
    assert [(f.result, f.source, f.purpose) for f in outcome.flips] == [("heads", "person", "confusion")]


def test_cost_payment() -> None:
    fire, water = basic_energy("Fire"), basic_energy("Water")
    assert cost_paid(("Fire", "Colorless"), [fire, water])
    assert not cost_paid(("Fire", "Fire"), [fire, water])
    assert cost_paid((), [])
    dce = Card("Double Colorless Energy", "Energy", ("Special",), provides=("Colorless", "Colorless"))
    assert cost_paid(("Colorless", "Colorless"), [dce])


def test_retreat_payment_may_not_overpay() -> None:
    water = basic_energy("Water")
    dce = Card("Double Colorless Energy", "Energy", ("Special",), provides=("Colorless", "Colorless"))
    attached = [water, water, dce]
    assert retreat_payment_problem(2, [dce], attached) == ""
    assert retreat_payment_problem(2, [water, water], attached) == ""
    assert retreat_payment_problem(2, [water, dce], attached) == ""
    assert retreat_payment_problem(2, [water, water, dce], attached) != ""
    assert retreat_payment_problem(2, [water], attached) != ""


def test_damage_order_2002_versus_2025() -> None:
    mods = (Modifier("attacker", "trainer", 10), Modifier("defender", "trainer", -20))
    weak = (TypeValue("Grass", "×2"),)
    assert attack_damage(edition("expedition-2002"), 40, ("Grass",), weak, (), mods).amount == 70
    assert attack_damage(edition("standard"), 40, ("Grass",), weak, (), mods).amount == 80


def test_expedition_defaults_apply_only_when_no_value_is_printed() -> None:
    """2002 cards print only the type: Weakness doubles, Resistance takes 30
    (003_b55862cc83f9dac9.txt:689-692); a value printed on a card always rules."""
    exp = edition("expedition-2002")
    assert attack_damage(exp, 40, ("Fire",), (TypeValue("Fire", ""),), ()).amount == 80
    assert attack_damage(exp, 40, ("Fire",), (), (TypeValue("Fire", ""),)).amount == 10
    assert attack_damage(exp, 40, ("Fire",), (TypeValue("Fire", "+10"),), ()).amount == 50
    assert attack_damage(exp, 40, ("Fire",), (), (TypeValue("Fire", "-20"),)).amount == 20
    modern = edition("standard")
    assert attack_damage(modern, 40, ("Fire",), (TypeValue("Fire", "+10"),), ()).amount == 50


def test_simultaneous_knockouts_flag_a_ruling() -> None:
    attacker = Card("Voltorb", "Pokémon", ("Basic",), id="v", hp=40, types=("Lightning",),
                    attacks=(Attack("Boom", (), "40"),))
    pos = table(active=Slot(attacker))
    assert pos.players["B"].active is not None
    pos.players["B"].active.damage = 60
    outcome = game(pos).play(UseAttack(attack="Boom", targets=((("A", None), 40),)))
    rulings = [e for e in outcome.events if e["type"] == "ruling"]
    assert rulings and rulings[0]["ruling"] == "simultaneous_knockouts_first" and rulings[0]["judge"]


def test_first_turn_evolution_ruling_for_older_books() -> None:
    basic = Card("Charmander", "Pokémon", ("Basic",), id="c", hp=50, types=("Fire",))
    evo = Card("Charmeleon", "Pokémon", ("Stage 1",), id="e", hp=80, types=("Fire",),
               evolves_from="Charmander")
    pos = table(active=Slot(basic, entered_turn=0), hand=[evo])
    pos.turn, pos.current, pos.first = 2, "A", "B"
    assert game(pos.copy(), era="platinum-2009").play(
        Evolve(card=evo, target=("A", None))).reason == "evolve-first-turn"
    literal = Rulings(first_turn_evolution="game")
    assert game(pos.copy(), era="platinum-2009", rulings=literal).play(
        Evolve(card=evo, target=("A", None))).accepted


def test_position_round_trip() -> None:
    import json
    from pathlib import Path

    from assistant.engine.positions import CardBook, position_from_json, position_to_json, save_position
    from assistant.lookups import database_lookups

    sample = Path(__file__).resolve().parent.parent.parent / "shared" / "scenarios" / \
        "sample-03-confused-heads-knockout.json"
    if not sample.is_file():
        pytest.skip("../shared/scenarios is not beside the project")
    data = json.loads(sample.read_text(encoding="utf-8"))
    book = CardBook(data["cards"], *database_lookups())
    pos = position_from_json(data["state"], book)
    saved = save_position(pos, book, data["era"])
    again = position_from_json(json.loads(json.dumps(saved))["state"], CardBook(saved["cards"], *database_lookups()))
    assert position_to_json(again, book) == position_to_json(pos, book)
