"""Run position files (SPEC §3): ``table-assistant scenario PATH...``.

Each file is a position, actions, coin results and expectations. A file passes when
every action before the last is accepted, the last is accepted or refused as ``legal``
says (with the ``reason`` given), the listed ``events`` appear in order among the events
the actions produced (listed keys must match, others are ignored), the partial ``state``
matches, and the ``winner`` is as written. Coin flips take the file's ``coins`` in order;
a flip with none left fails the file, since results are never invented.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from assistant.editions import Edition, edition
from assistant.engine.actions import action_from_json
from assistant.engine.coins import OutOfCoins, ScriptedCoins
from assistant.engine.game import Game
from assistant.engine.model import PLAYERS, Position, Slot
from assistant.engine.positions import CardBook, UnknownCard, position_from_json
from assistant.lookups import database_lookups, deck_checker
from assistant.position_file import PositionFileError, read_position_file
from assistant.quoting import quote


@dataclass
class ScenarioResult:
    path: str
    passed: bool
    message: str = ""


class Mismatch(Exception):
    pass


@dataclass
class Found:
    """The files a ``scenario`` command line names: each named file, and every
    ``*.json`` file under each named folder."""

    files: list[Path]
    #: Named paths that do not exist.
    missing: list[str]
    #: Named folders with no ``*.json`` file in them.
    empty: list[str]


def find_files(paths: Iterable[str]) -> Found:
    files: list[Path] = []
    missing: list[str] = []
    empty: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*.json") if p.is_file())
            files.extend(inside)
            if not inside:
                empty.append(raw)
        elif path.exists():
            files.append(path)
        else:
            missing.append(raw)
    return Found(files, missing, empty)


def iter_files(paths: Iterable[str]) -> list[Path]:
    return find_files(paths).files


def run_file(path: Path, rules: Edition | None = None) -> ScenarioResult:
    """Check and play one position file. ``rules`` plays it under another edition
    than the file's own ``era`` (``scenario --era``)."""
    try:
        data = read_position_file(path, rules)
    except PositionFileError as error:
        return ScenarioResult(str(path), False, f"not played: {error}")
    return run_checked(path, data, rules)


def run_checked(path: Path, data: dict[str, Any], rules: Edition | None = None) -> ScenarioResult:
    try:
        run_data(data, rules)
    except Mismatch as error:
        return ScenarioResult(str(path), False, str(error))
    except (UnknownCard, KeyError, ValueError, TypeError) as error:
        return ScenarioResult(str(path), False, f"{type(error).__name__}: {quote(str(error))}")
    return ScenarioResult(str(path), True)


def run_data(data: dict[str, Any], rules: Edition | None = None) -> Game:
    """Play one position file (already checked: :mod:`assistant.position_file`);
    raise :class:`Mismatch` saying what differs."""
    profile = rules or edition(data.get("era"))
    book = CardBook(data.get("cards") or {}, *database_lookups())
    position = position_from_json(data["state"], book)
    game = Game(position, profile, ScriptedCoins(data.get("coins") or ()),
                deck_checker=deck_checker(profile, book.deck_resolver()))
    expect = data.get("expect") or {}
    actions = data.get("do") or []
    events: list[dict[str, Any]] = []
    for i, raw in enumerate(actions):
        last = i == len(actions) - 1
        try:
            action = action_from_json(raw, game.position.current, book.resolve)
        except UnknownCard as unknown:
            if last and expect.get("legal") is False and expect.get("reason") == "unknown-card":
                break
            raise Mismatch(f"do[{i}]: unknown card {unknown}") from None
        try:
            outcome = game.play(action)
        except OutOfCoins as out:
            raise Mismatch(f"do[{i}]: {out} (coins are never invented)") from None
        events.extend(outcome.events)
        if not outcome.accepted:
            assert outcome.refusal is not None
            if not (last and expect.get("legal") is False):
                raise Mismatch(f"do[{i}] ({raw.get('type')}) refused: {outcome.refusal.reason}"
                               f" [{outcome.refusal.rule}] {outcome.refusal.message}")
            if "reason" in expect and outcome.refusal.reason != expect["reason"]:
                raise Mismatch(f"do[{i}] refused with {outcome.refusal.reason}, expected "
                               f"{expect['reason']} ({outcome.refusal.message})")
        elif last and expect.get("legal") is False:
            raise Mismatch(f"do[{i}] ({raw.get('type')}) was accepted; expected refusal "
                           f"{expect.get('reason')}")
    match_events(expect.get("events") or [], events)
    if "state" in expect:
        match_state(expect["state"], game.position, book)
    if "winner" in expect and expect["winner"] != game.position.winner:
        raise Mismatch(f"winner {game.position.winner!r}, expected {expect['winner']!r}")
    return game


