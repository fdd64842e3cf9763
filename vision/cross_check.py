"""A name only just sure, checked by the other line reader before a judge acts on it.

With deck lists, junk read from a blurred or glared title now and then fits some deck
name well enough to be named, most often a short one (a Pawmo named "Arven" from
"Omerseee", a Meditite "Rotom" from "Re teen"). Such a naming comes from one reader's
idea of a few smudged letters; the other reader (PP-OCR, for a name Tesseract read) sees
the same smudge its own way and has no reason to land on the same wrong name. A real
title, read by both, leans towards the same deck name in both, even when the other
reader's read is too poor to name it alone. So a name only just sure
(:data:`CHECKED_BELOW`) is kept only when the other reader's reads of the same title
band (its :data:`CROSS_READS` likeliest lines) fit that name best of all the deck names,
however unsure, or fit none at all (no evidence either way: blur can leave the other
reader nothing); else the card is "not sure" (a wrong answer is worse). On video the
tracker reads the card again on later frames, so a card left unsure here is named once a
frame shows it clearly.

Chosen on the tune split, whole frames of ``bench.vision.conditions`` under motion and
focus blur, glare and the table mix (deck lists, seed 0, 200-330 px and part of 330-440
px), every naming logged with what else could be read of its card. Of 16 wrong names
among 1,287, 14 were named below 0.7, and the other reader's best name was the same for
1 of them, against 133 of the 200 right names there. The other evidence looked at told
them apart less well: the title line's width against the width the name prints (the
wrong names' ratios lay within the right ones' spread, but two), the HP corner (already
checked: ``NameMatcher.refuted_by_hit_points``), the kind of card named (a Pokémon named
for a Pokémon as often as not). Tesseract's names below 0.62: 8 -> 4 wrong, none of 612
right names lost (without the abstention on an empty read: 6 lost; below 0.65: 2 lost, 4
wrong). PP-OCR's names are not checked: Tesseract reads blurred titles too poorly to
refute them (below 0.55: 8 -> 5 wrong for 6 of 678 right names; on seed 1, no wrong name
fewer for 7 right ones lost). Measured on seed 2, unseen (Tesseract, the same four conditions, 40 cards per band
and condition; ``bench.vision.conditions --split tune --seed 2 --conditions
motion-blur,focus-blur,glare,table --readers tesseract --limit 40``): from true outlines
8 -> 6 wrong names of 480 cards, 1 right one fewer; from whole frames outside the table
mix 7 -> 5 wrong of 360, 3 right ones fewer. Plain frames, decoys and sleeves unchanged.
One line read (:data:`CROSS_READS`) rather than two: two took back 1 more wrong name for
3 more right ones lost, and cost twice the CPU. ``bench.vision.run --split tune``: 200-260
px with deck lists 86.7 -> 85.0% (a Gyarados ex PP-OCR reads ",Gyee"), 0 wrong either
way. About 0.4 cards a frame are checked, and a frame left unexplained by a name taken
back is searched by its titles (``vision.text_finder``).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import islice

import numpy as np

from vision.names import ACCEPT, NameMatch, NameMatcher
from vision.ocr import LineRead, LineReader, title_band, title_reads
from vision.pp_ocr import PPOCR
from vision.pp_ocr import available as learned_reader_available

#: A deck name Tesseract named with less confidence than this is cross-checked by PP-OCR
#: (see the module).
CHECKED_BELOW = 0.62
#: How many of the title band's likeliest lines the other reader reads (see the module).
CROSS_READS = 1


def other_reader(engine: LineReader) -> LineReader | None:
    """The reader that checks ``engine``'s names: PP-OCR for Tesseract's. None for PP-OCR's
    own (see the module), or when PP-OCR is not installed."""
    if isinstance(engine, PPOCR) or not learned_reader_available():
        return None
    return PPOCR()


def needs_cross_check(matcher: NameMatcher, match: NameMatch) -> bool:
    """Whether ``match`` names a deck name only just (from ``ACCEPT`` to
    :data:`CHECKED_BELOW`). Without deck lists there is no small set of names for the
    other reader's reads to lean towards."""
    return matcher.deck is not None and match.name is not None and ACCEPT <= match.confidence < CHECKED_BELOW


def agrees(matcher: NameMatcher, match: NameMatch, reads: list[LineRead]) -> bool:
    """Whether ``reads`` (the other reader's) do not contradict ``match``: they fit no deck
    name at all (no text, or a stray letter: no evidence either way), or they fit its
    name best of the deck names, however unsure. Not one of the names it nearly ties with
    (``NameMatch.rivals``): a Pawmo named "Pawmi" by one reader and "Pawmo" by the other
    is not agreed on."""
    other = matcher.match(reads).name
    return other is None or other == match.name


def cross_checked(engine: LineReader, matcher: NameMatcher, frame: np.ndarray, quad: np.ndarray,
                  match: NameMatch) -> NameMatch:
    """``match`` (named by ``engine`` from the card at printed-order ``quad``) made unsure,
    its confidence 0, when there is a reader to check it (``other_reader``), it needs a
    cross-check (``needs_cross_check``) and that reader's reads of its title band do not
    agree (``agrees``). Unchanged otherwise."""
    other = other_reader(engine)
    if other is None or not needs_cross_check(matcher, match):
        return match
    reads = list(islice(title_reads(other, title_band(frame, quad)), CROSS_READS))
    return match if agrees(matcher, match, reads) else replace(match, confidence=0.0)
