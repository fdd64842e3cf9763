"""Read a Pokémon's hit points (HP) from its title band.

A Pokémon prints its HP at the right end of its top row, after the small letters "HP"
and before its type symbol. The figure tells apart cards a blurred title leaves close
(Flaaffy at 90, Flaaffy δ at 70) and refutes a name whose card prints another figure.
OCR of the corner often keeps a stray digit from the "HP" letters or the symbol's edge,
so the figures are looked for as runs within the digits read (``hit_point_figures``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import numpy as np

from vision.ocr import LineReader, band_box, brightest_channel, find_lines, may_be_light

#: Where a Pokémon prints its HP (card fractions x0, y0, x1, y1): the top row right of
#: the title, up to the type symbol (tune split: 0.90 read the figure more often than
#: 0.93, which takes in part of the symbol). Searched for a line of dark strokes.
HP_WINDOW = (0.60, 0.0, 0.90, 0.13)
#: The HP corner read as it is, colours and all: "HP", the figure and the edge of the
#: type symbol. The dark-stroke search misses the figure wherever it is not dark on
#: light: white on a Darkness Pokémon's dark bar (Mabosstiff, Kingambit, Toxicroak ex),
#: printed over a full-art picture (Ralts, Scovillain). Tune split, true outlines, plain,
#: PP-OCR: the figure read in 97-98 of 98 Pokémon per height band from this crop, 85-90
#: from the searched line (``bench.vision.hit_points``); (0.60, 0.0, 0.90, 0.13) 96-97.
HP_CORNER = (0.62, 0.01, 0.90, 0.11)
#: The HP figures cards print (every one a multiple of 10; the few of 10 HP left out: a
#: stray "1" of the "HP" letters before the symbol's edge read as "0" looks like one).
HP_FIGURES = frozenset(range(30, 400, 10))
#: The HP corner taken wide, to the type symbol and the card's edge: read as it is when
#: the corner and the line found there hold no one figure. An outline a few percent
#: narrow or off cuts the figure's last digit from both (tune split, 260-330 px, decoys:
#: Arboliva's "150" read "15" from an outline of IoU 0.94, "150" from this crop).
HP_WIDE_CORNER = (0.58, 0.0, 0.99, 0.14)
#: At most this many crops of the HP corner are read (``hit_points_images``), until one
#: holds a single figure a card could print.
HP_READS = 3



def hit_points_images(band: np.ndarray) -> Iterator[np.ndarray]:
    """Images of a title band's HP corner that may show its figure, likeliest first: the
    corner as it is (``HP_CORNER``), the line of dark strokes found there, the wide corner
    (``HP_WIDE_CORNER``), and the line of light strokes (Tesseract reads the cleaned lines
    better than the raw corner)."""
    corner = band_box(band, HP_CORNER)
    if corner.size:
        yield corner
    grey = band_box(brightest_channel(band), HP_WINDOW)
    if lines := find_lines(grey):
        yield lines[0].image
    wide = band_box(band, HP_WIDE_CORNER)
    if wide.size:
        yield wide
    if lines := find_lines(grey, light=True):
        yield lines[0].image


def hit_point_figures(digits: str) -> set[int]:
    """The HP figures a card could print (``HP_FIGURES``) that ``digits`` holds as a run:
    "2700" (a stray "2" from the "HP" letters, a "0" from the symbol's edge) holds 70
    and 270, "1" none."""
    return {int(digits[i:j]) for i in range(len(digits)) for j in range(i + 2, min(len(digits), i + 3) + 1)
            if digits[i] != "0" and int(digits[i:j]) in HP_FIGURES}


def single_figure(digits: str) -> int | None:
    """The one HP figure ``digits`` hold (``hit_point_figures``; a figure within another
    is part of it: "130" holds 30 too and is one print, 130), or None for none or several
    ("7090": 70 and 90)."""
    figures = hit_point_figures(digits)
    outer = [f for f in figures if not any(f != g and str(f) in str(g) for g in figures)]
    return outer[0] if len(outer) == 1 else None


def read_hit_points(engine: LineReader, band: np.ndarray, reads: int = HP_READS) -> str:
    """The digits OCR reads in the HP corner of a title band ("" for none): the HP figure,
    perhaps with a stray digit beside it (the small "HP" letters, the edge of the type
    symbol). The crops of ``hit_points_images`` are read in turn, at most ``reads`` of
    them, until one holds a single figure a card could print (one run: "130", with 30 in
    it, is one). The raw corner's "7090" (90 HP, a "7" from the "HP" letters) holds 70
    too, which would leave Flaaffy (90) and Flaaffy δ (70) tied; the cleaned line's "90"
    does not. Else the first digits holding any figure, else the first digits read.
    With PP-OCR (``vision.pp_ocr.learned_or``) the digits hold the figure on 99-100% of
    the tune split's Pokémon at every height band (true outlines; 85-90% from the
    searched line alone), Tesseract's on 86-92% (81-88%); stray digits do not keep
    ``NameMatcher.by_hit_points`` from settling a tie."""
    first, several = "", ""
    for image in itertools.islice(hit_points_images(band), reads):
        digits = re.sub(r"\D", "", engine.read_line(image, image.ndim == 3 or may_be_light(image)).text)
        if single_figure(digits) is not None:
            return digits
        several = several or (digits if hit_point_figures(digits) else "")
        first = first or digits
    return several or first


#: The Pokémon title row whole, for the learned reader (card fractions x0, y0, x1, y1):
#: stage tag to HP, colours and all, where the dark-stroke search finds no clean line (a
