"""Cards in sleeves: where the card lies inside the outline a finder takes.

A finder outlines a sleeved card by the sleeve's edge, a dark rim against the table its
strongest edge. The card then lies a few percent inside the outline, and the layout's title
windows (``vision.ocr``), placed as fractions of the outline, miss its title.
"""

from __future__ import annotations

import numpy as np

from vision.geometry import region_quad, warp_region
from vision.ocr import brightest_channel, percentile

#: A sleeve's rim on each side of the card inside it, as fractions of the sleeve's width
#: and height (``vision.synthetic``'s sleeves: 3.5% of the card's width and 3% of its
#: height a side). The finder outlines a dark-rimmed sleeve, not its card: the title then
#: lies ~3% lower and further right than the layout's windows expect, and the band's
#: first line is the stage badge, the fixed crop cuts the title's foot (tune split,
#: sleeves, true outlines: 111 / 114 of 119 named at 260-330 / 330-440 px with
#: Tesseract; from the card inside, every one).
SLEEVE_RIM = (0.033, 0.028)
#: A dark sleeve's rim, as the ring of an outline from ``RIM_RING[0]`` to ``RIM_RING[1]``
#: of its size in from each side: dark and even (median brightness, the brightest
#: channel, under ``RIM_DARK``; interquartile range, a gloss across it, under
#: ``RIM_EVEN``). Tune split, 260-330 px, true outlines: dark rims 13-45 and 2-7 without
#: gloss; bare cards (their silver or yellow border) 104 and up. A clear rim, the table
#: showing through it, is not looked for: its ring like the table outside the outline
#: named 2 more cards of 238 but held 1 in 6 of the unnamed bare cards too, 12% more
#: Tesseract calls on ``bench.vision.speed``'s frames.
RIM_RING = (0.004, 0.02)
RIM_DARK, RIM_EVEN = 90.0, 40.0
#: Card height (px) the outline is straightened at to look at its ring: 1-5 px deep.
RIM_CARD_PX = 240


def sleeve_rim(frame: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the outline ``quad`` (printed order) holds a dark sleeve's rim around its
    card (see ``RIM_RING``): then its title lies where ``card_in_sleeve`` puts it."""
    grey = brightest_channel(warp_region(frame, quad, (0.0, 0.0, 1.0, 1.0), RIM_CARD_PX))
    h, w = grey.shape
    outer, inner = RIM_RING
    ring = np.zeros((h, w), bool)
    ring[int(outer * h):h - int(outer * h), int(outer * w):w - int(outer * w)] = True
    ring[int(inner * h):h - int(inner * h), int(inner * w):w - int(inner * w)] = False
    return (percentile(grey, 50, ring) < RIM_DARK
            and percentile(grey, 75, ring) - percentile(grey, 25, ring) < RIM_EVEN)


def card_in_sleeve(quad: np.ndarray) -> np.ndarray:
    """The outline of the card inside a sleeve outlined by ``quad`` (printed order)."""
    rim_x, rim_y = SLEEVE_RIM
    return region_quad(quad, rim_x, rim_y, 1.0 - rim_x, 1.0 - rim_y)
