"""A basic Energy's type from its colour.

Newer basic Energy cards print their title as "Basic <icon> Energy": the type is a
symbol, so every basic Energy's title reads "Basic Energy", and a deck that lists two
basic Energy types (most real decks) leaves the name a tie. The type is printed in its
colour all over the card, though: the large type symbol in the middle sits on a field of
the type's colour (a Lightning Energy is yellow, a Fighting Energy orange-brown, a Metal
Energy grey), far larger than the small icon in the title row, so it is still seen on a
card 200 px tall.

:func:`card_colour` measures that field (the more colourful half of the card's middle: a
symbol's black glyph, white sparkles and a pale glow are left out), and
:func:`type_of_colour` names the type of the deck's types whose colour
(:data:`ENERGY_COLOURS`) it lies nearest, or none when two of them come about as close:
a judge acts on the name, so a wrong type is worse than none. :func:`settled_by_colour`
settles a title tie between basic Energy of the deck lists that way.

Only the types the deck lists hold are weighed: Lightning's yellow and Fighting's
orange-brown are neighbours, and a warm light moves one toward the other, but they are
told apart by lightness and hue as long as no third type lies between them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace

import cv2
import numpy as np

from vision.geometry import warp_region
from vision.names import ACCEPT, NameMatch, NameMatcher

#: Basic Energy colours (BGR), by type: the colour each type's card is printed in (the
#: field around its large type symbol), and the colour the project's proxy Energy cards
#: are drawn in (``vision.demo_video``). The two real basic Energy scans (tune split)
#: measure (:func:`card_colour`, :func:`distance`) 9 (Lightning, sv1-257) and 13
#: (Fighting, sv1-258) from their own type's colour and 38-42 from the other's; laid on
#: the tune mats at 200-440 px, at most 22 from their own and at least 17 nearer it than
#: the other's, under red and blue up to 20% apart too.
ENERGY_COLOURS: dict[str, tuple[int, int, int]] = {
    "Grass": (50, 160, 40),
    "Fire": (40, 60, 215),
    "Water": (215, 130, 30),
    "Lightning": (30, 205, 240),
    "Psychic": (165, 60, 160),
    "Fighting": (35, 95, 175),
    "Darkness": (55, 45, 35),
    "Metal": (165, 160, 150),
    "Fairy": (175, 125, 235),
}

#: The card's middle that is measured (fractions of its width and height): the type
#: symbol and the field around it, clear of the title row, the border and the bottom
#: strip. The middle is the same region upside down, so a card's way up does not matter.
MIDDLE = (0.15, 0.22, 0.85, 0.8)
#: The height (px) the card is straightened at to be measured: its middle comes out
#: ~50×60 px, enough for a median and cheap (~1 ms a card).
MEASURE_CARD_PX = 100
#: A card's middle whose median chroma is under this is grey or black (Metal: ~5,
#: Darkness: ~8; Fairy and Water, the least colourful other types: ~50).
GREY_CHROMA = 15.0
#: How much a difference in lightness counts against one in hue and chroma (Lab units):
#: a dim or bright table moves lightness more than it moves a colour's hue.
LIGHTNESS_WEIGHT = 0.5
#: A colour is named only when within ``TYPE_NEAR`` of one type's colour, and that type
#: is nearer by ``TYPE_MARGIN`` than any other the deck allows (Lab units,
#: :func:`distance`).
TYPE_NEAR, TYPE_MARGIN = 30.0, 12.0


def energy_type(name: str) -> str | None:
    """The type of a basic Energy card's name (``Basic Fire Energy``, ``Fire Energy``:
    ``Fire``), or None for any other card (``Telepathic Psychic Energy`` is a Special
    Energy, printed in no one type's colour)."""
    words = name.split()
    if words[:1] == ["Basic"]:
        words = words[1:]
    if len(words) != 2 or words[1] != "Energy" or words[0] not in ENERGY_COLOURS:
        return None
    return words[0]


def energy_names(deck_names: Iterable[str]) -> dict[str, str]:
    """The basic Energy a deck list holds, by type: the names vision may report."""
    named: dict[str, str] = {}
    for name in deck_names:
        kind = energy_type(name)
        if kind is not None:
            named.setdefault(kind, name)
    return named


def lab(bgr: np.ndarray | tuple[int, int, int]) -> np.ndarray:
    """CIE Lab (L 0-100, a and b -128..127) of 8-bit BGR colours, float32, any shape
    ending in 3. (OpenCV's 8-bit conversion: a quarter of the time of its float one.)"""
    pixels = np.asarray(bgr, dtype=np.uint8)
    return from_8bit_lab(cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(pixels.shape))


def from_8bit_lab(values: np.ndarray) -> np.ndarray:
    """CIE Lab of OpenCV's 8-bit Lab values (L scaled to 0-255, a and b offset by 128)."""
    values = np.asarray(values, dtype=np.float32)
    return ((values - (0.0, 128.0, 128.0)) * (100 / 255, 1.0, 1.0)).astype(np.float32)


def distance(colour: np.ndarray, kind: str) -> float:
    """How far the Lab ``colour`` lies from type ``kind``'s Energy colour, lightness
    weighed by ``LIGHTNESS_WEIGHT``."""
    diff = np.asarray(colour, dtype=np.float32) - _TYPE_LAB[kind]
    return float(np.hypot(LIGHTNESS_WEIGHT * diff[0], np.hypot(diff[1], diff[2])))


def card_colour(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The Lab colour of the middle of the card at ``quad`` (printed order, either way
    up): the median of its more colourful half of pixels (chroma at least the middle's
    median), which leaves out the symbol's black glyph, white sparkles and glare. A grey
    or black card (Metal, Darkness) has no colourful half: a light's cast tints its paler
    parts most, so all of its middle is taken."""
    middle = lab(warp_region(frame, quad, MIDDLE, MEASURE_CARD_PX, cv2.INTER_AREA)).reshape(-1, 3)
    chroma = np.hypot(middle[:, 1], middle[:, 2])
    typical = np.median(chroma)
    return np.median(middle if typical < GREY_CHROMA else middle[chroma >= typical], axis=0)


def type_of_colour(colour: np.ndarray, types: Collection[str]) -> str | None:
    """The one of ``types`` whose Energy colour the Lab ``colour`` is, or None when it is
    near none of them, or about as near two."""
    ranked = sorted((distance(colour, kind), kind) for kind in types if kind in ENERGY_COLOURS)
    if not ranked or ranked[0][0] > TYPE_NEAR:
        return None
    if len(ranked) > 1 and ranked[1][0] - ranked[0][0] < TYPE_MARGIN:
        return None
    return ranked[0][1]


def colour_may_tell(match: NameMatch) -> dict[str, str]:
    """The basic Energy of a title tie that the card's colour may settle, by type: the
    title was read well but as every one of them ("Basic Energy", the type an icon), and
    they are all basic Energy of different types. Empty when the colour cannot help."""
    if match.confidence >= ACCEPT or match.name is None or not match.rivals or match.closeness < ACCEPT:
        return {}
    group = (match.name, *match.rivals)
    kinds = [energy_type(name) for name in group]
    if None in kinds or len(set(kinds)) != len(kinds):
        return {}
    return dict(zip(kinds, group, strict=True))  # type: ignore[arg-type]


def settled_by_colour(match: NameMatch, matcher: NameMatcher, frame: np.ndarray,
                      quad: np.ndarray) -> NameMatch:
    """``match`` settled by the colour of the card at ``quad``: a tie between basic Energy
    of different types (:func:`colour_may_tell`) becomes the one whose type the colour is;
    anything else, or a colour between two of the types, is left as it is."""
    group = colour_may_tell(match)
    if not group:
        return match
    kind = type_of_colour(card_colour(frame, quad), group)
    if kind is None:
        return match
    ids = matcher.printings(group[kind])
    return replace(match, name=group[kind], card_id=ids[0] if len(ids) == 1 else None,
                   confidence=match.closeness, rivals=())


_TYPE_LAB = {kind: lab(bgr) for kind, bgr in ENERGY_COLOURS.items()}
