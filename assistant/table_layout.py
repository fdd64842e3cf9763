"""What vision reports of a card, and in which zone of the mat each card lies.

Player A sits at the bottom of the picture, B at the top (or the other way round). The
zones are the mat layout's (:mod:`assistant.mat_layout`): each player's Active Spot
nearest the centre line, the Bench beyond it, and the deck, discard pile, Prize cards,
Lost Zone and the shared Stadium around them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar

from assistant.engine.model import PLAYERS, other
from assistant.mat_layout import MatLayout, Zone, default_layout


@dataclass(frozen=True)
class SeenCard:
    """One card vision sees now: its track id (the same card keeps it from frame to
    frame), its settled name and printing id (``None`` when not sure), its centre as
    a fraction (0..1) of the frame's width and height, how far it is turned
    clockwise in the image (0, 90, 180 or 270), and the Energy tucked under it with an
    edge showing, by name (:mod:`vision.tucked`)."""

    track: int
    name: str | None
    card_id: str | None
    x: float
    y: float
    rotation: int = 0
    tucked: tuple[str, ...] = ()


class LayoutError(ValueError):
    """Zone fractions that would not split the mat into two halves of two rows, or
    corners that are not a mat's four corners."""


#: The adjustable values of :class:`TableLayout`, by name (the calibration page's form).
FRACTIONS = ("centre", "active_depth", "near", "a_at_bottom")
Corners = tuple[tuple[float, float], ...]
#: The least share of the picture a mat's four corners may enclose.
MIN_MAT_AREA = 0.02


@dataclass
class TableLayout:
    """In which zone of the mat each card lies, with the judge's calibration.

    ``mat`` holds the zones (:class:`~assistant.mat_layout.MatLayout`, the usual
    playmat by default). A card's place (``x``, ``y``) is in mat coordinates when
    vision has the mat's corners, else in fractions of the picture (see
    :mod:`assistant.mat_layout`).

    The calibration fractions move the zones without editing the mat: ``centre`` is
    the line between the two halves and ``active_depth`` how far from it each Active
    zone reaches; the mat's own values (0.5 and 0.25 for the usual playmat) leave the
    zones where the layout puts them, other values stretch each half up and down so
    that the mat's centre line and Active row edges land there. ``a_at_bottom`` False
    gives A's zones to B and B's to A. ``near`` is how close (in mat fractions) an
    Energy card must lie to a Pokémon to be attached to it, and an Evolution card to
    the Pokémon it covers: a quarter of the mat, room for three Energy cards laid
    beside an Active Pokémon. ``corners``: where the judge tapped the mat's four
    corners on the picture (fractions of it, top-left first, clockwise), or None.

    The judge calibrates a running table (the camera view's calibration page) with
    :meth:`adjust` and :meth:`set_corners`: every field may change while the mirror
    reads the layout from another thread; the next picture it looks at is placed with
    the new values."""

    centre: float = 0.5
    active_depth: float = 0.25
    near: float = 0.25
    a_at_bottom: bool = True
    mat: MatLayout = field(default_factory=default_layout)
    corners: Corners | None = None

    _adjusting: ClassVar[threading.Lock] = threading.Lock()

    def __post_init__(self) -> None:
        if not 0.1 <= self.centre <= 0.9:
            raise LayoutError(f"the centre line must lie between 0.1 and 0.9 of the height, not {self.centre}")
        if not 0.02 <= self.active_depth <= 0.5:
            raise LayoutError(f"the Active row's depth must be between 0.02 and 0.5 of the height, "
                              f"not {self.active_depth}")
        if not 0.01 <= self.near <= 1.0:
            raise LayoutError(f"'near' must be between 0.01 and 1 of the image, not {self.near}")
        if self.corners is not None:
            self.corners = check_corners(self.corners)

    @classmethod
    def for_mat(cls, mat: MatLayout | None) -> TableLayout:
        """A layout over ``mat`` (None: the usual playmat) whose calibration leaves its
        zones where the mat puts them."""
        mat = mat or default_layout()
        return cls(centre=mat.centre, active_depth=mat.active_depth, mat=mat)

    def fractions(self) -> dict[str, Any]:
        """The adjustable values, by name."""
        return {name: getattr(self, name) for name in FRACTIONS}

    def adjust(self, **changes: Any) -> None:
        """Change some fractions in place (``centre=0.48``), all or none: a value out
        of range raises :class:`LayoutError` and leaves the layout as it was."""
        unknown = set(changes) - set(FRACTIONS)
        if unknown:
            raise LayoutError(f"a layout has no {', '.join(sorted(unknown))}")
        self._replace(**changes)

    def set_corners(self, corners: Sequence[Sequence[float]] | None) -> None:
        """Where the mat's four corners lie on the picture, as the judge tapped them
        (see :func:`check_corners`), or None to forget them. A bad set of corners
        raises :class:`LayoutError` and changes nothing."""
        self._replace(corners=None if corners is None else check_corners(corners))

    def _replace(self, **changes: Any) -> None:
        with self._adjusting:
            checked = replace(self, **changes)  # validated as a whole before anything changes
            self.__dict__.update({f.name: getattr(checked, f.name) for f in fields(self)})

    # -- from the table to the mat's own zones -------------------------------------------

    def _ends(self, bottom: bool) -> tuple[float, float, float, float]:
        """For one half: (distance from the centre line to the Active zone's edge and
        to the mat's edge) as calibrated, and the same in the mat layout."""
        mat_centre = self.mat.centre
        return (self.active_depth, 1 - self.centre if bottom else self.centre,
                self.mat.active_depth, 1 - mat_centre if bottom else mat_centre)

    def to_layout(self, y: float) -> float:
        """A height on the table (mat coordinates) as the mat layout's own: each half
        stretched so the calibrated centre line and Active row edges meet the mat's."""
        bottom = y >= self.centre
        depth, edge, mat_depth, mat_edge = self._ends(bottom)
        away = abs(y - self.centre)
        if away < depth or edge <= depth:
            moved = away * mat_depth / depth
        else:
            moved = mat_depth + (away - depth) * (mat_edge - mat_depth) / (edge - depth)
        return self.mat.centre + moved if bottom else self.mat.centre - moved

    def from_layout(self, y: float) -> float:
        """The inverse of :meth:`to_layout`: a height of the mat layout on the table."""
        bottom = y >= self.mat.centre
        depth, edge, mat_depth, mat_edge = self._ends(bottom)
        away = abs(y - self.mat.centre)
        if away < mat_depth or edge <= depth:
            moved = away * depth / mat_depth
        else:
            moved = depth + (away - mat_depth) * (edge - depth) / (mat_edge - mat_depth)
        return self.centre + moved if bottom else self.centre - moved

    def owner(self, zone: Zone) -> str | None:
        """Whose a zone is at this table: the layout's player, or the other one when A
        sits at the top."""
        if zone.player is None or self.a_at_bottom:
            return zone.player
        return other(zone.player)

    def zones(self) -> list[tuple[Zone, tuple[float, float, float, float]]]:
        """Each zone of the mat with its rectangle on the table (mat coordinates, the
        calibration applied) and its owner at this table."""
        out = []
        for zone in self.mat.zones:
            left, top, right, bottom = zone.rect
            moved = replace(zone, player=self.owner(zone))
            out.append((moved, (left, self.from_layout(top), right, self.from_layout(bottom))))
        return out

    def zone(self, card: SeenCard) -> Zone | None:
        """The zone the card lies in, owned as at this table; None between zones."""
        found = self.mat.zone_at(card.x, self.to_layout(card.y))
        if found is None or self.owner(found) == found.player:
            return found
        return replace(found, player=self.owner(found))

    # -- what the mirror asks --------------------------------------------------------

    def side(self, card: SeenCard) -> str:
        """Whose side of the table the card lies on: its zone's player, else the half's."""
        return self.place(card)[0]

    def row(self, card: SeenCard) -> str | None:
        """The kind of zone the card lies in (``active``, ``bench``, ``discard``...), or
        None between zones."""
        return self.place(card)[1]

    def place(self, card: SeenCard) -> tuple[str, str | None]:
        """(player, kind of zone) of a card."""
        zone = self.zone(card)
        if zone is not None and zone.player is not None:
            return zone.player, zone.kind
        bottom = card.y >= self.centre
        return ("A" if bottom == self.a_at_bottom else "B"), None if zone is None else zone.kind

    def arrange(self, pokemon: Iterable[SeenCard]
                ) -> dict[str, tuple[SeenCard | None, list[SeenCard]]]:
        """Per player: the card in the Active zone (the one nearest its middle, left to
        right, if several lie there) and the Bench in order: by slot, then left to right
        *from that player's seat* (the player at the top sees the picture upside down,
        so their left is the picture's right)."""
        zoned: dict[tuple[str | None, str], list[tuple[Zone, SeenCard]]] = {}
        for card in pokemon:
            zone = self.zone(card)
            if zone is not None:
                zoned.setdefault((zone.player, zone.kind), []).append((zone, card))
        out: dict[str, tuple[SeenCard | None, list[SeenCard]]] = {}
        for player in PLAYERS:
            front = min(zoned.get((player, "active"), []), default=None,
                        key=lambda pair: abs(pair[1].x - (pair[0].rect[0] + pair[0].rect[2]) / 2))
            active = None if front is None else front[1]
            at_bottom = (player == "A") == self.a_at_bottom
            bench = sorted(zoned.get((player, "bench"), []),
                           key=lambda pair: (pair[0].slot, pair[1].x if at_bottom else -pair[1].x))
            out[player] = (active, [card for _, card in bench])
        return out


