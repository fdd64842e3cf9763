"""The playmat's zones as data: where each player's Active Spot, Bench, deck, discard
pile, Prize cards and Lost Zone lie on the mat, and the shared Stadium.

Each zone is a rectangle in *mat coordinates*: 0..1 across the mat (left to right as
the camera sees it) and 0..1 down it, player A's side nearest the bottom. Vision gives
a card's place in those coordinates when it has the mat's corners (printed markers, or
the four corners a judge tapped), and in fractions of the picture otherwise, which is
the same thing for a camera square above a mat that fills its picture.

A layout is a small JSON file::

    {"name": "the usual playmat",
     "zones": [{"zone": "active", "player": "A", "rect": [0.18, 0.5, 0.82, 0.75]},
               {"zone": "bench", "player": "A", "slot": 1, "rect": [0.0, 0.75, 0.168, 1.0]},
               {"zone": "stadium", "rect": [0.0, 0.44, 0.18, 0.56]}, ...]}

``rect`` is ``[left, top, right, bottom]``. Every player has one ``active``, ``deck``,
``discard``, ``prizes`` and ``lost_zone`` and five ``bench`` zones (``slot`` 1-5,
numbered from that player's own left); the ``stadium`` belongs to nobody. Zones do not
overlap; a point in none of them (the mat's margin) is in no zone. The usual playmat
ships with the package (:func:`default_layout`); ``--layout FILE`` loads another
(:func:`load_layout`), and a bad file is a :class:`MatLayoutError` naming the file and
the problem.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from assistant.engine.model import PLAYERS
from assistant.quoting import quote

#: The zones each player has; ``bench`` five times.
PLAYER_ZONES = ("active", "bench", "deck", "discard", "prizes", "lost_zone")
SHARED_ZONES = ("stadium",)
BENCH_SLOTS = 5
#: How a zone is named to people.
WORDS = {"active": "Active", "bench": "Bench", "deck": "Deck", "discard": "Discard", "prizes": "Prizes",
         "lost_zone": "Lost Zone", "stadium": "Stadium"}
DEFAULT_FILE = "playmat.json"


class MatLayoutError(ValueError):
    """A layout file that cannot be used: the message names the file and the problem."""


@dataclass(frozen=True)
class Zone:
    """One zone of the mat: its kind (``active``, ``bench``, ``stadium``...), whose it is
    (``None``: the Stadium, shared), the Bench ``slot`` (1-5, from its player's left)
    and its rectangle ``(left, top, right, bottom)`` in mat coordinates."""

    kind: str
    player: str | None
    rect: tuple[float, float, float, float]
    slot: int | None = None

    def holds(self, x: float, y: float) -> bool:
        left, top, right, bottom = self.rect
        return left <= x < right and top <= y < bottom

    @property
    def label(self) -> str:
        """``A Bench 2``, ``B Prizes``, ``Stadium``."""
        words = WORDS[self.kind] + (f" {self.slot}" if self.slot is not None else "")
        return f"{self.player} {words}" if self.player else words


@dataclass(frozen=True)
class MatLayout:
    """The mat's zones (see the module text). ``centre`` and ``active_depth`` are read
    off the Active zones: the line between the two Active zones, and how far each
    reaches from it (the calibration page moves zones by moving these two)."""

    name: str
    zones: tuple[Zone, ...]

    def zone_at(self, x: float, y: float) -> Zone | None:
        """The zone holding the mat point (x, y), or None for the margin between zones."""
        return next((zone for zone in self.zones if zone.holds(x, y)), None)

    def active(self, player: str) -> Zone:
        return next(zone for zone in self.zones if zone.kind == "active" and zone.player == player)

    @cached_property
    def centre(self) -> float:
        return (self.active("A").rect[1] + self.active("B").rect[3]) / 2

    @cached_property
    def active_depth(self) -> float:
        return ((self.active("A").rect[3] - self.centre) + (self.centre - self.active("B").rect[1])) / 2


def parse_layout(data: Any, source: str = "the layout") -> MatLayout:
    """A layout from its JSON data; :class:`MatLayoutError` saying what is wrong with
    ``source`` otherwise."""

    def fail(problem: str) -> MatLayoutError:
        return MatLayoutError(f"{source}: {problem}")

    if not isinstance(data, dict) or not isinstance(data.get("zones"), list):
        raise fail('expected an object with a "zones" list (see the usual playmat in the package)')
    zones = tuple(_zone(item, number, fail) for number, item in enumerate(data["zones"], 1))
    _check_complete(zones, fail)
    for k, first in enumerate(zones):
        for second in zones[k + 1:]:
            if _overlap(first.rect, second.rect):
                raise fail(f"{first.label} and {second.label} overlap")
    layout = MatLayout(str(data.get("name", source)), zones)
    if layout.active("A").rect[1] < layout.active("B").rect[3]:
        raise fail("player A's Active zone must lie below player B's (A sits at the bottom of the mat)")
    if not (0.1 <= layout.centre <= 0.9 and 0.02 <= layout.active_depth <= 0.5):
        raise fail(f"the Active zones meet at {layout.centre:.2f} of the mat's height and reach "
                   f"{layout.active_depth:.2f} from there: the centre line must lie between 0.1 and 0.9, "
                   "the Active zones reach between 0.02 and 0.5")
    return layout


def _zone(item: Any, number: int, fail: Callable[[str], MatLayoutError]) -> Zone:
    if not isinstance(item, dict):
        raise fail(f"zone {number} is not an object")
    unknown = set(item) - {"zone", "player", "slot", "rect"}
    if unknown:
        raise fail(f"zone {number} has unknown keys: {', '.join(sorted(unknown))}")
    kind, player, slot, rect = item.get("zone"), item.get("player"), item.get("slot"), item.get("rect")
    if kind not in PLAYER_ZONES + SHARED_ZONES:
        raise fail(f"zone {number}: 'zone' is {quote(str(kind))}, not one of "
                   f"{', '.join(PLAYER_ZONES + SHARED_ZONES)}")
    if kind in SHARED_ZONES and player is not None:
        raise fail(f"zone {number}: the {WORDS[kind]} is shared and has no player")
    if kind in PLAYER_ZONES and player not in PLAYERS:
        raise fail(f"zone {number} ({WORDS[kind]}): 'player' must be A or B")
    if (kind == "bench") != (slot is not None):
        raise fail(f"zone {number} ({WORDS[kind]}): only a Bench zone has a 'slot', and every one has")
    if slot is not None and (not isinstance(slot, int) or isinstance(slot, bool) or not 1 <= slot <= BENCH_SLOTS):
        raise fail(f"zone {number} (Bench): 'slot' must be 1 to {BENCH_SLOTS}, not {slot!r}")
    numbers = rect if isinstance(rect, list) else []
    if (len(numbers) != 4 or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in numbers)
            or not all(0 <= v <= 1 for v in numbers)):
        raise fail(f"zone {number}: 'rect' must be [left, top, right, bottom], four numbers from 0 to 1")
    left, top, right, bottom = (float(v) for v in numbers)
    if left >= right or top >= bottom:
        raise fail(f"zone {number}: 'rect' {numbers} is empty: left must be less than right and top than bottom")
    return Zone(kind, player, (left, top, right, bottom), slot)


def _check_complete(zones: tuple[Zone, ...], fail: Callable[[str], MatLayoutError]) -> None:
    wanted = [(kind, player, None) for player in PLAYERS for kind in PLAYER_ZONES if kind != "bench"]
    wanted += [("bench", player, slot) for player in PLAYERS for slot in range(1, BENCH_SLOTS + 1)]
    wanted += [(kind, None, None) for kind in SHARED_ZONES]
    have = [(zone.kind, zone.player, zone.slot) for zone in zones]
    for key in wanted:
        count = have.count(key)
        label = Zone(key[0], key[1], (0, 0, 1, 1), key[2]).label
        if count == 0:
            raise fail(f"there is no {label} zone (each player has an Active, Bench 1-5, Deck, Discard, "
                       "Prizes and Lost Zone, and there is one Stadium)")
        if count > 1:
            raise fail(f"{label} is given {count} times; every zone is given once")


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def load_layout(path: str | Path) -> MatLayout:
    """The layout in the JSON file at ``path``; :class:`MatLayoutError` for a file that
    is missing, unreadable, not JSON, or not a whole layout."""
    source = f"layout file {quote(str(path))}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else "not UTF-8 text"
        raise MatLayoutError(f"{source} cannot be read: {reason}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise MatLayoutError(f"{source} is not JSON: {error.msg} at line {error.lineno}") from None
    return parse_layout(data, source)


@cache
def default_layout() -> MatLayout:
    """The usual playmat, shipped with the package."""
    text = resources.files("assistant").joinpath("embedded", DEFAULT_FILE).read_text(encoding="utf-8")
    return parse_layout(json.loads(text), f"the package's {DEFAULT_FILE}")
