"""Position files (SPEC §3) checked before they are played.

A position file comes from a person: a judge saving a table, a test author, or a user
who pointed ``table-assistant scenario`` at the wrong folder. The engine trusts the
position it is given, so a file is checked here first, and every mistake is reported
as a :class:`Problem` that names the key at fault as a path a person can follow
(``state.players.B.bench``), what SPEC §3 expects there and what the file holds:

    state.players.B.bench: expected at most 5 Pokémon (the Bench in mega-evolution-2025), found a list of 12

The check is about shape and range, not about the rules: a Bench of six is refused
because no table can hold it, but a Pokémon that may not attack is the engine's call.
Keys beyond SPEC §3 are extensions (SPEC: "extend only"): those the engine reads
(``markers``, ``effects``, ``tool_owner``, ``v_unions_played``, ``checkup_effects``…)
are checked like the rest; keys nobody reads are left alone.

Entry points: :func:`read_position_file` (a path), :func:`read_position_text` (JSON
text), :func:`check_position` (a decoded JSON value); each returns the position as a
dict or raises :class:`PositionFileError`. :func:`position_problems` lists the
problems without raising.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.editions import Edition, edition
from assistant.engine.actions import ACTION_TYPES, DEVOLVE_INTO, parse_target
from assistant.engine.model import CONDITIONS, PLAYERS
from assistant.eras import ERAS, UnknownEra
from assistant.quoting import quote

#: Special Conditions in the order a message lists them.
SPECIAL_CONDITIONS = tuple(sorted(CONDITIONS))
COIN_RESULTS = ("heads", "tails")
PHASES = ("setup", "main", "checkup", "promote")
WINNERS = ("A", "B", "sudden-death")
SUPERTYPES = ("Pokémon", "Pokemon", "Trainer", "Energy")
#: The keys each action type cannot do without (SPEC §3 "Actions"). ``switch`` and
#: ``promote`` name a ``player`` in SPEC, but the engine's default (the current player)
#: is a fair reading of a file that leaves it out.
REQUIRED_ACTION_KEYS: dict[str, tuple[str, ...]] = {
    "bench": ("card",), "evolve": ("card", "target"), "attach": ("card", "target"),
    "play": ("card",), "retreat": ("to",), "ability": ("pokemon", "name"),
    "attack": ("attack",), "counters": ("target", "counters"), "condition": ("target",),
    "switch": ("to",), "promote": ("from",), "setup": ("mulligans",),
    "deck_check": ("deck",), "devolve": ("target",), "effect": ("target",),
    "v_union": ("card",),
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in a position file: ``where`` (a key path such as
    ``do[2].target``), what was ``expected`` there, and what was ``found``."""

    where: str
    expected: str
    found: str = ""

    def __str__(self) -> str:
        found = f", found {self.found}" if self.found else ""
        return f"{self.where}: expected {self.expected}{found}"


class PositionFileError(ValueError):
    """A file that is not a playable position file. ``str()`` is one line: the first
    problem (and how many more there are); :attr:`problems` lists them all."""

    def __init__(self, problems: list[Problem], *, not_a_position: bool = False) -> None:
        self.problems = problems
        #: True when the file is no position file at all (not JSON, not an object, no
        #: ``state``), as when a folder holds other JSON beside position files.
        self.not_a_position = not_a_position
        super().__init__(self._line())

    def _line(self) -> str:
        first = f"not a position file: {self.problems[0]}" if self.not_a_position else str(self.problems[0])
        more = len(self.problems) - 1
        return first + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")