def check_corners(corners: Sequence[Sequence[float]]) -> Corners:
    """The mat's four corners on the picture as the judge tapped them: fractions of
    the picture's width and height, the mat's top-left corner first (player B's side
    at the top), then clockwise. :class:`LayoutError` for anything else: not four
    points, a point off the picture, a crossed or folded quadrilateral (corners tapped
    out of order), or one too small to be a mat."""
    points = [tuple(point) for point in corners]
    if len(points) != 4:
        raise LayoutError(f"tap the mat's four corners, not {len(points)}")
    if any(len(p) != 2 for p in points):
        raise LayoutError("each corner is two numbers: across and down the picture")
    fractions = tuple((float(x), float(y)) for x, y in points)
    if not all(0 <= v <= 1 for point in fractions for v in point):
        raise LayoutError("every corner must lie on the picture (fractions from 0 to 1)")
    # Going round a convex quadrilateral clockwise (y downward), every turn is the same way.
    turns = []
    for k in range(4):
        (ax, ay), (bx, by), (cx, cy) = fractions[k], fractions[(k + 1) % 4], fractions[(k + 2) % 4]
        turns.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    if not all(turn > 0 for turn in turns):
        raise LayoutError("the corners cross or fold: tap the mat's top-left corner first, then go round "
                          "clockwise (top-right, bottom-right, bottom-left)")
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(fractions, fractions[1:] + fractions[:1],
                                                                strict=True)) / 2
    if area < MIN_MAT_AREA:
        raise LayoutError(f"the corners enclose {area:.1%} of the picture: a mat fills more of it")
    return fractions
