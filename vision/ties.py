"""Ties a card's title cannot break, broken by what else its top row prints.

Some deck names read alike however well their title is read:

- a name and its suffixed twin (Bombirdier, Bombirdier ex; Rotom, Rotom V): the suffix
  is a logo, not letters. Their HP figures differ, and the HP corner is read
  (``vision.hit_points.read_hit_points``, by the caller; ``NameMatcher.by_hit_points``);
- the printings of one Trainer told apart by a subtitle (Professor's Research
  (Professor Sada), (Professor Turo)): the subtitle is printed small, in italics, at the
  right end of the title line, too far from the title to be read with it. Its corner is
  read first (``read_subtitle``, ``NameMatcher.by_subtitle``); when that read
  does not settle the tie, the subtitle is searched for as a line of text in the title
  row's right half (``subtitle_lines``): an outline found a few pixels off, or tilted,
  moves the small print out of any fixed corner.

Either takes one more look at the card, made only for a tie one of them can settle.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision import text_detect
from vision.names import NameMatch, NameMatcher
from vision.ocr import LineRead, LineReader, band_box

#: Where a Trainer prints its subtitle (card fractions x0, y0, x1, y1): the title row's
#: right end, under the "TRAINER" banner. Tune split, true outlines: PP-OCR read
#: "Professor Sada" / "Professor Turo" from it at 330-440 px (a letter or two off at
#: 260-330 px, more at 200-260 px); a crop from 0.70 cut the "P" at small sizes.
SUBTITLE_CORNER = (0.62, 0.095, 0.99, 0.165)


def read_subtitle(engine: LineReader, band: np.ndarray) -> LineRead:
    """The subtitle corner of a title band (``vision.ocr.title_band``) read as it is,
    colours and all (PP-OCR reads its small italics; Tesseract mostly does not)."""
    corner = band_box(band, SUBTITLE_CORNER)
    return engine.read_line(corner) if corner.size else LineRead("", 0.0)


#: Where the subtitle is searched for when ``SUBTITLE_CORNER`` does not hold it (card
#: fractions): the title band's right half, top to bottom. A found outline a few pixels
#: off moves the small print out of a fixed corner: tune split, whole frames, 260-440 px,
#: 10 of 135 ties the corner left unread lay above it, below it or across its edge.
SUBTITLE_ROW = (0.5, 0.0, 1.0, 0.2)
#: The detector sees ``SUBTITLE_ROW`` enlarged this much: the subtitle's small
#: print, ~12 px tall in a title band, is then past the ~8 px the detector finds lines
#: from. Tune split, whole frames, the 200 ties the corner did not all settle: at 1.5x the
#: search settled 9 of the 10 ties the corner left at 260-440 px and 24 of 31 at 200-260
#: px; at 0.75x, 8 and 3; no printing wrong at any zoom.
SUBTITLE_ZOOM = 1.5


def subtitle_lines(band: np.ndarray) -> list[np.ndarray]:
    """The lines of text in ``band``'s ``SUBTITLE_ROW`` (a title band), each cut
    out as it lies there (the band is straightened already): the subtitle among them,
    wherever the outline put it, and whatever else the row prints (the card-type banner,
    the title's end). None without the detector."""
    row = band_box(band, SUBTITLE_ROW)  # colours and all
    if not row.size or not text_detect.available():
        return []
    lines = []
    for box in text_detect.detect(row, int(SUBTITLE_ZOOM * max(row.shape[:2]))):
        x, y, w, h = cv2.boundingRect(box.corners.astype(np.float32))
        line = row[max(0, y):y + h, max(0, x):x + w]
        if line.size:
            lines.append(line)
    return lines


def by_subtitle(matcher: NameMatcher, match: NameMatch, engine: LineReader, band: np.ndarray) -> NameMatch:
    """``match`` (a tie ``NameMatcher.subtitle_may_tell``) settled by its card's subtitle,
    read with ``engine`` from ``band`` (the title band the title was read from): from its
    corner; else from the lines of the title row's right half (``subtitle_lines``), when
    those that settle it all name one printing. Unchanged when no read tells: a wrong
    printing is a wrong name."""
    settled = matcher.by_subtitle(match, read_subtitle(engine, band))
    if not settled.rivals:
        return settled
    reads = (matcher.by_subtitle(match, engine.read_line(line)) for line in subtitle_lines(band))
    told = [found for found in reads if not found.rivals]
    if len({found.name for found in told}) != 1:
        return match
    return min(told, key=lambda found: found.confidence)


def may_settle(matcher: NameMatcher, match: NameMatch) -> bool:
    """Whether one more read of the card's top row may settle ``match``, a tie."""
    return matcher.hit_points_may_tell(match) or matcher.subtitle_may_tell(match)


def settled(matcher: NameMatcher, match: NameMatch, engine: LineReader, band: np.ndarray,
            hit_points: Callable[[], str]) -> NameMatch:
    """``match`` settled by the HP figure (``hit_points``: the digits of the HP corner,
    which the caller reads once per band, for this and ``NameMatcher.refuted_by_hit_points``)
    or by the subtitle read from ``band`` (the title band the title was read from) with
    ``engine`` (``by_subtitle``): unchanged when the read does not tell (see
    ``NameMatcher.by_hit_points``, ``NameMatcher.by_subtitle``)."""
    if matcher.hit_points_may_tell(match):
        return matcher.by_hit_points(match, hit_points())
    if matcher.subtitle_may_tell(match):
        return by_subtitle(matcher, match, engine, band)
    return match
