"""Which end of a card is its top, judged from the printed layout alone (no OCR).

A card prints its picture in the upper half (about 15-45% of its height down) and its
rules text in the lower half (55-85%), on a flat text box. The picture is the busier of
the two: more contrast and more edges. The title and HP across the top are larger print
than the set line and small print along the bottom edge. Three comparisons follow from
that, each a score between -1 and 1 that is positive when the end we call the top is the
top:

- edges: horizontal edge energy of the picture zone against the text zone;
- contrast: grey-level spread of the picture zone against the text zone;
- title: edge energy of the top strip (2-9%) against the bottom strip (91-98%).

Their sum, the *lean*, is a cheap first guess at the way up. It is wrong mostly on
full-art cards, where the picture covers the whole card; the card's name, once read,
always overrules it (see ``vision.card_reading``).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import warp

#: The card is judged at this size (w, h); smaller sizes judged a little worse (tune split).
LAYOUT_SIZE = (150, 210)
PICTURE = (0.15, 0.45)
TEXT_BOX = (0.55, 0.85)
TOP_STRIP = (0.02, 0.09)
BOTTOM_STRIP = (0.91, 0.98)
#: Columns compared: the borders and the card's edges are left out.
COLUMNS = (0.1, 0.9)


def _contrast(a: float, b: float) -> float:
    """-1..1: how much more ``a`` has than ``b``."""
    return (a - b) / (a + b) if a + b > 0 else 0.0


def lean(frame: np.ndarray, quad: np.ndarray) -> float:
    """-3..3: positive when ``quad`` (printed order) is upright, negative when the card
    lies upside down in it; the larger, the surer."""
    card = warp(frame, quad, LAYOUT_SIZE)
    grey = (cv2.cvtColor(card, cv2.COLOR_BGR2GRAY) if card.ndim == 3 else card).astype(np.float32)
    edges = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3))
    h, w = grey.shape
    columns = slice(int(COLUMNS[0] * w), int(COLUMNS[1] * w))

    def rows(zone: tuple[float, float]) -> slice:
        return slice(int(zone[0] * h), int(zone[1] * h))

    def edge_energy(zone: tuple[float, float]) -> float:
        return float(edges[rows(zone), columns].mean())

    def spread(zone: tuple[float, float]) -> float:
        return float(grey[rows(zone), columns].std())

    return (_contrast(edge_energy(PICTURE), edge_energy(TEXT_BOX))
            + _contrast(spread(PICTURE), spread(TEXT_BOX))
            + _contrast(edge_energy(TOP_STRIP), edge_energy(BOTTOM_STRIP)))
