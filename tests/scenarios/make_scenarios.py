"""Write the 2025 position files of ``tests/scenarios/mega-evolution-2025/``.

One file per rule of RULES.md that a position can show; each names its rule in the
title (``[DMG-M3]``) and cites rulebook 001 in ``source``. Run
``python tests/scenarios/make_scenarios.py`` after changing a case here; the JSON files
are what the tests and ``table-assistant scenario`` read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "mega-evolution-2025"
ERA = "mega-evolution-2025"
B001 = "001_75e061fbe3c8e794.txt"

CASES: list[dict[str, Any]] = []


def poke(name: str, hp: int = 100, types: tuple[str, ...] = ("Colorless",), stage: str = "Basic",
         evolves: str | None = None, attacks: tuple[tuple[str, list[str], str], ...] = (
             ("Tackle", ["Colorless"], "30"),), weak: tuple[str, str] | None = None,
         resist: tuple[str, str] | None = None, retreat: int = 1, extra: tuple[str, ...] = (),
         abilities: tuple[tuple[str, str], ...] = ()) -> dict[str, Any]:
    card: dict[str, Any] = {"name": name, "supertype": "Pokémon", "subtypes": [stage, *extra],
                            "hp": hp, "types": list(types)}
    if evolves:
        card["evolvesFrom"] = evolves
    if abilities:
        card["abilities"] = [{"name": n, "type": t} for n, t in abilities]
    card["attacks"] = [{"name": n, "cost": c, "damage": d} for n, c, d in attacks]
    if weak:
        card["weaknesses"] = [{"type": weak[0], "value": weak[1]}]
    if resist:
        card["resistances"] = [{"type": resist[0], "value": resist[1]}]
    card["retreatCost"] = ["Colorless"] * retreat
    return card


def trainer(name: str, kind: str, *more: str) -> dict[str, Any]:
    return {"name": name, "supertype": "Trainer", "subtypes": [kind, *more]}


BASE_CARDS = {
    "hitter": poke("Lechonk", 100, ("Colorless",), attacks=(("Tackle", ["Colorless"], "30"),)),
    "target": poke("Wiglett", 100, ("Water",)),
    "benchmon": poke("Skwovet", 60, ("Colorless",)),
}


def player(active: dict[str, Any] | None = None, bench: list[dict[str, Any]] | None = None,
           hand: Any = None, prizes: int = 6, deck: int = 30, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"active": active, "bench": bench if bench is not None else [],
                           "prizes": prizes, "deck": deck,
                           "hand": hand if hand is not None else {"count": 5}}
    out.update(more)
    return out


def slot(card: str, **more: Any) -> dict[str, Any]:
    if card == "hitter" and "energy" not in more:
        more["energy"] = ["Grass Energy"]  # pays the default one-Colorless attack
    return {"card": card, **more}


def case(name: str, rule: str, title: str, lines: str, *, cards: dict[str, Any] | None = None,
         A: dict[str, Any] | None = None, B: dict[str, Any] | None = None, do: list[dict[str, Any]],
         expect: dict[str, Any], coins: list[str] | None = None, turn: int = 5,
         current: str = "A", first: str = "A", extra_state: dict[str, Any] | None = None) -> None:
    state: dict[str, Any] = {"turn": turn, "current": current, "first": first, "players": {
        "A": A or player(slot("hitter"), [slot("benchmon")]),
        "B": B or player(slot("target"), [slot("benchmon")]),
    }}
    state.update(extra_state or {})
    CASES.append({
        "id": name, "title": f"[{rule}] {title}", "era": ERA, "source": f"{B001}:{lines}",
        "cards": {**BASE_CARDS, **(cards or {})}, "state": state, "do": do,
        "coins": coins or [], "expect": expect,
    })


def dmg(target: str, amount: int) -> dict[str, Any]:
    return {"type": "damage", "target": target, "amount": amount}


def attack(name: str = "Tackle", **more: Any) -> dict[str, Any]:
    return {"type": "attack", "attack": name, **more}


def b_active(**slot_want: Any) -> dict[str, Any]:
    return {"players": {"B": {"active": slot_want}}}


OK = True

# --- Damage (001 "Full details of attacking", 525-532) ---------------------------------

case("dmg-01-base-printed", "DMG-M1", "Printed base damage 30 goes onto the Defending Pokémon",
     "525-527, 532", do=[attack()], expect={"legal": OK, "events": [dmg("B.active", 30)],
                                           "state": b_active(damage=30)})
case("dmg-02-base-from-text", "DMG-M1", "A 10× attack with two heads: the base of 20 is given",
     "527", cards={"hitter": poke("Lechonk", attacks=(("Multi Slap", ["Colorless"], "10×"),))},
     do=[attack("Multi Slap", base=20)], expect={"legal": OK, "events": [dmg("B.active", 20)]})
case("dmg-03-attacker-effect-before-weakness", "DMG-M2",
     "Attacker's +10 Trainer effect comes before Weakness: (30+10)×2 = 80", "528-529",
     cards={"target": poke("Wiglett", types=("Water",), weak=("Colorless", "×2"))},
     do=[attack(modifiers=[{"on": "attacker", "by": "trainer", "amount": 10}])],
     expect={"legal": OK, "events": [dmg("B.active", 80)]})
case("dmg-04-stop-at-zero", "DMG-M2",
     "A base damage of 0 stops the calculation: +30 from an effect is not added", "528",
     cards={"hitter": poke("Lechonk", attacks=(("Multi Slap", ["Colorless"], "10×"),))},
     do=[attack("Multi Slap", base=0, modifiers=[{"on": "attacker", "by": "trainer", "amount": 30}])],
     expect={"legal": OK, "state": b_active(damage=0)})
case("dmg-05-weakness-times-two", "DMG-M3", "Printed Weakness ×2 doubles 30 to 60", "529",
     cards={"target": poke("Wiglett", types=("Water",), weak=("Colorless", "×2"))},
     do=[attack()], expect={"legal": OK, "events": [dmg("B.active", 60)]})
case("dmg-06-weakness-plus", "WR-01", "A printed +20 Weakness adds 20: 30 becomes 50", "529",
     cards={"target": poke("Wiglett", types=("Water",), weak=("Colorless", "+20"))},
     do=[attack()], expect={"legal": OK, "events": [dmg("B.active", 50)]})
case("dmg-07-resistance-minus-30", "DMG-M4", "Resistance -30 reduces 30 to 0", "530, 532",
     cards={"target": poke("Wiglett", types=("Water",), resist=("Colorless", "-30"))},
     do=[attack()], expect={"legal": OK, "state": b_active(damage=0)})
case("dmg-08-resistance-minus-20", "DMG-M4", "Resistance -20 reduces 50 to 30", "530",
     cards={"hitter": poke("Lechonk", attacks=(("Headbutt", ["Colorless"], "50"),)),
            "target": poke("Wiglett", types=("Water",), resist=("Colorless", "-20"))},
     do=[attack("Headbutt")], expect={"legal": OK, "events": [dmg("B.active", 30)]})
case("dmg-09-dual-type-weakness-then-resistance", "DMG-M7",
     "Water/Fairy attacker on a Pokémon weak to Water, resisting Fairy: 30×2-30 = 30", "770-774",
     cards={"hitter": poke("Azumarill", 120, ("Water", "Fairy"), attacks=(("Splash", ["Water"], "30"),)),
            "target": poke("Charcadet", 200, ("Fire",), weak=("Water", "×2"), resist=("Fairy", "-30"))},
     A=player(slot("hitter", energy=["Water Energy"]), [slot("benchmon")]),
     do=[attack("Splash")], expect={"legal": OK, "events": [dmg("B.active", 30)]})
case("dmg-10-defender-effect-after-wr", "DMG-M5",
     "A defending effect of -20 applies after Weakness: 30×2-20 = 40", "531",
     cards={"target": poke("Wiglett", types=("Water",), weak=("Colorless", "×2"))},
     do=[attack(modifiers=[{"on": "defender", "by": "ability", "amount": -20}])],
     expect={"legal": OK, "events": [dmg("B.active", 40)]})
case("dmg-11-never-below-zero", "DMG-M6",
     "20 - 30 Resistance - 20 from an effect is below 0: no damage counters", "532",
     cards={"hitter": poke("Lechonk", attacks=(("Peck", ["Colorless"], "20"),)),
            "target": poke("Wiglett", types=("Water",), resist=("Colorless", "-30"))},
     do=[attack("Peck", modifiers=[{"on": "defender", "by": "trainer", "amount": -20}])],
     expect={"legal": OK, "events": [dmg("B.active", 0)], "state": b_active(damage=0)})
case("dmg-12-bench-no-weakness", "WR-02",
     "Bench damage ignores Weakness: 20 on a Benched Pokémon weak to the attacker", "375, 884",
     cards={"benchweak": poke("Tynamo", 60, ("Lightning",), weak=("Colorless", "×2"))},
     B=player(slot("target"), [slot("benchweak")]),
     do=[attack(targets=[{"target": "B.bench[0]", "amount": 20}])],
     expect={"legal": OK, "events": [dmg("B.active", 30), dmg("B.bench[0]", 20)],
             "state": {"players": {"B": {"bench": [{"damage": 20}]}}}})
case("dmg-13-bench-no-resistance", "WR-02", "Bench damage ignores Resistance too", "375, 884",
     cards={"benchres": poke("Tynamo", 60, ("Lightning",), resist=("Colorless", "-30"))},
     B=player(slot("target"), [slot("benchres")]),
     do=[attack(targets=[{"target": "B.bench[0]", "amount": 20}])],
     expect={"legal": OK, "state": {"players": {"B": {"bench": [{"damage": 20}]}}}})
case("dmg-14-counters-skip-weakness", "DMG-M1",
     "Damage counters placed by an effect ignore Weakness: 2 counters are 20", "527",
     cards={"target": poke("Wiglett", types=("Water",), weak=("Colorless", "×2"))},
     do=[{"type": "counters", "target": "B.active", "counters": 2}],
     expect={"legal": OK, "state": b_active(damage=20)})
case("dmg-15-dual-type-either-weakness", "TERM-12",
     "A Lightning/Metal attacker meets a Metal Weakness: 30×2", "770-774, 902",
     cards={"hitter": poke("Magnemite", 60, ("Lightning", "Metal")),
            "target": poke("Snom", 60, ("Water",), weak=("Metal", "×2"))},
     do=[attack()], expect={"legal": OK, "events": [dmg("B.active", 60)]})
case("dmg-16-no-damage-attack", "WR-03",
     "An attack that does no damage places nothing, Weakness or not", "371, 528",
     cards={"hitter": poke("Lechonk", attacks=(("Growl", ["Colorless"], ""),)),
            "target": poke("Wiglett", types=("Water",), weak=("Colorless", "×2"))},
     do=[attack("Growl")], expect={"legal": OK, "state": b_active(damage=0)})
case("dmg-17-stadium-on-attacker", "DMG-M2",
     "A Stadium's +20 for the attacker is an attacker effect: (30+20)×2 = 100", "528-529",
     cards={"target": poke("Wiglett", 120, ("Water",), weak=("Colorless", "×2"))},
     do=[attack(modifiers=[{"on": "attacker", "by": "stadium", "amount": 20}])],
     expect={"legal": OK, "events": [dmg("B.active", 100)]})
case("dmg-18-attack-effect-before-wr", "DMG-M2",
     "Last turn's attack effect +40 before Weakness: (30+40)×2 = 140 Knocks Out 100 HP", "528",
     cards={"target": poke("Wiglett", 100, ("Water",), weak=("Colorless", "×2"))},
     do=[attack(modifiers=[{"on": "attacker", "by": "attack", "amount": 40}])],
     expect={"legal": OK, "events": [dmg("B.active", 140), {"type": "knockout", "target": "B.active"}]})

# --- Attacking ----------------------------------------------------------------------------

case("atk-01-colorless-any-type", "TERM-14", "Fire plus Water Energy pay a Fire + Colorless cost",
     "165, 345", cards={"hitter": poke("Charmander", 70, ("Fire",),
                                        attacks=(("Flare", ["Fire", "Colorless"], "30"),))},
     A=player(slot("hitter", energy=["Fire Energy", "Water Energy"]), [slot("benchmon")]),
     do=[attack("Flare")], expect={"legal": OK, "events": [dmg("B.active", 30)]})
case("atk-02-typed-cost-unpaid", "ATK-06", "Water Energy does not pay a Fire symbol", "343-345",
     cards={"hitter": poke("Charmander", 70, ("Fire",), attacks=(("Flare", ["Fire"], "30"),))},
     A=player(slot("hitter", energy=["Water Energy"]), [slot("benchmon")]),
     do=[attack("Flare")], expect={"legal": False, "reason": "attack-cost-unpaid"})
case("atk-03-double-colorless", "TERM-14",
     "A Double Colorless Energy provides two Colorless and pays a two-Colorless cost", "165, 345",
     cards={"hitter": poke("Lechonk", attacks=(("Body Slam", ["Colorless", "Colorless"], "40"),)),
            "dce": {"name": "Double Colorless Energy", "supertype": "Energy", "subtypes": ["Special"],
                    "provides": ["Colorless", "Colorless"]}},
     A=player(slot("hitter", energy=["dce"]), [slot("benchmon")]),
     do=[attack("Body Slam")], expect={"legal": OK, "events": [dmg("B.active", 40)]})
case("atk-04-zero-cost", "TERM-14", "An attack with no cost is used with no Energy attached", "365",
     cards={"hitter": poke("Lechonk", attacks=(("Gnaw", [], "10"),))},
     A=player(slot("hitter", energy=[]), [slot("benchmon")]), do=[attack("Gnaw")],
     expect={"legal": OK, "events": [dmg("B.active", 10)]})
case("atk-05-only-active-attacks", "TERM-08",
     "A Benched Pokémon's attack cannot be used: only the Active attacks", "870",
     cards={"benchmon": poke("Skwovet", 60, attacks=(("Bite", ["Colorless"], "20"),))},
     do=[attack("Bite")], expect={"legal": False, "reason": "attack-unknown"})
case("atk-06-first-player-turn-1", "FT-01", "The player going first cannot attack on turn 1", "341",
     turn=1, do=[attack()], expect={"legal": False, "reason": "attack-first-turn"})
case("atk-07-second-player-turn-2", "FT-02", "The second player may attack on their first turn",
     "341", turn=2, current="B", B=player(slot("hitter"), [slot("benchmon")]),
     A=player(slot("target"), [slot("benchmon")]),
     do=[attack()], expect={"legal": OK, "events": [dmg("A.active", 30)]})
case("atk-08-asleep-cannot-attack", "SC-ASLEEP", "An Asleep Pokémon cannot attack", "413-417",
     A=player(slot("hitter", conditions=["Asleep"]), [slot("benchmon")]),
     do=[attack()], expect={"legal": False, "reason": "attack-blocked"})
case("atk-09-paralyzed-cannot-attack", "SC-PARALYZED", "A Paralyzed Pokémon cannot attack",
     "437-441", A=player(slot("hitter", conditions=["Paralyzed"]), [slot("benchmon")]),
     do=[attack()], expect={"legal": False, "reason": "attack-blocked"})
case("atk-10-one-attack", "TURN-06", "Attacking ends the turn's actions: a second attack is refused",
     "334-336", B=player(slot("target", damage=0), [slot("benchmon")]),
     do=[attack(), attack()], expect={"legal": False, "reason": "after-attack"})
case("atk-11-no-bench-after-attack", "TURN-06", "After attacking, a Basic cannot be benched",
     "334-336", A=player(slot("hitter"), [slot("benchmon")], hand=["benchmon"]),
     do=[attack(), {"type": "bench", "card": "benchmon"}],
     expect={"legal": False, "reason": "after-attack"})
case("atk-12-effects-after-attack", "ATK-01",
     "The attack's own effect (Poisoned) is applied after its damage", "523",
     do=[attack(), {"type": "condition", "target": "B.active", "add": "Poisoned"}],
     expect={"legal": OK, "events": [dmg("B.active", 30), {"type": "condition", "condition": "Poisoned",
                                                             "change": "added"}],
             "state": b_active(damage=30, conditions=["Poisoned"])})
case("atk-13-ability-then-attack", "TURN-09", "Using an Ability does not stop the attack",
     "324-330", cards={"hitter": poke("Lechonk", abilities=(("Snack Search", "Ability"),))},
     do=[{"type": "ability", "pokemon": "active", "name": "Snack Search"}, attack()],
     expect={"legal": OK, "events": [dmg("B.active", 30)]})
case("atk-14-retreat-then-attack", "RET-08", "After retreating, the new Active may attack", "322",
     cards={"benchmon": poke("Skwovet", 60, attacks=(("Bite", ["Colorless"], "20"),), retreat=1)},
     A=player(slot("hitter", energy=["Grass Energy"]), [slot("benchmon", energy=["Fire Energy"])]),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Grass Energy"]}, attack("Bite")],
     expect={"legal": OK, "events": [dmg("B.active", 20)]})
case("atk-15-gx-once-per-game", "ABI-08", "A second GX attack in the same game is refused",
     "746, 912-914", cards={"hitter": poke("Incineroar-GX", 250, ("Fire",), stage="Stage 2",
                                           evolves="Torracat", extra=("GX",),
                                           attacks=(("Nitro Tackle GX", ["Colorless"], "100"),))},
     A=player(slot("hitter"), [slot("benchmon")], gx_used=True),
     do=[attack("Nitro Tackle GX")], expect={"legal": False, "reason": "gx-already-used"})
case("atk-16-gx-first-use", "ABI-08", "The first GX attack is allowed and turns the GX marker",
     "746, 912-914", cards={"hitter": poke("Incineroar-GX", 250, ("Fire",), stage="Stage 2",
                                           evolves="Torracat", extra=("GX",),
                                           attacks=(("Nitro Tackle GX", ["Colorless"], "30"),))},
     do=[attack("Nitro Tackle GX")],
     expect={"legal": OK, "state": {"players": {"A": {"gx_used": True}}}})
case("atk-17-vstar-power-attack-once", "ABI-07", "A VSTAR Power attack after the VSTAR marker is used",
     "656, 1000-1002", cards={"hitter": poke("Giratina VSTAR", 280, ("Dragon",), stage="VSTAR",
                                            evolves="Giratina V",
                                            attacks=(("Star Requiem", ["Colorless"], ""),))},
     A=player(slot("hitter"), [slot("benchmon")], vstar_used=True),
     do=[attack("Star Requiem")], expect={"legal": False, "reason": "vstar-already-used"})
case("atk-18-vstar-power-ability-once", "ABI-07",
     "A VSTAR Power Ability is refused once another VSTAR Power was used this game", "656, 1002",
     cards={"vstar": poke("Arceus VSTAR", 280, stage="VSTAR", evolves="Arceus V",
                          abilities=(("Starbirth", "VSTAR Power"),))},
     A=player(slot("hitter"), [slot("vstar")], vstar_used=True),
     do=[{"type": "ability", "pokemon": "bench[0]", "name": "Starbirth"}],
     expect={"legal": False, "reason": "vstar-already-used"})
case("atk-19-confused-tails", "SC-07", "Confused and tails: no attack, 3 damage counters on itself",
     "429-433", A=player(slot("hitter", conditions=["Confused"]), [slot("benchmon")]),
     do=[attack()], coins=["tails"],
     expect={"legal": OK, "events": [{"type": "coin", "result": "tails"},
                                      {"type": "counters", "target": "A.active", "counters": 3}],
             "state": {"players": {"A": {"active": {"damage": 30}}, "B": {"active": {"damage": 0}}}}})
case("atk-20-confused-heads", "SC-CONFUSED", "Confused and heads: the attack works normally",
     "429-433", A=player(slot("hitter", conditions=["Confused"]), [slot("benchmon")]),
     do=[attack()], coins=["heads"],
     expect={"legal": OK, "events": [{"type": "coin", "result": "heads"}, dmg("B.active", 30)]})
case("atk-21-confused-self-knockout", "KO-05",
     "A Confused Pokémon's 3 counters Knock it Out: the opponent takes a Prize", "381-385, 433",
     A=player(slot("hitter", damage=80, conditions=["Confused"]), [slot("benchmon")]),
     do=[attack(), {"type": "promote", "player": "A", "from": "A.bench[0]"}], coins=["tails"],
     expect={"legal": OK, "events": [{"type": "knockout", "target": "A.active", "prizes": 1},
                                      {"type": "prize", "player": "B", "count": 1}],
             "state": {"players": {"B": {"prizes": 5}, "A": {"active": {"card": "benchmon"}}}}})
case("atk-22-recoil-knockout", "KO-05",
     "Recoil damage to the attacker is checked for Knock Out after the attack", "381",
     A=player(slot("hitter", damage=80), [slot("benchmon")]),
     do=[attack(targets=[{"target": "A.active", "amount": 20}])],
     expect={"legal": OK, "events": [dmg("B.active", 30),
                                      {"type": "knockout", "target": "A.active"}]})
case("atk-23-tera-bench-no-damage", "EVO-25",
     "A Benched Tera Pokémon ex takes no damage from an attack", "634-638, 994",
     cards={"tera": poke("Terapagos ex", 230, extra=("ex", "Tera"))},
     B=player(slot("target"), [slot("tera")]),
     do=[attack(targets=[{"target": "B.bench[0]", "amount": 30}])],
     expect={"legal": OK, "events": [dmg("B.active", 30), dmg("B.bench[0]", 0)],
             "state": {"players": {"B": {"bench": [{"damage": 0}]}}}})
case("atk-24-tera-active-takes-damage", "EVO-25",
     "An Active Tera Pokémon ex takes damage as usual", "634-638",
     cards={"tera": poke("Terapagos ex", 230, extra=("ex", "Tera"))},
     B=player(slot("tera"), [slot("benchmon")]),
     do=[attack()], expect={"legal": OK, "events": [dmg("B.active", 30)]})
case("atk-25-evolved-loses-old-attacks", "EVO-06",
     "After evolving, the earlier stage's attack is gone", "281",
     cards={"hitter": poke("Charmander", 70, ("Fire",), attacks=(("Ember", ["Colorless"], "30"),)),
            "evo": poke("Charmeleon", 100, ("Fire",), "Stage 1", "Charmander",
                        attacks=(("Slash", ["Colorless"], "50"),))},
     A=player(slot("hitter"), [slot("benchmon")], hand=["evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "active"}, attack("Ember")],
     expect={"legal": False, "reason": "attack-unknown"})
case("atk-26-break-keeps-attacks", "EVO-14",
     "A BREAK Pokémon keeps the attacks of the card under it", "778-788",
     cards={"hitter": poke("Raichu", 110, ("Lightning",), "Stage 1", "Pikachu",
                           attacks=(("Thunder", ["Colorless"], "30"),)),
            "brk": poke("Raichu BREAK", 160, ("Lightning",), "BREAK", "Raichu",
                        attacks=(("Lightning Ball", ["Colorless"], "100"),))},
     A=player(slot("hitter"), [slot("benchmon")], hand=["brk"]),
     do=[{"type": "evolve", "card": "brk", "target": "active"}, attack("Thunder")],
     expect={"legal": OK, "events": [dmg("B.active", 30)]})

# --- Knock Outs and Prizes ------------------------------------------------------------------

PRIZE_KINDS = [
    ("ko-01-prize-ex", "Miraidon ex", ("ex",), 2, "624-626, 942"),
    ("ko-02-prize-tera-ex", "Terapagos ex", ("ex", "Tera"), 2, "638, 994"),
    ("ko-03-prize-mega-ex", "Mega Kangaskhan ex", ("MEGA", "ex"), 3, "596, 928"),
    ("ko-04-prize-pokemon-v", "Zacian V", ("V",), 2, "696, 958"),
    ("ko-05-prize-vstar", "Arceus VSTAR", ("VSTAR",), 2, "658, 962"),
    ("ko-06-prize-vmax", "Eternatus VMAX", ("VMAX",), 3, "704, 960"),
    ("ko-07-prize-gx", "Lycanroc-GX", ("GX",), 2, "760, 946"),
    ("ko-08-prize-tag-team", "Pikachu & Zekrom-GX", ("TAG TEAM", "GX"), 3, "728, 988"),
    ("ko-09-prize-pokemon-ex-xy", "Yveltal-EX", ("EX",), 2, "812, 944"),
    ("ko-10-prize-radiant", "Radiant Greninja", ("Radiant",), 1, "650"),
    ("ko-11-prize-plain", "Wiglett", (), 1, "383"),
]
for name, card_name, extra, prizes, lines in PRIZE_KINDS:
    stage = "VSTAR" if "VSTAR" in extra else ("VMAX" if "VMAX" in extra else "Basic")
    more = tuple(x for x in extra if x not in ("VSTAR", "VMAX"))
    case(name, "PRZ", f"Knocking Out {card_name} takes {prizes} Prize card(s)", lines,
         cards={"victim": poke(card_name, 200, ("Water",), stage,
                               {"VSTAR": "Arceus V", "VMAX": "Eternatus V"}.get(stage), extra=more)},
         B=player(slot("victim", damage=170), [slot("benchmon")]),
         do=[attack()],
         expect={"legal": OK, "events": [{"type": "knockout", "target": "B.active", "prizes": prizes},
                                          {"type": "prize", "player": "A", "count": prizes}],
                 "state": {"players": {"A": {"prizes": 6 - prizes}}}})
case("ko-12-prize-mega-ex-xy", "EVO-15", "A Mega Evolution Pokémon-EX gives 2 Prize cards",
     "834, 930", cards={"victim": poke("M Venusaur-EX", 230, ("Grass",), "MEGA", "Venusaur-EX",
                                        extra=("EX",))},
     B=player(slot("victim", damage=200), [slot("benchmon")]), do=[attack()],
     expect={"legal": OK, "events": [{"type": "knockout", "prizes": 2}, {"type": "prize", "count": 2}]})
case("ko-13-prize-v-union", "EVO-18", "A V-UNION in play is one Pokémon worth 3 Prize cards",
     "666-680", cards={"vu": poke("Mewtwo V-UNION", 310, ("Psychic",), "V-UNION", extra=("V",))},
     B=player(slot("vu", under=["vu", "vu", "vu"], damage=290), [slot("benchmon")]), do=[attack()],
     expect={"legal": OK, "events": [{"type": "knockout", "prizes": 3}, {"type": "prize", "count": 3}],
             "state": {"players": {"B": {"discard": ["vu", "vu", "vu", "vu"]}}}})
case("ko-14-exact-hp", "KO-01", "Damage equal to the remaining HP Knocks Out", "383, 892",
     B=player(slot("target", damage=70), [slot("benchmon")]), do=[attack()],
     expect={"legal": OK, "events": [{"type": "knockout", "target": "B.active"}]})
case("ko-15-one-short", "KO-01", "One damage counter short of its HP, the Pokémon stays in play",
     "383, 892", B=player(slot("target", damage=60), [slot("benchmon")]), do=[attack()],
     expect={"legal": OK, "state": b_active(card="target", damage=90)})
case("ko-16-all-cards-discarded", "KO-02",
     "The Knocked Out Pokémon's stack, Energy and Tool all go to the discard pile", "205, 383",
     cards={"basic": poke("Pawniard", 70, ("Darkness",)),
            "evo": poke("Bisharp", 110, ("Darkness",), "Stage 1", "Pawniard"),
            "belt": trainer("Bravery Charm", "Pokémon Tool")},
     B=player(slot("evo", under=["basic"], energy=["Darkness Energy"], tool="belt", damage=80),
              [slot("benchmon")], discard=[]),
     do=[attack()],
     expect={"legal": OK, "state": {"players": {"B": {"active": None, "discard": [
         "basic", "evo", "Darkness Energy", "belt"]}}}})
case("ko-17-promote-required", "KO-04",
     "After a Knock Out the turn cannot end until the owner chooses a new Active", "385",
     B=player(slot("target", damage=70), [slot("benchmon")]), do=[attack(), {"type": "end_turn"}],
     expect={"legal": False, "reason": "promote-required"})
case("ko-18-promote-then-end-turn", "KO-04",
     "The owner promotes a Benched Pokémon, then the turn ends and the owner draws", "385",
     B=player(slot("target", damage=70), [slot("benchmon")]),
     do=[attack(), {"type": "promote", "player": "B", "from": "B.bench[0]"}, {"type": "end_turn"}],
     expect={"legal": OK, "events": [{"type": "knockout"}, {"type": "turn", "player": "B", "number": 6}],
             "state": {"turn": 6, "current": "B", "players": {"B": {"active": {"card": "benchmon"},
                                                                    "bench": [], "hand": {"count": 6}}}}})
case("ko-19-no-pokemon-left-wins", "WIN-01",
     "Knocking Out the opponent's last Pokémon wins the game", "217, 385",
     B=player(slot("target", damage=70), []), do=[attack()],
     expect={"legal": OK, "events": [{"type": "win", "player": "A", "why": "no-pokemon"}], "winner": "A"})
case("ko-20-last-prize-wins", "WIN-02",
     "Taking the last Prize wins even though the opponent still has Pokémon", "215, 385",
     A=player(slot("hitter"), [slot("benchmon")], prizes=1),
     B=player(slot("target", damage=70), [slot("benchmon")]), do=[attack()],
     expect={"legal": OK, "events": [{"type": "win", "player": "A", "why": "prizes"}], "winner": "A"})
case("ko-21-two-prizes-one-left", "WIN-01",
     "A 2-Prize Knock Out with one Prize left takes that Prize and wins (RULES §23.11)", "215, 626",
     cards={"victim": poke("Miraidon ex", 220, ("Lightning",), extra=("ex",))},
     A=player(slot("hitter"), [slot("benchmon")], prizes=1),
     B=player(slot("victim", damage=190), [slot("benchmon")]), do=[attack()],
     expect={"legal": OK, "events": [{"type": "prize", "player": "A", "count": 1}], "winner": "A"})
case("ko-22-bench-knockout-no-promotion", "KO-03",
     "Bench damage that Knocks Out a Benched Pokémon gives a Prize; no promotion needed", "383",
     B=player(slot("target"), [slot("benchmon", damage=40)]),
     do=[attack(targets=[{"target": "B.bench[0]", "amount": 20}]), {"type": "end_turn"}],
     expect={"legal": OK, "events": [{"type": "knockout", "target": "B.bench[0]"},
                                      {"type": "prize", "player": "A", "count": 1}],
             "state": {"current": "B", "players": {"B": {"bench": []}}}})
case("ko-23-prism-star-lost-zone", "LZ-02",
     "A Knocked Out Prism Star Pokémon goes to the Lost Zone, not the discard pile", "734, 966",
     cards={"prism": poke("Giratina ◇", 130, ("Psychic",), extra=("Prism Star",))},
     B=player(slot("prism", damage=100), [slot("benchmon")]), do=[attack()],
     expect={"legal": OK, "state": {"players": {"B": {"lost_zone": ["prism"], "discard": []}}}})
case("ko-24-both-win-sudden-death", "WIN-04",
     "Both players take their last Prize in the same attack: Sudden Death", "546-550",
     A=player(slot("hitter", damage=80), [slot("benchmon")], prizes=1),
     B=player(slot("target", damage=70), [slot("benchmon")], prizes=1),
     do=[attack(targets=[{"target": "A.active", "amount": 20}])],
     expect={"legal": OK, "events": [{"type": "win", "player": "sudden-death"}],
             "winner": "sudden-death"})
case("ko-25-two-ways-beats-one", "WIN-04",
     "A wins two ways (last Prize, no Pokémon left) against B's one: A wins", "546-550",
     A=player(slot("hitter", damage=80), [slot("benchmon")], prizes=1),
     B=player(slot("target", damage=70), [], prizes=1),
     do=[attack(targets=[{"target": "A.active", "amount": 20}])],
     expect={"legal": OK, "events": [{"type": "win", "player": "A"}], "winner": "A"})
case("ko-26-simultaneous-knockouts", "KO-07",
     "Both Actives Knocked Out at once: both take Prizes, both promote (order: RULES §23.1 ruling)",
     "381-385",
     A=player(slot("hitter", damage=80), [slot("benchmon")]),
     B=player(slot("target", damage=70), [slot("benchmon")]),
     do=[attack(targets=[{"target": "A.active", "amount": 20}]),
         {"type": "promote", "player": "B", "from": "B.bench[0]"},
         {"type": "promote", "player": "A", "from": "A.bench[0]"}],
     expect={"legal": OK, "events": [{"type": "knockout", "target": "A.active"},
                                      {"type": "prize", "player": "B", "count": 1},
                                      {"type": "knockout", "target": "B.active"},
                                      {"type": "prize", "player": "A", "count": 1}],
             "state": {"players": {"A": {"prizes": 5}, "B": {"prizes": 5}}}, "winner": None})
case("ko-27-effect-counters-knockout", "KO-01",
     "Damage counters from an effect Knock Out a Pokémon too", "383, 527",
     B=player(slot("target", damage=80), [slot("benchmon")]),
     do=[{"type": "counters", "target": "B.active", "counters": 2}],
     expect={"legal": OK, "events": [{"type": "knockout", "target": "B.active"}]})

# --- Winning, drawing -----------------------------------------------------------------

case("win-01-deck-out", "TURN-05", "A player with no cards to draw at the start of their turn loses",
     "219, 265-267", B=player(slot("target"), [slot("benchmon")], deck=0), do=[{"type": "end_turn"}],
     expect={"legal": OK, "events": [{"type": "win", "player": "A", "why": "deck-out"}], "winner": "A"})
case("win-02-empty-deck-mid-turn", "WIN-03",
     "An empty deck during one's own turn is no loss: only the turn's draw decides", "544",
     cards={"ball": trainer("Poké Ball", "Item")},
     A=player(slot("hitter"), [slot("benchmon")], deck=0, hand=["ball"]),
     do=[{"type": "play", "card": "ball"}], expect={"legal": OK, "winner": None})
case("win-03-game-over", "WIN-01", "Nothing more is accepted once the game is won", "215-219",
     A=player(slot("hitter"), [slot("benchmon")], prizes=1),
     B=player(slot("target", damage=70), [slot("benchmon")]),
     do=[attack(), {"type": "promote", "player": "B", "from": "B.bench[0]"}],
     expect={"legal": False, "reason": "game-over", "winner": "A"})
case("turn-01-draw-at-start", "TURN-01", "Ending the turn gives the next player their draw",
     "244-267", do=[{"type": "end_turn"}],
     expect={"legal": OK, "events": [{"type": "turn", "player": "B", "number": 6}],
             "state": {"turn": 6, "current": "B", "players": {"B": {"deck": 29, "hand": {"count": 6}}}}})
case("turn-02-not-your-turn", "TURN-01", "During A's turn B cannot attach Energy", "244-259",
     B=player(slot("target"), [slot("benchmon")], hand=["Water Energy"]),
     do=[{"type": "attach", "card": "Water Energy", "target": "B.active", "player": "B"}],
     expect={"legal": False, "reason": "not-your-turn"})
case("turn-03-end-turn-without-attack", "TURN-11", "A turn may end without attacking", "341",
     do=[{"type": "end_turn"}], expect={"legal": OK, "state": {"current": "B"}})
case("turn-04-first-turn-actions", "FT-01",
     "On turn 1 the first player may bench, attach, play an Item and retreat", "291-322, 341",
     turn=1, cards={"ball": trainer("Poké Ball", "Item"), "spare": poke("Tarountula", 50)},
     A=player(slot("hitter", energy=["Grass Energy"]), [slot("benchmon")],
              hand=["spare", "Fire Energy", "ball"], deck=40),
     do=[{"type": "bench", "card": "spare"}, {"type": "attach", "card": "Fire Energy", "target": "active"},
         {"type": "play", "card": "ball"},
         {"type": "retreat", "to": "bench[0]", "discard": ["Grass Energy"]}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"card": "benchmon"}}}}})

# --- Pokémon Checkup --------------------------------------------------------------------

def checkup_case(name: str, rule: str, title: str, lines: str, conditions: list[str], coins: list[str],
                 events: list[dict[str, Any]], state: dict[str, Any], damage: int = 0,
                 hp: int = 100) -> None:
    case(name, rule, title, lines, cards={"sick": poke("Wiglett", hp, ("Water",))},
         B=player(slot("sick", conditions=conditions, damage=damage), [slot("benchmon")]),
         do=[{"type": "end_turn"}], coins=coins, expect={"legal": OK, "events": events, "state": state})


checkup_case("chk-01-poison", "SC-POISONED", "Poisoned: 1 damage counter during Checkup",
             "445-449", ["Poisoned"], [],
             [{"type": "checkup", "step": "poisoned", "target": "B.active", "counters": 1}],
             b_active(damage=10, conditions=["Poisoned"]))
checkup_case("chk-02-burn-heads-recovers", "SC-BURNED",
             "Burned: 2 counters first, then heads removes the Burn marker", "421-425",
             ["Burned"], ["heads"],
             [{"type": "checkup", "step": "burned", "counters": 2, "coin": "heads", "recovered": True}],
             b_active(damage=20, conditions=[]))
checkup_case("chk-03-burn-tails-stays", "SC-BURNED", "Burned: 2 counters, tails stays Burned",
             "421-425", ["Burned"], ["tails"],
             [{"type": "checkup", "step": "burned", "counters": 2, "coin": "tails", "recovered": False}],
             b_active(damage=20, conditions=["Burned"]))
checkup_case("chk-04-order", "CHK-01",
             "Checkup order: Poisoned, then Burned, then Asleep", "393-403",
             ["Poisoned", "Burned", "Asleep"], ["tails", "heads"],
             [{"type": "checkup", "step": "poisoned"}, {"type": "checkup", "step": "burned", "coin": "tails"},
              {"type": "checkup", "step": "asleep", "coin": "heads", "recovered": True}],
             b_active(damage=30, conditions=["Burned", "Poisoned"]))
checkup_case("chk-05-asleep-heads", "SC-ASLEEP", "Asleep: heads at Checkup wakes it", "413-417",
             ["Asleep"], ["heads"],
             [{"type": "checkup", "step": "asleep", "coin": "heads", "recovered": True}],
             b_active(conditions=[]))
checkup_case("chk-06-asleep-tails", "SC-ASLEEP", "Asleep: tails at Checkup, still Asleep", "413-417",
             ["Asleep"], ["tails"],
             [{"type": "checkup", "step": "asleep", "coin": "tails", "recovered": False}],
             b_active(conditions=["Asleep"]))
checkup_case("chk-07-confused-no-checkup", "SC-CONFUSED",
             "Confused needs nothing at Checkup and stays", "429-433", ["Confused"], [],
             [{"type": "turn", "player": "B"}], b_active(conditions=["Confused"], damage=0))
checkup_case("chk-08-poison-knockout", "CHK-01",
             "Poison Knocks Out at Checkup: Prize, then the owner promotes", "407",
             ["Poisoned"], [], [{"type": "checkup", "step": "poisoned"},
                                {"type": "knockout", "target": "B.active"},
                                {"type": "prize", "player": "A", "count": 1}],
             {"phase": "promote", "players": {"B": {"active": None}}}, damage=90)

case("chk-09-paralyzed-recovers", "SC-09",
     "Paralyzed since the opponent's turn: recovers at the Checkup after its owner's turn",
     "437-441", current="B", turn=6,
     B=player(slot("target", conditions=["Paralyzed"]), [slot("benchmon")]),
     do=[{"type": "end_turn"}],
     expect={"legal": OK, "events": [{"type": "checkup", "step": "paralyzed", "recovered": True}],
             "state": b_active(conditions=[])})
case("chk-10-paralyzed-stays-after-opponent-turn", "SC-09",
     "Paralyzed by A's attack: still Paralyzed after A's turn ends", "437-441",
     do=[attack(), {"type": "condition", "target": "B.active", "add": "Paralyzed"}, {"type": "end_turn"}],
     expect={"legal": OK, "state": {"current": "B", "players": {"B": {"active": {"conditions": ["Paralyzed"]}}}}})
case("chk-11-paralyzed-own-turn", "SC-09",
     "Paralyzed during its owner's own turn: survives two Checkups, recovers at the third",
     "437-441", do=[{"type": "condition", "target": "A.active", "add": "Paralyzed"},
                    {"type": "end_turn"}, {"type": "end_turn"}, {"type": "end_turn"}],
     expect={"legal": OK, "events": [
         {"type": "checkup", "step": "paralyzed", "target": "A.active", "recovered": False},
         {"type": "checkup", "step": "paralyzed", "target": "A.active", "recovered": False},
         {"type": "checkup", "step": "paralyzed", "target": "A.active", "recovered": True}],
         "state": {"turn": 8, "players": {"A": {"active": {"conditions": []}}}}})
case("chk-12-knockouts-after-both", "KO-06",
     "Knock Outs wait until both players' checks are done", "407",
     A=player(slot("hitter", damage=90, conditions=["Poisoned"]), [slot("benchmon")]),
     B=player(slot("target", damage=90, conditions=["Poisoned"]), [slot("benchmon")]),
     do=[{"type": "end_turn"}],
     expect={"legal": OK, "events": [{"type": "checkup", "step": "poisoned", "target": "A.active"},
                                      {"type": "checkup", "step": "poisoned", "target": "B.active"},
                                      {"type": "knockout"}, {"type": "knockout"}]})
case("chk-13-promote-then-next-turn", "CHK-01",
     "After a Checkup Knock Out and promotion, the next player's turn starts", "407",
     B=player(slot("target", damage=90, conditions=["Poisoned"]), [slot("benchmon")]),
     do=[{"type": "end_turn"}, {"type": "promote", "player": "B", "from": "B.bench[0]"}],
     expect={"legal": OK, "events": [{"type": "knockout"}, {"type": "turn", "player": "B", "number": 6}],
             "state": {"current": "B", "players": {"A": {"prizes": 5}, "B": {"active": {"card": "benchmon"}}}}})
case("chk-14-bench-has-no-conditions", "CHK-05",
     "Only Active Pokémon have Special Conditions: Benched Pokémon take no Poison", "411",
     B=player(slot("target", conditions=["Poisoned"]), [slot("benchmon", damage=10)]),
     do=[{"type": "end_turn"}],
     expect={"legal": OK, "state": {"players": {"B": {"active": {"damage": 10},
                                                      "bench": [{"damage": 10}]}}}})
case("chk-15-last-prize-at-checkup", "CHK-01",
     "A Poison Knock Out during Checkup can give the last Prize and the game", "407, 215",
     A=player(slot("hitter"), [slot("benchmon")], prizes=1),
     B=player(slot("target", damage=90, conditions=["Poisoned"]), [slot("benchmon")]),
     do=[{"type": "end_turn"}], expect={"legal": OK, "winner": "A"})

# --- Special Conditions ------------------------------------------------------------------

def cond_case(name: str, rule: str, title: str, lines: str, start: list[str], add: str,
              result: list[str], change: str = "added") -> None:
    case(name, rule, title, lines, B=player(slot("target", conditions=start), [slot("benchmon")]),
         do=[{"type": "condition", "target": "B.active", "add": add}],
         expect={"legal": OK, "events": [{"type": "condition", "condition": add, "change": change}],
                 "state": b_active(conditions=result)})


cond_case("sc-01-asleep-replaces-confused", "SC-03", "Asleep replaces Confused", "455",
          ["Confused"], "Asleep", ["Asleep"])
cond_case("sc-02-paralyzed-replaces-asleep", "SC-03", "Paralyzed replaces Asleep", "455",
          ["Asleep"], "Paralyzed", ["Paralyzed"])
cond_case("sc-03-confused-replaces-paralyzed", "SC-03", "Confused replaces Paralyzed", "455",
          ["Paralyzed"], "Confused", ["Confused"])
cond_case("sc-04-poison-with-asleep", "SC-03", "Poisoned coexists with Asleep", "425, 449, 455",
          ["Asleep"], "Poisoned", ["Asleep", "Poisoned"])
cond_case("sc-05-three-at-once", "SC-03", "Burned, Paralyzed and Poisoned at once", "425, 449, 455",
          ["Burned", "Poisoned"], "Paralyzed", ["Burned", "Paralyzed", "Poisoned"])
cond_case("sc-06-poison-replaces-poison", "SC-04", "A second Poison marker replaces the first",
          "449", ["Poisoned"], "Poisoned", ["Poisoned"], change="replaced")
cond_case("sc-07-burn-replaces-burn", "SC-04", "A second Burn marker replaces the first", "425",
          ["Burned"], "Burned", ["Burned"], change="replaced")
case("sc-09-retreat-clears", "RET-07", "Retreating to the Bench removes every Special Condition",
     "320, 411, 455", A=player(slot("hitter", energy=["Grass Energy"], conditions=["Confused", "Poisoned"]),
                               [slot("benchmon")]),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Grass Energy"]}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [{"card": "hitter", "conditions": []}]}}}})
case("sc-10-evolve-clears", "EVO-07", "Evolving removes every Special Condition", "281, 411",
     cards={"basic": poke("Charmander", 70, ("Fire",)),
            "evo": poke("Charmeleon", 100, ("Fire",), "Stage 1", "Charmander")},
     A=player(slot("basic", conditions=["Asleep", "Burned"], damage=20), [slot("benchmon")], hand=["evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "active"}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"card": "evo", "conditions": [],
                                                                  "damage": 20}}}}})
case("sc-11-switch-clears", "RET-07", "An effect that switches the Active also clears its conditions",
     "411, 455", A=player(slot("hitter", conditions=["Paralyzed"]), [slot("benchmon")]),
     do=[{"type": "switch", "player": "A", "to": "A.bench[0]"}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"card": "benchmon"},
                                                      "bench": [{"card": "hitter", "conditions": []}]}}}})
case("sc-12-remove-by-effect", "SC-01", "An effect removes a Special Condition", "409-411",
     B=player(slot("target", conditions=["Poisoned", "Asleep"]), [slot("benchmon")]),
     do=[{"type": "condition", "target": "B.active", "remove": "Asleep"}],
     expect={"legal": OK, "state": b_active(conditions=["Poisoned"])})

# --- Retreat ------------------------------------------------------------------------------

case("ret-01-pay-and-swap", "RET-01", "Retreat: discard one Energy for a one-Colorless cost, swap",
     "314-318", A=player(slot("hitter", energy=["Grass Energy", "Fire Energy"]), [slot("benchmon")],
                         discard=[]),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Fire Energy"]}],
     expect={"legal": OK, "state": {"players": {"A": {
         "active": {"card": "benchmon"}, "bench": [{"card": "hitter", "energy": ["Grass Energy"]}],
         "discard": ["Fire Energy"]}}}})
case("ret-02-free-retreat", "RET-01", "No Retreat Cost: retreat for free", "318, 978",
     cards={"hitter": poke("Lechonk", retreat=0)},
     do=[{"type": "retreat", "to": "bench[0]"}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"card": "benchmon"}}}}})
case("ret-03-cost-unpaid", "RET-01", "One Energy does not pay a two-Colorless Retreat Cost",
     "318, 978", cards={"hitter": poke("Lechonk", retreat=2)},
     A=player(slot("hitter", energy=["Grass Energy"]), [slot("benchmon")]),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Grass Energy"]}],
     expect={"legal": False, "reason": "retreat-cost-unpaid"})
case("ret-04-once-per-turn", "RET-05", "A second retreat in one turn is refused", "256, 314",
     cards={"hitter": poke("Lechonk", retreat=0), "benchmon": poke("Skwovet", 60, retreat=0)},
     do=[{"type": "retreat", "to": "bench[0]"}, {"type": "retreat", "to": "bench[0]"}],
     expect={"legal": False, "reason": "retreat-already"})
case("ret-05-asleep-blocked", "RET-03", "An Asleep Active cannot retreat", "318, 455",
     A=player(slot("hitter", energy=["Grass Energy"], conditions=["Asleep"]), [slot("benchmon")]),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Grass Energy"]}],
     expect={"legal": False, "reason": "retreat-blocked"})
case("ret-06-paralyzed-blocked", "RET-03", "A Paralyzed Active cannot retreat", "318, 455",
     A=player(slot("hitter", energy=["Grass Energy"], conditions=["Paralyzed"]), [slot("benchmon")]),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Grass Energy"]}],
     expect={"legal": False, "reason": "retreat-blocked"})
case("ret-07-confused-may-retreat", "RET-04", "A Confused Active retreats normally, no flip", "455",
     A=player(slot("hitter", energy=["Grass Energy"], conditions=["Confused"]), [slot("benchmon")]),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Grass Energy"]}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"card": "benchmon"}}}}})
case("ret-08-no-bench", "RET-01", "With an empty Bench there is nothing to retreat to", "318",
     A=player(slot("hitter", energy=["Grass Energy"]), []),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Grass Energy"]}],
     expect={"legal": False, "reason": "retreat-no-bench"})
case("ret-09-keeps-damage-and-energy", "RET-02",
     "The retreated Pokémon keeps its damage and its other Energy", "318",
     A=player(slot("hitter", energy=["Grass Energy", "Water Energy"], damage=40), [slot("benchmon")]),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Water Energy"]}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [{"card": "hitter", "damage": 40,
                                                                  "energy": ["Grass Energy"]}]}}}})
case("ret-10-swap-index", "RET-01",
     "The retreating Pokémon takes the Bench place of the one coming in", "318",
     cards={"hitter": poke("Lechonk", retreat=0), "two": poke("Tarountula", 50), "three": poke("Nymble", 50)},
     A=player(slot("hitter"), [slot("benchmon"), slot("two"), slot("three")]),
     do=[{"type": "retreat", "to": "bench[1]"}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"card": "two"}, "bench": [
         {"card": "benchmon"}, {"card": "hitter"}, {"card": "three"}]}}}})
case("ret-11-energy-not-attached", "RET-01",
     "Only Energy attached to the Active can pay its Retreat Cost", "318",
     A=player(slot("hitter", energy=["Grass Energy"]), [slot("benchmon", energy=["Fire Energy"])]),
     do=[{"type": "retreat", "to": "bench[0]", "discard": ["Fire Energy"]}],
     expect={"legal": False, "reason": "retreat-cost-unpaid"})

# --- Bench ------------------------------------------------------------------------------

FIVE = [slot("benchmon") for _ in range(5)]
case("ben-01-bench-basic", "BEN-01", "A Basic Pokémon from hand goes to the Bench", "252, 273",
     A=player(slot("hitter"), [], hand=["benchmon"]), do=[{"type": "bench", "card": "benchmon"}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [{"card": "benchmon"}], "hand": []}}}})
case("ben-02-bench-full", "BEN-01", "A sixth Benched Pokémon is refused", "201, 273",
     A=player(slot("hitter"), FIVE, hand=["benchmon"]), do=[{"type": "bench", "card": "benchmon"}],
     expect={"legal": False, "reason": "bench-full"})
case("ben-03-not-basic", "TERM-01", "A Stage 1 cannot be put onto the Bench from hand", "153-171",
     cards={"evo": poke("Charmeleon", 100, ("Fire",), "Stage 1", "Charmander")},
     A=player(slot("hitter"), [], hand=["evo"]), do=[{"type": "bench", "card": "evo"}],
     expect={"legal": False, "reason": "not-basic"})
case("ben-04-v-union-not-basic", "EVO-18", "A V-UNION piece is not a Basic Pokémon", "666-672",
     cards={"vu": poke("Mewtwo V-UNION", 310, ("Psychic",), "V-UNION", extra=("V",))},
     A=player(slot("hitter"), [], hand=["vu"]), do=[{"type": "bench", "card": "vu"}],
     expect={"legal": False, "reason": "not-basic"})
case("ben-05-restored-not-basic", "EVO-19", "A Restored Pokémon never comes from hand", "851-862",
     cards={"omanyte": poke("Omanyte", 90, ("Water",), "Restored")},
     A=player(slot("hitter"), [], hand=["omanyte"]), do=[{"type": "bench", "card": "omanyte"}],
     expect={"legal": False, "reason": "not-basic"})
case("ben-06-not-in-hand", "BEN-01", "A card that is not in the hand cannot be benched", "252",
     A=player(slot("hitter"), [], hand=[]), do=[{"type": "bench", "card": "benchmon"}],
     expect={"legal": False, "reason": "not-in-hand"})
case("ben-07-radiant-basic", "EVO-22", "A Radiant Pokémon is a Basic", "650, 970",
     cards={"rad": poke("Radiant Greninja", 130, ("Water",), extra=("Radiant",))},
     A=player(slot("hitter"), [], hand=["rad"]), do=[{"type": "bench", "card": "rad"}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [{"card": "rad"}]}}}})
case("ben-08-pokemon-v-basic", "EVO-23", "A Pokémon V is a Basic", "694-696",
     cards={"v": poke("Zacian V", 220, ("Metal",), extra=("V",))},
     A=player(slot("hitter"), [], hand=["v"]), do=[{"type": "bench", "card": "v"}],
     expect={"legal": OK})
case("ben-09-basic-mega-ex", "EVO-16", "Mega Kangaskhan ex is a Basic and is benched directly",
     "594-602", cards={"mk": poke("Mega Kangaskhan ex", 300, extra=("MEGA", "ex"))},
     A=player(slot("hitter"), [], hand=["mk"]), do=[{"type": "bench", "card": "mk"}],
     expect={"legal": OK})
case("ben-10-hidden-hand", "TERM-05",
     "With the hand unknown (a count), the played card comes out of the count", "183",
     A=player(slot("hitter"), [], hand={"count": 3}), do=[{"type": "bench", "card": "benchmon"}],
     expect={"legal": OK, "state": {"players": {"A": {"hand": {"count": 2}}}}})

# --- Evolution -------------------------------------------------------------------------

def evolve_case(name: str, rule: str, title: str, lines: str, cards: dict[str, Any], active: str, evo: str,
                reason: str | None = None, **expect: Any) -> None:
    """A's Active ``active`` (one Pokémon on the Bench) evolves into ``evo`` from the hand:
    refused for ``reason``, or accepted with the ``expect`` given (events, state)."""
    case(name, rule, title, lines, cards=cards, A=player(slot(active), [slot("benchmon")], hand=[evo]),
         do=[{"type": "evolve", "card": evo, "target": "active"}],
         expect={"legal": reason is None, **({"reason": reason} if reason else {}), **expect})


EVO_CARDS = {"basic": poke("Charmander", 70, ("Fire",)),
             "evo": poke("Charmeleon", 100, ("Fire",), "Stage 1", "Charmander"),
             "evo2": poke("Charizard", 180, ("Fire",), "Stage 2", "Charmeleon")}
case("evo-01-stage-1", "EVO-01", "Charmeleon evolves from Charmander in play", "277-281",
     cards=EVO_CARDS, A=player(slot("basic", damage=30, energy=["Fire Energy"]), [slot("benchmon")],
                               hand=["evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "active"}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {
         "card": "evo", "under": ["basic"], "damage": 30, "energy": ["Fire Energy"]}}}}})
case("evo-02-first-turn-second-player", "FT-02", "The second player cannot evolve on turn 2", "291",
     cards=EVO_CARDS, turn=2, current="B",
     B=player(slot("basic", entered_turn=0), [slot("benchmon")], hand=["evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "active"}],
     expect={"legal": False, "reason": "evolve-first-turn"})
case("evo-03-first-turn-first-player", "FT-01", "The first player cannot evolve on turn 1", "291",
     cards=EVO_CARDS, turn=1, A=player(slot("basic", entered_turn=0), [slot("benchmon")], hand=["evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "active"}],
     expect={"legal": False, "reason": "evolve-first-turn"})
case("evo-04-new-in-play", "EVO-02", "A Pokémon benched this turn cannot evolve this turn",
     "279, 291", cards=EVO_CARDS, A=player(slot("hitter"), [], hand=["basic", "evo"]),
     do=[{"type": "bench", "card": "basic"}, {"type": "evolve", "card": "evo", "target": "bench[0]"}],
     expect={"legal": False, "reason": "evolve-new-in-play"})
case("evo-05-once-per-turn", "EVO-03", "No Basic → Stage 1 → Stage 2 in one turn", "291",
     cards=EVO_CARDS, A=player(slot("basic"), [slot("benchmon")], hand=["evo", "evo2"]),
     do=[{"type": "evolve", "card": "evo", "target": "active"},
         {"type": "evolve", "card": "evo2", "target": "active"}],
     expect={"legal": False, "reason": "evolve-new-in-play"})
case("evo-06-stage-2-next-turn", "EVO-04", "A Stage 1 in play since last turn evolves into Stage 2",
     "281, 291", cards=EVO_CARDS,
     A=player(slot("evo", under=["basic"], entered_turn=3), [slot("benchmon")], hand=["evo2"]),
     do=[{"type": "evolve", "card": "evo2", "target": "active"}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"card": "evo2", "under": ["basic", "evo"],
                                                                  "entered_turn": 5}}}}})
evolve_case("evo-07-skip-stage", "EVO-04", "A Stage 2 cannot go straight onto the Basic", "281",
            EVO_CARDS, "basic", "evo2", "evolve-mismatch")
evolve_case("evo-08-owner-name", "NAME-04", "Graveler does not evolve from Brock's Geodude", "567-573",
            {"bg": poke("Brock's Geodude", 60, ("Fighting",)),
             "grav": poke("Graveler", 90, ("Fighting",), "Stage 1", "Geodude")},
            "bg", "grav", "evolve-mismatch")
evolve_case("evo-09-regional-name", "NAME-05", "Clodsire (from Paldean Wooper) does not go on a Wooper",
            "567-571, 710-716", {"woop": poke("Wooper", 60, ("Water",)),
                                 "clod": poke("Clodsire", 130, ("Darkness",), "Stage 1", "Paldean Wooper")},
            "woop", "clod", "evolve-mismatch")
evolve_case("evo-10-regional-match", "NAME-05", "Clodsire evolves from Paldean Wooper", "710-716",
            {"woop": poke("Paldean Wooper", 60, ("Darkness",)),
             "clod": poke("Clodsire", 130, ("Darkness",), "Stage 1", "Paldean Wooper")},
            "woop", "clod")
evolve_case("evo-11-ex-is-part-of-name", "NAME-06", "A Stage 1 from Charmander does not go on Charmander ex",
            "628", {"cex": poke("Charmander ex", 150, ("Fire",), extra=("ex",)), "evo": EVO_CARDS["evo"]},
            "cex", "evo", "evolve-mismatch")
evolve_case("evo-12-trainers-pokemon", "EVO-29", "Iono's Bellibolt ex does not evolve from Tadbulp", "606-608",
            {"tad": poke("Tadbulp", 70, ("Lightning",)),
             "belli": poke("Iono's Bellibolt ex", 280, ("Lightning",), "Stage 1", "Iono's Tadbulp", extra=("ex",))},
            "tad", "belli", "evolve-mismatch")
evolve_case("evo-13-trainers-pokemon-match", "EVO-29", "Iono's Bellibolt ex evolves from Iono's Tadbulp",
            "606-608", {"tad": poke("Iono's Tadbulp", 70, ("Lightning",)),
                        "belli": poke("Iono's Bellibolt ex", 280, ("Lightning",), "Stage 1", "Iono's Tadbulp",
                                      extra=("ex",))},
            "tad", "belli")
evolve_case("evo-14-team-plasma", "NAME-07", "Team Plasma Liepard evolves from a Purrloin as usual", "841-847",
            {"purr": poke("Purrloin", 60, ("Darkness",)),
             "liep": poke("Team Plasma Liepard", 90, ("Darkness",), "Stage 1", "Purrloin", extra=("Team Plasma",))},
            "purr", "liep")
evolve_case("evo-15-vstar-needs-v", "EVO-12", "Shaymin VSTAR does not evolve from a plain Shaymin", "654-662",
            {"shay": poke("Shaymin", 70, ("Grass",)),
             "vstar": poke("Shaymin VSTAR", 250, ("Grass",), "VSTAR", "Shaymin V")},
            "shay", "vstar", "evolve-mismatch")
evolve_case("evo-16-vstar-from-v", "EVO-12", "Shaymin VSTAR evolves from Shaymin V", "654-662",
            {"shay": poke("Shaymin V", 200, ("Grass",), extra=("V",)),
             "vstar": poke("Shaymin VSTAR", 250, ("Grass",), "VSTAR", "Shaymin V")},
            "shay", "vstar")
case("evo-17-vmax-from-v", "EVO-13", "A VMAX evolves only from its Pokémon V, with normal timing",
     "700-706", cards={"v": poke("Eternatus V", 220, ("Darkness",), extra=("V",)),
                       "vmax": poke("Eternatus VMAX", 340, ("Darkness",), "VMAX", "Eternatus V")},
     A=player(slot("hitter"), [], hand=["v", "vmax"]),
     do=[{"type": "bench", "card": "v"}, {"type": "evolve", "card": "vmax", "target": "bench[0]"}],
     expect={"legal": False, "reason": "evolve-new-in-play"})
evolve_case("evo-18-mega-ex-xy-ends-turn", "EVO-15",
            "Putting M Venusaur-EX into play ends the turn at once", "822-838, 930",
            {"vex": poke("Venusaur-EX", 180, ("Grass",), extra=("EX",)),
             "mvex": poke("M Venusaur-EX", 230, ("Grass",), "MEGA", "Venusaur-EX", extra=("EX",))},
            "vex", "mvex", events=[{"type": "turn", "player": "B", "number": 6}], state={"current": "B"})
case("evo-19-mega-ex-2025-no-end", "EVO-16",
     "Mega Lucario ex evolves from Riolu and the turn goes on", "594-602",
     cards={"riolu": poke("Riolu", 70, ("Fighting",)),
            "ml": poke("Mega Lucario ex", 340, ("Fighting",), "Stage 1", "Riolu", extra=("MEGA", "ex"))},
     A=player(slot("riolu"), [slot("benchmon")], hand=["ml", "Fighting Energy"]),
     do=[{"type": "evolve", "card": "ml", "target": "active"},
         {"type": "attach", "card": "Fighting Energy", "target": "active"}],
     expect={"legal": OK, "state": {"current": "A"}})
evolve_case("evo-20-gx-from-non-gx", "EVO-17", "Primarina-GX evolves from Brionne", "750-760",
            {"bri": poke("Brionne", 90, ("Water",), "Stage 1", "Popplio"),
             "prim": poke("Primarina-GX", 250, ("Water",), "Stage 2", "Brionne", extra=("GX",))},
            "bri", "prim")
evolve_case("evo-21-radiant-never-evolves", "EVO-22", "Nothing evolves from a Radiant Pokémon", "650",
            {"rad": poke("Radiant Greninja", 130, ("Water",), extra=("Radiant",)),
             "x": poke("Greninja", 140, ("Water",), "Stage 2", "Frogadier")},
            "rad", "x", "evolve-mismatch")
case("evo-22-evolve-bench", "EVO-01", "A Benched Pokémon evolves too", "279",
     cards=EVO_CARDS, A=player(slot("hitter"), [slot("basic")], hand=["evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "bench[0]"}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [{"card": "evo", "under": ["basic"]}]}}}})
case("evo-23-two-pokemon-one-turn", "EVO-03", "Two different Pokémon may each evolve in one turn",
     "253, 291", cards=EVO_CARDS, A=player(slot("basic"), [slot("basic")], hand=["evo", "evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "active"},
         {"type": "evolve", "card": "evo", "target": "bench[0]"}], expect={"legal": OK})
case("evo-24-not-in-hand", "EVO-01", "An Evolution card must come from the hand", "279",
     cards=EVO_CARDS, A=player(slot("basic"), [slot("benchmon")], hand=[]),
     do=[{"type": "evolve", "card": "evo", "target": "active"}],
     expect={"legal": False, "reason": "not-in-hand"})

# --- Energy, Trainers, Tools -------------------------------------------------------------

case("en-01-one-per-turn", "EN-01", "A second Energy attachment from hand is refused", "254, 293-295",
     A=player(slot("hitter"), [slot("benchmon")], hand=["Grass Energy", "Fire Energy"]),
     do=[{"type": "attach", "card": "Grass Energy", "target": "active"},
         {"type": "attach", "card": "Fire Energy", "target": "bench[0]"}],
     expect={"legal": False, "reason": "energy-already-attached"})
case("en-02-attach-bench", "EN-01", "The attachment may go to a Benched Pokémon", "293-295",
     A=player(slot("hitter"), [slot("benchmon")], hand=["Grass Energy"]),
     do=[{"type": "attach", "card": "Grass Energy", "target": "bench[0]"}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [{"energy": ["Grass Energy"]}]}}}})
case("en-03-not-energy", "EN-01", "A Trainer card cannot be attached as Energy", "293-295",
     cards={"ball": trainer("Poké Ball", "Item")}, A=player(slot("hitter"), [slot("benchmon")], hand=["ball"]),
     do=[{"type": "attach", "card": "ball", "target": "active"}],
     expect={"legal": False, "reason": "not-energy"})
case("en-04-fairy-energy", "TERM-13", "Fairy Energy pays a Fairy cost", "78-145",
     cards={"hitter": poke("Flabébé", 40, ("Fairy",), attacks=(("Fairy Wind", ["Fairy"], "20"),))},
     A=player(slot("hitter"), [slot("benchmon")], hand=["Fairy Energy"]),
     do=[{"type": "attach", "card": "Fairy Energy", "target": "active"}, attack("Fairy Wind")],
     expect={"legal": OK, "events": [dmg("B.active", 20)]})
case("en-05-next-turn-again", "EN-01", "A new turn allows a new attachment", "254",
     A=player(slot("hitter"), [slot("benchmon")], hand=["Grass Energy"]),
     B=player(slot("target"), [slot("benchmon")], hand=["Water Energy"]),
     do=[{"type": "attach", "card": "Grass Energy", "target": "active"}, {"type": "end_turn"},
         {"type": "attach", "card": "Water Energy", "target": "active"}],
     expect={"legal": OK})
ITEMS = {"ball": trainer("Poké Ball", "Item"), "potion": trainer("Potion", "Item"),
         "switch": trainer("Switch", "Item"), "boss": trainer("Boss's Orders", "Supporter"),
         "iono": trainer("Iono", "Supporter"), "town": trainer("Artazon", "Stadium"),
         "town2": trainer("Mesagoza", "Stadium"), "charm": trainer("Bravery Charm", "Pokémon Tool"),
         "vest": trainer("Hero's Cape", "Pokémon Tool", "ACE SPEC")}
case("tr-01-items-unlimited", "TR-02", "Any number of Items in a turn", "301",
     cards=ITEMS, A=player(slot("hitter"), [slot("benchmon")], hand=["ball", "potion", "switch"]),
     do=[{"type": "play", "card": "ball"}, {"type": "play", "card": "potion"}, {"type": "play", "card": "switch"}],
     expect={"legal": OK, "state": {"players": {"A": {"discard": ["ball", "potion", "switch"]}}}})
case("tr-02-one-supporter", "TR-03", "A second Supporter in one turn is refused", "255, 301",
     cards=ITEMS, A=player(slot("hitter"), [slot("benchmon")], hand=["boss", "iono"]),
     do=[{"type": "play", "card": "boss"}, {"type": "play", "card": "iono"}],
     expect={"legal": False, "reason": "supporter-already-played"})
case("tr-03-supporter-first-turn", "TR-05", "The first player plays no Supporter on turn 1", "303",
     cards=ITEMS, turn=1, A=player(slot("hitter"), [slot("benchmon")], hand=["iono"], deck=40),
     do=[{"type": "play", "card": "iono"}], expect={"legal": False, "reason": "supporter-first-turn"})
case("tr-04-supporter-second-player", "FT-02", "The second player may play a Supporter on turn 2",
     "303", cards=ITEMS, turn=2, current="B",
     B=player(slot("target"), [slot("benchmon")], hand=["iono"], deck=40),
     do=[{"type": "play", "card": "iono"}], expect={"legal": OK})
case("tr-05-item-first-turn", "FT-01", "Items may be played on turn 1", "299-301",
     cards=ITEMS, turn=1, A=player(slot("hitter"), [slot("benchmon")], hand=["ball"], deck=40),
     do=[{"type": "play", "card": "ball"}], expect={"legal": OK})
case("tr-06-supporter-discarded", "TR-04", "A played Supporter goes to the discard pile", "301",
     cards=ITEMS, A=player(slot("hitter"), [slot("benchmon")], hand=["iono"], discard=[]),
     do=[{"type": "play", "card": "iono"}],
     expect={"legal": OK, "state": {"players": {"A": {"discard": ["iono"], "hand": []}}}})
case("tr-07-supporter-next-turn", "TR-03", "Each turn allows its own Supporter", "255",
     cards=ITEMS, A=player(slot("hitter"), [slot("benchmon")], hand=["iono"]),
     B=player(slot("target"), [slot("benchmon")], hand=["boss"]),
     do=[{"type": "play", "card": "iono"}, {"type": "end_turn"}, {"type": "play", "card": "boss"}],
     expect={"legal": OK})
case("sta-01-stays-in-play", "STA-01", "A Stadium stays on the table", "305-308",
     cards=ITEMS, A=player(slot("hitter"), [slot("benchmon")], hand=["town"]),
     do=[{"type": "play", "card": "town"}], expect={"legal": OK, "state": {"stadium": {"card": "town", "owner": "A"}}})
case("sta-02-replaces-opponents", "STA-01",
     "A new Stadium sends the old one to its owner's discard pile", "305-308",
     cards=ITEMS, extra_state={"stadium": {"card": "town2", "owner": "B"}},
     A=player(slot("hitter"), [slot("benchmon")], hand=["town"]),
     B=player(slot("target"), [slot("benchmon")], discard=[]),
     do=[{"type": "play", "card": "town"}],
     expect={"legal": OK, "state": {"stadium": {"card": "town", "owner": "A"},
                                    "players": {"B": {"discard": ["town2"]}}}})
case("sta-03-one-per-turn", "STA-02", "A second Stadium in one turn is refused", "255, 310",
     cards=ITEMS, A=player(slot("hitter"), [slot("benchmon")], hand=["town", "town2"]),
     do=[{"type": "play", "card": "town"}, {"type": "play", "card": "town2"}],
     expect={"legal": False, "reason": "stadium-already-played"})
case("sta-04-same-name", "STA-03", "A Stadium with the same name as the one in play is refused",
     "309", cards=ITEMS, extra_state={"stadium": {"card": "town", "owner": "B"}},
     A=player(slot("hitter"), [slot("benchmon")], hand=["town"]),
     do=[{"type": "play", "card": "town"}], expect={"legal": False, "reason": "stadium-same-name"})
case("sta-05-first-turn", "FT-01", "The first player may play a Stadium on turn 1", "299-310",
     cards=ITEMS, turn=1, A=player(slot("hitter"), [slot("benchmon")], hand=["town"], deck=40),
     do=[{"type": "play", "card": "town"}], expect={"legal": OK})
case("tool-01-one-tool", "TOOL-01", "A Pokémon carries one Pokémon Tool at most", "956",
     cards=ITEMS, A=player(slot("hitter", tool="charm"), [slot("benchmon")], hand=["vest"]),
     do=[{"type": "play", "card": "vest", "target": "active"}],
     expect={"legal": False, "reason": "tool-already-attached"})
case("tool-02-attach", "TR-01", "A Pokémon Tool stays attached to its Pokémon", "956",
     cards=ITEMS, A=player(slot("hitter"), [slot("benchmon")], hand=["charm"]),
     do=[{"type": "play", "card": "charm", "target": "bench[0]"}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [{"tool": "charm"}]}}}})
case("tool-03-v-union-one-tool", "TOOL-02", "A V-UNION carries only one Tool", "670",
     cards={**ITEMS, "vu": poke("Mewtwo V-UNION", 310, ("Psychic",), "V-UNION", extra=("V",))},
     A=player(slot("hitter"), [slot("vu", under=["vu", "vu", "vu"], tool="charm")], hand=["vest"]),
     do=[{"type": "play", "card": "vest", "target": "bench[0]"}],
     expect={"legal": False, "reason": "tool-already-attached"})
case("tool-04-technical-machine", "TM-02", "A Technical Machine Tool counts as the Pokémon's Tool",
     "992", cards={**ITEMS, "tm": trainer("Technical Machine: Evolution", "Pokémon Tool", "Technical Machine")},
     A=player(slot("hitter", tool="charm"), [slot("benchmon")], hand=["tm"]),
     do=[{"type": "play", "card": "tm", "target": "active"}],
     expect={"legal": False, "reason": "tool-already-attached"})
case("tr-08-not-in-hand", "TR-01", "A Trainer card must be in the hand to be played", "299",
     cards=ITEMS, A=player(slot("hitter"), [slot("benchmon")], hand=["ball"]),
     do=[{"type": "play", "card": "ball"}, {"type": "play", "card": "ball"}],
     expect={"legal": False, "reason": "not-in-hand"})

# --- Abilities -------------------------------------------------------------------------

case("abi-01-from-bench", "ABI-05", "An Ability is used from the Bench", "324-330",
     cards={"benchmon": poke("Bibarel", 120, abilities=(("Industrious Incisors", "Ability"),))},
     do=[{"type": "ability", "pokemon": "bench[0]", "name": "Industrious Incisors"}], expect={"legal": OK})
case("abi-02-ability-while-confused", "ABI-05",
     "An Ability still works while its Pokémon is Confused", "324-330, 934-936",
     cards={"hitter": poke("Bibarel", 120, abilities=(("Industrious Incisors", "Ability"),))},
     A=player(slot("hitter", conditions=["Confused"]), [slot("benchmon")]),
     do=[{"type": "ability", "pokemon": "active", "name": "Industrious Incisors"}], expect={"legal": OK})
case("abi-03-poke-power-blocked", "ABI-04",
     "An old Poké-Power stops working while its Pokémon has a Special Condition", "934-936",
     cards={"hitter": poke("Crobat G", 80, ("Psychic",), abilities=(("Flash Bite", "Poké-Power"),))},
     A=player(slot("hitter", conditions=["Asleep"]), [slot("benchmon")]),
     do=[{"type": "ability", "pokemon": "active", "name": "Flash Bite"}],
     expect={"legal": False, "reason": "ability-blocked"})
case("abi-04-any-number", "ABI-05", "Abilities may be used several times as their text allows",
     "257, 326", cards={"benchmon": poke("Bibarel", 120, abilities=(("Industrious Incisors", "Ability"),))},
     A=player(slot("hitter"), [slot("benchmon"), slot("benchmon")]),
     do=[{"type": "ability", "pokemon": "bench[0]", "name": "Industrious Incisors"},
         {"type": "ability", "pokemon": "bench[1]", "name": "Industrious Incisors"}], expect={"legal": OK})
case("abi-05-not-an-attack", "ABI-01", "An Ability is not an attack: the turn goes on", "499-509",
     cards={"benchmon": poke("Bibarel", 120, abilities=(("Industrious Incisors", "Ability"),))},
     A=player(slot("hitter"), [slot("benchmon")], hand=["Grass Energy"]),
     do=[{"type": "ability", "pokemon": "bench[0]", "name": "Industrious Incisors"},
         {"type": "attach", "card": "Grass Energy", "target": "active"}], expect={"legal": OK})
# --- Setup and mulligans ------------------------------------------------------------------

SETUP_STATE = {"A": player(None, [], hand={"count": 0}, prizes=0, deck=60),
               "B": player(None, [], hand={"count": 0}, prizes=0, deck=60)}


def setup_case(name: str, rule: str, title: str, lines: str, mulligans: dict[str, int],
               events: list[dict[str, Any]], state: dict[str, Any] | None = None) -> None:
    case(name, rule, title, lines, turn=1, A=SETUP_STATE["A"], B=SETUP_STATE["B"],
         extra_state={"phase": "setup"}, do=[{"type": "setup", "mulligans": mulligans}],
         expect={"legal": OK, "events": events, **({"state": state} if state else {})})


setup_case("set-01-deal", "SET-01", "Setup: 7 cards in hand and 6 Prize cards from the top",
           "221-240", {"A": 0, "B": 0}, [],
           {"players": {"A": {"hand": {"count": 7}, "prizes": 6, "deck": 47},
                        "B": {"hand": {"count": 7}, "prizes": 6, "deck": 47}}})
setup_case("mul-01-one-mulligan", "MUL-02", "B mulligans once: A may draw 1 extra card", "237",
           {"A": 0, "B": 1}, [{"type": "mulligan_draws", "player": "A", "max": 1}])
setup_case("mul-02-both-cancel", "MUL-03", "Both players mulligan twice: nobody draws extra",
           "486-488", {"A": 2, "B": 2}, [], {"players": {"A": {"mulligans": 2}, "B": {"mulligans": 2}}})
setup_case("mul-03-extra-mulligans", "MUL-04",
           "Both took 2, then A took 3 more: B may draw up to 3", "490-495",
           {"A": 5, "B": 2}, [{"type": "mulligan_draws", "player": "B", "max": 3}])
case("set-02-no-attack-in-setup", "SET-01", "Nothing but setup happens before the game starts",
     "221-240", turn=1, A=SETUP_STATE["A"], B=SETUP_STATE["B"], extra_state={"phase": "setup"},
     do=[{"type": "end_turn"}], expect={"legal": False, "reason": "wrong-phase"})

# --- Deck building (deck_check) ------------------------------------------------------------

DECK_CARDS = {
    "charmander": poke("Charmander", 70, ("Fire",)),
    "iono": trainer("Iono", "Supporter"),
    "ace": trainer("Prime Catcher", "Item", "ACE SPEC"),
    "ace2": trainer("Maximum Belt", "Pokémon Tool", "ACE SPEC"),
    "rad": poke("Radiant Charizard", 160, ("Fire",), extra=("Radiant",)),
    "rad2": poke("Radiant Greninja", 130, ("Water",), extra=("Radiant",)),
    "cex": poke("Charizard ex", 330, ("Darkness",), "Stage 2", "Charmeleon", extra=("ex",)),
    "vu": poke("Mewtwo V-UNION", 310, ("Psychic",), "V-UNION", extra=("V",)),
    "plasma": poke("Team Plasma Liepard", 90, ("Darkness",), "Stage 1", "Purrloin", extra=("Team Plasma",)),
    "liepard": poke("Liepard", 90, ("Darkness",), "Stage 1", "Purrloin"),
    "prism": poke("Giratina ◇", 130, ("Psychic",), extra=("Prism Star",)),
    "yveltal": poke("Yveltal-EX", 170, ("Darkness",), extra=("EX",)),
}


def deck(lines: list[str]) -> str:
    return "\n".join(lines)


def deck_case(name: str, rule: str, title: str, lines: str, text: str, reason: str | None) -> None:
    case(name, rule, title, lines, cards=DECK_CARDS, do=[{"type": "deck_check", "deck": text}],
         expect={"legal": reason is None, **({"reason": reason} if reason else {})})


deck_case("deck-01-sixty", "DECK-01", "A 60-card deck with 4 Charmander and basic Energy is legal",
          "579-581", deck(["Pokémon: 4", "4 Charmander TST 4", "Energy: 56", "56 Basic Fire Energy"]), None)
deck_case("deck-02-fifty-nine", "DECK-01", "59 cards is not a deck", "579",
          deck(["Pokémon: 4", "4 Charmander TST 4", "Energy: 55", "55 Basic Fire Energy"]), "deck-size")
deck_case("deck-03-sixty-one", "DECK-01", "61 cards is not a deck", "579",
          deck(["Pokémon: 4", "4 Charmander TST 4", "Energy: 57", "57 Basic Fire Energy"]), "deck-size")
deck_case("deck-04-five-copies", "DECK-02", "Five Charmander break the 4-copy rule", "571, 581",
          deck(["Pokémon: 5", "5 Charmander TST 4", "Energy: 55", "55 Basic Fire Energy"]), "copies-exceeded")
deck_case("deck-05-no-basic", "DECK-03", "A deck without a Basic Pokémon is illegal", "581, 588",
          deck(["Trainer: 4", "4 Iono TST 185", "Energy: 56", "56 Basic Fire Energy"]), "no-basic")
deck_case("deck-06-one-ace-spec", "DECK-07", "Two different ACE SPEC cards are one too many",
          "612-614, 868", deck(["Pokémon: 4", "4 Charmander TST 4", "Trainer: 2", "1 Prime Catcher TEF 157",
                                "1 Maximum Belt TEF 154", "Energy: 54", "54 Basic Fire Energy"]),
          "ace-spec-exceeded")
deck_case("deck-07-one-radiant", "DECK-09", "Two different Radiant Pokémon are one too many",
          "648-650, 970", deck(["Pokémon: 6", "4 Charmander TST 4", "1 Radiant Charizard PGO 11",
                                "1 Radiant Greninja ASR 46", "Energy: 54", "54 Basic Fire Energy"]),
          "radiant-exceeded")
deck_case("deck-08-radiant-is-a-name", "DECK-09", "4 Charmander and 1 Radiant Charizard are legal",
          "650", deck(["Pokémon: 5", "4 Charmander TST 4", "1 Radiant Charizard PGO 11", "Energy: 55",
                       "55 Basic Fire Energy"]), None)
deck_case("deck-09-ex-is-a-name", "DECK-11", "4 Charmander and 4 Charizard ex are different names",
          "628-630", deck(["Pokémon: 8", "4 Charmander TST 4", "4 Charizard ex OBF 125", "Energy: 52",
                           "52 Basic Fire Energy"]), None)
deck_case("deck-10-basic-energy-unlimited", "DECK-02", "Any number of basic Energy cards", "571, 880",
          deck(["Pokémon: 1", "1 Charmander TST 4", "Energy: 59", "30 Basic Fire Energy",
                "29 Basic Fairy Energy"]), None)
deck_case("deck-11-team-plasma", "DECK-12", "Team Plasma Liepard counts as Liepard: 3 + 2 is too many",
          "847", deck(["Pokémon: 9", "4 Charmander TST 4", "3 Team Plasma Liepard PLF 71",
                       "2 Liepard DEX 65", "Energy: 51", "51 Basic Fire Energy"]), "copies-exceeded")
deck_case("deck-12-v-union-only", "DECK-04", "A deck whose only Pokémon are V-UNION has no Basic",
          "672, 581", deck(["Pokémon: 4", "4 Mewtwo V-UNION SWSH 159", "Energy: 56", "56 Basic Psychic Energy"]),
          "no-basic")
deck_case("deck-13-prism-star", "DECK-08", "Two copies of one Prism Star card are refused",
          "732-734, 966", deck(["Pokémon: 6", "4 Charmander TST 4", "2 Giratina ◇ LOT 97", "Energy: 54",
                                "54 Basic Fire Energy"]), "prism-star-duplicate")
deck_case("deck-14-supporters-count", "DECK-02", "Five Iono break the 4-copy rule", "571, 581",
          deck(["Pokémon: 4", "4 Charmander TST 4", "Trainer: 5", "5 Iono PAL 185", "Energy: 51",
                "51 Basic Fire Energy"]), "copies-exceeded")

# --- Lost Zone and effects ----------------------------------------------------------------

case("eff-01-switch-effect", "RET-07", "An effect switches the Active with a Benched Pokémon",
     "320, 411", do=[{"type": "switch", "player": "B", "to": "B.bench[0]"}],
     expect={"legal": OK, "state": {"players": {"B": {"active": {"card": "benchmon"},
                                                      "bench": [{"card": "target"}]}}}})
case("eff-02-counters-on-bench", "TERM-06", "Each damage counter is 10 damage, Bench included", "894",
     do=[{"type": "counters", "target": "B.bench[0]", "counters": 3}],
     expect={"legal": OK, "state": {"players": {"B": {"bench": [{"damage": 30}]}}}})
case("eff-03-promote-without-knockout", "KO-04", "Promoting when the Active is in play is refused",
     "385", do=[{"type": "promote", "player": "B", "from": "B.bench[0]"}],
     expect={"legal": False, "reason": "wrong-phase"})


# --- Zones, evolution stacks and special cards (the rest of RULES.md's 2025 rules) --------

FOSSIL = {**trainer("Rare Fossil", "Item"), "hp": 70}
EX_MON = poke("Yveltal-EX", 170, ("Darkness",), extra=("EX",))
HYPER_GEAR = {**trainer("Head Ringer", "Pokémon Tool"), "rules": ["Team Flare Hyper Gear"]}

case("zone-01-bench-after-active", "BEN-02",
     "Setup: the first Basic fills the Active Spot, every further one goes to the Bench",
     "201, 227-231", turn=1, extra_state={"phase": "setup"},
     A=player(None, [], hand=["hitter", "benchmon"], deck=47),
     B=player(None, [], hand=["target"], deck=47),
     do=[{"type": "bench", "card": "hitter"}, {"type": "bench", "card": "benchmon"}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"card": "hitter"},
                                                      "bench": [{"card": "benchmon"}]}}}})
case("zone-02-v-union-one-spot", "BEN-04",
     "A V-UNION and three Pokémon leave room for a fifth Benched Pokémon", "670",
     cards={"vu": poke("Mewtwo V-UNION", 310, ("Psychic",), "V-UNION", extra=("V",))},
     A=player(slot("hitter"), [slot("vu", under=["vu", "vu", "vu"]), slot("benchmon"), slot("benchmon"),
                               slot("benchmon")], hand=["benchmon"]),
     do=[{"type": "bench", "card": "benchmon"}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [
         {"card": "vu", "under": ["vu", "vu", "vu"]}, {"card": "benchmon"}, {"card": "benchmon"},
         {"card": "benchmon"}, {"card": "benchmon"}]}}}})
case("zone-03-no-active-first", "TERM-03",
     "A player without an Active Pokémon must fill the Active Spot before benching", "197, 201",
     A=player(None, [slot("benchmon")], hand=["hitter"]), do=[{"type": "bench", "card": "hitter"}],
     expect={"legal": False, "reason": "promote-required"})
case("zone-04-discard-not-in-play", "TERM-04",
     "A Pokémon in the discard pile is not in play: Knocking Out the last one in play wins",
     "918, 197", B=player(slot("target", damage=70), [], discard=["benchmon"]), do=[attack()],
     expect={"legal": OK, "events": [{"type": "win", "player": "A", "why": "no-pokemon"}], "winner": "A"})
case("zone-05-defending-pokemon", "TERM-07",
     "After an effect brings another Pokémon to the Active Spot, that one is the Defending Pokémon",
     "896, 870", do=[{"type": "switch", "player": "B", "to": "B.bench[0]"}, attack()],
     expect={"legal": OK, "events": [dmg("B.active", 30)],
             "state": {"players": {"B": {"active": {"card": "benchmon", "damage": 30},
                                         "bench": [{"card": "target", "damage": 0}]}}}})
case("zone-06-lost-zone-out-of-play", "LZ-01",
     "A card in the Lost Zone cannot be played again: with it not in hand, attaching it is refused",
     "644, 926", A=player(slot("hitter"), [slot("benchmon")], hand=[], lost_zone=["Fire Energy"]),
     do=[{"type": "attach", "card": "Fire Energy", "target": "active"}],
     expect={"legal": False, "reason": "not-in-hand"})
case("zone-07-tool-is-its-own-subtype", "TERM-02",
     "A Pokémon Tool is no Supporter: it is played after a Supporter and stays attached", "171, 956",
     cards=ITEMS, A=player(slot("hitter"), [slot("benchmon")], hand=["charm"],
                           turn_flags={"supporter_played": True}),
     do=[{"type": "play", "card": "charm", "target": "active"}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"tool": "charm"}, "discard": []}}}})
case("evo-20-keeps-attached", "EVO-05",
     "Evolving keeps the Energy, the Tool, the damage counters and the card below", "281",
     cards={**ITEMS, "basic": poke("Charmander", 70, ("Fire",)),
            "evo": poke("Charmeleon", 100, ("Fire",), "Stage 1", "Charmander")},
     A=player(slot("basic", energy=["Fire Energy"], tool="charm", damage=30), [slot("benchmon")], hand=["evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "active"}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {
         "card": "evo", "under": ["basic"], "energy": ["Fire Energy"], "tool": "charm", "damage": 30}}}}})
case("evo-21-energy-stays", "EN-02",
     "Energy stays through evolution, and through retreat except the Energy paid", "281, 318",
     cards={"hitter": poke("Lechonk", retreat=1),
            "evo": poke("Greedent", 120, ("Colorless",), "Stage 1", "Skwovet")},
     A=player(slot("hitter", energy=["Grass Energy", "Fire Energy"]), [slot("benchmon", energy=["Water Energy"])],
              hand=["evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "bench[0]"},
         {"type": "retreat", "to": "bench[0]", "discard": ["Grass Energy"]}],
     expect={"legal": OK, "state": {"players": {"A": {"active": {"card": "evo", "energy": ["Water Energy"]},
                                                      "bench": [{"card": "hitter", "energy": ["Fire Energy"]}]}}}})
evolve_case("evo-22-owner-must-match", "EVO-08", "Graveler does not evolve from Brock's Geodude", "573, 998",
            {"geo": poke("Brock's Geodude", 60, ("Fighting",)),
             "grav": poke("Graveler", 90, ("Fighting",), "Stage 1", "Geodude")},
            "geo", "grav", "evolve-mismatch")
evolve_case("evo-23-level-not-name", "EVO-08",
            "Graveler evolves from Geodude LV.12: a level is not part of the name", "558-560, 573",
            {"geo": {**poke("Geodude", 60, ("Fighting",)), "level": "12"},
             "grav": poke("Graveler", 90, ("Fighting",), "Stage 1", "Geodude")},
            "geo", "grav", state={"players": {"A": {"active": {"card": "grav", "under": ["geo"]}}}})
evolve_case("evo-24-plasma-lower-stage", "EVO-30",
            "Liepard evolves from a Team Plasma Purrloin: Team Plasma is no part of the name", "845-847",
            {"purr": poke("Team Plasma Purrloin", 60, ("Darkness",), extra=("Team Plasma",)),
             "liepard": poke("Liepard", 90, ("Darkness",), "Stage 1", "Purrloin")},
            "purr", "liepard")
case("evo-25-tag-team", "EVO-24",
     "A TAG TEAM is a Basic Pokémon-GX: benched straight from hand, worth 3 Prizes", "726-728, 988",
     cards={"tag": poke("Pikachu & Zekrom-GX", 240, ("Lightning",), extra=("GX", "TAG TEAM"))},
     A=player(slot("hitter"), [], hand=["tag"]), B=player(slot("tag", damage=210), [slot("benchmon")]),
     do=[{"type": "bench", "card": "tag"}, attack()],
     expect={"legal": OK, "events": [{"type": "knockout", "target": "B.active", "prizes": 3},
                                     {"type": "prize", "player": "A", "count": 3}]})
case("evo-26-legend-half", "EVO-28",
     "One half of a Pokémon LEGEND is not a Basic: it cannot go onto the Bench alone", "948",
     cards={"legend": poke("Rayquaza & Deoxys LEGEND", 150, ("Colorless",), "LEGEND")},
     A=player(slot("hitter"), [], hand=["legend"]), do=[{"type": "bench", "card": "legend"}],
     expect={"legal": False, "reason": "not-basic"})
case("evo-27-rare-fossil-bench", "EVO-20",
     "Rare Fossil, an Item, goes onto the Bench as a Basic Pokémon during the turn", "738-740",
     cards={"fossil": FOSSIL}, A=player(slot("hitter"), [], hand=["fossil"]),
     do=[{"type": "bench", "card": "fossil"}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [{"card": "fossil"}]}}}})
case("evo-28-rare-fossil-evolves", "EVO-20",
     "A Pokémon that evolves from Rare Fossil goes onto the Rare Fossil in play", "740",
     cards={"fossil": FOSSIL, "drac": poke("Dracozolt", 150, ("Lightning",), "Stage 1", "Rare Fossil")},
     A=player(slot("hitter"), [slot("fossil")], hand=["drac"]),
     do=[{"type": "evolve", "card": "drac", "target": "bench[0]"}],
     expect={"legal": OK, "state": {"players": {"A": {"bench": [{"card": "drac", "under": ["fossil"]}]}}}})
case("evo-29-old-fossil-in-play", "EVO-21",
     "An older Fossil Trainer card is played as a Basic Pokémon and is then Knocked Out like one",
     "910", cards={"fossil": {**trainer("Mysterious Fossil", "Item"), "hp": 10}},
     A=player(slot("hitter"), [slot("benchmon")]), B=player(slot("fossil"), [slot("benchmon")]),
     do=[attack()], expect={"legal": OK, "events": [{"type": "knockout", "target": "B.active", "prizes": 1}],
                            "state": {"players": {"B": {"discard": ["fossil"]}}}})
case("set-03-v-union-not-in-setup", "SET-03", "A V-UNION piece cannot be placed during setup",
     "672", turn=1, extra_state={"phase": "setup"},
     cards={"vu": poke("Mewtwo V-UNION", 310, ("Psychic",), "V-UNION", extra=("V",))},
     A=player(None, [], hand=["vu", "hitter"], deck=47), B=player(None, [], hand=["target"], deck=47),
     do=[{"type": "bench", "card": "vu"}], expect={"legal": False, "reason": "not-basic"})
case("set-04-restored-not-in-setup", "SET-03", "A Restored Pokémon cannot be placed during setup",
     "860", turn=1, extra_state={"phase": "setup"},
     cards={"omanyte": poke("Omanyte", 90, ("Water",), "Restored")},
     A=player(None, [], hand=["omanyte", "hitter"], deck=47), B=player(None, [], hand=["target"], deck=47),
     do=[{"type": "bench", "card": "omanyte"}], expect={"legal": False, "reason": "not-basic"})
setup_case("mul-04-repeat-until-basic", "MUL-01",
           "A mulligans three times: a fresh 7-card hand, and B may draw 3 more", "235-237",
           {"A": 3, "B": 0}, [{"type": "mulligan_draws", "player": "B", "max": 3}],
           {"players": {"A": {"mulligans": 3, "hand": {"count": 7}, "prizes": 6}}})
case("sc-12-evolve-ends-conditions", "SC-02",
     "Special Conditions end when the Pokémon evolves, damage stays", "281, 411",
     cards={"basic": poke("Charmander", 70, ("Fire",)),
            "evo": poke("Charmeleon", 100, ("Fire",), "Stage 1", "Charmander")},
     A=player(slot("basic", conditions=["Confused", "Poisoned"], damage=10), [slot("benchmon")], hand=["evo"]),
     do=[{"type": "evolve", "card": "evo", "target": "active"}],
     expect={"legal": OK, "events": [
         {"type": "condition", "target": "A.active", "condition": "Confused", "change": "removed"},
         {"type": "condition", "target": "A.active", "condition": "Poisoned", "change": "removed"}],
             "state": {"players": {"A": {"active": {"conditions": [], "damage": 10}}}}})
case("tool-05-hyper-gear", "TOOL-03",
     "A Team Flare Hyper Gear Tool on the opponent's Pokémon-EX returns to its player's discard pile",
     "798-800", cards={"ex": EX_MON, "ringer": HYPER_GEAR},
     A=player(slot("hitter"), [slot("benchmon")], hand=["ringer"]),
     B=player(slot("ex", damage=150), [slot("benchmon")]),
     do=[{"type": "play", "card": "ringer", "target": "B.active"}, attack()],
     expect={"legal": OK, "events": [{"type": "knockout", "target": "B.active", "prizes": 2}],
             "state": {"players": {"A": {"discard": ["ringer"]}, "B": {"discard": ["ex"]}}}})
case("tr-05-tag-team-supporter", "TR-06",
     "A TAG TEAM Supporter is a Supporter: not a second one in the same turn", "720-722, 990",
     cards={**ITEMS, "tagsup": trainer("Guzma & Hala", "Supporter", "TAG TEAM")},
     A=player(slot("hitter"), [slot("benchmon")], hand=["iono", "tagsup"]),
     do=[{"type": "play", "card": "iono"}, {"type": "play", "card": "tagsup"}],
     expect={"legal": False, "reason": "supporter-already-played"})
case("abi-06-labels-only", "ABI-10",
     "Ultra Beast and Future are labels: a Future Basic benches as usual, an Ultra Beast GX gives 2 Prizes",
     "618-620, 764-766", cards={"ub": poke("Buzzwole-GX", 190, ("Fighting",), extra=("GX", "Ultra Beast")),
                                "fut": poke("Iron Hands", 140, ("Lightning",), extra=("Future",))},
     A=player(slot("hitter"), [], hand=["fut"]), B=player(slot("ub", damage=160), [slot("benchmon")]),
     do=[{"type": "bench", "card": "fut"}, attack()],
     expect={"legal": OK, "events": [{"type": "knockout", "target": "B.active", "prizes": 2}]})

deck_case("deck-15-v-union-four-in-all", "DECK-10",
          "Five Mewtwo V-UNION pieces break the 4-copy rule: all pieces share one name", "668",
          deck(["Pokémon: 9", "4 Charmander TST 4", "2 Mewtwo V-UNION SWSH 159", "1 Mewtwo V-UNION SWSH 160",
                "1 Mewtwo V-UNION SWSH 161", "1 Mewtwo V-UNION SWSH 162", "Energy: 51", "51 Basic Psychic Energy"]),
          "copies-exceeded")
deck_case("deck-16-v-union-one-set", "DECK-10", "The four pieces of one V-UNION with 4 Charmander are legal",
          "668", deck(["Pokémon: 8", "4 Charmander TST 4", "1 Mewtwo V-UNION SWSH 159", "1 Mewtwo V-UNION SWSH 160",
                       "1 Mewtwo V-UNION SWSH 161", "1 Mewtwo V-UNION SWSH 162", "Energy: 52",
                       "52 Basic Psychic Energy"]), None)
deck_case("deck-17-full-art-ex", "MISC-04",
          "A full-art Pokémon-EX is the same card by name: 3 regular + 2 full-art is five", "818, 810",
          deck(["Pokémon: 9", "4 Charmander TST 4", "3 Yveltal-EX XY 78", "2 Yveltal-EX XY 144", "Energy: 51",
                "51 Basic Darkness Energy"]), "copies-exceeded")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    for data in CASES:
        path = OUT / f"{data['id']}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(CASES)} position files in {OUT}")


if __name__ == "__main__":
    main()