def read_position_file(path: str | Path, rules: Edition | None = None, *, playable: bool = True) -> dict[str, Any]:
    """The checked position of the file at ``path``; raises :class:`PositionFileError`
    for a file that cannot be read, is not JSON, or breaks SPEC §3 (``OSError`` and
    decoding errors become problems too, so a caller handles one exception)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise PositionFileError([Problem("(file)", "UTF-8 text holding JSON", "binary data")],
                                not_a_position=True) from None
    except OSError as error:
        raise PositionFileError([Problem("(file)", "a readable file", error.strerror or str(error))]) from None
    return read_position_text(text, rules, playable=playable)


def read_position_text(text: str, rules: Edition | None = None, *, playable: bool = True) -> dict[str, Any]:
    """The checked position in JSON ``text`` (see :func:`check_position`)."""
    try:
        data = json.loads(text)
    except ValueError as error:  # JSONDecodeError, and the RecursionError-free ValueErrors
        where = f"line {error.lineno}" if isinstance(error, json.JSONDecodeError) else "(file)"
        reason = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        raise PositionFileError([Problem(where, "JSON", quote(reason))], not_a_position=True) from None
    except RecursionError:
        raise PositionFileError([Problem("(file)", "JSON nested less deeply", "deeper nesting")],
                                not_a_position=True) from None
    return check_position(data, rules, playable=playable)


def check_position(data: Any, rules: Edition | None = None, *, playable: bool = True) -> dict[str, Any]:
    """``data`` itself when it is a SPEC §3 position file; raises
    :class:`PositionFileError` otherwise. ``rules`` overrides the file's ``era`` (as
    ``scenario --era`` does). ``playable`` asks for a scenario's ``do`` and ``expect``
    as well; a saved position without them passes with ``playable=False``."""
    if not isinstance(data, dict):
        raise PositionFileError([Problem("(top level)", "a JSON object holding `state`", _kind(data))],
                                not_a_position=True)
    if "state" not in data:
        raise PositionFileError([Problem("state", "the table position (an object)", "no `state` key")],
                                not_a_position=True)
    problems = position_problems(data, rules, playable=playable)
    if problems:
        raise PositionFileError(problems)
    return data


def position_problems(data: Any, rules: Edition | None = None, *, playable: bool = True) -> list[Problem]:
    """Every problem of ``data`` as a position file, in file order; ``[]`` if none."""
    checker = _Checker(rules)
    checker.file(data, playable)
    return checker.problems


def _kind(value: Any) -> str:
    """How a JSON value is described in a message: ``a list of 12``, ``-3``,
    ``'Sleepy'``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        digits = repr(value)
        return digits if len(digits) <= 20 else f"a number of {len(digits)} characters"
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, list):
        return f"a list of {len(value)}" if value else "an empty list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _is_int(value: Any) -> bool:
    """JSON integers only: ``true`` is a bool, not 1."""
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Walks a position file and collects :class:`Problem` s. Each method takes the
    value and its key path; a wrong container stops the walk below it (its children
    cannot be named), a wrong leaf does not stop its siblings."""

    def __init__(self, rules: Edition | None) -> None:
        #: ``scenario --era``: the rules for every file, whatever its ``era`` says.
        self.override = rules
        #: The rules the file is played under (its Bench size, its Prize cards).
        self.rules = rules or edition(None)
        self.problems: list[Problem] = []

    def bad(self, where: str, expected: str, value: Any = None, *, found: str | None = None) -> None:
        """Record a problem; ``found`` describes what is there when ``value`` (a JSON
        value, described by :func:`_kind`) would not say it well."""
        self.problems.append(Problem(where, expected, found if found is not None else _kind(value)))

    def missing(self, where: str, expected: str) -> None:
        self.bad(where, expected, found="nothing")

    # -- small shapes ----------------------------------------------------------------

    def obj(self, value: Any, where: str) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.bad(where, "an object", value)
        return None

    def items(self, value: Any, where: str, each: Callable[[Any, str], None]) -> list[Any] | None:
        """A list whose items ``each`` checks (as ``where[i]``)."""
        if not isinstance(value, list):
            self.bad(where, "a list", value)
            return None
        for i, item in enumerate(value):
            each(item, f"{where}[{i}]")
        return value

    def count(self, value: Any, where: str, most: int | None = None, what: str = "") -> None:
        if not _is_int(value) or value < 0:
            self.bad(where, "a count (a non-negative integer)", value)
        elif most is not None and value > most:
            self.bad(where, f"at most {most}{what}", value)

    def integer(self, value: Any, where: str) -> None:
        if not _is_int(value):
            self.bad(where, "an integer", value)

    def text(self, value: Any, where: str) -> None:
        if not isinstance(value, str):
            self.bad(where, "a string", value)

    def flag(self, value: Any, where: str) -> None:
        if not isinstance(value, bool):
            self.bad(where, "true or false", value)

    def one_of(self, value: Any, where: str, choices: tuple[Any, ...]) -> None:
        if not (isinstance(value, (str, type(None))) and value in choices):
            names = ", ".join("null" if c is None else c for c in choices)
            self.bad(where, f"one of {names}", value)

    def player(self, value: Any, where: str) -> None:
        self.one_of(value, where, PLAYERS)

    def card(self, value: Any, where: str) -> None:
        if not isinstance(value, str) or not value.strip():
            self.bad(where, "a card (an alias from `cards`, a card id or name, or e.g. 'Fire Energy')", value)

    def cards(self, value: Any, where: str) -> None:
        self.items(value, where, self.card)

    def strings(self, value: Any, where: str) -> None:
        self.items(value, where, self.text)

    def target(self, value: Any, where: str) -> None:
        if isinstance(value, str):
            try:
                parse_target(value, PLAYERS[0])
                return
            except ValueError:
                pass
        self.bad(where, "a target such as 'A.active', 'B.bench[2]', 'active' or 'bench[0]'", value)

    def damage(self, value: Any, where: str) -> None:
        if not _is_int(value) or value < 0 or value % 10:
            self.bad(where, "HP of damage, a non-negative multiple of 10", value)

    def conditions(self, value: Any, where: str) -> None:
        def one(item: Any, at: str) -> None:
            self.one_of(item, at, SPECIAL_CONDITIONS)

        self.items(value, where, one)

    def hidden_zone(self, value: Any, where: str) -> None:
        """``hand`` or ``deck``: a list of cards, a count, or ``{"count": N}``."""
        if isinstance(value, list):
            self.cards(value, where)
        elif isinstance(value, dict):
            self.count(value.get("count"), f"{where}.count")
        elif not _is_int(value) or value < 0:
            self.bad(where, "a list of cards, a count, or {\"count\": N}", value)

    # -- the file --------------------------------------------------------------------

    def file(self, data: Any, playable: bool) -> None:
        if not isinstance(data, dict):
            self.bad("(top level)", "a JSON object holding `state`", data)
            return
        if data.get("era") is not None:
            try:
                found = edition(data["era"]) if isinstance(data["era"], str) else None
            except UnknownEra:
                found = None
            if found is None:
                self.bad("era", f"one of {', '.join(ERAS)} (or standard)", data["era"])
            elif self.override is None:
                self.rules = found
        if data.get("cards") is not None and self.obj(data["cards"], "cards") is not None:
            for alias, card in data["cards"].items():
                self.inline_card(card, f"cards.{alias}")
        if "state" not in data:
            self.missing("state", "the table position (an object)")
        elif (state := self.obj(data["state"], "state")) is not None:
            self.state(state, "state", partial=False)
        if data.get("coins") is not None:
            self.items(data["coins"], "coins", lambda c, at: self.one_of(c, at, COIN_RESULTS))
        expect = data.get("expect")
        if expect is not None or playable:
            expect = self.obj(expect, "expect")
            if expect is not None:
                self.expectations(expect)
        actions = data.get("do")
        if actions is not None:
            self.items(actions, "do", self.action)
        if playable and not actions:
            refusal = isinstance(expect, dict) and expect.get("legal") is False
            wanted = ("at least one action: `expect` says the last action is refused (legal: false)"
                      if refusal else "at least one action to play")
            self.bad("do", wanted, actions, found="no `do`" if actions is None else None)

    def inline_card(self, card: Any, where: str) -> None:
        """An alias: pokemontcg.io fields, or the name of a card defined elsewhere."""
        if isinstance(card, str):
            self.card(card, where)
            return
        if self.obj(card, where) is None:
            return
        if not isinstance(card.get("name"), str) or not card["name"].strip():
            self.bad(f"{where}.name", "the card's name", card.get("name"))
        self.one_of(card.get("supertype"), f"{where}.supertype", SUPERTYPES)
        hp = card.get("hp")
        if hp is not None and not (_is_int(hp) or (isinstance(hp, str) and hp.strip().isdigit())):
            self.bad(f"{where}.hp", "a number", hp)
        for key in ("subtypes", "types", "retreatCost", "provides", "rules", "evolvesTo"):
            if card.get(key) is not None:
                self.strings(card[key], f"{where}.{key}")
        for key in ("evolvesFrom", "id", "number", "set", "setCode", "regulationMark"):
            if card.get(key) is not None:
                self.text(card[key], f"{where}.{key}")
        if card.get("attacks") is not None:
            self.items(card["attacks"], f"{where}.attacks", self.attack)
        if card.get("abilities") is not None:
            self.items(card["abilities"], f"{where}.abilities", self.ability)
        for key in ("weaknesses", "resistances"):
            if card.get(key) is not None:
                self.items(card[key], f"{where}.{key}", self.type_value)

    def attack(self, value: Any, where: str) -> None:
        if self.obj(value, where) is None:
            return
        self.text(value.get("name"), f"{where}.name")
        if value.get("cost") is not None:
            self.strings(value["cost"], f"{where}.cost")
        if value.get("damage") is not None and not isinstance(value["damage"], (str, int)):
            self.bad(f"{where}.damage", "the damage as printed, e.g. \"30\" or \"20×\"", value["damage"])

    def ability(self, value: Any, where: str) -> None:
        if self.obj(value, where) is None:
            return
        self.text(value.get("name"), f"{where}.name")
        if value.get("type") is not None:
            self.text(value["type"], f"{where}.type")

    def type_value(self, value: Any, where: str) -> None:
        if self.obj(value, where) is None:
            return
        self.text(value.get("type"), f"{where}.type")
        if value.get("value") is not None:
            self.text(value["value"], f"{where}.value")

    # -- state -----------------------------------------------------------------------

    def state(self, state: dict[str, Any], where: str, partial: bool) -> None:
        """The position (``partial``: an expectation, where every key is optional)."""
        if "turn" in state:
            self.count(state["turn"], f"{where}.turn")
        for key in ("current", "first"):
            if key in state:
                self.player(state[key], f"{where}.{key}")
        if "phase" in state:
            self.one_of(state["phase"], f"{where}.phase", PHASES)
        stadium = state.get("stadium")
        if stadium is not None and self.obj(stadium, f"{where}.stadium") is not None:
            if "card" in stadium or not partial:
                self.card(stadium.get("card"), f"{where}.stadium.card")
            if "owner" in stadium:
                self.player(stadium["owner"], f"{where}.stadium.owner")
        if "players" not in state:
            if not partial:
                self.missing(f"{where}.players", "an object with players A and B")
            return
        players = self.obj(state["players"], f"{where}.players")
        if players is None:
            return
        for name in players:
            if name not in PLAYERS:
                self.bad(f"{where}.players", "only players A and B", name)
        for name in PLAYERS:
            if name not in players:
                if not partial:
                    self.missing(f"{where}.players.{name}", f"player {name} (an object)")
            elif (player := self.obj(players[name], f"{where}.players.{name}")) is not None:
                self.player_state(player, f"{where}.players.{name}", partial)

    def player_state(self, player: dict[str, Any], where: str, partial: bool) -> None:
        size = self.rules.bench_size
        if player.get("active") is not None:
            self.slot(player["active"], f"{where}.active", partial)
        if "bench" in player:
            bench = self.items(player["bench"], f"{where}.bench",
                               lambda s, at: self.slot(s, at, partial) if s is not None or not partial else None)
            if bench is not None and len(bench) > size:
                self.bad(f"{where}.bench", f"at most {size} Pokémon (the Bench in {self.rules.era})", bench)
        for zone in ("hand", "deck"):
            if zone in player:
                self.hidden_zone(player[zone], f"{where}.{zone}")
        if "prizes" in player:
            prizes = player["prizes"]
            if isinstance(prizes, list) and not partial:
                self.cards(prizes, f"{where}.prizes")
            else:
                self.count(prizes, f"{where}.prizes", self.rules.prize_cards,
                           f" Prize cards ({self.rules.era})")
        for zone in ("discard", "lost_zone"):
            if zone in player:
                self.cards(player[zone], f"{where}.{zone}")
        if "turn_flags" in player and (flags := self.obj(player["turn_flags"], f"{where}.turn_flags")) is not None:
            for name, value in flags.items():
                self.flag(value, f"{where}.turn_flags.{name}")
        for key in ("gx_used", "vstar_used"):
            if key in player:
                self.flag(player[key], f"{where}.{key}")
        if "mulligans" in player:
            self.count(player["mulligans"], f"{where}.mulligans")
        if "v_unions_played" in player:
            self.strings(player["v_unions_played"], f"{where}.v_unions_played")

    def slot(self, slot: Any, where: str, partial: bool) -> None:
        """A Pokémon in play (SPEC §3 "A slot")."""
        if self.obj(slot, where) is None:
            return
        if "card" in slot or not partial:
            self.card(slot.get("card"), f"{where}.card")
        for key in ("under", "energy"):
            if key in slot:
                self.cards(slot[key], f"{where}.{key}")
        if slot.get("tool") is not None:
            self.card(slot["tool"], f"{where}.tool")
        if "damage" in slot:
            self.damage(slot["damage"], f"{where}.damage")
        if "conditions" in slot:
            self.conditions(slot["conditions"], f"{where}.conditions")
        if slot.get("entered_turn") is not None:
            self.integer(slot["entered_turn"], f"{where}.entered_turn")
        if slot.get("markers") is not None and (markers := self.obj(slot["markers"], f"{where}.markers")):
            for name, value in markers.items():
                self.integer(value, f"{where}.markers.{name}")
        if slot.get("effects") is not None:
            self.strings(slot["effects"], f"{where}.effects")
        if slot.get("tool_owner") is not None:
            self.player(slot["tool_owner"], f"{where}.tool_owner")

    # -- actions ---------------------------------------------------------------------

    def action(self, action: Any, where: str) -> None:
        if self.obj(action, where) is None:
            return
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in ACTION_TYPES:
            self.bad(f"{where}.type", f"an action type: {', '.join(ACTION_TYPES)}", kind)
            return
        for key in REQUIRED_ACTION_KEYS.get(kind, ()):
            if key not in action:
                self.missing(f"{where}.{key}", f"`{key}`, which a `{kind}` action needs")
        checks: dict[str, Callable[[Any, str], None]] = {
            "player": self.player, "card": self.card, "target": self.target, "to": self.target,
            "from": self.target, "pokemon": self.target, "discard": self.cards, "name": self.text,
            "attack": self.text, "deck": self.text, "base": self.count, "counters": self.count,
            "count": self.count, "modifiers": self.modifiers, "targets": self.hits,
            "mulligans": self.mulligans, "checkup_effects": self.checkup_effects,
            "into": lambda v, at: self.one_of(v, at, DEVOLVE_INTO),
        }
        for key, check in checks.items():
            if key in action and not (key == "base" and action[key] is None):
                check(action[key], f"{where}.{key}")
        if kind == "condition":
            given = [key for key in ("add", "remove") if key in action]
            if len(given) != 1:
                self.bad(where, "exactly one of `add` or `remove`", found=f"{len(given)} of them")
            for key in given:
                self.one_of(action[key], f"{where}.{key}", SPECIAL_CONDITIONS)
        else:
            for key in ("add", "remove"):
                if action.get(key) is not None:
                    self.text(action[key], f"{where}.{key}")

    def modifiers(self, value: Any, where: str) -> None:
        def one(item: Any, at: str) -> None:
            if self.obj(item, at) is None:
                return
            self.one_of(item.get("on"), f"{at}.on", ("attacker", "defender"))
            self.one_of(item.get("by"), f"{at}.by", ("attack", "trainer", "energy", "stadium", "ability"))
            self.integer(item.get("amount"), f"{at}.amount")

        self.items(value, where, one)

    def hits(self, value: Any, where: str) -> None:
        def one(item: Any, at: str) -> None:
            if self.obj(item, at) is None:
                return
            self.target(item.get("target"), f"{at}.target")
            self.damage(item.get("amount"), f"{at}.amount")

        self.items(value, where, one)

    def mulligans(self, value: Any, where: str) -> None:
        if self.obj(value, where) is None:
            return
        for name, count in value.items():
            if name not in PLAYERS:
                self.bad(where, "counts for players A and B", name)
            else:
                self.count(count, f"{where}.{name}")

    def checkup_effects(self, value: Any, where: str) -> None:
        if self.obj(value, where) is None:
            return
        if value.get("when") is not None:
            self.text(value["when"], f"{where}.when")

        def one(item: Any, at: str) -> None:
            if self.obj(item, at) is None:
                return
            self.target(item.get("target"), f"{at}.target")
            for key in ("counters", "heal"):
                if key in item:
                    self.count(item[key], f"{at}.{key}")

        if "effects" in value:
            self.items(value["effects"], f"{where}.effects", one)

    # -- expectations ----------------------------------------------------------------

    def expectations(self, expect: dict[str, Any]) -> None:
        if "legal" in expect:
            self.flag(expect["legal"], "expect.legal")
        if "reason" in expect:
            self.text(expect["reason"], "expect.reason")
        if "winner" in expect:
            self.one_of(expect["winner"], "expect.winner", (*WINNERS, None))
        if "events" in expect:
            self.items(expect["events"], "expect.events", lambda e, at: self.obj(e, at) and None)
        if "state" in expect and (state := self.obj(expect["state"], "expect.state")) is not None:
            self.state(state, "expect.state", partial=True)
