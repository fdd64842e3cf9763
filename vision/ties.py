"""Ties a card's title cannot break, broken by what else its top row prints.

Some deck names read alike however well their title is read:

- a name and its suffixed twin (Bombirdier, Bombirdier ex; Rotom, Rotom V): the suffix
  is a logo, not letters. Their HP figures differ, and the HP corner is read
  (``vision.ocr.read_hit_points``, by the caller; ``NameMatcher.by_hit_points``);
- the printings of one Trainer told apart by a subtitle (Professor's Research
  (Professor Sada), (Professor Turo)): the subtitle is printed small, in italics, at the
  right end of the title line, too far from the title to be read with it, and that
  corner is read (``vision.ocr.read_subtitle``, ``NameMatcher.by_subtitle``).

Either takes one more read of the card, made only for a tie one of them can settle.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.names import NameMatch, NameMatcher
from vision.ocr import LineReader, read_subtitle


def may_settle(matcher: NameMatcher, match: NameMatch) -> bool:
    """Whether one more read of the card's top row may settle ``match``, a tie."""
    return matcher.hit_points_may_tell(match) or matcher.subtitle_may_tell(match)


def settled(matcher: NameMatcher, match: NameMatch, engine: LineReader, band: np.ndarray,
            hit_points: Callable[[], str]) -> NameMatch:
    """``match`` settled by the HP figure (``hit_points``: the digits of the HP corner,
    which the caller reads once per band, for this and ``NameMatcher.refuted_by_hit_points``)
    or by the subtitle read from ``band`` (the title band the title was read from) with
    ``engine``: unchanged when the read does not tell (see ``NameMatcher.by_hit_points``,
    ``NameMatcher.by_subtitle``)."""
    if matcher.hit_points_may_tell(match):
        return matcher.by_hit_points(match, hit_points())
    if matcher.subtitle_may_tell(match):
        return matcher.by_subtitle(match, read_subtitle(engine, band))
    return match
