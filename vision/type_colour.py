"""A Pokémon's type from the colour its card is printed in.

A Scarlet & Violet Pokémon card prints its body (the frame around the picture, the
attack box below it) in its type's colour, whatever the title reads: a Grass Pokémon is
lime green, a Water one pale blue, a Darkness one dark teal, a Colorless one white. A
Trainer's body is white (its title band is coloured, the body is not). So when junk
read from a blurred title lands on a deck name (Krookodile read as Totodile: Darkness
named Water), the card's colour can say the name is wrong.

:func:`body_colour` measures the attack box below the picture (the more colourful half
of it: the black text is left out) and how evenly coloured it is: a regular card's box is
one flat colour, while a full-art card (Illustration Rare, a Tera or special ex) prints
its picture there, of any colour. :func:`types_of_colour` names the types a flat colour
may be printed in, or none when it is not flat or near no type's colour, and
:func:`card_types` asks the box and the strip under the picture to agree: a judge prefers
"not sure" to a wrong name, but a right name lost is a loss too, so only a sure colour
refutes. :func:`refuted_by_colour` makes a name unsure when the colour says another type.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

import cv2
import numpy as np

from vision.energy_type import GREY_CHROMA, LIGHTNESS_WEIGHT, from_8bit_lab
from vision.geometry import warp_region
from vision.names import ACCEPT, NameMatch, NameMatcher

#: The Lab colour (L 0-100, a, b) of each type's card body, as the tune split's regular
#: (not full-art) scans measure (:func:`body_colour`): every card of a type within ~1 of
#: it. Colorless and Metal are white and pale grey, as a Trainer's body is white: they
#: are told from one another by lightness alone, which a light moves, so a pale colour
#: says "one of the pale ones" (:data:`TYPE_MARGIN`).
BODY_COLOURS: dict[str, tuple[float, float, float]] = {
    "Grass": (84.0, -25.0, 64.0),
    "Fire": (76.0, 23.0, 40.0),
    "Water": (79.5, -16.0, -27.0),
    "Lightning": (88.5, 0.0, 56.0),
    "Psychic": (72.0, 32.0, -10.0),
    "Fighting": (80.0, 13.0, 70.0),
    "Darkness": (37.0, -18.0, -16.0),
    "Metal": (82.0, -1.0, -1.0),
    "Colorless": (93.0, 0.0, 0.0),
}
#: The types a Trainer's white body shares its colour with.
TRAINER_COLOURS = frozenset({"Colorless", "Metal"})
#: The attack box below the picture (fractions of the card's width and height, printed
#: order), clear of the picture, the weakness row and the bottom strip.
BODY = (0.08, 0.56, 0.92, 0.86)
#: The strip under the picture (the Pokédex line), in the body's colour on a regular card.
#: A full-art card's picture may be flat and near one type's colour in one of the two
#: regions (Tarountula's Illustration Rare: the box a flat orange), but not the same type
#: in both: asking both to agree, none of the tune split's 117 Pokémon and Trainer scans
#: says a type it is not printed in, and 83 say their own (the rest, full-art, say none).
DEX_STRIP = (0.1, 0.52, 0.9, 0.56)
#: The height (px) the card is straightened at to be measured (its box ~60×30 px).
MEASURE_CARD_PX = 100
#: The median distance of the box's measured pixels from their colour under which the box
#: is one flat colour. Tune split, whole frames (``bench.vision.conditions``, seed 0, 40
#: cards per band and condition, blur, glare, sleeves, casts, the table mix): right names
#: of regular cards 1.4-4.5 (10th-90th percentile), full-art ones 6.2-44; below 6, 97% of
#: 970 right names of regular cards say their own type and none another, and no
#: full-art card says a type.
FLAT_SPREAD = 6.0
#: A colour names types only within ``TYPE_NEAR`` of the nearest type's colour; every type
#: within ``TYPE_MARGIN`` further than the nearest is kept as possible (Lab units,
#: lightness weighed by ``LIGHTNESS_WEIGHT``).
TYPE_NEAR, TYPE_MARGIN = 25.0, 12.0
#: A name named less surely than this may be refuted by the card's colour. Wrong names
#: from junk reads of a blurred title come at up to ~0.76; a regular card's colour never
#: said another type on the tune split, so the bar only keeps the check off sure names.
#: Tune split, whole frames, seed 2, 40 cards per band and condition (plain, decoys,
#: sleeves, colour cast, glare, motion blur, the table mix), both readers: 10 -> 6 wrong
#: names (a Trainer read as Banette ex or Shuppet, Florges as Toxel, Poké Ball as
#: Flabébé), 1,300 -> 1,300 right. Seed 0 replayed: no right name of 1,347 refuted.
COLOUR_CHECKED_BELOW = 0.8


def body_colour(frame: np.ndarray, quad: np.ndarray,
                region: tuple[float, float, float, float] = BODY) -> tuple[np.ndarray, float]:
    """The Lab colour of ``region`` (the attack box) of the card at ``quad`` (printed
    order), and how unevenly coloured it is (the median distance of its measured pixels
    from that colour). The colour is the median of the region's more colourful half (its
    text left out), or of all of it when the region is grey or white."""
    box = warp_region(frame, quad, region, MEASURE_CARD_PX, cv2.INTER_AREA)
    pixels = from_8bit_lab(cv2.cvtColor(box, cv2.COLOR_BGR2LAB)).reshape(-1, 3)
    chroma = np.hypot(pixels[:, 1], pixels[:, 2])
    typical = np.median(chroma)
    measured = pixels if typical < GREY_CHROMA else pixels[chroma >= typical]
    colour = np.median(measured, axis=0)
    return colour, float(np.median(_distances(measured, colour)))


def _distances(colours: np.ndarray, reference: np.ndarray) -> np.ndarray:
    diff = np.asarray(colours, dtype=np.float32) - np.asarray(reference, dtype=np.float32)
    diff = diff.reshape(-1, 3)
    return np.hypot(LIGHTNESS_WEIGHT * diff[:, 0], np.hypot(diff[:, 1], diff[:, 2]))


def types_of_colour(colour: np.ndarray, spread: float) -> frozenset[str] | None:
    """The types whose body colour a card's box (``colour``, ``spread``: see
    :func:`body_colour`) may be: the nearest and every one about as near. None when the
    colour is not sure: the box is not flat (a full-art card), or near no type."""
    if spread > FLAT_SPREAD:
        return None
    kinds = list(BODY_COLOURS)
    far = _distances(np.array([BODY_COLOURS[k] for k in kinds]), colour)
    nearest = float(far.min())
    if nearest > TYPE_NEAR:
        return None
    return frozenset(k for k, d in zip(kinds, far, strict=True) if d <= nearest + TYPE_MARGIN)


def card_types(frame: np.ndarray, quad: np.ndarray) -> frozenset[str] | None:
    """The types the card at ``quad`` (printed order) may be printed in, by the colour of
    its attack box and of the strip under its picture (:func:`types_of_colour`), when
    both are sure and agree; None otherwise."""
    in_box = types_of_colour(*body_colour(frame, quad, BODY))
    if in_box is None:
        return None
    in_strip = types_of_colour(*body_colour(frame, quad, DEX_STRIP))
    return in_box | in_strip if in_strip is not None and in_box & in_strip else None


def colours_of_name(matcher: NameMatcher, name: str) -> frozenset[str] | None:
    """The body colours (:data:`BODY_COLOURS` keys) the deck's card ``name`` is printed
    in: its Pokémon types, or :data:`TRAINER_COLOURS` for a Trainer. None when unknown (no
    types given, an Energy, a type of no known colour such as Dragon)."""
    printed = matcher.types.get(name)
    if printed is None or name.endswith("Energy"):  # basic or special: no body colour
        return None
    if not printed:
        return TRAINER_COLOURS
    return frozenset(printed) if all(kind in BODY_COLOURS for kind in printed) else None


def colour_may_refute(matcher: NameMatcher, match: NameMatch) -> bool:
    """Whether ``match`` is named only just (below :data:`COLOUR_CHECKED_BELOW`) and its
    name's colours are known, so that the card's colour may show it wrong."""
    if match.name is None or not ACCEPT <= match.confidence < COLOUR_CHECKED_BELOW:
        return False
    return colours_of_name(matcher, match.name) is not None


def refuted_by_colour(match: NameMatch, matcher: NameMatcher, frame: np.ndarray,
                      quad: np.ndarray) -> NameMatch:
    """``match`` made unsure (confidence 0, closeness kept) when it may be refuted
    (:func:`colour_may_refute`) and the card at ``quad`` is surely printed in colours
    (:func:`card_types`) none of which the named card is printed in. Unchanged
    otherwise."""
    if not colour_may_refute(matcher, match):
        return match
    possible = card_types(frame, quad)
    expected = colours_of_name(matcher, match.name or "")
    return replace(match, confidence=0.0) if refutes(possible, expected) else match


def refutes(possible: Collection[str] | None, expected: Collection[str] | None) -> bool:
    """Whether a sure colour's ``possible`` types leave out every ``expected`` one."""
    return possible is not None and expected is not None and not set(possible) & set(expected)
