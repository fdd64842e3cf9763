"""Which printing a named card is: its collector number, read off the bottom strip.

A card's name says which card it is; its *printing* (the pokemontcg.io id, ``sv2-12``)
says which set it came from, which tells two "Professor's Research" of one deck apart.
Scarlet & Violet and Mega Evolution cards print, at the bottom left, the regulation
mark, the set badge (white on black, a few pixels tall from a camera) and the
collector number "012/193". The number is the readable part; the name has already
narrowed the printings to a few, and the number picks one of them whose id ends in
it. A number that fits none of the name's printings (misread, or a printing the
database lacks) picks nothing: the id stays unknown, and the name is unaffected.

The strip is cut where the card's frame says it is; a frame found from a card's title
(``vision.text_finder``) or around a hand over a corner may be off by a tenth of the
card, and the thin strip then misses the number. The number is then looked for in a
looser window around where it should be: PP-OCR's detector finds its lines of small
print, and the one read in the printed shape "<number>/<set's count>" is the number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import cv2
import numpy as np

from vision import text_detect
from vision.geometry import card_height, warp_region
from vision.ocr import LineRead, LineReader

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
#: A card at least this share of the picture's longer side tall is a photo *of that
#: card* (a phone's close-up: 0.6-1.2 of it; table frames: at most ~0.25, a binder page's
#: cards ~0.3). Its number is looked for harder: from ``CLOSE_UP_MIN_PX`` tall (a photo's
#: digits are sharper than a webcam's: tune split, cards ~320 px tall in 400 px photos,
#: PP-OCR read "105/198" at 0.95), and, when the strip does not hold it, in the window
#: around it (``SEARCH_BOX``): ~0.2 s more a photo, the detector's pass over the window.
#: Tune split, photos of cards #60-89 (not looked at while tuning), no deck lists, held
#: in a hand at 1080 / 600 / 400 px: ids 6 / 8 / 1 -> 17 / 17 / 11 of 20 / 22 / 22 named,
#: none wrong; with deck lists 15 / 20 / 14 -> 20 / 27 / 21 of 21 / 28 / 26.
CLOSE_UP, CLOSE_UP_MIN_PX = 0.4, 300
#: The window the number is looked for in when the strip does not hold it (card fractions
#: x0, y0, x1, y1): the strip with room for a frame off by ~15% of the card either way.
SEARCH_BOX = (-0.08, 0.78, 0.6, 1.14)
#: Card height (px) the window is straightened at: the digits come out ~18 px tall (at
#: ~12 px the detector missed them on a tune photo), the window ~580 × 430 px.
SEARCH_CARD_PX = 1200
#: Where the number's middle is (card fractions), and how many of the window's lines,
#: nearest it first, are read: the window holds other small print (weakness,
#: illustrator, the attack's text).
NUMBER_AT, SEARCH_READS = (0.22, 0.955), 8
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


def is_close_up(frame: np.ndarray, height: float) -> bool:
    """Whether a card ``height`` px tall fills ``frame`` as in a phone's close-up
    (``CLOSE_UP``)."""
    return height >= CLOSE_UP * max(frame.shape[:2])


def read_number(engine: LineReader, frame: np.ndarray, quad: np.ndarray) -> str | None:
    """The collector number printed on the card at ``quad`` (upright), or None (also for
    a card under ``MIN_CARD_PX`` tall, whose number no reader made out; in a close-up,
    see ``CLOSE_UP``, under ``CLOSE_UP_MIN_PX``)."""
    height = card_height(quad)
    close_up = is_close_up(frame, height)
    if height < (CLOSE_UP_MIN_PX if close_up else MIN_CARD_PX):
        return None
    number = _number_of(engine.read_line(number_strip(frame, quad)), shaped_only=False)
    return _searched_number(engine, frame, quad) if number is None and close_up else number


def _number_of(read: LineRead, shaped_only: bool) -> str | None:
    """The collector number ``read`` gives, when it is sure enough to take: a read in the
    printed shape from ``SHAPED_CONFIDENCE``, another (unless ``shaped_only``) from
    ``LEAST_CONFIDENCE``."""
    shaped = _SHAPED.search(read.text)
    if shaped and len(shaped.group(1)) < len(shaped.group(2)):
        # Scarlet & Violet print the number as wide as the count ("014/198"): a read
        # "14/198" lost a digit (tune split: Lucario 114/198 in a 400 px photo, read
        # surely as 14, the number of its col1 printing).
        return None
    if shaped is None and shaped_only:
        return None
    least = SHAPED_CONFIDENCE if shaped else LEAST_CONFIDENCE
    return parse_number(read.text) if read.confidence >= least else None


def _searched_number(engine: LineReader, frame: np.ndarray, quad: np.ndarray) -> str | None:
    """The collector number found by PP-OCR's detector in ``SEARCH_BOX`` of the card at
    ``quad``: of the window's ``SEARCH_READS`` lines nearest ``NUMBER_AT``, the first read
    in the printed shape, else None. Only a shaped read is taken: the window holds other
    small print."""
    if not text_detect.available():
        return None
    window = warp_region(frame, quad, SEARCH_BOX, SEARCH_CARD_PX, cv2.INTER_CUBIC)
    x0, y0, x1, y1 = SEARCH_BOX
    expected = np.float32([(NUMBER_AT[0] - x0) / (x1 - x0) * window.shape[1],
                           (NUMBER_AT[1] - y0) / (y1 - y0) * window.shape[0]])
    lines = [box for box in text_detect.detect(window, max(window.shape[:2]))
             if box.length >= 2 * box.thickness]  # not a mark or a lone letter
    lines.sort(key=lambda box: float(np.linalg.norm(box.corners.mean(axis=0) - expected)))
    for box in lines[:SEARCH_READS]:
        number = _number_of(engine.read_line(text_detect.line_image(window, box.corners), False), shaped_only=True)
        if number is not None:
            return number
    return None


def printing(ids: Iterable[str], number: str | None) -> str | None:
    """The one id among a name's printings ``ids`` whose collector number is ``number``
    (pokemontcg.io ids end in "-<number>"), else None."""
    if number is None:
        return None
    fits = {card_id for card_id in ids if card_id.rsplit("-", 1)[-1].lstrip("0") == number}
    return fits.pop() if len(fits) == 1 else None
