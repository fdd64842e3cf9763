"""What vision reports of a card, and where each player's cards lie in the image.

Player A sits at the bottom of the image, B at the top (or the other way round). In
each half the row nearer the centre line holds the Active Spot (the Pokémon nearest the
middle of the image, left to right), the row farther out the Bench.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from assistant.engine.model import PLAYERS


@dataclass(frozen=True)
class SeenCard:
    """One card vision sees now: its track id (the same card keeps it from frame to
    frame), its settled name and printing id (``None`` when not sure), its centre as
    a fraction (0..1) of the frame's width and height, and how far it is turned
    clockwise in the image (0, 90, 180 or 270)."""

    track: int
    name: str | None
    card_id: str | None
    x: float
    y: float
    rotation: int = 0


class LayoutError(ValueError):
    """Zone fractions that would not split the image into two halves of two rows."""


@dataclass
class TableLayout:
    """Where each player's cards lie in the image.

    ``centre`` is the line between the two halves (a fraction of the height);
    ``active_depth`` how far from it the Active row reaches (beyond it lies the
    Bench row); ``near`` how close (in frame fractions) an Energy card must lie to a
    Pokémon to be attached to it, and an Evolution card to the Pokémon it covers: a
    quarter of the image, room for three Energy cards laid beside an Active Pokémon.

    The judge calibrates a running table (the camera view's calibration page) with
    :meth:`adjust`: every field may change while the mirror reads the layout from
    another thread; the next picture it looks at is placed with the new fractions."""

    centre: float = 0.5
    active_depth: float = 0.25
    near: float = 0.25
    a_at_bottom: bool = True

    _adjusting: ClassVar[threading.Lock] = threading.Lock()

    def __post_init__(self) -> None:
        if not 0.1 <= self.centre <= 0.9:
            raise LayoutError(f"the centre line must lie between 0.1 and 0.9 of the height, not {self.centre}")
        if not 0.02 <= self.active_depth <= 0.5:
            raise LayoutError(f"the Active row's depth must be between 0.02 and 0.5 of the height, "
                              f"not {self.active_depth}")
        if not 0.01 <= self.near <= 1.0:
            raise LayoutError(f"'near' must be between 0.01 and 1 of the image, not {self.near}")

    def fractions(self) -> dict[str, Any]:
        """The adjustable values, by name."""
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def adjust(self, **changes: Any) -> None:
        """Change some fractions in place (``centre=0.48``), all or none: a value out
        of range raises :class:`LayoutError` and leaves the layout as it was."""
        unknown = set(changes) - set(self.fractions())
        if unknown:
            raise LayoutError(f"a layout has no {', '.join(sorted(unknown))}")
        with self._adjusting:
            checked = replace(self, **changes)  # validated as a whole before anything changes
            self.__dict__.update(checked.fractions())

    def side(self, card: SeenCard) -> str:
        bottom = card.y >= self.centre
        return "A" if bottom == self.a_at_bottom else "B"

    def row(self, card: SeenCard) -> str:
        return "active" if abs(card.y - self.centre) < self.active_depth else "bench"

    def place(self, card: SeenCard) -> tuple[str, str]:
        """(player, row) of a card."""
        return self.side(card), self.row(card)

    def arrange(self, pokemon: Iterable[SeenCard]
                ) -> dict[str, tuple[SeenCard | None, list[SeenCard]]]:
        """Per player: the card in the Active Spot (or None) and the Bench in order,
        left to right *from that player's seat*. The player at the top sees the image
        upside down, so their left is the image's right."""
        rows: dict[tuple[str, str], list[SeenCard]] = {}
        for card in pokemon:
            rows.setdefault(self.place(card), []).append(card)
        out: dict[str, tuple[SeenCard | None, list[SeenCard]]] = {}
        for player in PLAYERS:
            front = rows.get((player, "active"), [])
            active = min(front, key=lambda c: abs(c.x - 0.5)) if front else None
            at_bottom = (player == "A") == self.a_at_bottom
            bench = sorted(rows.get((player, "bench"), []), key=lambda c: c.x if at_bottom else -c.x)
            out[player] = (active, bench)
        return out
