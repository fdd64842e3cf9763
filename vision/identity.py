"""Which printing a named card is: its collector number, read off the bottom strip.

A card's name says which card it is; its *printing* (the pokemontcg.io id, ``sv2-12``)
says which set it came from, which tells two "Professor's Research" of one deck apart.
Scarlet & Violet and Mega Evolution cards print, at the bottom left, the regulation
mark, the set badge (white on black, a few pixels tall from a camera) and the
collector number "012/193". The number is the readable part; the name has already
narrowed the printings to a few, and the number picks one of them whose id ends in
it. A number that fits none of the name's printings (misread, or a printing the
database lacks) picks nothing: the id stays unknown, and the name is unaffected.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import cv2
import numpy as np

from vision.geometry import warp_region
from vision.ocr import LineReader

#: The bottom strip holding the regulation mark, the set badge and the collector number
#: (card fractions x0, y0, x1, y1; SV layout: the number's digits sit at 0.94-0.97 of
#: the height, 0.16-0.28 of the width).
NUMBER_STRIP = (0.04, 0.935, 0.42, 0.982)
#: Card height (px) the strip is straightened at: the number's ~1.5%-of-the-card digits
#: come out ~24 px tall.
STRIP_CARD_PX = 1600
#: The number is taken only from a read this sure (the reader's mean letter confidence).
#: PP-OCR, tune split, true outlines, 200-440 px: at 0.6, 50 numbers right and 12 wrong;
#: at 0.85, 24 right and 2 wrong; at 0.9, 19 and 1. A wrong number seldom fits another
#: printing of the name, but a wrong id must stay rarer than a missing one.
LEAST_CONFIDENCE = 0.85
#: A read in the printed shape "<number>/<set's count>" (two or three digits after the
#: slash) is taken from this sure: the shape is evidence the line is the number, not a
#: stray row. Tune split, true outlines, PP-OCR: cards held in a 1080 / 600 / 400 px
#: phone photo, 119 each, ids right 60 / 58 / 32 -> 95 / 93 / 65; table frames at 330-440
#: px 21 -> 78; no id wrong (the wrong numbers, 3% of reads, fit no printing of the name).
SHAPED_CONFIDENCE = 0.7
#: The number is read only on a card at least this tall (px) in the frame. Holdout split,
#: true outlines: PP-OCR read it on no card at 200-330 px and on 22% at 330-440 px;
#: below, the read only cost time (no deck lists, 260-330 px: 1.4x the frame's time).
MIN_CARD_PX = 330
_NUMBER = re.compile(r"(?<!\d)(\d{1,3})\s*/")
_SHAPED = re.compile(r"(?<!\d)(\d{1,3})\s*/\s*(\d{2,3})")


def number_strip(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The straightened bottom-left strip of the card at printed-order ``quad``."""
    return warp_region(frame, quad, NUMBER_STRIP, STRIP_CARD_PX, cv2.INTER_CUBIC)


def parse_number(text: str) -> str | None:
    """The collector number of a strip's text, without leading zeros ("012/193" -> "12"),
    or None when the text has no "<digits>/"."""
    match = _NUMBER.search(text)
    return str(int(match.group(1))) if match else None


def read_number(engine: LineReader, frame: np.ndarray, quad: np.ndarray) -> str | None:
    """The collector number printed on the card at ``quad`` (upright), or None (also for
    a card under ``MIN_CARD_PX`` tall, whose number no reader made out)."""
    left, right = np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1])
    if (left + right) / 2 < MIN_CARD_PX:
        return None
    read = engine.read_line(number_strip(frame, quad))
    shaped = _SHAPED.search(read.text)
    if shaped and len(shaped.group(1)) < len(shaped.group(2)):
        # Scarlet & Violet print the number as wide as the count ("014/198"): a read
        # "14/198" lost a digit (tune split: Lucario 114/198 in a 400 px photo, read
        # surely as 14, the number of its col1 printing).
        return None
    least = SHAPED_CONFIDENCE if shaped else LEAST_CONFIDENCE
    return parse_number(read.text) if read.confidence >= least else None


def printing(ids: Iterable[str], number: str | None) -> str | None:
    """The one id among a name's printings ``ids`` whose collector number is ``number``
    (pokemontcg.io ids end in "-<number>"), else None."""
    if number is None:
        return None
    fits = {card_id for card_id in ids if card_id.rsplit("-", 1)[-1].lstrip("0") == number}
    return fits.pop() if len(fits) == 1 else None
