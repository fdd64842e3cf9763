"""Naming a card from its attacks' names, when its title cannot be read.

A lamp's reflection clipped to white over a title, a finger on it, or a title bar too
dark to read at this size leaves a Pokémon card unnamed by its title. The lower part of
the card still prints, in bold, the name of each of its attacks and Abilities, and within
one table's deck lists few cards share one. So, with deck lists that say which attacks
each of their names has (``NameMatcher.attacks``), the card's lower part is straightened,
its lines of text are found by PP-OCR's detector (``vision.text_detect``), the boldest few
(attack names are printed bigger than the effect text under them) are read by the
learned reader, and each read is compared with the deck names' attack names.

A read names the deck names that have an attack (or Ability) spelled like it
(``MIN_SIMILARITY``); the card is the name most reads name, when no other is named as
often. Two deck names that share an attack ("Slash") and nothing else read stay a tie,
and a card that is not a Pokémon (a Trainer, an Energy: no attacks) is never named so.

Tune split, seed 2, a highlight on every card (on its title 2 in 3), deck lists, true
outlines (``bench.vision.conditions --conditions glare --no-frames``): named 79 / 78 / 81
-> 103 / 106 / 104 of 119 / 119 / 116 at 200-260 / 260-330 / 330-440 px, none wrong. Those
still unnamed are mostly Trainers and Energy, which print no attacks. Attack names read
upright only: where the layout is not sure which end is the top, the other end is looked
at too (``vision.card_reading``), which named 3 cards more and turned them right.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
from rapidfuzz import fuzz

from vision.geometry import warp_region
from vision.names import NameMatch, NameMatcher, normalise
from vision.ocr import LineReader
from vision.text_detect import detect, line_image

#: Where attacks and Abilities are printed: from under the picture to above the
#: Weakness line (fractions of the card's width and height, printed order).
LOWER = (0.0, 0.45, 1.0, 0.93)
#: The card straightened at this height (px): an attack's name is ~12 px tall there.
CARD_PX = 420
#: The detector sees the lower part at this longer side (px; its cost grows with the
#: area: ~70 ms on one core). The figures above at 224 / 256 / 320 px: 311 / 313 / 315
#: cards named, 320 px at 1.7 times 256's cost.
DETECT_LONG = 256
#: The boldest lines read (attack names, an Ability's name and damage figures are the
#: thickest text there).
LINES = 4
#: A read names a deck name when one of its attacks is this alike (``rapidfuzz``'s
#: ratio, 0-100, both normalised) and the read holds this many letters at least.
MIN_SIMILARITY = 80.0
MIN_LETTERS = 4


def lower_lines(reader: LineReader, frame: np.ndarray, quad: np.ndarray) -> list[str]:
    """The boldest lines of text (``LINES``) in the lower part of the card at ``quad``
    (printed order), read by ``reader`` and normalised."""
    lower = warp_region(frame, quad, LOWER, CARD_PX)
    boxes = [box for box in detect(lower, DETECT_LONG) if box.length >= 2 * box.thickness]
    boxes.sort(key=lambda box: -box.thickness)
    return [normalise(reader.read_line(line_image(lower, box.corners), either_way=False).text)
            for box in boxes[:LINES]]


def named_by_attacks(reads: list[str], attacks: dict[str, frozenset[str]]) -> NameMatch:
    """The deck name that ``reads`` (normalised lines of a card's lower part) name by its
    attacks (``attacks``: each deck name's attack and Ability names, normalised), with a
    confidence of how alike its reads were; no name when none or a tie."""
    votes: Counter[str] = Counter()
    alike: dict[str, list[float]] = {}
    for read in reads:
        if sum(ch.isalpha() for ch in read) < MIN_LETTERS:
            continue
        for name, its_attacks in attacks.items():
            score = max((fuzz.ratio(read, attack) for attack in its_attacks), default=0.0)
            if score >= MIN_SIMILARITY:
                votes[name] += 1
                alike.setdefault(name, []).append(score)
    ranked = votes.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return NameMatch(None, None, 0.0, " / ".join(reads))
    name = ranked[0][0]
    return NameMatch(name, None, float(np.mean(alike[name])) / 100, " / ".join(reads))


def read_attacks(reader: LineReader, matcher: NameMatcher, frame: np.ndarray, quad: np.ndarray) -> NameMatch:
    """The card at ``quad`` (printed order) named by its attacks' names (see the module's
    docstring); no name without deck lists or without their attacks."""
    if matcher.deck is None or not matcher.attacks:
        return NameMatch(None, None, 0.0)
    match = named_by_attacks(lower_lines(reader, frame, quad), matcher.attacks)
    return match if match.name is None else replace(match, card_id=matcher.id_for(match.name))