def match_events(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> None:
    """Each expected event must appear, in order, among the actual ones."""
    at = 0
    for n, want in enumerate(expected):
        while at < len(actual) and not all(actual[at].get(k) == v for k, v in want.items()):
            at += 1
        if at >= len(actual):
            brief = [{k: v for k, v in e.items() if k != "steps"} for e in actual]
            raise Mismatch(f"expected event #{n} {want} not found in order; events were {brief}")
        at += 1


def _cards_match(want: Any, have: list[Any], book: CardBook, where: str, multiset: bool) -> None:
    if not isinstance(want, list):
        raise Mismatch(f"{where}: expected a list")
    if len(want) != len(have):
        raise Mismatch(f"{where}: {len(have)} cards, expected {len(want)}")
    if not multiset:
        for i, (ref, card) in enumerate(zip(want, have, strict=True)):
            if not book.matches(str(ref), card):
                raise Mismatch(f"{where}[{i}]: {_name(card)}, expected {ref}")
        return
    left = list(have)
    for ref in want:
        hit = next((i for i, c in enumerate(left) if book.matches(str(ref), c)), None)
        if hit is None:
            raise Mismatch(f"{where}: {ref} missing; have {[_name(c) for c in have]}")
        left.pop(hit)


def _name(card: Any) -> str:
    return "unknown card" if card is None else f"{card.name} ({card.id})"


def match_slot(want: Any, slot: Slot | None, book: CardBook, where: str) -> None:
    if want is None:
        if slot is not None:
            raise Mismatch(f"{where}: expected empty, found {slot.card.name}")
        return
    if slot is None:
        raise Mismatch(f"{where}: expected a Pokémon, found none")
    for key, value in want.items():
        w = f"{where}.{key}"
        if key == "card":
            if not book.matches(str(value), slot.card):
                raise Mismatch(f"{w}: {_name(slot.card)}, expected {value}")
        elif key == "under":
            _cards_match(value, slot.under, book, w, multiset=False)
        elif key == "energy":
            _cards_match(value, slot.energy, book, w, multiset=True)
        elif key == "tool":
            if value is None:
                if slot.tool is not None:
                    raise Mismatch(f"{w}: {_name(slot.tool)}, expected none")
            elif not book.matches(str(value), slot.tool):
                raise Mismatch(f"{w}: {_name(slot.tool)}, expected {value}")
        elif key == "damage":
            if slot.damage != value:
                raise Mismatch(f"{w}: {slot.damage}, expected {value}")
        elif key == "conditions":
            if sorted(slot.conditions) != sorted(value):
                raise Mismatch(f"{w}: {sorted(slot.conditions)}, expected {sorted(value)}")
        elif key == "entered_turn":
            if slot.entered_turn != value:
                raise Mismatch(f"{w}: {slot.entered_turn}, expected {value}")
        else:
            raise Mismatch(f"{w}: unknown slot key")


def match_state(want: dict[str, Any], pos: Position, book: CardBook) -> None:
    for key, value in want.items():
        if key in ("turn", "current", "first"):
            if getattr(pos, key) != value:
                raise Mismatch(f"state.{key}: {getattr(pos, key)!r}, expected {value!r}")
        elif key == "phase":
            have = "promote" if pos.pending_promotion else pos.phase
            if have != value:
                raise Mismatch(f"state.phase: {have}, expected {value}")
        elif key == "stadium":
            if value is None:
                if pos.stadium is not None:
                    raise Mismatch(f"state.stadium: {pos.stadium[0].name}, expected none")
            elif pos.stadium is None or not book.matches(str(value.get("card")), pos.stadium[0]) \
                    or ("owner" in value and value["owner"] != pos.stadium[1]):
                have = None if pos.stadium is None else (pos.stadium[0].name, pos.stadium[1])
                raise Mismatch(f"state.stadium: {have}, expected {value}")
        elif key == "players":
            for p, pwant in value.items():
                if p not in PLAYERS:
                    raise Mismatch(f"state.players.{p}: no such player")
                match_player(pwant, pos, p, book)
        else:
            raise Mismatch(f"state.{key}: unknown key")


def match_player(want: dict[str, Any], pos: Position, p: str, book: CardBook) -> None:
    me = pos.players[p]
    base = f"state.players.{p}"
    for key, value in want.items():
        w = f"{base}.{key}"
        if key == "active":
            match_slot(value, me.active, book, w)
        elif key == "bench":
            if len(value) != len(me.bench):
                raise Mismatch(f"{w}: {len(me.bench)} Pokémon, expected {len(value)}")
            for i, (slot_want, slot) in enumerate(zip(value, me.bench, strict=True)):
                match_slot(slot_want, slot, book, f"{w}[{i}]")
        elif key == "prizes":
            if len(me.prizes) != value:
                raise Mismatch(f"{w}: {len(me.prizes)}, expected {value}")
        elif key in ("hand", "deck"):
            zone = me.hand if key == "hand" else me.deck
            if isinstance(value, int):
                count = value
            elif isinstance(value, dict):
                count = int(value.get("count", 0))
            else:
                _cards_match(value, zone, book, w, multiset=(key == "hand"))
                continue
            if len(zone) != count:
                raise Mismatch(f"{w}: {len(zone)} cards, expected {count}")
        elif key in ("discard", "lost_zone"):
            _cards_match(value, getattr(me, key), book, w, multiset=True)
        elif key == "turn_flags":
            have = {"energy_attached": me.flags.energy_attached,
                    "supporter_played": me.flags.supporters > 0,
                    "stadium_played": me.flags.stadiums > 0,
                    "retreated": me.flags.retreats > 0}
            for flag, flag_value in value.items():
                if have.get(flag) != flag_value:
                    raise Mismatch(f"{w}.{flag}: {have.get(flag)}, expected {flag_value}")
        elif key in ("gx_used", "vstar_used", "mulligans"):
            if getattr(me, key) != value:
                raise Mismatch(f"{w}: {getattr(me, key)!r}, expected {value!r}")
        else:
            raise Mismatch(f"{w}: unknown key")


def run_paths(paths: list[str], rules: Edition | None, verbose: bool, out: TextIO,
              err: TextIO | None = None) -> int:
    """Run every position file under ``paths``; print failures (every file with
    ``verbose``) and the last line ``N passed, M failed``. 0 only if all pass, 2 when
    there is nothing to run (a path that does not exist, a folder with no position file).

    A file named on the command line must be a position file; in a named folder, JSON
    files that are no position file at all (a ``package.json``, a card list) are
    skipped and counted, so that pointing at a project folder does not fail on them."""
    err = err or out
    found = find_files(paths)
    for raw in found.missing:
        print(f"scenario: {quote(raw)}: no such file or folder", file=err)
    named = {Path(raw) for raw in paths}
    results: list[ScenarioResult] = []
    skipped: list[str] = []
    for path in found.files:
        try:
            data = read_position_file(path, rules)
        except PositionFileError as error:
            if error.not_a_position and path not in named:
                skipped.append(f"{path} ({error})")
                continue
            results.append(ScenarioResult(str(path), False, f"not played: {error}"))
            continue
        results.append(run_checked(path, data, rules))
    for result in results:
        if verbose or not result.passed:
            status = "PASS" if result.passed else "FAIL"
            detail = f": {result.message}" if result.message else ""
            print(f"{status} {result.path}{detail}", file=out)
    for why in skipped if verbose else ():
        print(f"SKIP {why}", file=out)
    if skipped and not verbose:
        print(f"skipped {len(skipped)} JSON file{'s' if len(skipped) > 1 else ''} that "
              f"{'are' if len(skipped) > 1 else 'is'} no position file (-v names them)", file=out)
    if not results:
        where = ", ".join(quote(p) for p in [*found.empty, *found.missing]) or ", ".join(quote(p) for p in paths)
        print(f"scenario: no position file to run in {where}", file=err)
        return 2
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed or found.missing else 0
